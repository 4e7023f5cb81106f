/** The report's shape (GET /api/hr/reports/), shared with the `hr-reports` island; Node-free. */

/** Durations in seconds over `count` finished stays or hires; null figures when count is 0. */
export interface DurationStats {
  count: number;
  median_seconds: number | null;
  p90_seconds: number | null;
}

export interface StageLine {
  /** A stage's name (all jobs: every stage of that name); '(removed stage)' for history of a stage since removed. */
  name: string;
  hired: boolean;
}

export interface Report {
  job: { id: number; title: string; public_id: string } | null;
  /** UTC days, both included; the cohort is the applications made on these days. */
  from: string;
  to: string;
  applications: number;
  by_source: { source: string | null; applications: number }[];
  /** Where the cohort is now: each stage (not rejected) and Rejected. */
  by_stage: (StageLine & { applications: number })[];
  rejected: number;
  /** Time spent in each stage, per finished stay (entered and left), from the ledger. */
  time_in_stage: (StageLine & DurationStats)[];
  /**
   * Issue 32: from an application entering a stage (its last entry before the booking) to the first
   * interview at that stage being created, per stage, over the cohort's applications.
   */
  time_to_schedule: (StageLine & DurationStats)[];
  /** From applying to first entering the Hired stage. */
  time_to_hire: DurationStats;
  /** Of the cohort that reached a stage, how many reached a later one (percent, one decimal; null when none reached it). */
  pass_through: (StageLine & { reached: number; passed: number; rate: number | null })[];
  rejection_reasons: { reason: string; applications: number }[];
  /** Issue 34: offers sent to the cohort (whatever became of them since), accepted and declined; the rate is accepted of made, percent. */
  offers: { made: number; accepted: number; declined: number; acceptance_rate: number | null };
  /** The cohort's scorecards: due 24 h after the interview (or the request when no time was given). */
  scorecards: {
    requested: number;
    submitted: number;
    /** Submitted by the time they were due. */
    on_time: number;
    late: number;
    /** Not submitted and past due. */
    overdue: number;
    /** Not submitted, not yet due. */
    waiting: number;
    /** on_time of those due (submitted, or overdue), percent; null when none is due. */
    on_time_rate: number | null;
  };
  /**
   * Which kit attributes go with the outcome, per job with at least `min_decisions` decided
   * applications (hired or rejected) that have submitted scorecards; jobs below it are only counted.
   */
  predictors: {
    min_decisions: number;
    jobs: {
      job_id: number;
      title: string;
      decisions: number;
      hired: number;
      rejected: number;
      attributes: {
        name: string;
        /** Average rating (1-4) on the hired candidates' scorecards, and on the rejected ones'. */
        hired_average: number | null;
        rejected_average: number | null;
        /** hired_average minus rejected_average. */
        difference: number | null;
        /** Of pairs of ratings of one candidate on this attribute by two interviewers, the share within 1 point (percent). */
        agreement: number | null;
        pairs: number;
      }[];
    }[];
    below_minimum: { job_id: number; title: string; decisions: number }[];
  };
  funnel: {
    lines: { key: string; label: string; count: number; source: 'visits' | 'applications' }[];
    /** The line where the visitor counts end and the applications begin, and why they differ. */
    anchor: string;
    /** The job's (or all jobs') all-time view counter, not limited to the period. */
    all_time_views: number;
    /** Applications accepted without the wizard in the period (the API, other sites' forms). */
    submitted_direct: number;
  };
}

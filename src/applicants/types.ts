/** The applicants feature's shapes; Node-free, so islands may import them. */
import type { AccessScope } from '../shared/access-scope.js';
import type { JobStat, PublicJobSummary, PublicQuestion } from '../jobs/types.js';
import type { AnswerType, ApplicationStatus } from '../shared/enums.js';

/** A question as the wizard shows it: text and help text are sanitised rich text. */
export type WizardQuestion = PublicQuestion;

/** The apply wizard island's props (`wizardJobProps`): the job's public fields and questions, without the long job texts. */
export interface WizardJob extends PublicJobSummary {
  questions: WizardQuestion[];
}

/** Insights of one job's answers (insights.queries.ts, GET /api/hr/jobs/{id}/analytics/). */
export interface TextStats {
  type: 'text';
  /** Applicants who answered the question. */
  answered: number;
  top_answers: { value: string; count: number }[];
}

export interface DistributionStats {
  type: 'distribution';
  answered: number;
  distribution: { option: string; count: number; percent: number }[];
  /** Number questions with answers: the lowest, the median and the highest answer. */
  numbers?: { min: number; median: number; max: number };
}

export interface QuestionAnalytics {
  id: number;
  text: string;
  answer_type: AnswerType;
  stats: TextStats | DistributionStats;
}

export interface JobAnalytics {
  total_applicants: number;
  questions: QuestionAnalytics[];
}

/** An interview of today on the dashboard (issue 32, `GET /api/hr/dashboard/interviews/`). */
export interface TodayInterview {
  id: number;
  application_id: number;
  applicant: string;
  job_title: string;
  stage_name: string;
  type: string;
  starts_at: string;
  ends_at: string;
  /** The zone the interview was planned in. */
  time_zone: string;
  video_url: string | null;
  location: string | null;
}

/** `GET /api/hr/dashboard/interviews/?tz=`: today's interviews in that zone (`from`, `to`: the day's bounds). */
export interface TodayInterviews {
  time_zone: string;
  from: string;
  to: string;
  /** Every interview (admins, recruiters) or only those the user takes part in. */
  mine_only: boolean;
  items: TodayInterview[];
}

/** The dashboard (spec 02 section 3 "Dashboard response"). */
export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  new_applicants: number;
  total_applicants: number;
  job_stats: (JobStat & { applicants: number })[];
  /** Applicants per stage, summed by stage name across every job, in the stages' usual order (not rejected). */
  stage_stats: { name: string; applicants: number }[];
  /** Applications with the outcome Rejected. */
  rejected_applicants: number;
}

/**
 * The orders of the applicants list (`ordering=`): Applied (the spec's created_at, newest first
 * by default), Name (last name, then first name), Email and Status, each also reversed ('-').
 * Each is an index range on both databases, so a page reads only its rows.
 */
const APPLICANT_ORDER_COLUMNS = ['created_at', 'name', 'email', 'status'] as const;
export type ApplicantOrderColumn = (typeof APPLICANT_ORDER_COLUMNS)[number];
export type ApplicantOrdering = ApplicantOrderColumn | `-${ApplicantOrderColumn}`;
export const APPLICANT_ORDERINGS: readonly ApplicantOrdering[] = APPLICANT_ORDER_COLUMNS.flatMap((c) => [c, `-${c}` as const]);

/** Filters of the applicants list (GET /api/hr/applications/, /hr/applicants), as parsed. */
export interface ApplicantFilters {
  job_id: number | null;
  /** Search text (name, email, phone); '' for none. */
  q: string;
  status: ApplicationStatus | null;
  /** Calendar days (YYYY-MM-DD, UTC), both inclusive. */
  date_from: string | null;
  date_to: string | null;
  /** A column of APPLICANT_ORDERINGS, '-' for descending; every order ends with the id, the same way. */
  ordering: ApplicantOrdering;
  /** A stage name (across jobs), or REJECTED_COLUMN for the rejected ones; null for any. */
  stage?: string | null;
  /** Issue 21: a source as stored (utm_source, src or a tracking link's), or DIRECT_SOURCE for none; null for any. */
  source?: string | null;
  /** Issue 31: what the asker may see (src/teams/access.service.ts); absent or FULL_ACCESS: everything. */
  scope?: AccessScope;
}

/** The `source` filter's value for applications that came directly (no source kept). */
export const DIRECT_SOURCE = '(direct)';

/** One row of the applicants list; the job and resume names only with `detailed=true`. */
export interface ApplicantRow {
  id: number;
  job_id: number;
  name: string;
  email: string;
  phone: string;
  status: ApplicationStatus;
  created_at: string;
  resume_download_url: string | null;
  /** The stage's name, or null when not placed; `outcome` 'REJECTED' when rejected. */
  stage_id: number | null;
  stage: string | null;
  outcome: Outcome | null;
  /** Issue 21: where the applicant came from (null: directly). */
  source: string | null;
  job_title?: string;
  job_public_id?: string;
  resume_filename?: string | null;
}

/** One application in full (GET /api/hr/applications/{id}/). */
export interface ApplicantDetail {
  id: number;
  job_id: number;
  job_title: string;
  job_public_id: string;
  /** The job's currency (ISO 4217), for the salaries the applicant gave. */
  job_currency: string | null;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  status: ApplicationStatus;
  stage_id: number | null;
  stage: string | null;
  outcome: Outcome | null;
  outcome_reason: string | null;
  /** Issue 21: where the applicant came from (null: directly). */
  attribution: {
    source: string;
    medium: string;
    campaign: string;
    tracking_link_id: number | null;
    tracking_link_name: string | null;
  } | null;
  created_at: string;
  updated_at: string;
  resume_download_url: string | null;
  resume_filename: string | null;
  resume_content_type: string | null;
  /** Set when the resume's bytes are a PDF: the same file shown inline ('Open PDF'). */
  resume_view_url: string | null;
  skills: string[];
  professional_experiences: {
    company: string;
    role: string;
    start: string;
    end: string | null;
    notice_period: string;
    salary: string;
    description: string | null;
  }[];
  education: { school: string; degree: string; field: string; start: string; end: string | null }[];
  /** question_text is sanitised HTML (a snapshot of the question when the applicant answered). */
  answers: { question_id: number | null; question_text: string; answer: string | number | string[] }[];
  /** What the applicant agreed to on the wizard's review step (APPLY_CONSENT_TEXT then), and when; null: none was asked. */
  consent: { given_at: string; text: string } | null;
}

// ---- Pipeline: stages and outcomes (issue 20) ----

type Outcome = 'REJECTED';

/** Lengths the API takes (schema.ts) and the islands' fields allow (Node-free, no zod). */
export const APPLICANT_LIMITS = {
  /** The list's and the board's search. */
  search: 100,
  stageName: 60,
  reasonName: 100,
} as const;

/** The name of the board column and list filter of rejected applications (no stage may take it). */
export const REJECTED_COLUMN = 'Rejected';

/** One stage of a job (GET/PUT /api/hr/jobs/{id}/stages/). */
export interface Stage {
  id: number;
  name: string;
  /** 0 is the first stage, where new applications arrive. */
  position: number;
  /** Entering this stage archives the application (the default Hired stage). */
  hired: boolean;
  /** Applications in this stage (rejected ones included: they keep their stage). */
  applicants: number;
}

export interface StageList {
  job_id: number;
  stages: Stage[];
}

export interface RejectionReason {
  id: number;
  name: string;
}

/** A card of the board: an application. */
export interface BoardCard {
  id: number;
  name: string;
  status: ApplicationStatus;
  created_at: string;
  stage_id: number | null;
  outcome_reason: string | null;
  /** The start of the application's next scheduled interview (issue 32), or null. */
  next_interview_at: string | null;
}

/** A column of the board: a stage, or the rejected ones (`stage_id` null). */
export interface BoardColumn {
  key: string;
  stage_id: number | null;
  name: string;
  hired: boolean;
  /** Applications in the column matching the filters. */
  count: number;
  /** The newest of them, up to the limit (from `offset`). */
  cards: BoardCard[];
  has_more: boolean;
}

// ---- Who acts on an application (notes/ and timeline/ show it) ----

/** Who wrote a note or made a change: an HR user (null when unknown, or the applicant). */
export interface HrActor {
  id: number;
  username: string;
}

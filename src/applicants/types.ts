/** The applicants feature's shapes; Node-free, so islands may import them. */
import type { JobStat, PublicJobSummary, PublicQuestion } from '../jobs/types.js';
import type { AnswerType } from '../shared/enums.js';

/** A question as the wizard shows it: text and help text are sanitised rich text. */
export type WizardQuestion = PublicQuestion;

/** The apply wizard island's props (`wizardJobProps`): the job's public fields and questions, without the long job texts. */
export interface WizardJob extends PublicJobSummary {
  questions: WizardQuestion[];
}

/** Insights of one job's answers (queries/insights.ts, GET /api/hr/jobs/{id}/analytics/). */
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

/** The dashboard (spec 02 section 3 "Dashboard response"). */
export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  new_applicants: number;
  total_applicants: number;
  job_stats: (JobStat & { applicants: number })[];
}

/** The jobs feature's shapes; Node-free, so islands may import them. */
import type { AnswerType, JobType, RecordStatus, WorkMode } from '../shared/enums.js';

export interface JobQuestion {
  id: number;
  text: string;
  help_text: string;
  placeholder: string;
  required: boolean;
  answer_type: AnswerType;
  options: string[];
  order: number;
}

/** A job as HR sees it (spec 02 section 3). */
export interface Job {
  id: number;
  public_id: string;
  title: string;
  location: string;
  job_type: JobType;
  work_mode: WorkMode;
  description: string;
  responsibilities: string;
  requirements: string;
  perks_benefits: string;
  currency: string;
  min_salary: number | null;
  max_salary: number | null;
  experience_required: string;
  duration: string | null;
  status: RecordStatus;
  views: number;
  webhook_enabled: boolean;
  /** Issue 21: the webhook payload carries the application's source (off by default). */
  webhook_include_source: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  created_at: Date;
  updated_at: Date;
  questions: JobQuestion[];
}

/** A question as the public and HR APIs show it (`toPublicQuestion`): the stored fields, nothing more. */
export type PublicQuestion = JobQuestion;

/** A job in the public list (`toPublicJob(job, false)`): never the webhook settings, status internals or HR counters. */
export interface PublicJobSummary {
  public_id: string;
  title: string;
  location: string;
  job_type: JobType;
  job_type_display: string;
  work_mode: WorkMode;
  work_mode_display: string;
  salary_display: string | null;
  experience_required: string | null;
  duration: string | null;
  accepting_applications: boolean;
  /** ISO date. */
  posted_at: string;
}

/** One public job with its texts and questions (`toPublicJob(job)`). */
export interface PublicJob extends PublicJobSummary {
  description: string;
  responsibilities: string;
  requirements: string;
  perks_benefits: string;
  questions: PublicQuestion[];
}

/** A job as the HR API answers it (`toHrJob`): every field of spec 02 section 3, dates as ISO strings. */
export type HrJob = Omit<Job, 'created_at' | 'updated_at' | 'questions'> & {
  created_at: string;
  updated_at: string;
  questions: PublicQuestion[];
};

export interface PublicJobFilters {
  title?: string;
  location?: string;
  job_type?: string;
  work_mode?: string;
}

/** A row of the HR job lists (GET /api/hr/jobs/, Manage Jobs, All Job Posts). */
export interface JobSummary {
  id: number;
  public_id: string;
  title: string;
  location: string;
  job_type: string;
  work_mode: string;
  status: RecordStatus;
  applicants: number;
  views: number;
  created_at: string;
  updated_at: string;
}

/** A job as the dashboard lists it, before its applicant count is added. */
export interface JobStat {
  id: number;
  public_id: string;
  title: string;
  status: RecordStatus;
  views: number;
}

/** The jobs feature's shapes; Node-free, so islands may import them. */
import type { AnswerType, JobType, RecordStatus, SalaryPeriod, WorkMode } from '../shared/enums.js';

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
  /** Free text, one line; null when the job has none. */
  department: string | null;
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
  salary_period: SalaryPeriod;
  experience_required: string;
  duration: string | null;
  status: RecordStatus;
  /** Past it the job takes no applications, whatever its status (null: no closing date). */
  closes_at: Date | null;
  /** ISO 3166-1 alpha-2 codes of the countries applicants of a remote job may live in. */
  applicant_countries: string[];
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
  department: string | null;
  location: string;
  job_type: JobType;
  job_type_display: string;
  work_mode: WorkMode;
  work_mode_display: string;
  salary_display: string | null;
  salary_period: SalaryPeriod;
  experience_required: string | null;
  duration: string | null;
  accepting_applications: boolean;
  /** ISO instant (UTC) after which the job takes no applications, or null. */
  closes_at: string | null;
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
export type HrJob = Omit<Job, 'created_at' | 'updated_at' | 'closes_at' | 'questions'> & {
  /** ISO instant (UTC) or null. */
  closes_at: string | null;
  created_at: string;
  updated_at: string;
  questions: PublicQuestion[];
};

export interface PublicJobFilters {
  title?: string;
  location?: string;
  job_type?: string;
  work_mode?: string;
  department?: string;
}

/** A row of the HR job lists (GET /api/hr/jobs/, Manage Jobs, All Job Posts). */
export interface JobSummary {
  id: number;
  public_id: string;
  title: string;
  location: string;
  job_type: string;
  work_mode: string;
  department: string | null;
  status: RecordStatus;
  /** ISO instant or null; past it the lists show the job as Closed. */
  closes_at: string | null;
  applicants: number;
  /** With JOB_APPROVAL=on, the job's approval (issue 34): waiting, given or refused; null: none asked, or approval is off. */
  approval: 'PENDING' | 'APPROVED' | 'REJECTED' | null;
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
  /** The closing instant (ISO), or null: past it an ACTIVE job takes no applications. */
  closes_at: string | null;
}

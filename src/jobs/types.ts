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
  webhook_url: string | null;
  webhook_secret: string | null;
  created_at: Date;
  updated_at: Date;
  questions: JobQuestion[];
}

export interface PublicJobFilters {
  title?: string;
  location?: string;
  job_type?: string;
  work_mode?: string;
}

/** Enumerations of the spec, shared by server and islands. */
export const JOB_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACT', 'INTERNSHIP'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const WORK_MODES = ['ONSITE', 'HYBRID', 'REMOTE'] as const;
export type WorkMode = (typeof WORK_MODES)[number];

/** What a job's salary is paid per (issue 21). */
export const SALARY_PERIODS = ['YEAR', 'MONTH', 'HOUR'] as const;
export type SalaryPeriod = (typeof SALARY_PERIODS)[number];

export const RECORD_STATUSES = ['ACTIVE', 'INACTIVE', 'REMOVED'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

export const ANSWER_TYPES = ['short_text', 'long_text', 'number', 'single_choice', 'checkbox'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];
export const CHOICE_ANSWER_TYPES: readonly AnswerType[] = ['single_choice', 'checkbox'];

export const APPLICATION_STATUSES = ['NEW', 'REVIEWED', 'ARCHIVED'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export function isOneOf<T extends string>(list: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (list as readonly string[]).includes(v);
}

/** "FULL_TIME" -> "Full time": the spec shows the underscore as a space. */
export function enumLabel(v: string): string {
  const s = v.replace(/_/g, ' ').toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The publishing feature's shapes (issue 34); Node-free, so islands may import them. */
import type { JobCheckKey } from '../shared/job-checks.js';

export const WIDTH_UNITS = ['AMOUNT', 'PERCENT'] as const;
export type WidthUnit = (typeof WIDTH_UNITS)[number];

/** The pay period a rule's width is stated in; ANY: compared as the job states its pay. */
export const RULE_PERIODS = ['ANY', 'YEAR', 'MONTH', 'HOUR'] as const;
export type RulePeriod = (typeof RULE_PERIODS)[number];

/** A pay rule as the API answers it. */
export interface PayRule {
  id: number;
  /** How reasons name the place: "California", "Germany", "Ontario". */
  label: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The region as locations write it ("CA", "ON"); '' for the whole country. */
  region_code: string;
  /** The region's name ("California"); '' for the whole country. */
  region_name: string;
  range_required: boolean;
  /** The largest width of the range (max - min): an amount in the job's currency, or a percentage of the minimum; null: no limit. */
  max_width: number | null;
  width_unit: WidthUnit;
  salary_period: RulePeriod;
  /** Where the rule comes from (the law), shown to HR. */
  note: string;
  created_at: string;
  updated_at: string;
}

type CheckStatus = 'pass' | 'warn' | 'block';

/** One line of a job's checklist. */
export interface JobCheck {
  key: JobCheckKey;
  label: string;
  /** pass, or what failing it means: `block` (refuses activation) or `warn`. */
  status: CheckStatus;
  /** In plain words: why it passes or what to do. */
  reason: string;
  /** Whether this check refuses activation when it fails (JOB_CHECKS_BLOCK). */
  blocking: boolean;
  /** A failing blocking check an admin's override covers (the job may be active). */
  overridden: boolean;
  /** The job's fields the reason is about ("min_salary", "questions.1.text"), for the editor. */
  fields: string[];
}

/** The latest override of a job's blocking checks by an admin (from the audit log). */
export interface ChecksOverride {
  note: string;
  by: string | null;
  at: string;
  /** The reasons it overrode, as they read then. */
  reasons: string[];
}

export type ApprovalState = 'PENDING' | 'APPROVED' | 'REJECTED';

/** A job's approval (JOB_APPROVAL=on). */
export interface JobApproval {
  state: ApprovalState;
  /** The status the recruiter asked for; the job gets it when approved. */
  requested_status: string;
  requested_by: string | null;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string;
}

/** GET /api/hr/jobs/{id}/checks/. */
export interface JobChecks {
  job_id: number;
  /** Whether activating the job now would be refused (a failing blocking check no override covers). */
  blocked: boolean;
  checks: JobCheck[];
  override: ChecksOverride | null;
  /** JOB_APPROVAL is on. */
  approval_on: boolean;
  approval: JobApproval | null;
  /** The signed-in user may approve or reject the job's pending request. */
  can_decide: boolean;
  /** The signed-in user may override blocking checks (admins). */
  can_override: boolean;
}

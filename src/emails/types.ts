/** The emails feature's shapes, shared with its islands; Node-free. */

/** The variables a template may use, in the order they are listed to HR. */
export const TEMPLATE_VARIABLES = [
  'first_name',
  'last_name',
  'job_title',
  'company_name',
  'sender_name',
  'stage',
  'application_date',
  'job_url',
] as const;

/**
 * What only the interview reminder templates may use besides those (issue 32): the interview's
 * facts. The interviewers' reminder also has INTERVIEWER_REMINDER_VARIABLES.
 */
export const REMINDER_VARIABLES = [
  'interview_time',
  'interview_type',
  'interview_place',
  'interviewers',
  'interview_notes',
  'hours_before',
] as const;

/** What only the interviewers' reminder may use: whom it is to, and their kit and scorecard. */
const INTERVIEWER_REMINDER_VARIABLES = ['interviewer_name', 'scorecard_link'] as const;

/** The reminder templates' purposes (issue 32): sent before each interview, never offered to send by hand. */
export const REMINDER_PURPOSES = ['reminder_candidate', 'reminder_interviewer'] as const;
export type ReminderPurpose = (typeof REMINDER_PURPOSES)[number];

/**
 * The job alert templates (issue 35): the double opt-in's confirmation and the digest of new jobs,
 * sent by the alerts feature to subscribers (not applicants), never offered to send by hand.
 */
export const ALERT_PURPOSES = ['alert_confirm', 'alert_digest'] as const;
export type AlertPurpose = (typeof ALERT_PURPOSES)[number];

/** What the job alert templates may use: no applicant's variables, the alert's own. */
export const ALERT_VARIABLES = {
  alert_confirm: ['company_name', 'frequency', 'filters', 'confirm_link'],
  alert_digest: ['company_name', 'frequency', 'filters', 'job_count', 'jobs', 'expires_on', 'renew_link', 'unsubscribe_link'],
} as const satisfies Record<AlertPurpose, readonly string[]>;

/**
 * The talent pool templates (issue 35): "Invite to apply" (`pool_invite`, a job's link to a pool
 * member) and the request to be kept (`pool_consent`, to whoever is added to a pool without
 * consent), sent by the pools feature, never offered to send by hand.
 */
export const POOL_PURPOSES = ['pool_invite', 'pool_consent'] as const;
export type PoolPurpose = (typeof POOL_PURPOSES)[number];

/** What the talent pool templates may use: the person's name, the company, and the job's or the status page's link. */
export const POOL_VARIABLES = {
  pool_invite: ['first_name', 'last_name', 'company_name', 'job_title', 'job_url'],
  pool_consent: ['first_name', 'last_name', 'company_name', 'status_link', 'link_expires_on'],
} as const satisfies Record<PoolPurpose, readonly string[]>;

/** The purposes of the templates the system sends at their moment. */
export type AutomaticPurpose = ReminderPurpose | AlertPurpose | PoolPurpose;

/** The defaults' purposes: the rejection one is offered first for a bulk rejection; the others are sent by the system. */
export type TemplatePurpose = 'receipt' | 'rejection' | 'interview' | AutomaticPurpose;

export const isReminderPurpose = (purpose: string | null | undefined): purpose is ReminderPurpose =>
  (REMINDER_PURPOSES as readonly unknown[]).includes(purpose);

export const isAlertPurpose = (purpose: string | null | undefined): purpose is AlertPurpose =>
  (ALERT_PURPOSES as readonly unknown[]).includes(purpose);

export const isPoolPurpose = (purpose: string | null | undefined): purpose is PoolPurpose =>
  (POOL_PURPOSES as readonly unknown[]).includes(purpose);

/** Templates sent by the system at their moment (interview reminders, job alerts, talent pools): never sent by hand, never deleted, no delay. */
export const isAutomaticPurpose = (purpose: string | null | undefined): purpose is AutomaticPurpose =>
  isReminderPurpose(purpose) || isAlertPurpose(purpose) || isPoolPurpose(purpose);

/** The variables a template of this purpose may use, in the order they are listed to HR. */
export function templateVariables(purpose: TemplatePurpose | null): readonly string[] {
  if (isAlertPurpose(purpose)) return ALERT_VARIABLES[purpose];
  if (isPoolPurpose(purpose)) return POOL_VARIABLES[purpose];
  if (purpose === 'reminder_candidate') return [...TEMPLATE_VARIABLES, ...REMINDER_VARIABLES];
  if (purpose === 'reminder_interviewer') return [...TEMPLATE_VARIABLES, ...REMINDER_VARIABLES, ...INTERVIEWER_REMINDER_VARIABLES];
  return TEMPLATE_VARIABLES;
}

/** A row of `GET /api/hr/email-templates/`, and what POST, PUT and GET `{id}/` answer. */
export interface EmailTemplate {
  id: number;
  name: string;
  subject: string;
  body: string;
  purpose: TemplatePurpose | null;
  /** The delay a screen offers first when sending it (issue 30); null: at once. */
  default_delay_minutes: number | null;
  /** A reminder template (issue 32): whether it is sent 24 hours and 1 hour before each interview; null on the others. */
  remind_24h: boolean | null;
  remind_1h: boolean | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a screen that sends email needs (`GET /api/hr/applications/emails/`): the templates to
 * choose from, and whether email is on (`off_reason` says why not).
 */
export interface EmailChoices {
  email_on: boolean;
  off_reason: string | null;
  templates: EmailTemplate[];
}

/** An email as it will be sent to one applicant (the preview). */
export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** `POST /api/hr/applications/{id}/emails/`'s answer (201). */
export interface QueuedEmail {
  id: number;
  application_id: number;
  to: string;
  subject: string;
  template_id: number | null;
  template_name: string | null;
  status: 'PENDING';
  /** When it is to be sent (a scheduled email), or null: at once. */
  send_after: string | null;
  detail: string;
}

/** `POST /api/hr/applications/emails/bulk/`'s answer. */
export interface BulkEmailResult {
  queued: number;
  queued_ids: number[];
  /** Applications rejected by this request (with `outcome`); those already rejected with the reason are left as they are. */
  rejected_ids: number[];
  not_found: number[];
  /** Applications already rejected before this request that got no email (`email_again` was not set). */
  skipped_ids: number[];
  send_after: string | null;
  detail: string;
}

/** `POST /api/hr/applications/emails/bulk/preview/`'s answer: the first applicant's email, and how many are already rejected. */
export interface BulkPreview {
  email: RenderedEmail;
  /** Applications found among those selected. */
  count: number;
  already_rejected: number;
  already_rejected_ids: number[];
  not_found: number[];
}

/** An email waiting to be sent at its time (`GET /api/hr/applications/{id}/emails/scheduled/`). */
export interface ScheduledEmail {
  id: number;
  application_id: number;
  to: string;
  subject: string;
  template_name: string | null;
  send_after: string;
  sent_by: { id: number; username: string } | null;
  /** Whether this user may cancel it: its sender, or an admin. */
  can_cancel: boolean;
}

/** `POST /api/hr/emails/{id}/cancel/`'s answer. */
export interface CancelledEmail {
  id: number;
  status: 'CANCELLED';
  detail: string;
}

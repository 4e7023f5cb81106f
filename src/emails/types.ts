/** The emails feature's shapes, shared with its islands; Node-free. */

/** The variables a template may use, in the order they are listed to HR. */
export const TEMPLATE_VARIABLES = ['first_name', 'last_name', 'job_title', 'company_name'] as const;

/** The defaults' purposes: the rejection one is offered first for a bulk rejection. */
export type TemplatePurpose = 'receipt' | 'rejection' | 'interview';

/** A row of `GET /api/hr/email-templates/`, and what POST, PUT and GET `{id}/` answer. */
export interface EmailTemplate {
  id: number;
  name: string;
  subject: string;
  body: string;
  purpose: TemplatePurpose | null;
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
  detail: string;
}

/** `POST /api/hr/applications/emails/bulk/`'s answer. */
export interface BulkEmailResult {
  queued: number;
  queued_ids: number[];
  /** Applications rejected by this request (with `outcome`); those already rejected with the reason are left as they are. */
  rejected_ids: number[];
  not_found: number[];
  detail: string;
}

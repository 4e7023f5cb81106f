/** Shapes of the timeline shared with islands; Node-free. */
import type { HrActor } from '../applicants/types.js';

/**
 * One entry of an application's timeline (GET /api/hr/applications/{id}/timeline/[?before=<cursor>]):
 * - `applied`: the application arrived;
 * - `change`: an audit entry of the application (`action`: status, stage, outcome, ...; `from`, `to`);
 * - `note`: `action` added, edited or deleted (`note_id`);
 * - `email` / `webhook`: `action` queued (an email sent later: scheduled), delivered or failed (one per delivery attempt), or cancelled (an email cancelled before it was sent).
 * `text` is a short plain-text line saying what happened.
 */
export interface TimelineEntry {
  id: string;
  type: 'applied' | 'change' | 'note' | 'email' | 'webhook';
  action: string;
  at: string;
  actor: HrActor | null;
  text: string;
  from?: string | null;
  to?: string | null;
  note_id?: number;
  /** An email's queued entry: what was sent, to whom, and whether it was delivered (as it is now). */
  email?: TimelineEmail;
}

export interface TimelineEmail {
  /** The email's id (`POST /api/hr/emails/{id}/cancel/` while it is SCHEDULED). */
  id: number;
  to: string;
  subject: string;
  /** The template's name (HR's emails) or what the email is (the application's own). */
  template: string;
  /** SCHEDULED: waiting for its time (`send_after`); CANCELLED: cancelled before it was sent. */
  status: 'PENDING' | 'SCHEDULED' | 'SUCCESS' | 'FAILED' | 'CANCELLED';
  send_after: string | null;
  delivered_at: string | null;
  attempts: number;
  /** Why the last attempt failed (FAILED, or PENDING after a failed try), else null. */
  error: string | null;
  /** An email to HR about the application (the new-application notification), not to the applicant: the page hides these unless asked. */
  to_hr: boolean;
}

/** A page of the timeline: the newest 50 entries, or with `?before=` the 50 after the page that gave the cursor. */
export interface ApplicationTimeline {
  application_id: number;
  /** Always newest first. */
  order: 'newest_first';
  /** Entries on this page. */
  count: number;
  /** True when there are older entries than this page's (then `next` is their page's link). */
  truncated: boolean;
  /** The link to the next (older) page, `?before=<cursor>`; null on the oldest page. */
  next: string | null;
  results: TimelineEntry[];
}

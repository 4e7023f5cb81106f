/** The shapes of booking links (issue 32) shared by the API and the islands. Node-free. */

export type BookingLinkStatus = 'open' | 'booked' | 'used' | 'expired' | 'revoked';

/** A booking link as HR's API answers it; `url` only in the answer that made it (the token is kept only as its hash). */
export interface BookingLink {
  id: number;
  application_id: number;
  status: BookingLinkStatus;
  duration_minutes: number;
  /** Hand-picked starts, or null when any free slot in the next `window_days` days is offered. */
  slots: string[] | null;
  window_days: number | null;
  cutoff_hours: number;
  expires_at: string;
  interview_id: number | null;
  created_by: number | null;
  created_at: string;
  url?: string;
  email_queued?: boolean;
}

/** The outbound posts' shapes; Node-free, so islands may import them. */

/** The body posted to the job's webhook, exactly these keys in this order. */
export interface ApplicationPostPayload {
  job_public_id: string;
  email: string;
  first_name: string;
  second_name: string;
  phone: string;
  secret_key: string;
  /**
   * Only when the job opted in (`webhook_include_source`, issue 21): where the applicant came
   * from, or null when they came directly. Absent otherwise, so the spec's keys stay exactly.
   */
  source?: { source: string; medium: string; campaign: string; tracking_link_id: number | null } | null;
}

/** What the outbox keeps of it: everything but the secret, added at send time. */
export type StoredApplicationPost = Omit<ApplicationPostPayload, 'secret_key'>;

/** PENDING: not tried yet; FAILED: the last attempt failed (next_attempt_at set while retries remain). */
export const POST_STATUSES = ['SUCCESS', 'FAILED', 'PENDING'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** A row of `GET /api/hr/application-posts/`: spec 02's post record plus attempts and next_attempt_at. */
export interface ApplicationPostRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_public_id: string;
  /** The job's row id and title, for a link to the job (beyond spec 02's record). */
  job_id: number;
  job_title: string;
  status: PostStatus;
  status_code: number | null;
  error_message: string | null;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
}

/** A row of `GET /api/hr/forms/{id}/posts/`: spec 02's form post record plus attempts and next_attempt_at. */
export interface FormPostRecord {
  id: number;
  entry_id: number;
  status: PostStatus;
  status_code: number | null;
  error_message: string | null;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
}

/** One delivery attempt, as `GET /api/hr/application-posts/{id}/attempts/` lists it. */
export interface PostAttemptRecord {
  id: number;
  status: 'SUCCESS' | 'FAILED';
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

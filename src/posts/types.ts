/** The webhook posts' shapes; Node-free, so islands may import them. */

/** The body posted to the job's webhook, exactly these keys. */
export interface ApplicationPostPayload {
  job_public_id: string;
  email: string;
  first_name: string;
  second_name: string;
  phone: string;
  secret_key: string;
}

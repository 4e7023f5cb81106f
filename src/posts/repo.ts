/**
 * The outbox of job webhook posts: a row is written in the same transaction as the application,
 * so an application is never committed without its post (nor a post without its application).
 * A worker delivers due PENDING rows later, with retries.
 */
import type { Knex } from 'knex';
import { toDbDate, toDbJson } from '../db/codecs.js';
import type { ApplicationPostPayload } from './types.js';

export function applicationPostPayload(
  job: { public_id: string; webhook_secret: string | null },
  app: { email: string; first_name: string; last_name: string; phone: string },
): ApplicationPostPayload {
  return {
    job_public_id: job.public_id,
    email: app.email,
    first_name: app.first_name,
    second_name: app.last_name,
    phone: app.phone,
    secret_key: job.webhook_secret ?? '',
  };
}

/** Adds a PENDING post, due now; run inside the caller's transaction. */
export async function enqueueApplicationPost(
  trx: Knex,
  post: { applicationId: number; jobId: number; targetUrl: string; payload: ApplicationPostPayload; now: Date },
): Promise<void> {
  const now = toDbDate(post.now);
  await trx('application_posts').insert({
    application_id: post.applicationId,
    job_id: post.jobId,
    target_url: post.targetUrl,
    payload: toDbJson(post.payload),
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
}

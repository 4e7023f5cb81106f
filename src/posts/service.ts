/**
 * The posts feature's operations for the API, the page and the CLI: the API Post Requests list,
 * a post's attempts, and making failed posts due again (Retry, `careers-admin posts retry`).
 */
import type { Db } from '../db/knex.js';
import { NotFound, ValidationError } from '../http/errors.js';
import {
  FORM_POST_EXPORT_COLUMNS,
  POST_EXPORT_COLUMNS,
  applicationPostRows,
  formPostRows,
  getApplicationPost,
  listApplicationPosts,
  listFormPosts,
  outboxHealth,
  postAttempts,
  postsFilename,
  retryableApplicationPostIds,
} from './queries.js';
import { makePostsDue, type OutboxTable } from './repo.js';
import { createMailTransport } from './lib/mail.js';
import { POST_MESSAGES, postStatusSchema } from './schema.js';
import type { OutboxSignal } from './lib/signal.js';
import type { ApplicationPostRecord, PostAttemptRecord, PostStatus } from './types.js';

export interface PostsDeps {
  db: Db;
  now: () => Date;
  /** Wakes this process's worker after posts were made due; none in the CLI. */
  outbox?: OutboxSignal | null;
}

/** `?status=` as a PostStatus; a 400 naming `status` otherwise. */
export function parsePostStatus(raw: unknown): PostStatus {
  const r = postStatusSchema.safeParse(raw);
  if (!r.success) throw new ValidationError({ status: [POST_MESSAGES.status] });
  return r.data;
}

/** The API Post Requests workbook of one status: `application_posts_{STATUS}.xlsx`. */
export function applicationPostsExport(db: Db, status: PostStatus) {
  return {
    filename: postsFilename(status),
    sheetName: 'Application Posts',
    columns: POST_EXPORT_COLUMNS,
    rows: applicationPostRows(db, status),
  };
}

export function listPosts(db: Db, status: PostStatus, page: { page: number; pageSize: number }) {
  return listApplicationPosts(db, status, page);
}

async function requirePost(db: Db, id: number): Promise<ApplicationPostRecord> {
  const post = await getApplicationPost(db, id);
  if (!post) throw new NotFound(POST_MESSAGES.notFound);
  return post;
}

export async function attemptsOfPost(db: Db, id: number): Promise<PostAttemptRecord[]> {
  await requirePost(db, id);
  return postAttempts(db, 'application_posts', id);
}

/** The Retry button: a FAILED post whose job still has its webhook on is due now. */
export async function retryPost(deps: PostsDeps, id: number): Promise<ApplicationPostRecord> {
  await requirePost(deps.db, id);
  const ids = await retryableApplicationPostIds(deps.db, { ids: [id] });
  if (!ids.length || !(await makePostsDue(deps.db, 'application_posts', ids, deps.now())))
    throw new ValidationError({}, POST_MESSAGES.notRetryable);
  deps.outbox?.notify();
  return requirePost(deps.db, id);
}

/**
 * `careers-admin posts retry`: the FAILED posts picked by id, or all of them (optionally those
 * created since a date), whose job has its webhook on. With dryRun nothing changes.
 */
export async function retryPosts(
  deps: PostsDeps,
  pick: { id?: number; allFailed?: boolean; since?: Date | null; dryRun?: boolean },
): Promise<number[]> {
  const ids = await retryableApplicationPostIds(deps.db, { ids: pick.id ? [pick.id] : undefined, since: pick.since ?? null });
  if (!pick.dryRun && ids.length) await makePostsDue(deps.db, 'application_posts', ids, deps.now());
  return ids;
}

// ---- A form's API posts (the routes are the forms feature's; the outbox and its read model are here) ----

/** `?status=` of a form's posts: SUCCESS, FAILED or PENDING, any case; absent or empty is every status. */
export function parseFormPostStatus(raw: unknown): PostStatus | '' {
  return typeof raw === 'string' && raw.trim() !== '' ? parsePostStatus(raw) : '';
}

export function formPosts(db: Db, formId: number, status: PostStatus | '', page: { page: number; pageSize: number }) {
  return listFormPosts(db, formId, status, page);
}

/** The form posts workbook: `form_{id}_posts_{STATUS}.xlsx`, ALL when no status is chosen. */
export function formPostsExport(db: Db, formId: number, status: PostStatus | '') {
  return {
    filename: `form_${formId}_posts_${status || 'ALL'}.xlsx`,
    sheetName: 'Form API Posts',
    columns: FORM_POST_EXPORT_COLUMNS,
    rows: formPostRows(db, formId, status),
  };
}

// ---- Health (careers-admin doctor) ----

const OUTBOXES: OutboxTable[] = ['application_posts', 'email_posts', 'form_posts'];

/** Per outbox: since when its longest-waiting due PENDING post is due, and its FAILED count. */
export function outboxesHealth(db: Db, now: Date): Promise<{ table: OutboxTable; oldestDue: Date | null; failed: number }[]> {
  return Promise.all(OUTBOXES.map(async (table) => ({ table, ...(await outboxHealth(db, table, now)) })));
}

/** Connects to SMTP_URL and says hello (nodemailer's verify), with the delivery's own time limits. */
export async function verifyMail(smtpUrl: string): Promise<void> {
  const transport = createMailTransport(smtpUrl);
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

/**
 * The outboxes' writes. A post row is written in the same transaction as its source (the
 * application), so an application is never committed without its posts; the delivery engine
 * (engine.ts) then claims due rows with a lease, records each attempt and plans the next one.
 * The three outboxes (application_posts, form_posts, email_posts) share their status columns,
 * so one set of statements serves every kind.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fromDbDate, toDbDate, toDbJson } from '../db/codecs.js';
import { isUniqueViolation, withDbRetry } from '../db/errors.js';
import { isMysql } from '../db/knex.js';
import type { Attribution } from '../shared/campaign.js';
import type { StoredApplicationPost } from './types.js';

export type OutboxTable = 'application_posts' | 'form_posts' | 'email_posts';

/** The post_attempts column that points at a post of each outbox (ON DELETE CASCADE). */
export const ATTEMPT_COLUMN: Record<OutboxTable, string> = {
  application_posts: 'application_post_id',
  form_posts: 'form_post_id',
  email_posts: 'email_post_id',
};

export type Row = Record<string, any>;

/** The `webhook-id` of a new post: random, kept on the row, so every retry sends the same one. */
function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * The payload as it is stored: the spec's keys without `secret_key`, which is added at send time
 * from the job's current secret (sentApplicationPost), so the outbox never holds a secret and a
 * retry after a rotation sends the secret it is signed with.
 */
export function applicationPostPayload(
  job: { public_id: string },
  app: { email: string; first_name: string; last_name: string; phone: string },
  attribution?: Attribution | null,
): StoredApplicationPost {
  const payload: StoredApplicationPost = {
    job_public_id: job.public_id,
    email: app.email,
    first_name: app.first_name,
    second_name: app.last_name,
    phone: app.phone,
  };
  // Only for a job that opted in (webhook_include_source); the spec's keys stay first, unchanged.
  if (attribution !== undefined)
    payload.source = attribution
      ? { source: attribution.source, medium: attribution.medium, campaign: attribution.campaign, tracking_link_id: attribution.linkId }
      : null;
  return payload;
}

/** Adds a PENDING signed post, due now, with its webhook id; run inside the caller's transaction. */
async function enqueueSignedPost(
  trx: Knex,
  table: 'application_posts' | 'form_posts',
  owner: Record<string, number>,
  targetUrl: string,
  payload: unknown,
  at: Date,
): Promise<void> {
  const now = toDbDate(at);
  await trx(table).insert({
    ...owner,
    target_url: targetUrl,
    payload: toDbJson(payload),
    message_id: newMessageId(),
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
}

/** A job webhook post of an application. */
export async function enqueueApplicationPost(
  trx: Knex,
  post: { applicationId: number; jobId: number; targetUrl: string; payload: StoredApplicationPost; now: Date },
): Promise<void> {
  await enqueueSignedPost(
    trx,
    'application_posts',
    { application_id: post.applicationId, job_id: post.jobId },
    post.targetUrl,
    post.payload,
    post.now,
  );
}

/**
 * An event of an application to its job's webhook (issue 31: `{event: "scorecard.submitted", ...}`),
 * in the same outbox as the application's own post: its small JSON body is sent as stored, signed
 * with the job's current secret as every job webhook post (kinds.ts).
 */
export async function enqueueApplicationEvent(
  trx: Knex,
  post: { applicationId: number; jobId: number; targetUrl: string; event: { event: string } & Record<string, unknown>; now: Date },
): Promise<void> {
  await enqueueSignedPost(
    trx,
    'application_posts',
    { application_id: post.applicationId, job_id: post.jobId },
    post.targetUrl,
    post.event,
    post.now,
  );
}

/**
 * A form API post of an entry. The payload (`{external_key: value}`) is fixed at submit; the URL,
 * secret and api_enabled are read at send time.
 */
export async function enqueueFormPost(
  trx: Knex,
  post: { formId: number; entryId: number; targetUrl: string; payload: Record<string, unknown>; now: Date },
): Promise<void> {
  await enqueueSignedPost(trx, 'form_posts', { form_id: post.formId, entry_id: post.entryId }, post.targetUrl, post.payload, post.now);
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** HR's emails to candidates: the Reply-To (MAIL_REPLY_TO or the sender's address), and the sender's name put before MAIL_FROM's ("Alice via Acme Careers"). */
  replyTo?: string;
  fromName?: string;
  /** An iMIP invitation (issue 32, RFC 6047): the iCalendar text, sent as the `text/calendar; method=...` part calendars act on. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** Extra headers (issue 35's job alerts: List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
}

/** Who sent an email and from which template (HR's emails to candidates); none for the application's own. */
export interface EmailSender {
  sentBy: number | null;
  templateId: number | null;
  templateName: string | null;
}

/** The `template` of HR's emails (their template's id and name are in their own columns). */
const HR_TEMPLATE = 'hr_template';

/** Rows inserted per statement: a row holds a whole message, text and HTML. */
const EMAIL_INSERT_CHUNK = 100;

const emailRow = (
  applicationId: number | null,
  e: { template: string; message: EmailMessage; sender?: EmailSender; sendAfter?: Date | null },
  now: string,
) => ({
  application_id: applicationId,
  template: e.template,
  payload: toDbJson(e.message),
  status: 'PENDING',
  attempts: 0,
  // A scheduled email is due at its time: the claim (dueRows) leaves it alone until then.
  next_attempt_at: e.sendAfter ? toDbDate(e.sendAfter) : now,
  send_after: e.sendAfter ? toDbDate(e.sendAfter) : null,
  created_at: now,
  updated_at: now,
  sent_by: e.sender?.sentBy ?? null,
  template_id: e.sender?.templateId ?? null,
  template_name: e.sender?.templateName ?? null,
});

/** Adds PENDING emails of one application (or none), due now; run inside the caller's transaction. */
export async function enqueueEmails(
  trx: Knex,
  applicationId: number | null,
  emails: { template: string; message: EmailMessage }[],
  at: Date,
): Promise<void> {
  if (!emails.length) return;
  const now = toDbDate(at);
  await trx('email_posts').insert(emails.map((e) => emailRow(applicationId, e, now)));
}

/** HR's email to one application, due now or at `sendAfter`; run inside the caller's transaction. Answers its id. */
export async function enqueueSentEmail(
  trx: Knex,
  email: { applicationId: number; message: EmailMessage; sender: EmailSender; sendAfter?: Date | null },
  at: Date,
): Promise<number> {
  const [id] = await trx('email_posts').insert(emailRow(email.applicationId, { template: HR_TEMPLATE, ...email }, toDbDate(at)));
  return Number(id);
}

/** HR's emails to many applications (a bulk send), due now or at their `sendAfter`, in chunks; run inside the caller's transaction. */
export async function enqueueSentEmails(
  trx: Knex,
  emails: { applicationId: number; message: EmailMessage; sender: EmailSender; sendAfter?: Date | null }[],
  at: Date,
): Promise<void> {
  const now = toDbDate(at);
  for (let i = 0; i < emails.length; i += EMAIL_INSERT_CHUNK) {
    await trx('email_posts').insert(
      emails.slice(i, i + EMAIL_INSERT_CHUNK).map((e) => emailRow(e.applicationId, { template: HR_TEMPLATE, ...e }, now)),
    );
  }
}

/** What cancelling an email found: it was cancelled now, or why not. */
export type CancelOutcome =
  | { kind: 'cancelled' }
  | { kind: 'missing' }
  | { kind: 'forbidden' }
  | { kind: 'done'; status: string }
  | { kind: 'sending' };

/**
 * Cancels HR's email `id` before it is sent: only a PENDING email never attempted and not claimed
 * by a worker right now (a claimed one may be on the wire), in one UPDATE guarded by those
 * conditions, so a worker's claim and a cancel never both win. Only its sender or an admin
 * (`anyone`) may cancel it.
 */
export async function cancelEmail(db: Knex, id: number, by: { userId: number; anyone: boolean }, at: Date): Promise<CancelOutcome> {
  const row = await db('email_posts').where({ id }).whereNotNull('sent_by').first('id', 'sent_by', 'status', 'claim_token', 'attempts');
  if (!row) return { kind: 'missing' };
  if (!by.anyone && Number(row.sent_by) !== by.userId) return { kind: 'forbidden' };
  const now = toDbDate(at);
  const n = await db('email_posts').where({ id, status: 'PENDING', attempts: 0 }).whereNull('claim_token').update({
    status: 'CANCELLED',
    next_attempt_at: null,
    locked_until: null,
    cancelled_at: now,
    cancelled_by: by.userId,
    updated_at: now,
  });
  if (n > 0) return { kind: 'cancelled' };
  const after = await db('email_posts').where({ id }).first('status', 'claim_token');
  if (!after) return { kind: 'missing' };
  return after.status === 'PENDING' ? { kind: 'sending' } : { kind: 'done', status: String(after.status) };
}

/**
 * Due rows of one outbox: those whose next attempt time has come. Only PENDING and FAILED rows
 * have one, and a claimed row's is its lease's end, so the (next_attempt_at) index alone finds
 * them in order, without reading rows being sent or rows that are done.
 */
function dueRows(db: Knex, table: OutboxTable, now: string) {
  return db(table).whereNotNull('next_attempt_at').where('next_attempt_at', '<=', now);
}

export interface Claimed {
  row: Row;
  /** This claim's token: the row's results are saved only while the row still holds it. */
  claim: string;
}

/**
 * Claims up to `limit` due rows for `leaseMs`: no other worker takes them until the lease ends
 * (then a worker that died mid-delivery has its rows sent again): the lease's end is written as
 * their next attempt time too. MySQL: the rows are locked with
 * FOR UPDATE SKIP LOCKED, so concurrent claimers skip each other's rows instead of waiting. SQLite
 * has one writer: one UPDATE picks and marks the rows, so two processes never claim the same row.
 * With `group`, only rows of that group (one job's posts, read over its (job_id, next_attempt_at)
 * index, so the rows of other jobs are never read).
 */
export async function claimDue(
  db: Knex,
  table: OutboxTable,
  opts: { now: Date; limit: number; leaseMs: number; group?: { column: string; value: number } },
): Promise<Claimed[]> {
  const now = toDbDate(opts.now);
  const claim = randomBytes(16).toString('hex');
  const leaseEnd = toDbDate(new Date(opts.now.getTime() + opts.leaseMs));
  const mark = { locked_until: leaseEnd, next_attempt_at: leaseEnd, claim_token: claim };
  const pick = (q: Knex.QueryBuilder) => {
    q.orderBy([{ column: 'next_attempt_at' }, { column: 'id' }]).limit(opts.limit);
    if (opts.group) q.where(opts.group.column, opts.group.value);
    return q;
  };
  let rows: Row[];
  if (isMysql(db)) {
    // READ COMMITTED: only the rows taken stay locked (no gap locks), so the claim and the
    // attempts being saved meanwhile rarely deadlock; when they do, the claim runs again.
    const take = async (trx: Knex.Transaction): Promise<Row[]> => {
      const ids = (
        await pick(dueRows(trx, table, now).select('id'))
          .forUpdate()
          .skipLocked()
      ).map((r: Row) => Number(r.id));
      if (!ids.length) return [];
      await trx(table).whereIn('id', ids).update(mark);
      return trx(table).whereIn('id', ids);
    };
    rows = await withDbRetry(() => db.transaction(take, { isolationLevel: 'read committed' }));
  } else {
    await db(table)
      .whereIn('id', pick(dueRows(db, table, now).select('id')))
      .update(mark);
    rows = await db(table).where('claim_token', claim);
  }
  const due = (r: Row) => fromDbDate(r.next_attempt_at)?.getTime() ?? 0;
  rows.sort((a, b) => due(a) - due(b) || Number(a.id) - Number(b.id));
  return rows.map((row) => ({ row, claim }));
}

/**
 * Gives claimed rows back unsent, due at `dueAt`: a little later when their receiver has enough
 * work, so claims do not keep reading them meanwhile.
 */
export async function releaseClaims(db: Knex, table: OutboxTable, claims: Claimed[], dueAt: Date): Promise<void> {
  const byClaim = new Map<string, number[]>();
  for (const c of claims) byClaim.set(c.claim, [...(byClaim.get(c.claim) ?? []), Number(c.row.id)]);
  for (const [claim, ids] of byClaim) {
    await db(table)
      .whereIn('id', ids)
      .where('claim_token', claim)
      .update({ next_attempt_at: toDbDate(dueAt), locked_until: null, claim_token: null });
  }
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** A short error, or the start of the response body. */
  error: string | null;
  durationMs: number;
}

export interface AttemptRecord {
  c: Claimed;
  outcome: AttemptOutcome;
  /** Null: no more attempts (or none needed). */
  nextAttemptAt: Date | null;
}

/**
 * Saves attempts that finished together, in one transaction, with their posts' new state:
 * SUCCESS, or FAILED with the next attempt time (null: no more attempts). A post is updated only
 * while its worker still holds the claim; the attempt is kept either way, since it happened.
 * Successes with the same status code are one UPDATE, the attempts one INSERT. Attempts of posts
 * that are gone (an erase or purge during the send) are skipped, never failing the others.
 * Answers how many were skipped.
 */
export async function recordAttempts(db: Knex, table: OutboxTable, all: AttemptRecord[], at: Date): Promise<number> {
  if (!all.length) return 0;
  const now = toDbDate(at);
  let skipped = 0;
  const error = (o: AttemptOutcome) => (o.error ? o.error.slice(0, 500) : null);
  // Run again when MySQL picks it as a deadlock victim (it can meet a claim's locks).
  await withDbRetry(() =>
    db.transaction(async (trx) => {
      const successes = new Map<number | null, [number, string][]>();
      for (const r of all) {
        if (r.outcome.ok)
          successes.set(r.outcome.statusCode, [...(successes.get(r.outcome.statusCode) ?? []), [Number(r.c.row.id), r.c.claim]]);
      }
      for (const [code, pairs] of successes) {
        // id and token lists, not (id, token) pairs: MariaDB reads a pair list without the primary key.
        await trx(table)
          .whereIn(
            'id',
            pairs.map(([id]) => id),
          )
          .whereIn('claim_token', [...new Set(pairs.map(([, claim]) => claim))])
          .update({
            status: 'SUCCESS',
            status_code: code,
            error_message: null,
            attempts: trx.raw('attempts + 1'),
            next_attempt_at: null,
            locked_until: null,
            claim_token: null,
            delivered_at: now,
            updated_at: now,
          });
      }
      for (const r of all.filter((x) => !x.outcome.ok)) {
        await trx(table)
          .where({ id: r.c.row.id, claim_token: r.c.claim })
          .update({
            status: 'FAILED',
            status_code: r.outcome.statusCode,
            error_message: error(r.outcome),
            attempts: trx.raw('attempts + 1'),
            next_attempt_at: r.nextAttemptAt ? toDbDate(r.nextAttemptAt) : null,
            locked_until: null,
            claim_token: null,
            updated_at: now,
          });
      }
      // After the writes (SQLite: the transaction holds the write lock, so its snapshot is current),
      // the posts still there, locked in id order on MySQL so none goes before its attempt is saved.
      const ids = [...new Set(all.map((r) => Number(r.c.row.id)))].sort((x, y) => x - y);
      const present = trx(table).whereIn('id', ids).orderBy('id').select('id');
      const there = new Set(((await (isMysql(trx) ? present.forUpdate() : present)) as Row[]).map((r) => Number(r.id)));
      const records = all.filter((r) => there.has(Number(r.c.row.id)));
      skipped = all.length - records.length;
      if (!records.length) return;
      await trx('post_attempts').insert(
        records.map((r) => ({
          [ATTEMPT_COLUMN[table]]: r.c.row.id,
          status: r.outcome.ok ? 'SUCCESS' : 'FAILED',
          status_code: r.outcome.statusCode,
          error: error(r.outcome),
          duration_ms: Math.max(0, Math.round(r.outcome.durationMs)),
          created_at: now,
        })),
      );
    }),
  );
  return skipped;
}

/** Stops a post without an attempt (its job's webhook was turned off): FAILED, no next attempt. */
export async function stopPost(db: Knex, table: OutboxTable, c: Claimed, message: string, at: Date): Promise<void> {
  await db(table)
    .where({ id: c.row.id, claim_token: c.claim })
    .update({
      status: 'FAILED',
      error_message: message,
      next_attempt_at: null,
      locked_until: null,
      claim_token: null,
      updated_at: toDbDate(at),
    });
}

/**
 * When the next row of an outbox falls due (a claimed row: when its lease ends), or null when
 * nothing is waiting.
 */
export async function earliestDue(db: Knex, table: OutboxTable): Promise<Date | null> {
  const [row] = (await db(table).whereNotNull('next_attempt_at').min({ due: 'next_attempt_at' })) as Row[];
  return fromDbDate(row?.due);
}

/**
 * The groups (jobs) with due rows, soonest first, each with its earliest due time, leaving out
 * `exclude` (receivers that have enough work); read per group over the (group, next_attempt_at)
 * index, so a job with thousands of waiting posts costs one index lookup.
 */
export async function dueGroups(
  db: Knex,
  table: OutboxTable,
  column: string,
  now: Date | null,
  exclude: number[],
  limit: number,
): Promise<{ group: number; due: Date }[]> {
  const q = db(table)
    .select(`${column} as g`)
    .min({ due: 'next_attempt_at' })
    .whereNotNull('next_attempt_at')
    .groupBy(column)
    .orderBy('due')
    .limit(limit);
  if (now) q.where('next_attempt_at', '<=', toDbDate(now));
  if (exclude.length) q.whereNotIn(column, exclude);
  return ((await q) as Row[]).map((r) => ({ group: Number(r.g), due: fromDbDate(r.due)! }));
}

/** Makes these FAILED posts due now (the Retry button, `careers-admin posts retry`); answers how many. */
export async function makePostsDue(db: Knex, table: OutboxTable, ids: number[], at: Date): Promise<number> {
  const now = toDbDate(at);
  let n = 0;
  for (let i = 0; i < ids.length; i += 500) {
    // Not a post being sent right now (claimed): it would be sent twice.
    n += await db(table)
      .whereIn('id', ids.slice(i, i + 500))
      .where('status', 'FAILED')
      .whereNull('claim_token')
      .update({ next_attempt_at: now, updated_at: now });
  }
  return n;
}

/** Removes attempts older than `before`; answers how many. */
export async function purgeAttempts(db: Knex, before: Date): Promise<number> {
  return db('post_attempts').where('created_at', '<', toDbDate(before)).delete();
}

/**
 * Writes HR's digest of one period with its email, once: the (recipient, period, period_start) row is
 * unique, so when several processes reach the same period only the first writes it; the others
 * answer false and queue nothing.
 */
export async function enqueueDigestOnce(
  db: Knex,
  digest: { recipient: string; period: 'hourly' | 'daily'; periodStart: Date; applications: number; message: EmailMessage },
  at: Date,
): Promise<boolean> {
  try {
    await db.transaction(async (trx) => {
      await trx('hr_notify_digests').insert({
        recipient: digest.recipient,
        period: digest.period,
        period_start: toDbDate(digest.periodStart),
        applications: digest.applications,
        created_at: toDbDate(at),
      });
      await enqueueEmails(trx, null, [{ template: 'hr_digest', message: digest.message }], at);
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

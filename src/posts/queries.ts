/**
 * Read models of the posts feature: the API Post Requests list and its export, a post's attempts,
 * the CLI's list, and what the engine needs to know about a post's job at send time.
 * The list reads the (status, created_at) index, newest first.
 */
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, fromDbNumber, toDbDate } from '../db/codecs.js';
import type { CellValue, ExportColumn } from '../exports/xlsx.js';
import { ATTEMPT_COLUMN, type OutboxTable, type Row } from './repo.js';
import type { ApplicationPostRecord, FormPostRecord, PostAttemptRecord, PostStatus } from './types.js';

const iso = (v: unknown) => fromDbDate(v)?.toISOString() ?? null;

function postsQuery(db: Knex) {
  return db('application_posts as p')
    .join('applications as a', 'a.id', 'p.application_id')
    .join('jobs as j', 'j.id', 'p.job_id')
    .select(
      'p.id',
      'a.first_name',
      'a.last_name',
      'a.email',
      'a.phone',
      'j.public_id as job_public_id',
      'p.job_id',
      'j.title as job_title',
      'p.status',
      'p.status_code',
      'p.error_message',
      'p.attempts',
      'p.next_attempt_at',
      'p.created_at',
    );
}

function toRecord(r: Row): ApplicationPostRecord {
  return {
    id: Number(r.id),
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    phone: r.phone,
    job_public_id: r.job_public_id,
    job_id: Number(r.job_id),
    job_title: r.job_title,
    status: r.status,
    status_code: fromDbNumber(r.status_code),
    error_message: r.error_message ?? null,
    attempts: Number(r.attempts),
    next_attempt_at: iso(r.next_attempt_at),
    created_at: iso(r.created_at)!,
  };
}

export async function listApplicationPosts(
  db: Knex,
  status: PostStatus,
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: ApplicationPostRecord[] }> {
  const [{ n }] = await db('application_posts').where('status', status).count({ n: '*' });
  const rows: Row[] = await postsQuery(db)
    .where('p.status', status)
    .orderBy([
      { column: 'p.created_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { count: Number(n), results: rows.map(toRecord) };
}

export async function getApplicationPost(db: Knex, id: number): Promise<ApplicationPostRecord | null> {
  const row: Row | undefined = await postsQuery(db).where('p.id', id).first();
  return row ? toRecord(row) : null;
}

export function postsFilename(status: PostStatus): string {
  return `application_posts_${status}.xlsx`;
}

export const POST_EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'ID', width: 8 },
  { header: 'First Name', width: 16 },
  { header: 'Last Name', width: 16 },
  { header: 'Email', width: 30 },
  { header: 'Phone', width: 16 },
  { header: 'Job ID', width: 14 },
  { header: 'Status', width: 10 },
  { header: 'Code', width: 8 },
  { header: 'Time (UTC)', width: 17, numFmt: 'yyyy-mm-dd hh:mm' },
  { header: 'Attempts', width: 9 },
  { header: 'Next Attempt (UTC)', width: 17, numFmt: 'yyyy-mm-dd hh:mm' },
  { header: 'Error', width: 40 },
];

/** Export batches, newest first, keyset-paginated over (created_at, id). */
export async function* applicationPostRows(db: Knex, status: PostStatus, batchSize = 500): AsyncGenerator<CellValue[][]> {
  let cursor: { at: unknown; id: number } | null = null;
  for (;;) {
    const q = postsQuery(db)
      .where('p.status', status)
      .orderBy([
        { column: 'p.created_at', order: 'desc' },
        { column: 'p.id', order: 'desc' },
      ])
      .limit(batchSize);
    if (cursor) {
      const c: { at: unknown; id: number } = cursor;
      q.where('p.created_at', '<=', c.at as any).andWhere((w) => w.where('p.created_at', '<', c.at as any).orWhere('p.id', '<', c.id));
    }
    const rows: Row[] = await q;
    if (!rows.length) return;
    yield rows.map((r) => [
      Number(r.id),
      r.first_name,
      r.last_name,
      r.email,
      r.phone,
      r.job_public_id,
      r.status,
      fromDbNumber(r.status_code),
      fromDbDate(r.created_at),
      Number(r.attempts),
      fromDbDate(r.next_attempt_at),
      r.error_message ?? '',
    ]);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    cursor = { at: last.created_at, id: Number(last.id) };
  }
}

/** A post's attempts, oldest first. */
export async function postAttempts(db: Knex, table: OutboxTable, postId: number): Promise<PostAttemptRecord[]> {
  const rows: Row[] = await db('post_attempts').where(ATTEMPT_COLUMN[table], postId).orderBy('id');
  return rows.map((r) => ({
    id: Number(r.id),
    status: r.status,
    status_code: fromDbNumber(r.status_code),
    error: r.error ?? null,
    duration_ms: Number(r.duration_ms),
    created_at: iso(r.created_at)!,
  }));
}

/** FAILED application posts whose job still has its webhook on: these ids, or those created since. */
export async function retryableApplicationPostIds(db: Knex, filter: { ids?: number[]; since?: Date | null }): Promise<number[]> {
  const q = db('application_posts as p')
    .join('jobs as j', 'j.id', 'p.job_id')
    .select('p.id')
    .where('p.status', 'FAILED')
    .where('j.webhook_enabled', true)
    .whereNotNull('j.webhook_url')
    .orderBy('p.id');
  if (filter.ids) q.whereIn('p.id', filter.ids);
  if (filter.since) q.where('p.created_at', '>=', toDbDate(filter.since));
  return (await q).map((r: Row) => Number(r.id));
}

/** The CLI's list: newest first, optionally one status and one job. */
export async function cliPostList(
  db: Knex,
  filter: { status?: PostStatus; jobId?: number; limit: number },
): Promise<ApplicationPostRecord[]> {
  const q = postsQuery(db)
    .orderBy([
      { column: 'p.created_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.status) q.where('p.status', filter.status);
  if (filter.jobId) q.where('p.job_id', filter.jobId);
  return (await q).map(toRecord);
}

/** Where a signed post goes at send time: its owner's switch, URL and secret as they are now. */
export interface WebhookTarget {
  enabled: boolean;
  url: string | null;
  secret: string | null;
}

/** Each post's job webhook as it is now (a retry goes to the current URL, and not at all when off). */
export async function currentWebhooks(db: Knex, jobIds: number[]): Promise<Map<number, WebhookTarget>> {
  const rows: Row[] = await db('jobs')
    .select('id', 'webhook_enabled', 'webhook_url', 'webhook_secret')
    .whereIn('id', [...new Set(jobIds)]);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { enabled: fromDbBool(r.webhook_enabled), url: r.webhook_url ?? null, secret: r.webhook_secret || null },
    ]),
  );
}

/** A row of a form's API posts (spec 02 section 3) plus attempts and next_attempt_at. */
function toFormPostRecord(r: Row): FormPostRecord {
  return {
    id: Number(r.id),
    entry_id: Number(r.entry_id),
    status: r.status,
    status_code: fromDbNumber(r.status_code),
    error_message: r.error_message ?? null,
    attempts: Number(r.attempts),
    next_attempt_at: iso(r.next_attempt_at),
    created_at: iso(r.created_at)!,
  };
}

function formPostsQuery(db: Knex, formId: number, status: PostStatus | '') {
  const q = db('form_posts').where('form_id', formId);
  if (status) q.where('status', status);
  return q;
}

/** A form's API posts, newest first; status '' is every status. */
export async function listFormPosts(
  db: Knex,
  formId: number,
  status: PostStatus | '',
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: FormPostRecord[] }> {
  const [[{ n }], rows]: [Row[], Row[]] = await Promise.all([
    formPostsQuery(db, formId, status).count({ n: '*' }),
    formPostsQuery(db, formId, status)
      .select('id', 'entry_id', 'status', 'status_code', 'error_message', 'attempts', 'next_attempt_at', 'created_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  return { count: Number(n), results: rows.map(toFormPostRecord) };
}

export const FORM_POST_EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'ID', width: 8 },
  { header: 'Entry ID', width: 10 },
  { header: 'Status', width: 10 },
  { header: 'Status Code', width: 11 },
  { header: 'Error Message', width: 40 },
  { header: 'Created (UTC)', width: 17, numFmt: 'yyyy-mm-dd hh:mm' },
  { header: 'Attempts', width: 9 },
  { header: 'Next Attempt (UTC)', width: 17, numFmt: 'yyyy-mm-dd hh:mm' },
];

/** Export batches of a form's posts, newest first, keyset-paginated over (created_at, id). */
export async function* formPostRows(db: Knex, formId: number, status: PostStatus | '', batchSize = 500): AsyncGenerator<CellValue[][]> {
  let cursor: { at: unknown; id: number } | null = null;
  for (;;) {
    const q = formPostsQuery(db, formId, status)
      .select('id', 'entry_id', 'status', 'status_code', 'error_message', 'attempts', 'next_attempt_at', 'created_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(batchSize);
    if (cursor) {
      const c: { at: unknown; id: number } = cursor;
      q.where('created_at', '<=', c.at as any).andWhere((w) => w.where('created_at', '<', c.at as any).orWhere('id', '<', c.id));
    }
    const rows: Row[] = await q;
    if (!rows.length) return;
    yield rows.map((r) => [
      Number(r.id),
      Number(r.entry_id),
      r.status,
      fromDbNumber(r.status_code),
      r.error_message ?? '',
      fromDbDate(r.created_at),
      Number(r.attempts),
      fromDbDate(r.next_attempt_at),
    ]);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    cursor = { at: last.created_at, id: Number(last.id) };
  }
}

/** Each post's form API settings as they are now (read at send time, like a job's webhook). */
export async function currentFormApis(db: Knex, formIds: number[]): Promise<Map<number, WebhookTarget>> {
  const rows: Row[] = await db('forms')
    .select('id', 'api_enabled', 'api_url', 'api_secret')
    .whereIn('id', [...new Set(formIds)]);
  return new Map(
    rows.map((r) => [Number(r.id), { enabled: fromDbBool(r.api_enabled), url: r.api_url ?? null, secret: r.api_secret || null }]),
  );
}

/** One outbox's health for `careers-admin doctor`: when its longest-waiting due PENDING post fell due, and how many posts FAILED. */
export async function outboxHealth(db: Knex, table: OutboxTable, now: Date): Promise<{ oldestDue: Date | null; failed: number }> {
  const [[due], [failed]]: Row[][] = await Promise.all([
    db(table)
      .where('status', 'PENDING')
      .whereNotNull('next_attempt_at')
      .where('next_attempt_at', '<=', toDbDate(now))
      .min({ at: 'next_attempt_at' }),
    db(table).where('status', 'FAILED').count({ n: '*' }),
  ]);
  return { oldestDue: fromDbDate(due?.at), failed: Number(failed?.n ?? 0) };
}

/**
 * What the application receipt is written from: HR's "Application received" template (the
 * emails feature's default with purpose `receipt`, as HR edited it; null once deleted) and the
 * name of the job's first stage (for `{stage}`). Read in the application's transaction.
 */
export async function receiptSource(
  db: Knex,
  jobId: number,
): Promise<{ template: { subject: string; body: string } | null; stage: string }> {
  const [template, stage] = await Promise.all([
    db('email_templates').where('purpose', 'receipt').orderBy('id').first('subject', 'body'),
    db('job_stages')
      .where('job_id', jobId)
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .first('name'),
  ]);
  return {
    template: template ? { subject: String(template.subject), body: String(template.body) } : null,
    stage: stage ? String(stage.name) : '',
  };
}

/** The applications that came in [from, to): the newest `limit` with their job, and how many in all (the HR digest). */
export async function applicationsBetween(
  db: Knex,
  from: Date,
  to: Date,
  limit: number,
): Promise<{
  total: number;
  rows: { id: number; first_name: string; last_name: string; job_title: string; job_public_id: string; created_at: Date }[];
}> {
  const range = (q: Knex.QueryBuilder) => q.where('a.created_at', '>=', toDbDate(from)).where('a.created_at', '<', toDbDate(to));
  const [count] = (await range(db('applications as a')).count({ n: '*' })) as Row[];
  const total = Number(count?.n ?? 0);
  if (!total) return { total, rows: [] };
  const rows: Row[] = await range(db('applications as a').join('jobs as j', 'j.id', 'a.job_id'))
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .select('a.id', 'a.first_name', 'a.last_name', 'a.created_at', { job_title: 'j.title', job_public_id: 'j.public_id' });
  return {
    total,
    rows: rows.map((r) => ({
      id: Number(r.id),
      first_name: String(r.first_name ?? ''),
      last_name: String(r.last_name ?? ''),
      job_title: String(r.job_title),
      job_public_id: String(r.job_public_id),
      created_at: fromDbDate(r.created_at)!,
    })),
  };
}

/** Whether HR's digest of this period was written already (by this process or another). */
export async function digestWritten(db: Knex, recipient: string, period: 'hourly' | 'daily', periodStart: Date): Promise<boolean> {
  return !!(await db('hr_notify_digests')
    .where({ recipient, period, period_start: toDbDate(periodStart) })
    .first('id'));
}

/**
 * What an application's timeline is made of, read a page at a time (issue 33), newest first.
 *
 * Its entries come from seven sources, each with a time and an id (its sequence):
 * - `applied`: the application itself (its created_at);
 * - `audit`: its audit entries (status, stage and outcome changes, notes, and any other change a part
 *   of the app writes with the application as entity);
 * - `email` (queued, at created_at) and `email_cancelled` (at cancelled_at) from email_posts;
 * - `webhook` (queued, at created_at) and `webhook_outcome` (a post whose attempts were swept
 *   away, at delivered_at or else updated_at) from application_posts;
 * - `webhook_attempt`: each delivery attempt of a webhook post (post_attempts, at created_at).
 *
 * The order is one total order on the key (time, rank, sequence, source), all descending: the rank
 * puts, at the same millisecond, deliveries and cancellations above changes and notes, above posts
 * queued, above the application (as the timeline always did); the source tells apart the sources
 * of one rank whose sequences could be equal. A page is the entries before a
 * cursor key: one statement, the UNION ALL of every source's own newest `limit` entries before the
 * cursor (each an index range of the application read backwards from the cursor, migration 037),
 * sorted and cut to `limit` (`timelineKeys`). Then only the rows on the page are read, by id, in
 * one statement per table (`timelineDetails`); note texts after them, for the note entries there.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';

type Row = Record<string, any>;

export type SourceName = 'applied' | 'audit' | 'email' | 'email_cancelled' | 'webhook' | 'webhook_outcome' | 'webhook_attempt';

/** Each source's rank (its place among entries of the same millisecond) and its number among the sources of that rank. */
export const SOURCES: Record<SourceName, { rank: number; src: number }> = {
  applied: { rank: 0, src: 0 },
  email: { rank: 1, src: 1 },
  webhook: { rank: 1, src: 0 },
  audit: { rank: 2, src: 0 },
  email_cancelled: { rank: 3, src: 2 },
  webhook_outcome: { rank: 3, src: 1 },
  webhook_attempt: { rank: 3, src: 0 },
};

const SOURCE_OF = new Map(Object.entries(SOURCES).map(([name, s]) => [`${s.rank}.${s.src}`, name as SourceName]));

/** Where an entry sits in the timeline's order: its time (ms), rank, sequence (its row's id) and source. */
export interface TimelineKey {
  ms: number;
  rank: number;
  seq: number;
  src: number;
}

/** The largest values a key may hold (a cursor is checked against them): any date JavaScript can hold. */
export const KEY_LIMITS = { ms: 8.64e15, rank: 3, src: 2 } as const;

/** A key on the page, with the source it is from. */
export interface KeyedRow extends TimelineKey {
  source: SourceName;
}

/** Sorts newest first: time, rank, sequence, source, each descending. */
export function compareKeys(a: TimelineKey, b: TimelineKey): number {
  return b.ms - a.ms || b.rank - a.rank || b.seq - a.seq || b.src - a.src;
}

/** True when `k` comes after (is older than) `cursor` in the timeline's order. */
export function isBefore(k: TimelineKey, cursor: TimelineKey): boolean {
  return compareKeys(cursor, k) < 0;
}

/**
 * The rows of one source before `cursor` in key order, as an index range: for a source of a lower
 * rank than the cursor's, every row up to the cursor's millisecond; of a higher rank, only older
 * milliseconds; of the same rank, the cursor's millisecond too for smaller sequences (and the
 * same sequence when this source's number is smaller). Written `time <= T AND (time < T OR id ...)`
 * so both databases read the range backwards from T.
 */
function beforeCursor(q: Knex.QueryBuilder, time: Knex.Raw, id: Knex.Raw, name: SourceName, c: TimelineKey): void {
  const { rank, src } = SOURCES[name];
  const t = toDbDate(new Date(c.ms));
  if (rank < c.rank) q.where(time, '<=', t);
  else if (rank > c.rank) q.where(time, '<', t);
  else q.where(time, '<=', t).where((w) => w.where(time, '<', t).orWhere(id, src < c.src ? '<=' : '<', c.seq));
}

/**
 * The keys of the newest `limit` entries of the application's sources (all but `applied`, which
 * the service keys from the application's row) before `cursor`, newest first.
 */
export async function timelineKeys(db: Knex, applicationId: number, limit: number, cursor: TimelineKey | undefined): Promise<KeyedRow[]> {
  const col = (c: string) => db.raw('??', [c]);
  const part = (name: SourceName, q: Knex.QueryBuilder, time: Knex.Raw, id: Knex.Raw) => {
    if (cursor) beforeCursor(q, time, id, name, cursor);
    const { rank, src } = SOURCES[name];
    q.orderByRaw('? DESC, ? DESC', [time, id])
      .limit(limit)
      .select(db.raw(`? AS at, ? AS seq, ${rank} AS r, ${src} AS s`, [time, id]));
    // A derived table each: SQLite takes no ORDER BY or LIMIT on a part of a compound SELECT itself.
    return db.select('*').from(q.as(`p_${name}`));
  };
  const parts = [
    part(
      'audit',
      db('audit_log as l').where('l.entity', 'application').where('l.entity_id', applicationId),
      col('l.created_at'),
      col('l.id'),
    ),
    part('email', db('email_posts as e').where('e.application_id', applicationId), col('e.created_at'), col('e.id')),
    part(
      'email_cancelled',
      db('email_posts as e').where('e.application_id', applicationId).where('e.status', 'CANCELLED').whereNotNull('e.cancelled_at'),
      col('e.cancelled_at'),
      col('e.id'),
    ),
    part('webhook', db('application_posts as p').where('p.application_id', applicationId), col('p.created_at'), col('p.id')),
    // Posts without attempts as a LEFT JOIN, not NOT EXISTS: MariaDB materialised every post's
    // attempts for NOT EXISTS; this probes the attempts index once per post of the application.
    part(
      'webhook_outcome',
      db('application_posts as p')
        .leftJoin('post_attempts as t', 't.application_post_id', 'p.id')
        .where('p.application_id', applicationId)
        .where('p.attempts', '>', 0)
        .whereNot('p.status', 'PENDING')
        .whereNull('t.id'),
      db.raw('COALESCE(??, ??)', ['p.delivered_at', 'p.updated_at']),
      col('p.id'),
    ),
    // The application's posts first, then each one's attempts: MySQL would otherwise walk every
    // attempt of every application by time (post_attempts_created_idx) looking for these.
    part(
      'webhook_attempt',
      db('application_posts as p')
        .joinRaw(`${isMysql(db) ? 'STRAIGHT_JOIN' : 'JOIN'} ?? ON ?? = ??`, ['post_attempts as t', 't.application_post_id', 'p.id'])
        .where('p.application_id', applicationId),
      col('t.created_at'),
      col('t.id'),
    ),
  ];
  const [first, ...rest] = parts;
  const rows: Row[] = await db
    .select('at', 'seq', 'r', 's')
    .from(first.unionAll(rest).as('u'))
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'r', order: 'desc' },
      { column: 'seq', order: 'desc' },
      { column: 's', order: 'desc' },
    ])
    .limit(limit);
  return rows.map((r) => {
    const rank = Number(r.r);
    const src = Number(r.s);
    return { ms: fromDbDate(r.at)!.getTime(), rank, seq: Number(r.seq), src, source: SOURCE_OF.get(`${rank}.${src}`)! };
  });
}

export interface TimelineApplication {
  created_at: Date;
  job_title: string;
}

export async function timelineApplication(db: Knex, applicationId: number): Promise<TimelineApplication | null> {
  const app = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('a.id', applicationId)
    .first('a.created_at', { job_title: 'j.title' });
  return app ? { created_at: fromDbDate(app.created_at)!, job_title: String(app.job_title) } : null;
}

export interface AuditRow {
  id: number;
  action: string;
  details: unknown;
  created_at: Date;
  user_id: number | null;
  username: string | null;
}

export interface OutboxPost {
  id: number;
  /** email_posts: the recipient; application_posts: the target URL. */
  target: string;
  /** email_posts: the subject and template; null for webhooks. */
  subject: string | null;
  template: string | null;
  /** email_posts sent by HR: the template's name when sent, and the sender (null: the application's own email, or a user since deleted). */
  template_name: string | null;
  sender: { id: number; username: string } | null;
  status: string;
  status_code: number | null;
  error_message: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
  /** email_posts: the time HR scheduled it for, and when it was cancelled. */
  send_after: Date | null;
  cancelled_at: Date | null;
}

export interface PostAttempt {
  id: number;
  post_id: number;
  status: string;
  status_code: number | null;
  error: string | null;
  created_at: Date;
  /** A webhook attempt's post's target URL. */
  target?: string;
}

/** The rows behind the entries of one page, by id. */
export interface TimelineDetails {
  audits: Map<number, AuditRow>;
  emails: Map<number, OutboxPost>;
  /** Each email's last delivery attempt, by the email's id. */
  lastEmailAttempts: Map<number, PostAttempt>;
  webhooks: Map<number, OutboxPost>;
  webhookAttempts: Map<number, PostAttempt>;
}

/** Characters of a note's text the timeline reads. */
const NOTE_EXCERPT = 200;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const textOrNull = (v: unknown) => (v === undefined || v === null ? null : String(v));

function toPost(r: Row): OutboxPost {
  return {
    id: Number(r.id),
    target: String(r.target ?? ''),
    subject: textOrNull(r.subject),
    template: textOrNull(r.template),
    template_name: textOrNull(r.template_name),
    sender:
      r.sender_username === undefined || r.sender_username === null ? null : { id: Number(r.sent_by), username: String(r.sender_username) },
    status: String(r.status),
    status_code: num(r.status_code),
    error_message: textOrNull(r.error_message),
    attempts: Number(r.attempts),
    created_at: fromDbDate(r.created_at)!,
    updated_at: fromDbDate(r.updated_at)!,
    delivered_at: fromDbDate(r.delivered_at),
    send_after: fromDbDate(r.send_after),
    cancelled_at: fromDbDate(r.cancelled_at),
  };
}

function toAttempt(r: Row, postId: unknown): PostAttempt {
  return {
    id: Number(r.id),
    post_id: Number(postId),
    status: String(r.status),
    status_code: num(r.status_code),
    error: textOrNull(r.error),
    created_at: fromDbDate(r.created_at)!,
    ...(r.target === undefined ? {} : { target: String(r.target) }),
  };
}

/** A string member of the JSON text column `payload`, read in the database (the HTML body is never fetched). */
function jsonMember(db: Knex, column: string, member: 'to' | 'subject') {
  return isMysql(db) ? db.raw(`JSON_UNQUOTE(JSON_EXTRACT(${column}, '$.${member}'))`) : db.raw(`json_extract(${column}, '$.${member}')`);
}

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * The rows of the page's entries, each table read once by primary key, by the ids on the page
 * (none when the page has none of its entries). The keys were read for one application and a row
 * never moves to another; a row deleted since is simply not found.
 */
export async function timelineDetails(db: Knex, keys: KeyedRow[]): Promise<TimelineDetails> {
  const ids = (...sources: SourceName[]) => [...new Set(keys.filter((k) => sources.includes(k.source)).map((k) => k.seq))];
  const auditIds = ids('audit');
  const emailIds = ids('email', 'email_cancelled');
  const webhookIds = ids('webhook', 'webhook_outcome');
  const attemptIds = ids('webhook_attempt');
  const none = Promise.resolve([] as Row[]);
  const [audits, emails, emailAttempts, webhooks, webhookAttempts] = await Promise.all([
    auditIds.length
      ? db('audit_log as l')
          .leftJoin('hr_users as u', 'u.id', 'l.user_id')
          .whereIn('l.id', auditIds)
          .select('l.id', 'l.action', 'l.details', 'l.created_at', 'l.user_id', { username: 'u.username' })
      : none,
    emailIds.length
      ? db('email_posts as e')
          .leftJoin('hr_users as su', 'su.id', 'e.sent_by')
          .whereIn('e.id', emailIds)
          .select(
            'e.id',
            'e.template',
            'e.status',
            'e.status_code',
            'e.error_message',
            'e.attempts',
            'e.created_at',
            'e.updated_at',
            'e.delivered_at',
            'e.template_name',
            'e.sent_by',
            'e.send_after',
            'e.cancelled_at',
            {
              sender_username: 'su.username',
              target: jsonMember(db, 'e.payload', 'to'),
              subject: jsonMember(db, 'e.payload', 'subject'),
            },
          )
      : none,
    // Every attempt of those emails (a handful each): an email shows how its last one went.
    emailIds.length
      ? db('post_attempts').whereIn('email_post_id', emailIds).select('id', 'email_post_id', 'status', 'status_code', 'error', 'created_at')
      : none,
    webhookIds.length
      ? db('application_posts as p')
          .whereIn('p.id', webhookIds)
          .select(
            'p.id',
            { target: 'p.target_url' },
            'p.status',
            'p.status_code',
            'p.error_message',
            'p.attempts',
            'p.created_at',
            'p.updated_at',
            'p.delivered_at',
          )
      : none,
    attemptIds.length
      ? db('post_attempts as t')
          .join('application_posts as p', 'p.id', 't.application_post_id')
          .whereIn('t.id', attemptIds)
          .select('t.id', 't.application_post_id', 't.status', 't.status_code', 't.error', 't.created_at', { target: 'p.target_url' })
      : none,
  ]);
  const lastEmailAttempts = new Map<number, PostAttempt>();
  for (const r of emailAttempts) {
    const a = toAttempt(r, r.email_post_id);
    const seen = lastEmailAttempts.get(a.post_id);
    if (!seen || seen.id < a.id) lastEmailAttempts.set(a.post_id, a);
  }
  return {
    audits: byId(
      audits.map((r: Row) => ({
        id: Number(r.id),
        action: String(r.action),
        details: r.details,
        created_at: fromDbDate(r.created_at)!,
        user_id: num(r.user_id),
        username: textOrNull(r.username),
      })),
    ),
    emails: byId(emails.map(toPost)),
    lastEmailAttempts,
    webhooks: byId(webhooks.map(toPost)),
    webhookAttempts: byId(webhookAttempts.map((r: Row) => toAttempt(r, r.application_post_id))),
  };
}

/** The start of each of these notes of the application (a note since deleted is not there). */
export async function noteExcerpts(db: Knex, applicationId: number, noteIds: number[]): Promise<Map<number, string>> {
  if (!noteIds.length) return new Map();
  const rows: Row[] = await db('application_notes')
    .where('application_id', applicationId)
    .whereIn('id', noteIds)
    .select('id', db.raw(`SUBSTR(text, 1, ${NOTE_EXCERPT}) AS text`));
  return new Map(rows.map((r) => [Number(r.id), String(r.text)]));
}

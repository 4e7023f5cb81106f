/**
 * What an application's timeline is made of, read newest first and at most `limit` of each kind:
 * the application itself, its audit entries (status changes and any other change another part
 * writes with the application as entity), its notes, its emails (email_posts) and webhook posts
 * (application_posts), each read with its delivery attempts (post_attempts) in one statement.
 * Every read is an index range on the application's id (read-only joins of the users and outbox tables, as posts/queries.ts does).
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';

type Row = Record<string, any>;

export interface TimelineSources {
  application: { created_at: Date; job_title: string } | null;
  audits: { id: number; action: string; details: unknown; created_at: Date; user_id: number | null; username: string | null }[];
  notes: Map<number, string>;
  emails: OutboxPost[];
  emailAttempts: PostAttempt[];
  webhooks: OutboxPost[];
  webhookAttempts: PostAttempt[];
  /** Rows read of each outbox (a post once per attempt): more than the limit means some were cut. */
  emailRows: number;
  webhookRows: number;
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
}

/** Characters of a note's text the timeline reads. */
const NOTE_EXCERPT = 200;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toPost(r: Row): OutboxPost {
  return {
    id: Number(r.id),
    target: String(r.target ?? ''),
    subject: r.subject === undefined || r.subject === null ? null : String(r.subject),
    template: r.template === undefined || r.template === null ? null : String(r.template),
    template_name: r.template_name === undefined || r.template_name === null ? null : String(r.template_name),
    sender:
      r.sender_username === undefined || r.sender_username === null ? null : { id: Number(r.sent_by), username: String(r.sender_username) },
    status: String(r.status),
    status_code: num(r.status_code),
    error_message: r.error_message === null ? null : String(r.error_message),
    attempts: Number(r.attempts),
    created_at: fromDbDate(r.created_at)!,
    updated_at: fromDbDate(r.updated_at)!,
    delivered_at: fromDbDate(r.delivered_at),
    send_after: fromDbDate(r.send_after),
    cancelled_at: fromDbDate(r.cancelled_at),
  };
}

const attemptColumns = [
  { attempt_id: 't.id', attempt_status: 't.status', attempt_code: 't.status_code', attempt_error: 't.error', attempt_at: 't.created_at' },
];

/** Rows of posts joined with their attempts, as the posts (each once) and the attempts. */
function splitPosts(rows: Row[]): { posts: OutboxPost[]; attempts: PostAttempt[] } {
  const posts = new Map<number, OutboxPost>();
  const attempts: PostAttempt[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    if (!posts.has(id)) posts.set(id, toPost(r));
    if (r.attempt_id !== null && r.attempt_id !== undefined) {
      attempts.push({
        id: Number(r.attempt_id),
        post_id: id,
        status: String(r.attempt_status),
        status_code: num(r.attempt_code),
        error: r.attempt_error === null ? null : String(r.attempt_error),
        created_at: fromDbDate(r.attempt_at)!,
      });
    }
  }
  return { posts: [...posts.values()], attempts };
}

/** A string member of the JSON text column `payload`, read in the database (the HTML body is never fetched). */
function jsonMember(db: Knex, column: string, member: 'to' | 'subject') {
  return isMysql(db) ? db.raw(`JSON_UNQUOTE(JSON_EXTRACT(${column}, '$.${member}'))`) : db.raw(`json_extract(${column}, '$.${member}')`);
}

export async function timelineSources(db: Knex, applicationId: number, limit: number): Promise<TimelineSources> {
  const [app, audits, notes, emailRows, webhookRows] = await Promise.all([
    db('applications as a')
      .join('jobs as j', 'j.id', 'a.job_id')
      .where('a.id', applicationId)
      .first('a.created_at', { job_title: 'j.title' }),
    db('audit_log as l')
      .leftJoin('hr_users as u', 'u.id', 'l.user_id')
      .where('l.entity', 'application')
      .where('l.entity_id', applicationId)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .select('l.id', 'l.action', 'l.details', 'l.created_at', 'l.user_id', { username: 'u.username' }),
    // The start of each note is enough for a line of the timeline.
    db('application_notes')
      .where('application_id', applicationId)
      .select('id', db.raw(`SUBSTR(text, 1, ${NOTE_EXCERPT}) AS text`)),
    // Each outbox's posts with their attempts in one read: a post once per attempt (or once without).
    db('email_posts as e')
      .leftJoin('post_attempts as t', 't.email_post_id', 'e.id')
      .leftJoin('hr_users as su', 'su.id', 'e.sent_by')
      .where('e.application_id', applicationId)
      .orderBy([
        { column: 'e.id', order: 'desc' },
        { column: 't.id', order: 'desc' },
      ])
      .limit(limit)
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
        ...attemptColumns,
        {
          sender_username: 'su.username',
          target: jsonMember(db, 'e.payload', 'to'),
          subject: jsonMember(db, 'e.payload', 'subject'),
        },
      ),
    db('application_posts as p')
      .leftJoin('post_attempts as t', 't.application_post_id', 'p.id')
      .where('p.application_id', applicationId)
      .orderBy([
        { column: 'p.id', order: 'desc' },
        { column: 't.id', order: 'desc' },
      ])
      .limit(limit)
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
        ...attemptColumns,
      ),
  ]);
  const emails = splitPosts(emailRows);
  const webhooks = splitPosts(webhookRows);
  return {
    application: app ? { created_at: fromDbDate(app.created_at)!, job_title: String(app.job_title) } : null,
    audits: audits.map((r: Row) => ({
      id: Number(r.id),
      action: String(r.action),
      details: r.details,
      created_at: fromDbDate(r.created_at)!,
      user_id: num(r.user_id),
      username: r.username === null ? null : String(r.username),
    })),
    notes: new Map(notes.map((r: Row) => [Number(r.id), String(r.text)])),
    emails: emails.posts,
    emailAttempts: emails.attempts,
    emailRows: emailRows.length,
    webhooks: webhooks.posts,
    webhookAttempts: webhooks.attempts,
    webhookRows: webhookRows.length,
  };
}

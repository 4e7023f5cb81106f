/**
 * What an application's timeline is made of, read newest first and at most `limit` of each kind:
 * the application itself, its audit entries (status changes and any other change another part
 * writes with the application as entity), its notes, its emails (email_posts) and webhook posts
 * (application_posts) with their delivery attempts (post_attempts). Every read is an index range
 * on the application's id (read-only joins of the users and outbox tables, as posts/queries.ts does).
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../../db/codecs.js';
import { isMysql } from '../../db/knex.js';

type Row = Record<string, any>;

export interface TimelineSources {
  application: { created_at: Date; job_title: string } | null;
  audits: { id: number; action: string; details: unknown; created_at: Date; user_id: number | null; username: string | null }[];
  notes: Map<number, string>;
  emails: OutboxPost[];
  emailAttempts: PostAttempt[];
  webhooks: OutboxPost[];
  webhookAttempts: PostAttempt[];
}

export interface OutboxPost {
  id: number;
  /** email_posts: the recipient; application_posts: the target URL. */
  target: string;
  /** email_posts: the subject and template; null for webhooks. */
  subject: string | null;
  template: string | null;
  status: string;
  status_code: number | null;
  error_message: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
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
    status: String(r.status),
    status_code: num(r.status_code),
    error_message: r.error_message === null ? null : String(r.error_message),
    attempts: Number(r.attempts),
    created_at: fromDbDate(r.created_at)!,
    updated_at: fromDbDate(r.updated_at)!,
    delivered_at: fromDbDate(r.delivered_at),
  };
}

function toAttempt(r: Row): PostAttempt {
  return { id: Number(r.id), post_id: Number(r.post_id), status: String(r.status), status_code: num(r.status_code), error: r.error === null ? null : String(r.error), created_at: fromDbDate(r.created_at)! };
}

/** A string member of the JSON text column `payload`, read in the database (the HTML body is never fetched). */
function jsonMember(db: Knex, column: string, member: 'to' | 'subject') {
  return isMysql(db) ? db.raw(`JSON_UNQUOTE(JSON_EXTRACT(${column}, '$.${member}'))`) : db.raw(`json_extract(${column}, '$.${member}')`);
}

export async function timelineSources(db: Knex, applicationId: number, limit: number): Promise<TimelineSources> {
  const [app, audits, notes, emails, emailAttempts, webhooks, webhookAttempts] = await Promise.all([
    db('applications as a').join('jobs as j', 'j.id', 'a.job_id').where('a.id', applicationId).first('a.created_at', { job_title: 'j.title' }),
    db('audit_log as l')
      .leftJoin('hr_users as u', 'u.id', 'l.user_id')
      .where('l.entity', 'application')
      .where('l.entity_id', applicationId)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .select('l.id', 'l.action', 'l.details', 'l.created_at', 'l.user_id', { username: 'u.username' }),
    // The start of each note is enough for a line of the timeline.
    db('application_notes').where('application_id', applicationId).select('id', db.raw(`SUBSTR(text, 1, ${NOTE_EXCERPT}) AS text`)),
    db('email_posts as e')
      .where('e.application_id', applicationId)
      .orderBy('e.id', 'desc')
      .limit(limit)
      .select('e.id', 'e.template', 'e.status', 'e.status_code', 'e.error_message', 'e.attempts', 'e.created_at', 'e.updated_at', 'e.delivered_at', {
        target: jsonMember(db, 'e.payload', 'to'),
        subject: jsonMember(db, 'e.payload', 'subject'),
      }),
    db('post_attempts as t')
      .join('email_posts as e', 'e.id', 't.email_post_id')
      .where('e.application_id', applicationId)
      .orderBy('t.id', 'desc')
      .limit(limit)
      .select('t.id', { post_id: 't.email_post_id' }, 't.status', 't.status_code', 't.error', 't.created_at'),
    db('application_posts as p')
      .where('p.application_id', applicationId)
      .orderBy('p.id', 'desc')
      .limit(limit)
      .select('p.id', { target: 'p.target_url' }, 'p.status', 'p.status_code', 'p.error_message', 'p.attempts', 'p.created_at', 'p.updated_at', 'p.delivered_at'),
    db('post_attempts as t')
      .join('application_posts as p', 'p.id', 't.application_post_id')
      .where('p.application_id', applicationId)
      .orderBy('t.id', 'desc')
      .limit(limit)
      .select('t.id', { post_id: 't.application_post_id' }, 't.status', 't.status_code', 't.error', 't.created_at'),
  ]);
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
    emails: emails.map(toPost),
    emailAttempts: emailAttempts.map(toAttempt),
    webhooks: webhooks.map(toPost),
    webhookAttempts: webhookAttempts.map(toAttempt),
  };
}

/** The templates as HR reads them: all of them (a short list) or one. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson } from '../db/codecs.js';
import {
  ALERT_PURPOSES,
  POOL_PURPOSES,
  REMINDER_PURPOSES,
  type AlertPurpose,
  type EmailTemplate,
  type ReminderPurpose,
  type TemplatePurpose,
} from './types.js';

const PURPOSES: readonly string[] = ['receipt', 'rejection', 'interview', ...REMINDER_PURPOSES, ...ALERT_PURPOSES, ...POOL_PURPOSES];
const flag = (v: unknown) => (v === null || v === undefined ? null : v === true || Number(v) === 1);

function toTemplate(r: Record<string, unknown>): EmailTemplate {
  return {
    id: Number(r.id),
    name: String(r.name),
    subject: String(r.subject),
    body: String(r.body),
    purpose: PURPOSES.includes(String(r.purpose)) ? (r.purpose as TemplatePurpose) : null,
    default_delay_minutes:
      r.default_delay_minutes === null || r.default_delay_minutes === undefined ? null : Number(r.default_delay_minutes),
    remind_24h: flag(r.remind_24h),
    remind_1h: flag(r.remind_1h),
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/** Every template, by name (the defaults first, in their order). */
export async function listTemplates(db: Knex): Promise<EmailTemplate[]> {
  const rows = await db('email_templates').orderByRaw('CASE WHEN purpose IS NULL THEN 1 ELSE 0 END').orderBy('id');
  return rows.map(toTemplate);
}

export async function findTemplate(db: Knex, id: number): Promise<EmailTemplate | null> {
  const row = await db('email_templates').where({ id }).first();
  return row ? toTemplate(row) : null;
}

/** The reminder template (issue 32) or job alert template (issue 35) of this purpose, or null when there is none. */
export async function reminderTemplate(db: Knex, purpose: ReminderPurpose | AlertPurpose): Promise<EmailTemplate | null> {
  const row = await db('email_templates').where({ purpose }).orderBy('id').first();
  return row ? toTemplate(row) : null;
}

/** Whether hr_users has an `email` column (another change adds it): asked once per database handle. */
const emailColumn = new WeakMap<Knex, Promise<boolean>>();

/**
 * The HR user sending an email: their name, and their own address when users have one (null
 * otherwise, or before the column exists).
 */
export async function senderOf(db: Knex, userId: number): Promise<{ username: string; email: string | null } | null> {
  let has = emailColumn.get(db);
  if (!has) {
    has = db.schema.hasColumn('hr_users', 'email').catch(() => false);
    emailColumn.set(db, has);
  }
  const row = await db('hr_users')
    .where({ id: userId })
    .first(...((await has) ? ['username', 'email'] : ['username']));
  if (!row) return null;
  const email = typeof row.email === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(row.email) ? row.email : null;
  return { username: String(row.username), email };
}

/** An application's emails waiting for their time (PENDING with a send_after), soonest first. */
export async function scheduledEmails(
  db: Knex,
  applicationId: number,
): Promise<
  {
    id: number;
    to: string;
    subject: string;
    template_name: string | null;
    send_after: Date;
    sent_by: number | null;
    username: string | null;
  }[]
> {
  const rows: Record<string, unknown>[] = await db('email_posts as e')
    .leftJoin('hr_users as u', 'u.id', 'e.sent_by')
    .where('e.application_id', applicationId)
    .where('e.status', 'PENDING')
    .whereNotNull('e.send_after')
    .where('e.attempts', 0)
    .orderBy([{ column: 'e.send_after' }, { column: 'e.id' }])
    .select('e.id', 'e.payload', 'e.template_name', 'e.send_after', 'e.sent_by', { username: 'u.username' });
  return rows.map((r) => {
    const message = fromDbJson<{ to?: string; subject?: string }>(r.payload, {});
    return {
      id: Number(r.id),
      to: String(message.to ?? ''),
      subject: String(message.subject ?? ''),
      template_name: r.template_name === null ? null : String(r.template_name),
      send_after: fromDbDate(r.send_after)!,
      sent_by: r.sent_by === null ? null : Number(r.sent_by),
      username: r.username === null || r.username === undefined ? null : String(r.username),
    };
  });
}

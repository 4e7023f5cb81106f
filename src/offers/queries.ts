/**
 * What the offers feature reads of other features' tables (docs/decisions/0010): the job's pay
 * range and webhook, HR users (approvers, names, addresses), and the counts the reports show.
 */
import type { Knex } from 'knex';
import { fromDbBool, fromDbNumber, toDbDate } from '../db/codecs.js';
import type { SalaryPeriod } from '../shared/enums.js';

type Row = Record<string, any>;

export interface JobFacts {
  id: number;
  title: string;
  status: string;
  currency: string;
  min_salary: number | null;
  max_salary: number | null;
  salary_period: SalaryPeriod;
}

/** The job of an application with its pay range, or null when there is no such application. */
export async function jobOfApplication(db: Knex, applicationId: number): Promise<JobFacts | null> {
  const r: Row | undefined = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('a.id', applicationId)
    .first('j.id', 'j.title', 'j.status', 'j.currency', 'j.min_salary', 'j.max_salary', 'j.salary_period');
  return r ? jobFactsOf(r) : null;
}

export async function jobFacts(db: Knex, jobId: number): Promise<JobFacts | null> {
  const r: Row | undefined = await db('jobs')
    .where({ id: jobId })
    .first('id', 'title', 'status', 'currency', 'min_salary', 'max_salary', 'salary_period');
  return r ? jobFactsOf(r) : null;
}

const jobFactsOf = (r: Row): JobFacts => ({
  id: Number(r.id),
  title: r.title,
  status: r.status,
  currency: r.currency ?? '',
  min_salary: fromDbNumber(r.min_salary),
  max_salary: fromDbNumber(r.max_salary),
  salary_period: (r.salary_period ?? 'YEAR') as SalaryPeriod,
});

/** The job's webhook as it is now: its URL when posting is on, else null. */
export async function jobWebhookUrl(db: Knex, jobId: number): Promise<string | null> {
  const row = await db('jobs').where({ id: jobId }).first('webhook_enabled', 'webhook_url');
  return row && fromDbBool(row.webhook_enabled) && row.webhook_url ? String(row.webhook_url) : null;
}

export interface HrUser {
  id: number;
  username: string;
  email: string | null;
  role: string;
  is_active: boolean;
}

export async function hrUsers(db: Knex, ids: number[]): Promise<Map<number, HrUser>> {
  if (!ids.length) return new Map();
  const rows: Row[] = await db('hr_users')
    .whereIn('id', [...new Set(ids)])
    .select('id', 'username', 'email', 'role', 'is_active');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), username: r.username, email: r.email ?? null, role: r.role, is_active: fromDbBool(r.is_active) },
    ]),
  );
}

/** Whether the user is on the job's hiring team as its hiring manager or one of its recruiters (who see its offers). */
export async function onOfferTeam(db: Knex, jobId: number, userId: number): Promise<boolean> {
  return !!(await db('job_team_members')
    .where({ job_id: jobId, user_id: userId })
    .whereIn('role', ['hiring_manager', 'recruiter'])
    .first('user_id'));
}

/** Active HR users who may approve offers (admins, recruiters, hiring managers), by name: the approval chains' choices. */
export async function approverChoices(db: Knex): Promise<{ id: number; username: string; role: string }[]> {
  const rows: Row[] = await db('hr_users')
    .where('is_active', 1)
    .whereIn('role', ['admin', 'recruiter', 'hiring_manager'])
    .orderBy('username')
    .select('id', 'username', 'role');
  return rows.map((r) => ({ id: Number(r.id), username: r.username, role: r.role }));
}

/** Active admins, oldest first: "any admin" of the default chain. */
export async function activeAdminIds(db: Knex): Promise<number[]> {
  return (await db('hr_users').where({ role: 'admin' }).where('is_active', 1).orderBy('id').pluck('id')).map(Number);
}

/**
 * The reports' "offers made and accepted" over a cohort (the applications made from `since` until
 * `until`, of one job or all): offers sent to them (whatever became of them since), and of those
 * the accepted and the declined ones.
 */
export async function offerCounts(
  db: Knex,
  cohort: { since: Date; until: Date; jobId: number | null },
): Promise<{ made: number; accepted: number; declined: number }> {
  const q = db('offers as o')
    .join('applications as a', 'a.id', 'o.application_id')
    .where('a.created_at', '>=', toDbDate(cohort.since))
    .where('a.created_at', '<', toDbDate(cohort.until))
    .whereNotNull('o.sent_at');
  if (cohort.jobId !== null) q.where('a.job_id', cohort.jobId);
  const rows: Row[] = await q.select('o.status').count({ n: '*' }).groupBy('o.status');
  const by = new Map(rows.map((r) => [String(r.status), Number(r.n)]));
  return { made: [...by.values()].reduce((a, b) => a + b, 0), accepted: by.get('accepted') ?? 0, declined: by.get('declined') ?? 0 };
}

/**
 * Read models of the publishing feature (issue 34): the pay rules, a job's latest override of its
 * checks (the audit log), its approval, and who may approve it (admins and the hiring managers on
 * its team: `hr_users` and `job_team_members`, read-only, decision 0010).
 */
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, fromDbJson, fromDbNumber } from '../db/codecs.js';
import type { ChecksOverride, JobApproval, PayRule } from './types.js';

type Row = Record<string, any>;

function toRule(r: Row): PayRule {
  return {
    id: Number(r.id),
    label: r.label,
    country: r.country,
    region_code: r.region_code ?? '',
    region_name: r.region_name ?? '',
    range_required: fromDbBool(r.range_required),
    max_width: fromDbNumber(r.max_width),
    width_unit: r.width_unit,
    salary_period: r.salary_period,
    note: r.note ?? '',
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/** Every rule, by country, then the country's own rule before its regions, then region. */
export async function listRules(db: Knex): Promise<PayRule[]> {
  const rows: Row[] = await db('pay_rules')
    .select()
    .orderBy([{ column: 'country' }, { column: 'region_code' }, { column: 'id' }]);
  return rows.map(toRule);
}

export async function findRule(db: Knex, id: number): Promise<PayRule | null> {
  const row: Row | undefined = await db('pay_rules').where({ id }).first();
  return row ? toRule(row) : null;
}

/** The latest override of the job's checks, with who made it. */
export async function latestOverride(db: Knex, jobId: number): Promise<ChecksOverride | null> {
  const row: Row | undefined = await db('audit_log as a')
    .leftJoin('hr_users as u', 'u.id', 'a.user_id')
    .where({ 'a.entity': 'job', 'a.entity_id': jobId, 'a.action': 'job.checks_override' })
    .orderBy([
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .first('a.details', 'a.created_at', 'u.username');
  if (!row) return null;
  const details = fromDbJson<{ note?: string; reasons?: string[] }>(row.details, {});
  return {
    note: String(details.note ?? ''),
    by: row.username ?? null,
    at: fromDbDate(row.created_at)!.toISOString(),
    reasons: Array.isArray(details.reasons) ? details.reasons.map(String) : [],
  };
}

/** The job's approval, with the names of who asked and who decided. */
export async function approvalOf(db: Knex, jobId: number): Promise<(JobApproval & { requested_by_id: number | null }) | null> {
  const row: Row | undefined = await db('job_approvals as a')
    .leftJoin('hr_users as r', 'r.id', 'a.requested_by')
    .leftJoin('hr_users as d', 'd.id', 'a.decided_by')
    .where('a.job_id', jobId)
    .first('a.*', 'r.username as requested_name', 'd.username as decided_name');
  if (!row) return null;
  return {
    state: row.state,
    requested_status: row.requested_status,
    requested_by: row.requested_name ?? null,
    requested_by_id: row.requested_by == null ? null : Number(row.requested_by),
    requested_at: fromDbDate(row.requested_at)!.toISOString(),
    decided_by: row.decided_name ?? null,
    decided_at: fromDbDate(row.decided_at)?.toISOString() ?? null,
    comment: row.comment ?? '',
  };
}

/** Whether the user is on the job's team as its hiring manager. */
export async function isHiringManagerOf(db: Knex, jobId: number, userId: number): Promise<boolean> {
  return !!(await db('job_team_members').where({ job_id: jobId, user_id: userId, role: 'hiring_manager' }).first('user_id'));
}

/** Who may decide the job's approval and has an address: active admins and the active hiring managers on its team. */
export async function approverAddresses(db: Knex, jobId: number): Promise<{ id: number; username: string; email: string }[]> {
  const rows: Row[] = await db('hr_users as u')
    .where('u.is_active', 1)
    .whereNotNull('u.email')
    .where((w) =>
      w
        .where('u.role', 'admin')
        .orWhereIn('u.id', db('job_team_members').where({ job_id: jobId, role: 'hiring_manager' }).select('user_id')),
    )
    .orderBy('u.id')
    .select('u.id', 'u.username', 'u.email');
  return rows.map((r) => ({ id: Number(r.id), username: r.username, email: r.email }));
}

/** A user's name and address (null: no such user). */
export async function userContact(db: Knex, userId: number): Promise<{ username: string; email: string | null } | null> {
  const row: Row | undefined = await db('hr_users').where({ id: userId }).first('username', 'email');
  return row ? { username: row.username, email: row.email ?? null } : null;
}

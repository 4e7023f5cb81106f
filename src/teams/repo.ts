/** The writes of `job_team_members` (issue 31), each with its job's audit entry in the caller's transaction. */
import type { Knex } from 'knex';
import { toDbDate, toDbJson } from '../db/codecs.js';
import type { TeamRole } from './types.js';

/** The job's row, locked for the team's change (null: no such job, or removed). */
export async function lockJob(trx: Knex, jobId: number): Promise<{ id: number; title: string } | null> {
  const row = await trx('jobs').where({ id: jobId }).whereNot('status', 'REMOVED').forUpdate().first('id', 'title');
  return row ? { id: Number(row.id), title: row.title } : null;
}

/** The team as stored, for the change's audit entry. */
export async function teamRows(trx: Knex, jobId: number): Promise<{ user_id: number; role: TeamRole }[]> {
  const rows = await trx('job_team_members').where({ job_id: jobId }).orderBy('user_id').select('user_id', 'role');
  return rows.map((r: { user_id: unknown; role: TeamRole }) => ({ user_id: Number(r.user_id), role: r.role }));
}

/** Active HR users among these ids. */
export async function activeUserIds(trx: Knex, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await trx('hr_users').whereIn('id', ids).where('is_active', 1).select('id');
  return new Set(rows.map((r: { id: unknown }) => Number(r.id)));
}

/** Replaces the job's team with `members`. */
export async function writeTeam(trx: Knex, jobId: number, members: { user_id: number; role: TeamRole }[], now: Date): Promise<void> {
  await trx('job_team_members').where({ job_id: jobId }).delete();
  if (members.length)
    await trx('job_team_members').insert(
      members.map((m) => ({ job_id: jobId, user_id: m.user_id, role: m.role, created_at: toDbDate(now) })),
    );
}

/** The change in the audit log, as other job changes are (entity job, action `team`, from and to). */
export async function insertTeamAudit(
  trx: Knex,
  userId: number,
  jobId: number,
  details: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await trx('audit_log').insert({
    user_id: userId,
    action: 'team',
    entity: 'job',
    entity_id: jobId,
    details: toDbJson(details),
    created_at: toDbDate(now),
  });
}

/**
 * Read models of the teams feature (issue 31): a job's team and the users who may join it, which
 * jobs a user is on, and who can open an application. They read `hr_users`, `jobs`,
 * `applications` and `email_posts` read-only (decision 0010).
 */
import type { Knex } from 'knex';
import type { UserRole } from '../users/types.js';
import type { TeamCandidate, TeamMember, TeamRole } from './types.js';

type Row = Record<string, any>;

/** The job (not removed), or null. */
export async function findTeamJob(db: Knex, jobId: number): Promise<{ id: number; title: string } | null> {
  const row: Row | undefined = await db('jobs').where({ id: jobId }).whereNot('status', 'REMOVED').first('id', 'title');
  return row ? { id: Number(row.id), title: row.title } : null;
}

/** The job's team, by role then name. */
export async function teamOf(db: Knex, jobId: number): Promise<TeamMember[]> {
  const rows: Row[] = await db('job_team_members as m')
    .join('hr_users as u', 'u.id', 'm.user_id')
    .where('m.job_id', jobId)
    .orderBy([{ column: 'u.username' }])
    .select('m.user_id', 'u.username', 'm.role', 'u.role as user_role');
  return rows.map((r) => ({
    user_id: Number(r.user_id),
    username: r.username,
    role: r.role as TeamRole,
    user_role: r.user_role as UserRole,
  }));
}

/** Active HR users, by name: who may be put on a team. */
export async function teamCandidates(db: Knex): Promise<TeamCandidate[]> {
  const rows: Row[] = await db('hr_users').where('is_active', 1).orderBy('username').select('id', 'username', 'role');
  return rows.map((r) => ({ id: Number(r.id), username: r.username, role: r.role as UserRole }));
}

/** The jobs whose team the user is on. */
export async function jobIdsOfMember(db: Knex, userId: number): Promise<number[]> {
  const rows: Row[] = await db('job_team_members').where({ user_id: userId }).select('job_id');
  return rows.map((r) => Number(r.job_id));
}

/** An application's job (null: no such application). */
export async function jobOfApplication(db: Knex, applicationId: number): Promise<number | null> {
  const row: Row | undefined = await db('applications').where({ id: applicationId }).first('job_id');
  return row ? Number(row.job_id) : null;
}

/** The jobs of these applications, by application id (unknown ids are left out). */
export async function jobsOfApplications(db: Knex, applicationIds: readonly number[]): Promise<Map<number, number>> {
  if (!applicationIds.length) return new Map();
  const rows: Row[] = await db('applications').whereIn('id', applicationIds).select('id', 'job_id');
  return new Map(rows.map((r) => [Number(r.id), Number(r.job_id)]));
}

/** The application a sent or scheduled email is about (null: none, or no such email). */
export async function applicationOfEmail(db: Knex, emailId: number): Promise<number | null> {
  const row: Row | undefined = await db('email_posts').where({ id: emailId }).first('application_id');
  return row?.application_id == null ? null : Number(row.application_id);
}

/** The application of an interview (issue 32), or null when there is no such interview. */
export async function applicationOfInterview(db: Knex, interviewId: number): Promise<number | null> {
  const row: Row | undefined = await db('interviews').where({ id: interviewId }).first('application_id');
  return row?.application_id == null ? null : Number(row.application_id);
}

/** The application of an offer (issue 34), or null when there is no such offer. */
export async function applicationOfOffer(db: Knex, offerId: number): Promise<number | null> {
  const row: Row | undefined = await db('offers').where({ id: offerId }).first('application_id');
  return row?.application_id == null ? null : Number(row.application_id);
}

/** Active admins and recruiters, who open every application. */
export async function usersSeeingAll(db: Knex): Promise<{ user_id: number; username: string; role: UserRole }[]> {
  const rows: Row[] = await db('hr_users')
    .where('is_active', 1)
    .whereIn('role', ['admin', 'recruiter'])
    .orderBy('username')
    .select('id', 'username', 'role');
  return rows.map((r) => ({ user_id: Number(r.id), username: r.username, role: r.role as UserRole }));
}

/** Active hiring managers on the job's team. */
export async function hiringManagersOf(db: Knex, jobId: number): Promise<{ user_id: number; username: string }[]> {
  const rows: Row[] = await db('job_team_members as m')
    .join('hr_users as u', 'u.id', 'm.user_id')
    .where({ 'm.job_id': jobId, 'u.role': 'hiring_manager', 'u.is_active': 1 })
    .orderBy('u.username')
    .select('u.id', 'u.username');
  return rows.map((r) => ({ user_id: Number(r.id), username: r.username }));
}

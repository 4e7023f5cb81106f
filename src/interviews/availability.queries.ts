/** Read models of interviewer availability (issue 32): HR users who may interview, and their scheduled interviews in a window. */
import type { Db } from '../db/knex.js';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { InterviewerChoice } from './availability.types.js';

/** Active HR users, by name (the Find a time picker). */
export async function interviewerChoices(db: Db): Promise<InterviewerChoice[]> {
  const rows = await db('hr_users').where({ is_active: true }).orderBy('username').select('id', 'username', 'email');
  return rows.map((r: Record<string, unknown>) => ({ id: Number(r.id), name: String(r.username), email: String(r.email ?? '') }));
}

/** The active users among `ids`, with their names. */
export async function activeUsers(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db('hr_users').whereIn('id', ids).where({ is_active: true }).select('id', 'username');
  return new Map(rows.map((r: Record<string, unknown>) => [Number(r.id), String(r.username)]));
}

/** Whether an HR user with this id exists (active or not). */
export async function userExists(db: Db, id: number): Promise<boolean> {
  return !!(await db('hr_users').where({ id }).first('id'));
}

/** The scheduled interviews of these users meeting [from, to), as busy times per user. */
export async function scheduledInterviews(
  db: Db,
  userIds: readonly number[],
  from: Date,
  to: Date,
): Promise<{ userId: number; start: number; end: number }[]> {
  if (!userIds.length) return [];
  const rows = await db('interviews as i')
    .join('interview_participants as p', 'p.interview_id', 'i.id')
    .whereIn('p.hr_user_id', userIds)
    .where('i.status', 'scheduled')
    .where('i.starts_at', '<', toDbDate(to))
    .where('i.ends_at', '>', toDbDate(from))
    .select('p.hr_user_id', 'i.starts_at', 'i.ends_at');
  return rows.map((r: Record<string, unknown>) => ({
    userId: Number(r.hr_user_id),
    start: (fromDbDate(r.starts_at) as Date).getTime(),
    end: (fromDbDate(r.ends_at) as Date).getTime(),
  }));
}

/** What booking reads (issue 32): the scheduled interviews that make a hand-picked slot busy, and whom to tell. */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';

/** The scheduled interviews of these people (HR user ids or emails) meeting [from, to), but `ignore`, as busy times. */
export async function busyTimes(
  db: Knex,
  who: { userIds: number[]; emails: string[] },
  from: Date,
  to: Date,
  ignore: number | null,
): Promise<{ start: number; end: number }[]> {
  if (!who.userIds.length && !who.emails.length) return [];
  const q = db('interviews as i')
    .join('interview_participants as p', 'p.interview_id', 'i.id')
    .where('i.status', 'scheduled')
    .where('i.starts_at', '<', toDbDate(to))
    .where('i.ends_at', '>', toDbDate(from))
    .where((w) => {
      if (who.userIds.length) w.orWhereIn('p.hr_user_id', who.userIds);
      if (who.emails.length) w.orWhereIn('p.email', who.emails);
    })
    .distinct('i.id', 'i.starts_at', 'i.ends_at');
  if (ignore !== null) q.whereNot('i.id', ignore);
  const rows: Record<string, unknown>[] = await q;
  return rows.map((r) => ({ start: fromDbDate(r.starts_at)!.getTime(), end: fromDbDate(r.ends_at)!.getTime() }));
}

/** An active HR user's email address (null: none, or disabled). */
export async function activeUserEmail(db: Knex, userId: number): Promise<string | null> {
  const row = await db('hr_users').where({ id: userId, is_active: true }).first('email');
  return row?.email ?? null;
}

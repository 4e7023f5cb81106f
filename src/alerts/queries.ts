/** The job alerts' read models: the open jobs a digest run matches (reads `jobs`, decision 0010) and the counts admins see. */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { OpenJob } from './lib/match.js';
import type { AlertCounts } from './types.js';

/** The jobs taking applications now (as the careers list shows them), newest first. */
export async function openJobs(db: Knex, now: Date): Promise<OpenJob[]> {
  const rows = await db('jobs')
    .select('id', 'public_id', 'title', 'department', 'location', 'work_mode', 'created_at')
    .where('status', 'ACTIVE')
    .where((w) => w.whereNull('closes_at').orWhere('closes_at', '>', toDbDate(now)))
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    public_id: String(r.public_id),
    title: String(r.title),
    department: r.department === null || r.department === undefined ? null : String(r.department),
    location: String(r.location),
    work_mode: String(r.work_mode),
    created_at: fromDbDate(r.created_at)!,
  }));
}

/** Alerts running now (confirmed, not expired) and those waiting for confirmation. */
export async function alertCounts(db: Knex, now: Date): Promise<AlertCounts> {
  const [active, pending] = await Promise.all([
    db('job_alerts').count({ n: '*' }).where('status', 'ACTIVE').where('expires_at', '>', toDbDate(now)).first(),
    db('job_alerts').count({ n: '*' }).where('status', 'PENDING').first(),
  ]);
  return { active: Number(active?.n ?? 0), pending: Number(pending?.n ?? 0) };
}

/** How many alerts an address has (what erase would remove). */
export async function countAlertsOf(db: Knex, email: string): Promise<number> {
  const row = await db('job_alerts').count({ n: '*' }).where({ email }).first();
  return Number(row?.n ?? 0);
}

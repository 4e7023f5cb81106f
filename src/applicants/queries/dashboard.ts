/**
 * Applicant counts for the dashboard and the HR job lists. They come from one GROUP BY job_id over
 * `applications`, which the database answers from an index starting with job_id
 * (applications_job_created_idx) without reading the rows; the NEW count is a range of
 * applications_status_created_idx. No per-job queries (no N+1).
 * The service reuses the totals while their stamp is unchanged, so a dashboard over 200,000
 * applications does not count them all on every request.
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../../db/codecs.js';

type Row = Record<string, any>;

/** Applicants per job; `jobIds` limits the count to those jobs (an index range each). */
export async function applicantsByJob(db: Knex, jobIds?: number[]): Promise<Map<number, number>> {
  const q = db('applications').select('job_id').count({ n: '*' }).groupBy('job_id');
  if (jobIds) {
    if (!jobIds.length) return new Map();
    q.whereIn('job_id', jobIds);
  }
  const rows: Row[] = await q;
  return new Map(rows.map((r) => [Number(r.job_id), Number(r.n)]));
}

export interface ApplicantTotals {
  byJob: Map<number, number>;
  newCount: number;
}

/**
 * What the totals were computed from: MAX(id) and MAX(updated_at) of applications, both read from
 * an index. A new application raises the first, a status change the second. Whoever changes a
 * status must therefore set updated_at later than every other application's (or add a counter to
 * this stamp), or the NEW count would stay stale. Applications are never deleted.
 */
export async function applicantTotalsStamp(db: Knex): Promise<string> {
  // Two queries on purpose: SQLite answers a lone MAX() from the index, but scans for MAX(a), MAX(b).
  const [[idRow], [updatedRow]]: Row[][] = await Promise.all([db('applications').max({ v: 'id' }), db('applications').max({ v: 'updated_at' })]);
  return `${idRow?.v ?? 0}|${fromDbDate(updatedRow?.v)?.getTime() ?? 0}`;
}

/** Applicants per job and the NEW count. */
export async function applicantTotals(db: Knex): Promise<ApplicantTotals> {
  const [byJob, newRows] = await Promise.all([applicantsByJob(db), db('applications').where('status', 'NEW').count({ n: '*' }) as Promise<Row[]>]);
  return { byJob, newCount: Number(newRows[0]?.n ?? 0) };
}

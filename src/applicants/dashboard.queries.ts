/**
 * Applicant counts for the dashboard and the HR job lists. They come from one GROUP BY job_id over
 * `applications`, which the database answers from an index starting with job_id
 * (applications_job_created_idx) without reading the rows; the NEW count is a range of
 * applications_status_created_idx. No per-job queries (no N+1).
 * The service reuses the totals while their stamp is unchanged, so a dashboard over 200,000
 * applications does not count them all on every request.
 */
import type { Knex } from 'knex';
import { stageTotals } from '../pipeline/queries.js';

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
  /** Per stage name across jobs, and the rejected count (queries/board.ts). */
  stages: { name: string; applicants: number }[];
  rejected: number;
}

/**
 * The change counters (migration 005), raised in the same transaction as every status change
 * (`applications.status`) and every deletion of applications (`applications.removed`), in any
 * process: one primary-key read.
 */
async function changeCounters(db: Knex): Promise<Record<string, number>> {
  const rows: Row[] = await db('change_counters').select('name', 'value');
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.value)]));
}

/**
 * What the totals were computed from: MAX(id) of applications (read from the primary key; ids
 * are never reused, so every new application raises it) and the change counters (every status
 * change, stage change, stage rename and deletion raises one). Any change to the totals changes the stamp.
 */
export async function applicantTotalsStamp(db: Knex): Promise<string> {
  const [[idRow], counters]: [Row[], Record<string, number>] = await Promise.all([db('applications').max({ v: 'id' }), changeCounters(db)]);
  return `${idRow?.v ?? 0}|${counters['applications.status'] ?? 0}|${counters['applications.removed'] ?? 0}|${counters['applications.stage'] ?? 0}`;
}

/** Applicants per job and the NEW count. */
export async function applicantTotals(db: Knex): Promise<ApplicantTotals> {
  const [byJob, newRows, perStage] = await Promise.all([
    applicantsByJob(db),
    db('applications').where('status', 'NEW').count({ n: '*' }) as Promise<Row[]>,
    stageTotals(db),
  ]);
  return { byJob, newCount: Number(newRows[0]?.n ?? 0), stages: perStage.stages, rejected: perStage.rejected };
}

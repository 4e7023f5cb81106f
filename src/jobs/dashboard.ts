/**
 * Read-only HR queries over jobs and their applicant counts: the dashboard, the HR job lists.
 * Applicant counts come from one GROUP BY job_id over `applications`, which the database answers
 * from an index starting with job_id (applications_job_created_idx) without reading the rows; the
 * NEW count is a range of applications_status_created_idx. No per-job queries (no N+1).
 * Those counts are reused while the applications are unchanged (see applicantTotals), so a
 * dashboard over 200,000 applications does not count them all on every request.
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { RecordStatus } from '../shared/enums.js';

export interface JobSummary {
  id: number;
  public_id: string;
  title: string;
  location: string;
  job_type: string;
  work_mode: string;
  status: RecordStatus;
  applicants: number;
  views: number;
  created_at: string;
  updated_at: string;
}

export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  new_applicants: number;
  total_applicants: number;
  job_stats: { id: number; public_id: string; title: string; status: RecordStatus; applicants: number; views: number }[];
}

type Row = Record<string, any>;

const SUMMARY_COLUMNS = ['id', 'public_id', 'title', 'location', 'job_type', 'work_mode', 'status', 'views', 'created_at', 'updated_at'];
const NEWEST_FIRST = [{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }] as const;

function toSummary(r: Row, applicants: Map<number, number>): JobSummary {
  const id = Number(r.id);
  return {
    id,
    public_id: r.public_id,
    title: r.title,
    location: r.location ?? '',
    job_type: r.job_type,
    work_mode: r.work_mode,
    status: r.status,
    applicants: applicants.get(id) ?? 0,
    views: Number(r.views ?? 0),
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/** Applicants per job; `jobIds` limits the count to those jobs (an index range each). */
async function applicantsByJob(db: Knex, jobIds?: number[]): Promise<Map<number, number>> {
  const q = db('applications').select('job_id').count({ n: '*' }).groupBy('job_id');
  if (jobIds) {
    if (!jobIds.length) return new Map();
    q.whereIn('job_id', jobIds);
  }
  const rows: Row[] = await q;
  return new Map(rows.map((r) => [Number(r.job_id), Number(r.n)]));
}

interface ApplicantTotals {
  stamp: string;
  byJob: Map<number, number>;
  newCount: number;
}

/** Per database (tests run several in one process), keyed like src/jobs/public-cache.ts. */
const totalsCache = new WeakMap<object, ApplicantTotals>();

/**
 * Applicants per job and the NEW count. They are recomputed only when MAX(id) or MAX(updated_at)
 * of applications moved, which both come from an index: a new application raises the first, a
 * status change the second. Whoever changes a status must therefore set updated_at later than
 * every other application's (or add a counter to this stamp), or the NEW count would stay stale.
 * Applications are never deleted.
 */
async function applicantTotals(db: Knex): Promise<ApplicantTotals> {
  // Two queries on purpose: SQLite answers a lone MAX() from the index, but scans for MAX(a), MAX(b).
  const [[idRow], [updatedRow]]: Row[][] = await Promise.all([db('applications').max({ v: 'id' }), db('applications').max({ v: 'updated_at' })]);
  const stamp = `${idRow?.v ?? 0}|${fromDbDate(updatedRow?.v)?.getTime() ?? 0}`;
  const key = db.client.config as object;
  const hit = totalsCache.get(key);
  if (hit && hit.stamp === stamp) return hit;
  const [byJob, newRows] = await Promise.all([applicantsByJob(db), db('applications').where('status', 'NEW').count({ n: '*' }) as Promise<Row[]>]);
  const totals = { stamp, byJob, newCount: Number(newRows[0]?.n ?? 0) };
  totalsCache.set(key, totals);
  return totals;
}

/**
 * The dashboard (spec 02 section 3 "Dashboard response"). Removed jobs are left out of
 * total_jobs and job_stats (they are no longer job posts); applicant totals count every
 * application, since applicants of a removed job are still in the Applicants list.
 */
export async function loadDashboard(db: Knex): Promise<DashboardStats> {
  const [jobs, { byJob: counts, newCount }] = await Promise.all([
    db('jobs').select('id', 'public_id', 'title', 'status', 'views').whereNot('status', 'REMOVED').orderBy([...NEWEST_FIRST]) as Promise<Row[]>,
    applicantTotals(db),
  ]);
  let total = 0;
  for (const n of counts.values()) total += n;
  return {
    total_jobs: jobs.length,
    active_jobs: jobs.filter((j) => j.status === 'ACTIVE').length,
    new_applicants: newCount,
    total_applicants: total,
    job_stats: jobs.map((j) => ({
      id: Number(j.id),
      public_id: j.public_id,
      title: j.title,
      status: j.status,
      applicants: counts.get(Number(j.id)) ?? 0,
      views: Number(j.views ?? 0),
    })),
  };
}

/**
 * One page of jobs, newest first, optionally of one status, with applicant counts for that page
 * only: GET /api/hr/jobs/ and the Manage Jobs and All Job Posts pages.
 */
export async function pageJobSummaries(db: Knex, status: RecordStatus | null, page: number, pageSize: number): Promise<{ count: number; results: JobSummary[] }> {
  const filtered = (q: Knex.QueryBuilder) => (status ? q.where('status', status) : q);
  const [{ n }] = await filtered(db('jobs').count({ n: '*' }));
  const rows: Row[] = await filtered(db('jobs').select(SUMMARY_COLUMNS))
    .orderBy([...NEWEST_FIRST])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const counts = await applicantsByJob(db, rows.map((r) => Number(r.id)));
  return { count: Number(n), results: rows.map((r) => toSummary(r, counts)) };
}

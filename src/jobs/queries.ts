/**
 * Read models over the jobs table for HR: the job lists (GET /api/hr/jobs/, Manage Jobs, All Job
 * Posts) and the job rows of the dashboard. Applicant counts belong to the applicants feature; the
 * lists get them through the ApplicantCounts port the app passes in, so jobs never reaches into
 * the application tables.
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { RecordStatus } from '../shared/enums.js';
import type { JobSummary, JobStat } from './types.js';

/** Applicants per job for the given job ids (the applicants feature answers it). */
export type ApplicantCounts = (db: Knex, jobIds: number[]) => Promise<Map<number, number>>;

type Row = Record<string, any>;

const SUMMARY_COLUMNS = [
  'id',
  'public_id',
  'title',
  'department',
  'location',
  'job_type',
  'work_mode',
  'status',
  'closes_at',
  'views',
  'created_at',
  'updated_at',
];
const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

function toSummary(r: Row, applicants: Map<number, number>, approvals: Map<number, JobSummary['approval']>): JobSummary {
  const id = Number(r.id);
  return {
    id,
    public_id: r.public_id,
    title: r.title,
    location: r.location ?? '',
    job_type: r.job_type,
    work_mode: r.work_mode,
    department: r.department || null,
    status: r.status,
    closes_at: fromDbDate(r.closes_at)?.toISOString() ?? null,
    applicants: applicants.get(id) ?? 0,
    approval: approvals.get(id) ?? null,
    views: Number(r.views ?? 0),
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/**
 * One page of jobs, newest first, optionally of one status, with applicant counts for that page
 * only: GET /api/hr/jobs/ and the Manage Jobs and All Job Posts pages.
 */
export async function pageJobSummaries(
  db: Knex,
  counts: ApplicantCounts,
  status: RecordStatus | null,
  page: number,
  pageSize: number,
  jobIds: readonly number[] | null = null,
  withApproval = false,
): Promise<{ count: number; results: JobSummary[] }> {
  const filtered = (q: Knex.QueryBuilder) => {
    if (status) q.where('status', status);
    // Issue 31: a hiring manager lists only the jobs whose team they are on.
    if (jobIds) q.whereIn('id', jobIds.length ? [...jobIds] : [0]);
    return q;
  };
  const [{ n }] = await filtered(db('jobs').count({ n: '*' }));
  const rows: Row[] = await filtered(db('jobs').select(SUMMARY_COLUMNS))
    .orderBy([...NEWEST_FIRST])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const byJob = rows.length
    ? await counts(
        db,
        rows.map((r) => Number(r.id)),
      )
    : new Map<number, number>();
  const approvals =
    withApproval && rows.length
      ? await approvalStates(
          db,
          rows.map((r) => Number(r.id)),
        )
      : new Map();
  return { count: Number(n), results: rows.map((r) => toSummary(r, byJob, approvals)) };
}

/**
 * The approval state of these jobs (issue 34, JOB_APPROVAL=on): `job_approvals`, the publishing
 * feature's table, read here for the lists (decision 0010).
 */
async function approvalStates(db: Knex, jobIds: number[]): Promise<Map<number, JobSummary['approval']>> {
  const rows: Row[] = await db('job_approvals').whereIn('job_id', jobIds).select('job_id', 'state');
  return new Map(rows.map((r) => [Number(r.job_id), r.state]));
}

/** Every job, removed ones too (their applicants stay listed), by title: the applicants list's job selector. */
export async function listJobChoices(db: Knex): Promise<Pick<JobStat, 'id' | 'public_id' | 'title' | 'status'>[]> {
  const rows: Row[] = await db('jobs')
    .select('id', 'public_id', 'title', 'status')
    .orderBy([{ column: 'title' }, { column: 'id' }]);
  return rows.map((j) => ({ id: Number(j.id), public_id: j.public_id, title: j.title, status: j.status }));
}

/** Every job that is still a job post (not REMOVED), newest first: the dashboard's job rows. */
export async function listJobStats(db: Knex): Promise<JobStat[]> {
  const rows: Row[] = await db('jobs')
    .select('id', 'public_id', 'title', 'status', 'views', 'closes_at')
    .whereNot('status', 'REMOVED')
    .orderBy([...NEWEST_FIRST]);
  return rows.map((j) => ({
    id: Number(j.id),
    public_id: j.public_id,
    title: j.title,
    status: j.status,
    views: Number(j.views ?? 0),
    closes_at: fromDbDate(j.closes_at)?.toISOString() ?? null,
  }));
}

/**
 * Applicant counts for the dashboard and the HR job lists. They come from one GROUP BY job_id over
 * `applications`, which the database answers from an index starting with job_id
 * (applications_job_created_idx) without reading the rows; the NEW count is a range of
 * applications_status_created_idx. No per-job queries (no N+1).
 * The service reuses the totals while their stamp is unchanged, so a dashboard over 200,000
 * applications does not count them all on every request.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { TodayInterview } from './types.js';

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
  /** Per stage name across jobs, and the rejected count (below). */
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

/** Applicants per job and the NEW count; of these jobs only when `jobIds` is given (a hiring manager's dashboard). */
export async function applicantTotals(db: Knex, jobIds: readonly number[] | null = null): Promise<ApplicantTotals> {
  const newQuery = db('applications').where('status', 'NEW').count({ n: '*' });
  if (jobIds) newQuery.whereIn('job_id', jobIds.length ? [...jobIds] : [0]);
  const [byJob, newRows, perStage] = await Promise.all([
    applicantsByJob(db, jobIds ? [...jobIds] : undefined),
    newQuery as Promise<Row[]>,
    stageTotals(db, jobIds),
  ]);
  return { byJob, newCount: Number(newRows[0]?.n ?? 0), stages: perStage.stages, rejected: perStage.rejected };
}

/**
 * Applicants per stage across every job, summed by stage name (stages of removed jobs too, as
 * the dashboard's total counts their applicants), ordered by where the name usually sits
 * (its lowest position), and the rejected count. Counted per (job, outcome, stage) along
 * applications_board_idx, then summed here: one row per stage, not per application.
 */
async function stageTotals(
  db: Knex,
  jobIds: readonly number[] | null,
): Promise<{ stages: { name: string; applicants: number }[]; rejected: number }> {
  const countQuery = db('applications').select('job_id', 'outcome', 'stage_id').count({ n: '*' }).groupBy('job_id', 'outcome', 'stage_id');
  const stageQuery = db('job_stages as s').join('jobs as j', 'j.id', 's.job_id').select('s.id', 's.name', 's.position', 'j.status');
  if (jobIds) {
    countQuery.whereIn('job_id', jobIds.length ? [...jobIds] : [0]);
    stageQuery.whereIn('s.job_id', jobIds.length ? [...jobIds] : [0]);
  }
  const [counts, stages]: [Row[], Row[]] = await Promise.all([countQuery, stageQuery]);
  const byId = new Map(stages.map((s) => [Number(s.id), s]));
  const totals = new Map<string, { name: string; applicants: number; position: number }>();
  const add = (name: string, position: number, n: number) => {
    const key = name.toLocaleLowerCase('en');
    const t = totals.get(key) ?? { name, applicants: 0, position };
    t.applicants += n;
    t.position = Math.min(t.position, position);
    totals.set(key, t);
  };
  // Every stage name of a live job is listed, with 0 when empty.
  for (const s of stages) if (s.status !== 'REMOVED') add(String(s.name), Number(s.position), 0);
  let rejected = 0;
  for (const r of counts) {
    if (r.outcome === 'REJECTED') {
      rejected += Number(r.n);
      continue;
    }
    const s = r.stage_id === null ? undefined : byId.get(Number(r.stage_id));
    if (s) add(String(s.name), Number(s.position), Number(r.n));
  }
  const list = [...totals.values()].sort((x, y) => x.position - y.position || (x.name < y.name ? -1 : 1));
  return { stages: list.map(({ name, applicants }) => ({ name, applicants })), rejected };
}

/** Most interviews one day lists. */
const TODAY_MAX = 200;

/**
 * Issue 32: the scheduled interviews starting in [from, to) (a range of interviews_start_idx),
 * with their applicant and job; of those `userId` takes part in when given.
 */
export async function interviewsBetween(db: Knex, from: Date, to: Date, userId: number | null): Promise<TodayInterview[]> {
  const q = db('interviews as i')
    .join('applications as a', 'a.id', 'i.application_id')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('i.status', 'scheduled')
    .where('i.starts_at', '>=', toDbDate(from))
    .where('i.starts_at', '<', toDbDate(to))
    .orderBy([{ column: 'i.starts_at' }, { column: 'i.id' }])
    .limit(TODAY_MAX)
    .select(
      'i.id',
      'i.application_id',
      'a.first_name',
      'a.last_name',
      'j.title as job_title',
      'i.stage_name',
      'i.type',
      'i.starts_at',
      'i.ends_at',
      'i.time_zone',
      'i.video_url',
      'i.location',
    );
  if (userId !== null)
    q.whereExists((sub) =>
      sub.select(db.raw('1')).from('interview_participants as p').whereRaw('p.interview_id = i.id').where('p.hr_user_id', userId),
    );
  const rows: Row[] = await q;
  return rows.map((r) => ({
    id: Number(r.id),
    application_id: Number(r.application_id),
    applicant: `${r.first_name} ${r.last_name}`.trim(),
    job_title: r.job_title,
    stage_name: r.stage_name,
    type: r.type,
    starts_at: fromDbDate(r.starts_at)!.toISOString(),
    ends_at: fromDbDate(r.ends_at)!.toISOString(),
    time_zone: r.time_zone,
    video_url: r.video_url ?? null,
    location: r.location ?? null,
  }));
}

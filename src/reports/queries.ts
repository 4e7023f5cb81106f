/**
 * The reports' read models (docs/decisions/0011-stage-transition-ledger.md): read-only over
 * `applications` and the `stage_transitions` ledger (applicants'), `job_stages` (pipeline's),
 * `job_funnel_counts` (funnel's) and `jobs` (jobs'), as read models may (decision 0010). The cohort
 * is the applications made from `since` (included) to `until` (excluded), of one job or all.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';

type Row = Record<string, any>;

export interface Period {
  jobId: number | null;
  since: Date;
  until: Date;
  /** The same period as UTC days, both included ('YYYY-MM-DD'), for the funnel's day counts. */
  fromDay: string;
  toDay: string;
}

function cohort(db: Knex, p: Period, alias = 'a') {
  const q = db(`applications as ${alias}`)
    .where(`${alias}.created_at`, '>=', toDbDate(p.since))
    .where(`${alias}.created_at`, '<', toDbDate(p.until));
  if (p.jobId !== null) q.where(`${alias}.job_id`, p.jobId);
  return q;
}

export interface CohortCounts {
  bySource: { source: string | null; n: number }[];
  byPlace: { job_id: number; stage_id: number | null; outcome: string | null; n: number }[];
  reasons: { reason: string | null; n: number }[];
}

/** The cohort counted by source, by where it is now (stage and outcome), and its rejections by reason. */
export async function cohortCounts(db: Knex, p: Period): Promise<CohortCounts> {
  const [bySource, byPlace, reasons] = await Promise.all([
    cohort(db, p).select('a.source').count({ n: '*' }).groupBy('a.source'),
    cohort(db, p).select('a.job_id', 'a.stage_id', 'a.outcome').count({ n: '*' }).groupBy('a.job_id', 'a.stage_id', 'a.outcome'),
    cohort(db, p).where('a.outcome', 'REJECTED').select('a.outcome_reason').count({ n: '*' }).groupBy('a.outcome_reason'),
  ]);
  return {
    bySource: bySource.map((r: Row) => ({ source: r.source === null ? null : String(r.source), n: Number(r.n) })),
    byPlace: byPlace.map((r: Row) => ({
      job_id: Number(r.job_id),
      stage_id: r.stage_id === null ? null : Number(r.stage_id),
      outcome: r.outcome ?? null,
      n: Number(r.n),
    })),
    reasons: reasons.map((r: Row) => ({ reason: r.outcome_reason ?? null, n: Number(r.n) })),
  };
}

export interface LedgerEntry {
  application_id: number;
  job_id: number;
  to_stage_id: number | null;
  outcome: string | null;
  /** ms since the epoch. */
  at: number;
  created_at: number;
}

/** The cohort's ledger rows, each application's in order (its entry first). */
export async function cohortLedger(db: Knex, p: Period): Promise<LedgerEntry[]> {
  const rows: Row[] = await cohort(db, p)
    .join('stage_transitions as t', 't.application_id', 'a.id')
    .select('t.application_id', 'a.job_id', 't.to_stage_id', 't.outcome', 't.at', 'a.created_at')
    .orderBy([{ column: 't.application_id' }, { column: 't.at' }, { column: 't.id' }]);
  return rows.map((r) => ({
    application_id: Number(r.application_id),
    job_id: Number(r.job_id),
    to_stage_id: r.to_stage_id === null ? null : Number(r.to_stage_id),
    outcome: r.outcome ?? null,
    at: fromDbDate(r.at)!.getTime(),
    created_at: fromDbDate(r.created_at)!.getTime(),
  }));
}

export interface StageRow {
  id: number;
  job_id: number;
  name: string;
  position: number;
  hired: boolean;
}

/** The stages of one job, or of every job, in order. */
export async function stagesOf(db: Knex, jobId: number | null): Promise<StageRow[]> {
  const q = db('job_stages')
    .select('id', 'job_id', 'name', 'position', 'kind')
    .orderBy([{ column: 'job_id' }, { column: 'position' }]);
  if (jobId !== null) q.where('job_id', jobId);
  return (await q).map((r: Row) => ({
    id: Number(r.id),
    job_id: Number(r.job_id),
    name: String(r.name),
    position: Number(r.position),
    hired: r.kind === 'HIRED',
  }));
}

/** The funnel's counted visits per stage over the period's days ('reached' events), and the all-time view counter. */
export async function visitCounts(db: Knex, p: Period): Promise<{ steps: Map<string, number>; allTimeViews: number }> {
  const steps = db('job_funnel_counts')
    .where('event', 'reached')
    .whereBetween('day', [p.fromDay, p.toDay])
    .select('step')
    .sum({ n: 'count' })
    .groupBy('step');
  const views = db('jobs').sum({ n: 'views' });
  if (p.jobId !== null) {
    steps.where('job_id', p.jobId);
    views.where('id', p.jobId);
  }
  const [stepRows, viewRows] = await Promise.all([steps, views]);
  // MySQL answers SUM as a decimal string.
  return {
    steps: new Map(stepRows.map((r: Row) => [String(r.step), Number(r.n ?? 0)])),
    allTimeViews: Number((viewRows[0] as Row | undefined)?.n ?? 0),
  };
}

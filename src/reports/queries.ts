/**
 * The reports' read models (docs/decisions/0011-stage-transition-ledger.md): read-only over
 * `applications` and the `stage_transitions` ledger (applicants'), `job_stages` (pipeline's),
 * `job_funnel_counts` (funnel's), `interviews` (interviews') and `jobs` (jobs'), as read models may (decision 0010). The cohort
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
  byPlace: { stage_id: number | null; outcome: string | null; n: number }[];
  reasons: { reason: string | null; n: number }[];
}

/** The cohort counted by source, by where it is now (stage and outcome), and its rejections by reason: one pass over it. */
export async function cohortCounts(db: Knex, p: Period): Promise<CohortCounts> {
  const rows: Row[] = await cohort(db, p)
    .select('a.source', 'a.stage_id', 'a.outcome', 'a.outcome_reason')
    .count({ n: '*' })
    .groupBy('a.source', 'a.stage_id', 'a.outcome', 'a.outcome_reason');
  const sources = new Map<string | null, number>();
  const places = new Map<string, { stage_id: number | null; outcome: string | null; n: number }>();
  const reasons = new Map<string | null, number>();
  for (const r of rows) {
    const n = Number(r.n);
    const source = r.source === null ? null : String(r.source);
    const stageId = r.stage_id === null ? null : Number(r.stage_id);
    const outcome: string | null = r.outcome ?? null;
    sources.set(source, (sources.get(source) ?? 0) + n);
    const key = `${stageId}|${outcome}`;
    const place = places.get(key);
    if (place) place.n += n;
    else places.set(key, { stage_id: stageId, outcome, n });
    if (outcome === 'REJECTED') reasons.set(r.outcome_reason ?? null, (reasons.get(r.outcome_reason ?? null) ?? 0) + n);
  }
  return {
    bySource: [...sources].map(([source, n]) => ({ source, n })),
    byPlace: [...places.values()],
    reasons: [...reasons].map(([reason, n]) => ({ reason, n })),
  };
}

export interface LedgerEntry {
  application_id: number;
  to_stage_id: number | null;
  outcome: string | null;
  /** ms since the epoch; an application's first row is its entry, at its created_at. */
  at: number;
}

/** A stored time in ms: MySQL hands back a Date, SQLite the text toDbDate wrote (parsed without a Date per row). */
const msOf = (v: unknown): number => (typeof v === 'string' ? Date.parse(`${v.replace(' ', 'T')}Z`) : fromDbDate(v)!.getTime());

/**
 * The cohort's ledger rows, each application's together and in order (its entry first). The
 * ledger's (application_id, at, to_stage_id, outcome) index covers the rows read (migration 031).
 */
export async function cohortLedger(db: Knex, p: Period): Promise<LedgerEntry[]> {
  const rows: Row[] = await cohort(db, p)
    .join('stage_transitions as t', 't.application_id', 'a.id')
    .select('t.id', 't.application_id', 't.to_stage_id', 't.outcome', 't.at');
  const out: (LedgerEntry & { id: number })[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    out[i] = {
      id: Number(r.id),
      application_id: Number(r.application_id),
      to_stage_id: r.to_stage_id === null ? null : Number(r.to_stage_id),
      outcome: r.outcome ?? null,
      at: msOf(r.at),
    };
  }
  // Ordered here, not by the database: a sort of the join's result there costs a temporary B-tree.
  return out.sort((x, y) => x.application_id - y.application_id || x.at - y.at || x.id - y.id);
}

export interface FirstInterview {
  application_id: number;
  stage_id: number;
  /** When the first interview of the application at that stage was created (booked), ms since the epoch. */
  at: number;
}

/**
 * Issue 32: the cohort's first interview created per application and stage (cancelled ones too:
 * they were booked), along interviews_application_idx; interviews without a stage are left out.
 */
export async function cohortFirstInterviews(db: Knex, p: Period): Promise<FirstInterview[]> {
  const rows: Row[] = await cohort(db, p)
    .join('interviews as i', 'i.application_id', 'a.id')
    .whereNotNull('i.stage_id')
    .groupBy('i.application_id', 'i.stage_id')
    .select('i.application_id', 'i.stage_id')
    .min({ at: 'i.created_at' });
  return rows.map((r) => ({ application_id: Number(r.application_id), stage_id: Number(r.stage_id), at: msOf(r.at) }));
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

export interface ScorecardRow {
  application_id: number;
  job_id: number;
  /** The application's place now (stage and outcome), for its decision. */
  stage_id: number | null;
  outcome: string | null;
  ratings: unknown;
  submitted_at: number | null;
  /** When it is due from: the interview's time, else when it was asked for (ms). */
  due_from: number;
}

/** The cohort's scorecards (the scorecards feature's table, read-only), with their application's place now. */
export async function cohortScorecards(db: Knex, p: Period): Promise<ScorecardRow[]> {
  const rows: Row[] = await cohort(db, p)
    .join('scorecards as s', 's.application_id', 'a.id')
    .select('s.application_id', 'a.job_id', 'a.stage_id', 'a.outcome', 's.ratings', 's.submitted_at', 's.interview_at', 's.requested_at');
  return rows.map((r) => ({
    application_id: Number(r.application_id),
    job_id: Number(r.job_id),
    stage_id: r.stage_id === null ? null : Number(r.stage_id),
    outcome: r.outcome ?? null,
    ratings: r.ratings,
    submitted_at: r.submitted_at === null ? null : msOf(r.submitted_at),
    due_from: msOf(r.interview_at ?? r.requested_at),
  }));
}

/** Jobs' titles by id. */
export async function jobTitles(db: Knex, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows: Row[] = await db('jobs').whereIn('id', ids.slice(0, 1000)).select('id', 'title');
  return new Map(rows.map((r) => [Number(r.id), String(r.title)]));
}

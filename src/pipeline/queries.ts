/**
 * Read models of the pipeline (migration 013): a job's board and the dashboard's applicants per
 * stage. The board's counts are one GROUP BY over applications_board_idx (job_id, outcome,
 * stage_id, created_at, id), answered from the index alone without filters; each column's newest
 * cards are one range of the same index, read in its order and stopped after the page. The
 * search and status filters are the applicants list's own (queries/list.ts).
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { ApplicationStatus } from '../shared/enums.js';
import type { StageRow } from '../applicants/repo.js';
import { REJECTED_COLUMN, type BoardCard, type BoardColumn } from '../applicants/types.js';
import { filteredApplications, planSearch } from '../applicants/list.queries.js';

type Row = Record<string, any>;

interface BoardFilters {
  q: string;
  status: ApplicationStatus | null;
  date_from?: string | null;
  date_to?: string | null;
  source?: string | null;
}

const CARD_COLUMNS = ['a.id', 'a.first_name', 'a.last_name', 'a.status', 'a.created_at', 'a.stage_id', 'a.outcome_reason'];

const toCard = (r: Row): BoardCard => ({
  id: Number(r.id),
  name: `${r.first_name} ${r.last_name}`.trim(),
  status: r.status,
  created_at: fromDbDate(r.created_at)!.toISOString(),
  stage_id: r.stage_id === null ? null : Number(r.stage_id),
  outcome_reason: r.outcome_reason ?? null,
});

/**
 * The board's columns (every stage, then Rejected) with their counts and newest cards; with
 * `only`, just that column's cards from `offset` (show more).
 */
export async function boardColumns(
  db: Knex,
  jobId: number,
  stages: StageRow[],
  f: BoardFilters,
  limit: number,
  only: { column: number | 'rejected'; offset: number } | null,
): Promise<BoardColumn[]> {
  const filters = {
    job_id: jobId,
    q: f.q,
    status: f.status,
    date_from: f.date_from ?? null,
    date_to: f.date_to ?? null,
    source: f.source ?? null,
    ordering: '-created_at' as const,
  };
  const search = await planSearch(db, f.q);
  const base = () => filteredApplications(db, filters, search);
  const countRows: Row[] = await base().select('a.outcome', 'a.stage_id').count({ n: '*' }).groupBy('a.outcome', 'a.stage_id');
  const counts = new Map<string, number>();
  for (const r of countRows) {
    const key = r.outcome === 'REJECTED' ? 'rejected' : `stage-${r.stage_id}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(r.n));
  }
  const columns: { key: string; stage: StageRow | null }[] = [
    ...stages.map((s) => ({ key: `stage-${s.id}`, stage: s })),
    { key: 'rejected', stage: null },
  ];
  const wanted = only ? columns.filter((c) => (only.column === 'rejected' ? c.stage === null : c.stage?.id === only.column)) : columns;
  const offset = only?.offset ?? 0;
  const cards = await Promise.all(
    wanted.map(async (c) => {
      const q = base();
      if (c.stage) q.whereNull('a.outcome').where('a.stage_id', c.stage.id);
      else q.where('a.outcome', 'REJECTED');
      const rows: Row[] = await q
        .orderBy([
          { column: 'a.created_at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(limit + 1)
        .offset(offset)
        .select(CARD_COLUMNS);
      return rows;
    }),
  );
  return wanted.map((c, i) => ({
    key: c.key,
    stage_id: c.stage?.id ?? null,
    name: c.stage?.name ?? REJECTED_COLUMN,
    hired: c.stage?.kind === 'HIRED',
    count: counts.get(c.key) ?? 0,
    cards: cards[i].slice(0, limit).map(toCard),
    has_more: cards[i].length > limit,
  }));
}

/** The rejection reasons' names, in order. */
export async function reasonNames(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('rejection_reasons')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('name');
  return rows.map((r) => String(r.name));
}

/**
 * Applicants per stage across every job, summed by stage name (stages of removed jobs too, as
 * the dashboard's total counts their applicants), ordered by where the name usually sits
 * (its lowest position), and the rejected count. Counted per (job, outcome, stage) along
 * applications_board_idx, then summed here: one row per stage, not per application.
 */
export async function stageTotals(db: Knex): Promise<{ stages: { name: string; applicants: number }[]; rejected: number }> {
  const [counts, stages]: [Row[], Row[]] = await Promise.all([
    db('applications').select('job_id', 'outcome', 'stage_id').count({ n: '*' }).groupBy('job_id', 'outcome', 'stage_id'),
    db('job_stages as s').join('jobs as j', 'j.id', 's.job_id').select('s.id', 's.name', 's.position', 'j.status'),
  ]);
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

/** The stage names of live jobs, for the list's stage filter: each name once, in its usual place. */
export async function stageNames(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('job_stages as s')
    .join('jobs as j', 'j.id', 's.job_id')
    .whereNot('j.status', 'REMOVED')
    .select('s.name')
    .min({ p: 's.position' })
    .groupBy('s.name');
  const seen = new Map<string, { name: string; p: number }>();
  for (const r of rows) {
    const key = String(r.name).toLocaleLowerCase('en');
    const p = Number(r.p);
    if (!seen.has(key) || seen.get(key)!.p > p) seen.set(key, { name: String(r.name), p });
  }
  return [...seen.values()].sort((x, y) => x.p - y.p || (x.name < y.name ? -1 : 1)).map((x) => x.name);
}

/**
 * What a board was computed from: the highest application id (every new application raises it;
 * read from the primary key) and the change counters raised by every status, stage and outcome
 * change, stage list change, purge and erase. An unchanged stamp means an unchanged board.
 */
export async function boardStamp(db: Knex): Promise<string> {
  const [[idRow], counters]: [Row[], Row[]] = await Promise.all([
    db('applications').max({ v: 'id' }),
    db('change_counters')
      .whereIn('name', ['applications.status', 'applications.stage', 'applications.removed'])
      .orderBy('name')
      .select('value'),
  ]);
  return `${idRow?.v ?? 0}|${counters.map((c) => c.value).join('|')}`;
}

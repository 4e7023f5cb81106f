/**
 * The board's columns (migration 013), a read model of applications: the counts are one GROUP BY
 * over applications_board_idx (job_id, outcome, stage_id, created_at, id), answered from the index
 * alone without filters; each column's newest cards are one range of the same index, read in its
 * order and stopped after the page. The search and status filters are the applicants list's own
 * (list.queries.ts). The pipeline feature reads it through index.ts.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { ApplicationStatus } from '../shared/enums.js';
import { REJECTED_COLUMN, type BoardCard, type BoardColumn } from './types.js';
import { filteredApplications, planSearch } from './list.queries.js';

/** A stage as the board lays it out (the pipeline feature's StageRow). */
export interface BoardStage {
  id: number;
  job_id: number;
  name: string;
  position: number;
  kind: string | null;
}

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
  next_interview_at: r.next_interview_at ? fromDbDate(r.next_interview_at)!.toISOString() : null,
});

/**
 * Issue 32: the card's next scheduled interview, one correlated MIN per card along
 * interviews_application_idx (application_id, starts_at); only for the page of cards read.
 */
function nextInterview(db: Knex, now: Date) {
  return db('interviews as i')
    .min('i.starts_at')
    .whereRaw('i.application_id = a.id')
    .where('i.status', 'scheduled')
    .where('i.starts_at', '>=', toDbDate(now))
    .as('next_interview_at');
}

/**
 * The board's columns (every stage, then Rejected) with their counts and newest cards; with
 * `only`, just that column's cards from `offset` (show more).
 */
export async function boardColumns(
  db: Knex,
  jobId: number,
  stages: BoardStage[],
  f: BoardFilters,
  limit: number,
  only: { column: number | 'rejected'; offset: number } | null,
  now: Date,
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
  const columns: { key: string; stage: BoardStage | null }[] = [
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
        .select([...CARD_COLUMNS, nextInterview(db, now)]);
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

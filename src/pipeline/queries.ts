/**
 * Read models of the pipeline's own tables (migration 013): the rejection reasons' names, the
 * stage names of live jobs, and the stamp a board is cached under. The board's columns are read by
 * the applicants feature (src/applicants/board.queries.ts), through its index.ts.
 */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import type { StageRow } from './repo.js';

type Row = Record<string, any>;

/** The rejection reasons' names, in order. */
export async function reasonNames(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('rejection_reasons')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('name');
  return rows.map((r) => String(r.name));
}

/**
 * The stage names of live jobs, for the list's stage filter: each name once, in its usual place.
 * Each distinct stored name with the first position a live job gives it: along job_stages_name_idx
 * (name, position, job_id), the name's stages by position until one of a job not removed (the
 * first, as a rule), instead of every job's stages joined and grouped (migration 036).
 */
export async function stageNames(db: Knex): Promise<string[]> {
  const firstLive = db('job_stages as s')
    .join('jobs as j', 'j.id', 's.job_id')
    .where('s.name', db.ref('n.name'))
    .whereNot('j.status', 'REMOVED')
    .orderBy('s.position')
    .limit(1)
    .select('s.position');
  const rows: Row[] = await db.from(db('job_stages').distinct('name').as('n')).select('n.name', { p: firstLive }).orderBy('n.name');
  const seen = new Map<string, { name: string; p: number }>();
  for (const r of rows) {
    if (r.p === null || r.p === undefined) continue;
    const key = String(r.name).toLocaleLowerCase('en');
    const p = Number(r.p);
    if (!seen.has(key) || seen.get(key)!.p > p) seen.set(key, { name: String(r.name), p });
  }
  return [...seen.values()].sort((x, y) => x.p - y.p || (x.name < y.name ? -1 : 1)).map((x) => x.name);
}

/** A board's heading: its job's id, title, public id and status. */
export interface BoardJob {
  id: number;
  title: string;
  public_id: string;
  status: string;
}

/**
 * A job as a board's heading shows it (not its texts or questions) and its stages in order, in
 * one read; null for an unknown job.
 */
export async function jobAndStages(db: Knex, jobId: number): Promise<{ job: BoardJob; stages: StageRow[] } | null> {
  const rows: Row[] = await db('jobs as j')
    .leftJoin('job_stages as s', 's.job_id', 'j.id')
    .where('j.id', jobId)
    .orderBy([{ column: 's.position' }, { column: 's.id' }])
    .select('j.id', 'j.title', 'j.public_id', 'j.status', 's.id as stage_id', 's.name as stage_name', 's.position', 's.kind');
  if (!rows.length) return null;
  const [first] = rows;
  return {
    job: { id: Number(first.id), title: first.title, public_id: first.public_id, status: first.status },
    stages: rows
      .filter((r) => r.stage_id !== null)
      .map((r) => ({
        id: Number(r.stage_id),
        job_id: jobId,
        name: String(r.stage_name),
        position: Number(r.position),
        kind: r.kind ?? null,
      })),
  };
}

/** A stamp's part: dates (MySQL answers Date objects) to the millisecond, other values as they are. */
const part = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v ?? ''));

/**
 * What a board was computed from: the highest application id (every new application raises it;
 * read from the primary key) and the change counters raised by every status, stage and outcome
 * change, stage list change, purge and erase. An unchanged stamp means an unchanged board.
 * One statement (a row of scalar subqueries, each an index read): on MySQL every statement is a
 * round trip and a parse, which cost more than these reads.
 */
export async function boardStamp(db: Knex, now: Date): Promise<string> {
  const counter = (name: string) => db('change_counters').where('name', name).select('value');
  const [row]: Row[] = await db.select({
    app: db('applications').max('id'),
    status: counter('applications.status'),
    stage: counter('applications.stage'),
    removed: counter('applications.removed'),
    // Issue 32, the cards' next interview: every write to an interview sets its updated_at, and
    // the first upcoming start (a range of interviews_start_idx) moves on once that interview begins.
    changed: db('interviews').max('updated_at'),
    interviews: db('interviews').count('*'),
    upcoming: db('interviews').where('status', 'scheduled').where('starts_at', '>=', toDbDate(now)).min('starts_at'),
  });
  return [row.app, row.status, row.stage, row.removed, row.changed, row.interviews, row.upcoming].map(part).join('|');
}

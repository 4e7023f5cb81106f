/**
 * Read models of the pipeline's own tables (migration 013): the rejection reasons' names, the
 * stage names of live jobs, and the stamp a board is cached under. The board's columns are read by
 * the applicants feature (src/applicants/board.queries.ts), through its index.ts.
 */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';

type Row = Record<string, any>;

/** The rejection reasons' names, in order. */
export async function reasonNames(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('rejection_reasons')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('name');
  return rows.map((r) => String(r.name));
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
export async function boardStamp(db: Knex, now: Date): Promise<string> {
  const [[idRow], counters, [changed], [upcoming]]: [Row[], Row[], Row[], Row[]] = await Promise.all([
    db('applications').max({ v: 'id' }),
    db('change_counters')
      .whereIn('name', ['applications.status', 'applications.stage', 'applications.removed'])
      .orderBy('name')
      .select('value'),
    // Issue 32, the cards' next interview: every write to an interview sets its updated_at, and
    // the first upcoming start (a range of interviews_start_idx) moves on once that interview begins.
    db('interviews').max({ v: 'updated_at' }).count({ n: '*' }),
    db('interviews').where('status', 'scheduled').where('starts_at', '>=', toDbDate(now)).min({ v: 'starts_at' }),
  ]);
  const interviews = `${String(changed?.v ?? '')}/${changed?.n ?? 0}/${String(upcoming?.v ?? '')}`;
  return `${idRow?.v ?? 0}|${counters.map((c) => c.value).join('|')}|${interviews}`;
}

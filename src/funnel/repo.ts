/** The only writer of `job_funnel_counts`: adds a batch of counts with atomic upserts. */
import type { Knex } from 'knex';
import { withDbRetry } from '../db/errors.js';
import type { Device, FunnelEvent, FunnelStage } from './types.js';

export interface FunnelCount {
  jobId: number;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  step: FunnelStage;
  event: FunnelEvent;
  device: Device;
  count: number;
}

const KEY = ['job_id', 'day', 'step', 'event', 'device'];
const ROWS_PER_STATEMENT = 200;

const keyOf = (c: FunnelCount) => [c.jobId, c.day, c.step, c.event, c.device].join('\u0000');

/**
 * Adds each count to its row, creating the row the first time: INSERT ... ON CONFLICT DO UPDATE
 * (SQLite) / ON DUPLICATE KEY UPDATE (MySQL) with `count = count + the new count`, so processes
 * flushing at the same moment add up instead of overwriting each other. Rows go in key order, so
 * two processes lock them in the same order; a batch the database rolls back (deadlock victim,
 * busy) runs again whole.
 */
export async function addFunnelCounts(db: Knex, counts: FunnelCount[]): Promise<void> {
  const mysql = db.client.config.client === 'mysql2';
  const increment = mysql
    ? db.raw('?? + VALUES(??)', ['count', 'count'])
    : db.raw('??.?? + excluded.??', ['job_funnel_counts', 'count', 'count']);
  const sorted = counts
    .map((c) => ({ c, key: keyOf(c) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ c }) => c);
  const rows = sorted.map((c) => ({ job_id: c.jobId, day: c.day, step: c.step, event: c.event, device: c.device, count: c.count }));
  const upsert = (q: Knex, part: typeof rows) => q('job_funnel_counts').insert(part).onConflict(KEY).merge({ count: increment });
  // A batch is added whole or not at all, so a failed flush may hold it for the next: one
  // statement is that already (and holds SQLite's write lock for no await); more share a transaction.
  if (rows.length <= ROWS_PER_STATEMENT) return void (await withDbRetry(() => upsert(db, rows)));
  await withDbRetry(() =>
    db.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await upsert(trx, rows.slice(i, i + ROWS_PER_STATEMENT));
    }),
  );
}

/** Status changes of applications (HR), locked in one order and written in chunks. */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { ApplicationStatus } from '../shared/enums.js';
import { ID_CHUNK } from './repo.js';

/**
 * Sets the status of those of `ids` that have another one; answers which ids exist and what
 * changed (id and the status it had). The rows are locked first (FOR UPDATE on MySQL) in one
 * order, ascending id, chunk after chunk, so two changes over overlapping applications wait for
 * each other instead of deadlocking, and two changes of one application are written, and
 * audited, one after the other.
 */
export async function updateStatuses(
  trx: Knex,
  ids: number[],
  status: ApplicationStatus,
  now: Date,
): Promise<{ found: Set<number>; changed: { id: number; from: ApplicationStatus }[] }> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const found = new Set<number>();
  const changed: { id: number; from: ApplicationStatus }[] = [];
  for (let i = 0; i < sorted.length; i += ID_CHUNK) {
    const q = trx('applications')
      .select('id', 'status')
      .whereIn('id', sorted.slice(i, i + ID_CHUNK))
      .orderBy('id');
    // SQLite has one writer at a time already (and Knex warns on FOR UPDATE there).
    const rows: { id: number; status: ApplicationStatus }[] = await (isMysql(trx) ? q.forUpdate() : q);
    for (const r of rows) {
      found.add(Number(r.id));
      if (r.status !== status) changed.push({ id: Number(r.id), from: r.status });
    }
  }
  for (let i = 0; i < changed.length; i += ID_CHUNK) {
    await trx('applications')
      .whereIn(
        'id',
        changed.slice(i, i + ID_CHUNK).map((c) => c.id),
      )
      .update({ status, updated_at: toDbDate(now) });
  }
  return { found, changed };
}

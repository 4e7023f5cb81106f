/**
 * What /readyz and /metrics read from the database. Bounded: a `select 1`, and at scrape time one
 * count of `applications` and one grouped count per outbox table (read-only, as read models may).
 */
import type { Db } from '../db/knex.js';
import { fromDbDate, toDbDate } from '../db/codecs.js';

export async function pingDatabase(db: Db): Promise<void> {
  await db.raw('select 1');
}

export async function countApplications(db: Db): Promise<number> {
  const [{ n }] = await db('applications').count({ n: '*' });
  return Number(n);
}

/** The outbox tables by the `kind` label /metrics gives them. */
const OUTBOXES = { application: 'application_posts', email: 'email_posts', form: 'form_posts' } as const;

export interface OutboxStats {
  kind: keyof typeof OUTBOXES;
  /** Posts per status (PENDING, SUCCESS, FAILED). */
  byStatus: { status: string; count: number }[];
  /** When the longest-waiting post that is due now (PENDING, next_attempt_at <= now) became due; null: none is. */
  oldestDueAt: Date | null;
}

/** One grouped query per outbox: its counts by status and its oldest due post. */
export async function outboxStats(db: Db, now: Date): Promise<OutboxStats[]> {
  const stats: OutboxStats[] = [];
  for (const [kind, table] of Object.entries(OUTBOXES) as [keyof typeof OUTBOXES, string][]) {
    const rows: { status: string; n: unknown; oldest: unknown }[] = await db(table)
      .select(
        'status',
        db.raw('count(*) as n'),
        db.raw("min(case when status = 'PENDING' and next_attempt_at <= ? then next_attempt_at end) as oldest", [toDbDate(now)]),
      )
      .groupBy('status');
    const oldest = rows.map((r) => fromDbDate(r.oldest)).filter((d): d is Date => d !== null);
    stats.push({
      kind,
      byStatus: rows.map((r) => ({ status: r.status, count: Number(r.n) })),
      oldestDueAt: oldest.length ? oldest[0] : null,
    });
  }
  return stats;
}

/** Connections of the pool lent out right now (0 once the pool is gone). */
export function poolInUse(db: Db): number {
  const pool = (db.client as { pool?: { numUsed(): number } }).pool;
  return pool ? pool.numUsed() : 0;
}

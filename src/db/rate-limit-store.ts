/**
 * express-rate-limit's store in the database (table rate_limit_hits), so every process behind a
 * load balancer shares the counters. Increments are atomic on both databases. A row's key is the
 * limiter's name and a keyed hash (the server key) of what it counts (a client address, a
 * username), never the address itself; expired windows are deleted by the sweep.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from './codecs.js';
import { withDbRetry } from './errors.js';
import { isMysql } from './knex.js';
import type { ServerKey } from './server-key.js';

interface HitsRow {
  hits: number | string;
  reset_at: unknown;
}

export class KnexRateLimitStore implements Store {
  windowMs = 60_000;
  localKeys = false;
  constructor(
    private readonly db: Knex,
    public readonly prefix: string,
    private readonly serverKey: ServerKey,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private async key(key: string): Promise<string> {
    return `${this.prefix.slice(0, 100)}:${await this.serverKey.hash(key)}`;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = await this.db('rate_limit_hits')
      .where({ key: await this.key(key) })
      .first();
    if (!row) return undefined;
    const resetTime = fromDbDate(row.reset_at)!;
    return resetTime <= new Date() ? undefined : { totalHits: Number(row.hits), resetTime };
  }

  /**
   * Counts one hit and reads the count back as one atomic step, so simultaneous requests never
   * see each other's hits (an increment followed by a separate read let all of them see the
   * final count and refused too many). The window starts again once `reset_at` has passed.
   */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    const k = await this.key(key);
    const now = new Date();
    const nowDb = toDbDate(now);
    const reset = toDbDate(new Date(now.getTime() + this.windowMs));
    const row = isMysql(this.db) ? await this.incrementMysql(k, nowDb, reset) : await this.incrementSqlite(k, nowDb, reset);
    return { totalHits: Number(row.hits), resetTime: fromDbDate(row.reset_at)! };
  }

  /** SQLite: one upsert statement that returns the row it wrote (SQLite runs one writer at a time). */
  private async incrementSqlite(k: string, nowDb: string, reset: string): Promise<HitsRow> {
    const rows: HitsRow[] = await this.db.raw(
      `INSERT INTO rate_limit_hits (\`key\`, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (\`key\`) DO UPDATE SET
         hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN 1 ELSE rate_limit_hits.hits + 1 END,
         reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN excluded.reset_at ELSE rate_limit_hits.reset_at END
       RETURNING hits, reset_at`,
      [k, reset, nowDb, nowDb],
    );
    return rows[0];
  }

  /**
   * MySQL/MariaDB: MySQL 8 has no RETURNING, so the upsert hands the new count back the way
   * MySQL's manual makes sequences: `hits = LAST_INSERT_ID(...)` puts it in the statement's OK
   * packet (insertId), one atomic statement that holds the row's lock for no round trip. A new row
   * leaves insertId 0. The assignments run left to right and each sees the columns already
   * assigned, so `hits` is computed first, from the old `reset_at`. A count of 1 started a window
   * that ends at `reset`; a running window's end is read after (it only moves when it ends).
   */
  private async incrementMysql(k: string, nowDb: string, reset: string): Promise<HitsRow> {
    const [result] = await withDbRetry(() =>
      this.db.raw(
        `INSERT INTO rate_limit_hits (\`key\`, hits, reset_at) VALUES (?, 1, ?)
         ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(IF(reset_at <= ?, 1, hits + 1)), reset_at = IF(reset_at <= ?, ?, reset_at)`,
        [k, reset, nowDb, nowDb, reset],
      ),
    );
    const hits = Number((result as { insertId?: number }).insertId) || 1;
    if (hits === 1) return { hits, reset_at: reset };
    const row = (await this.db('rate_limit_hits').select('reset_at').where({ key: k }).first()) as { reset_at: unknown } | undefined;
    return { hits, reset_at: row?.reset_at ?? reset };
  }

  async decrement(key: string): Promise<void> {
    await this.db('rate_limit_hits')
      .where({ key: await this.key(key) })
      .where('hits', '>', 0)
      .decrement('hits', 1);
  }

  async resetKey(key: string): Promise<void> {
    await this.db('rate_limit_hits')
      .where({ key: await this.key(key) })
      .delete();
  }
}

/** Deletes the windows that ended before `now` (the sweep); answers how many went. */
export async function deleteExpiredWindows(db: Knex, now: Date): Promise<number> {
  return db('rate_limit_hits').where('reset_at', '<', toDbDate(now)).delete();
}

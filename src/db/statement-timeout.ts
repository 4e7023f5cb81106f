/**
 * The MySQL statement timeout (DATABASE_STATEMENT_TIMEOUT_SECONDS): every statement a pooled
 * mysql2 connection runs for Knex gets mysql2's `timeout` (its whole run, from sending to the last
 * row). When it passes, the statement fails with PROTOCOL_SEQUENCE_TIMEOUT (a 503, and for a
 * COMMIT an unknown outcome, as a cut connection) and the connection is destroyed: its late answer,
 * if the network ever comes back, must not reach the next statement, and the pool replaces it.
 * Streamed reads (exports, which run as long as their rows) and migrations (long ALTERs) run
 * without it.
 */
import type { Knex } from 'knex';

interface Limit {
  ms: number;
}

/** Each database handle's current limit, read by its connections at every statement. */
const limits = new WeakMap<object, Limit>();

interface MysqlConnection {
  query: (...args: unknown[]) => unknown;
  destroy: () => void;
}

type Callback = (err: { code?: string } | null, ...rest: unknown[]) => void;

/** The limit object a new handle's connections follow (createDb registers it with `registerLimit`). */
export function statementLimit(seconds: number): Limit {
  return { ms: seconds * 1000 };
}

export function registerLimit(db: Knex, limit: Limit): void {
  limits.set(db.client, limit);
}

/** Makes `conn` (a new mysql2 connection) follow `limit`. */
export function limitStatements(conn: MysqlConnection, limit: Limit): void {
  const query = conn.query.bind(conn);
  conn.query = (sql: unknown, values?: unknown, done?: unknown) => {
    // Knex's statements come as (options, bindings, callback); a stream has no callback.
    if (limit.ms <= 0 || typeof done !== 'function' || !sql || typeof sql !== 'object' || 'timeout' in sql) return query(sql, values, done);
    return query({ ...(sql as object), timeout: limit.ms }, values, (err: { code?: string } | null, ...rest: unknown[]) => {
      if (err?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') conn.destroy();
      (done as Callback)(err, ...rest);
    });
  };
}

/** Runs `work` (migrations) with no statement limit on `db`, then puts the limit back. */
export async function withoutStatementTimeout<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const limit = limits.get(db.client);
  if (!limit) return work();
  const ms = limit.ms;
  limit.ms = 0;
  try {
    return await work();
  } finally {
    limit.ms = ms;
  }
}

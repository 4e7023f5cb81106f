/**
 * Long reads (an export of 50,000 applicants reads every one of them, batch after batch) on a
 * connection of their own on SQLite: a read-only one opened for the read and closed after it,
 * with SQLite's own page cache (2 MB) instead of the shared connection's SQLITE_CACHE_MB. So an
 * export neither fills the shared connection's cache with pages nobody reads again (up to 64 MB
 * more memory for the process, bench/README.md, HR back office) nor pushes out the pages other
 * reads use; WAL lets it read beside the writer. On MySQL the pool's own connections serve (the
 * database's buffer pool is not the process's memory), as they do for a SQLite database in memory.
 */
import knexFactory, { type Knex } from 'knex';
import { isMysql } from './knex.js';

/** The batches `read` yields from a connection of its own (see above); closed when they end or are stopped. */
export async function* readAlone<T>(db: Knex, read: (reader: Knex) => AsyncIterable<T>): AsyncGenerator<T> {
  const filename = isMysql(db) ? null : (db.client.config.connection as { filename?: string } | undefined)?.filename;
  if (!filename || filename === ':memory:') {
    yield* read(db);
    return;
  }
  const reader = knexFactory({
    client: 'better-sqlite3',
    connection: { filename, options: { readonly: true } },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) {
        // As the shared connection: wait for a lock instead of failing at once.
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
  try {
    yield* read(reader);
  } finally {
    await reader.destroy();
  }
}

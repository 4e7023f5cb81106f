/**
 * Database faults injected for real, on both databases, for the fault tests (commit outcome
 * unknown, outage):
 * - MySQL: the test server talks to MariaDB through a TCP proxy (tcp-proxy.ts) that can drop a
 *   connection exactly around a statement, or stop (connections cut, new ones refused);
 * - SQLite (embedded, no connection to lose): the pool's own better-sqlite3 handle is closed
 *   under it, just before a statement (optionally after running a COMMIT on it first), and the
 *   database file is made impossible to open (SQLITE_CANTOPEN) for an outage.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { createDb } from '../../src/db/knex.js';
import { startTestServer, type TestServer } from './server.js';
import type { DbKind } from './db.js';
import type { SqliteHandle } from './sqlite.js';
import { mysqlTarget, startTcpProxy, viaProxy, type TcpProxy } from './tcp-proxy.js';

export interface FaultyServer {
  s: TestServer;
  /** MySQL only. */
  proxy: TcpProxy | null;
  /**
   * The next statement matching `pattern` on the server's database fails as its connection
   * drops: `before` it runs, or `after` (COMMIT only: it commits, then the connection drops).
   * Resolves once the fault happened.
   */
  failNext(pattern: RegExp, when: 'before' | 'after'): Promise<void>;
  /** The database goes away: connections cut and refused (MySQL), the file cannot be opened (SQLite). */
  takeDatabaseAway(): Promise<void>;
  bringDatabaseBack(): Promise<void>;
  close(): Promise<void>;
}

/** The pool's raw better-sqlite3 handles (tarn keeps them in `used` and `free`). */
function sqliteHandles(db: Knex): (SqliteHandle & { __knexUid?: string })[] {
  const pool = (db.client as { pool: { used: { resource: any }[]; free: { resource: any }[] } }).pool;
  return [...pool.used, ...pool.free].map((r) => r.resource);
}

const SQLITE_FILES = ['careers.sqlite', 'careers.sqlite-wal', 'careers.sqlite-shm'];

/** `listen`: as startTestServer's (a test watching an HTTP deadline scales them down). */
export async function startFaultyServer(
  kind: DbKind,
  env: Record<string, string> = {},
  listen: Parameters<typeof startTestServer>[3] = {},
): Promise<FaultyServer> {
  if (kind === 'mysql') {
    const proxy = await startTcpProxy(mysqlTarget(process.env.TEST_MYSQL_URL!));
    // The test database's settings (its DATABASE_*_TIMEOUT_SECONDS too), through the proxy.
    const s = await startTestServer(
      kind,
      env,
      (t) => ({ db: createDb({ ...t.config, databaseUrl: viaProxy(t.config.databaseUrl!, proxy) }) }),
      listen,
    );
    return {
      s,
      proxy,
      failNext: (pattern, when) => proxy.failNext(pattern, when),
      takeDatabaseAway: () => proxy.stop(),
      bringDatabaseBack: () => proxy.start(),
      close: async () => {
        proxy.heal();
        await proxy.start();
        await s.close();
        await proxy.close();
      },
    };
  }

  const s = await startTestServer(kind, env, {}, listen);
  const db = s.ctx.db;
  const dir = s.testDb.dataDir;
  const moved = path.join(dir, 'moved-away');
  let away = false;
  const back = async () => {
    if (!away) return;
    away = false;
    fs.rmdirSync(path.join(dir, 'careers.sqlite'));
    for (const f of SQLITE_FILES) if (fs.existsSync(path.join(moved, f))) fs.renameSync(path.join(moved, f), path.join(dir, f));
  };
  return {
    s,
    proxy: null,
    failNext: (pattern, when) =>
      new Promise<void>((resolve) => {
        const onQuery = (q: { sql: string; __knexUid?: string }) => {
          if (!pattern.test(q.sql)) return;
          db.off('query', onQuery);
          // Knex announces the statement just before it runs it on this handle.
          const handle = sqliteHandles(db).find((h) => h.__knexUid === q.__knexUid)!;
          if (when === 'after') handle.exec(q.sql);
          handle.close(); // an open transaction is rolled back; the statement then fails: "The database connection is not open"
          resolve();
        };
        db.on('query', onQuery);
      }),
    takeDatabaseAway: async () => {
      away = true;
      // The open handle would go on using the moved file: closed first, so the pool must open the path again.
      for (const h of sqliteHandles(db)) if (h.open) h.close();
      fs.mkdirSync(moved, { recursive: true });
      for (const f of SQLITE_FILES) if (fs.existsSync(path.join(dir, f))) fs.renameSync(path.join(dir, f), path.join(moved, f));
      // A folder where the file was: opening it fails with SQLITE_CANTOPEN.
      fs.mkdirSync(path.join(dir, 'careers.sqlite'));
    },
    bringDatabaseBack: back,
    close: async () => {
      await back();
      await s.close();
    },
  };
}

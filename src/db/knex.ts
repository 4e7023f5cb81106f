/**
 * Knex factory: embedded SQLite (better-sqlite3) when DATABASE_URL is unset, MySQL/MariaDB otherwise.
 * Both speak UTC: MySQL sessions are set to +00:00 and mysql2 reads DATETIMEs as UTC.
 */
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { sqliteFile, type Config } from '../../config/index.js';
import { dbLog } from './errors.js';
import { migrationSource } from './migrations.js';
import { processLog } from '../log/logger.js';
import { limitStatements, registerLimit, statementLimit } from './statement-timeout.js';

/** The database handle (or a transaction) as services and routes pass it on; only repos and queries build statements on it. */
export type Db = Knex;

export function isMysql(db: Knex): boolean {
  return db.client.config.client === 'mysql2';
}

/**
 * After an erase or purge on SQLite: every change is copied from the write-ahead log into the
 * database file (where secure_delete has zeroed the deleted rows) and the log is emptied, so no
 * old copy of an erased row stays in the -wal file. Nothing to do on MySQL (see the README's privacy
 * section for what its operator does). A checkpoint that another connection holds up is retried by
 * the next one.
 */
export async function flushDeleted(db: Knex): Promise<void> {
  if (!isMysql(db)) await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
}

/** READ COMMITTED on MySQL; SQLite has one writer at a time and only serializable transactions. */
export function readCommitted(db: Knex): Knex.TransactionConfig | undefined {
  return isMysql(db) ? { isolationLevel: 'read committed' } : undefined;
}

/**
 * Knex's own warnings (every failed connection attempt is logged with the driver's stack) as one
 * line each, sharing the database's throttled log with the failures callers report themselves,
 * so an outage writes about one line a second in all.
 */
const firstLine = (message: unknown) => String(message instanceof Error ? message.message : message).split('\n')[0];
const knexLog = {
  warn: (m: unknown) => dbLog.log(`[db] ${firstLine(m)}`),
  error: (m: unknown) => dbLog.log(`[db] ${firstLine(m)}`),
  deprecate: (method: string, alternative: string) => processLog().warn(`[db] ${method} is deprecated, use ${alternative}`),
  debug: () => undefined,
};

type DbSettings = Pick<Config, 'databaseUrl' | 'dataDir'> &
  Partial<
    Pick<
      Config,
      | 'databasePoolMax'
      | 'sqliteCacheMb'
      | 'databaseAcquireTimeoutSeconds'
      | 'databaseConnectTimeoutSeconds'
      | 'databaseStatementTimeoutSeconds'
    >
  >;

/**
 * How long a query waits for a connection (a free one from the pool, or a new one to MySQL),
 * how long a new MySQL connection may take, and how long one MySQL statement may wait for its
 * answer (DATABASE_*_TIMEOUT_SECONDS): while the database is down, saturated or cut off by a
 * network partition that closes nothing, requests fail with a 503 in seconds instead of hanging
 * for Knex's default 60 s, or for minutes on a connection whose answers never come.
 */
export function createDb(config: DbSettings): Knex {
  const acquireMs = (config.databaseAcquireTimeoutSeconds ?? 5) * 1000;
  if (config.databaseUrl) {
    const url = config.databaseUrl.replace(/^mysql:/, 'mysql2:').replace(/^mysql2:/, 'mysql:');
    const limit = statementLimit(config.databaseStatementTimeoutSeconds ?? 10);
    const db = knexFactory({
      client: 'mysql2',
      connection: {
        uri: url,
        charset: 'utf8mb4',
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: false,
        decimalNumbers: true,
        connectTimeout: (config.databaseConnectTimeoutSeconds ?? 5) * 1000,
      } as Knex.MySql2ConnectionConfig,
      acquireConnectionTimeout: acquireMs,
      pool: {
        min: 0,
        max: config.databasePoolMax ?? 10,
        afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
          conn.query("SET time_zone = '+00:00'", (err: Error | null) => {
            if (!err) limitStatements(conn, limit);
            done(err, conn);
          });
        },
      },
      migrations: { migrationSource, tableName: 'knex_migrations' },
      log: knexLog,
    });
    registerLimit(db, limit);
    return db;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: sqliteFile(config) },
    useNullAsDefault: true,
    acquireConnectionTimeout: acquireMs,
    pool: {
      min: 1,
      max: 1,
      // A handle closed under the pool (after an I/O failure) is replaced, not handed out again.
      validate: (conn: { open: boolean }) => conn.open,
      afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
        // WAL lets readers run beside the writer; busy_timeout makes a second process (the CLI)
        // wait for the lock instead of failing; foreign keys are off by default in SQLite.
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
        conn.pragma('foreign_keys = ON');
        // Deleted rows are overwritten with zeros, not left readable in free pages (erasure, purge).
        conn.pragma('secure_delete = ON');
        // A page cache of SQLITE_CACHE_MB (64 MB; SQLite's own default is 2 MB): analytics and
        // exports read large index ranges. A negative cache_size is in KiB.
        conn.pragma(`cache_size = -${(config.sqliteCacheMb ?? 64) * 1024}`);
        keepStatements(conn);
        keepStatistics(conn);
        done(null, conn);
      },
    },
    migrations: { migrationSource, tableName: 'knex_migrations' },
    log: knexLog,
  });
}

/** Prepared statements a SQLite connection keeps; past this many it starts again (one-off SQL, such as migrations). */
const KEPT_STATEMENTS = 500;

/**
 * Knex prepares every query again on better-sqlite3, which cost a public page as much as running
 * its queries (bench/README, public pages). The connection keeps its prepared statements by SQL
 * text instead (values are bound per run; SQLite re-prepares a statement itself after a schema
 * change). Safe because better-sqlite3 runs a statement to its end before anything else runs.
 */
function keepStatements(conn: { prepare: (sql: string) => unknown }): void {
  const prepare = conn.prepare.bind(conn);
  const statements = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= KEPT_STATEMENTS) statements.clear();
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/** How long a SQLite statement waits for another process's write lock. */
const BUSY_TIMEOUT_MS = 5000;

/** How often a SQLite connection refreshes the planner's statistics (PRAGMA optimize). */
const OPTIMIZE_EVERY_MS = 3_600_000;

/**
 * The planner's statistics (sqlite_stat1), as SQLite advises for long-lived connections: when
 * the connection opens, and then hourly, `PRAGMA optimize` runs ANALYZE on the tables that have
 * none or that grew much since, sampling about 400 rows per index (`analysis_limit`: 0.2 s for
 * 200,000 applications instead of 1.2 s for an exact count). Without statistics SQLite takes
 * an equality on `status` (three values) for as selective as one on `job_id`, and read the
 * applicants list of a job, a status and a year along the status index (50 ms instead of 0.02).
 * MySQL keeps its own statistics.
 */
function keepStatistics(conn: { pragma: (sql: string) => unknown; open: boolean }): void {
  conn.pragma('analysis_limit = 400');
  optimizeNow(conn, 'optimize = 0x10002');
  const timer = setInterval(() => {
    if (!conn.open) clearInterval(timer);
    else optimizeNow(conn, 'optimize');
  }, OPTIMIZE_EVERY_MS);
  timer.unref();
}

/**
 * One `PRAGMA optimize`, which writes sqlite_stat1: without waiting for the write lock (another
 * process writing, such as the CLI, only puts it off to the next time), and never failing the
 * connection.
 */
function optimizeNow(conn: { pragma: (sql: string) => unknown }, pragma: string): void {
  conn.pragma('busy_timeout = 0');
  try {
    conn.pragma(pragma);
  } catch (err) {
    // Another process holding the write lock is the expected case, not a fault.
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') dbLog.log(`[db] statistics not refreshed: ${(err as Error).message}`);
  } finally {
    conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** Whether the database answers a trivial query (careers-admin doctor). */
export async function pingDb(db: Knex): Promise<void> {
  await db.raw('select 1');
}

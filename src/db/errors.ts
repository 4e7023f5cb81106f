/**
 * Recognises database errors from either driver (mysql2, better-sqlite3) and Knex, so services
 * can answer 400 instead of 500 for constraint violations, and 503 instead of 500 while the
 * database cannot be reached.
 */
import { ThrottledLog } from './throttled-log.js';
import { processLog } from '../log/logger.js';

interface DriverError {
  code?: unknown;
  errno?: unknown;
  fatal?: unknown;
  name?: unknown;
  message?: unknown;
}

const asError = (err: unknown): DriverError | null => (err && typeof err === 'object' ? (err as DriverError) : null);

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return (
    !!e &&
    (e.code === 'ER_DUP_ENTRY' || e.errno === 1062 || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return !!e && (e.code === 'ER_NO_REFERENCED_ROW_2' || e.code === 'ER_ROW_IS_REFERENCED_2' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY');
}

/**
 * Errors after which the database asks for the transaction to run again: MySQL picked it as a
 * deadlock victim or its lock wait timed out, or SQLite stayed busy past busy_timeout.
 */
function isTransientDbError(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return (
    !!e &&
    (e.code === 'ER_LOCK_DEADLOCK' || e.errno === 1213 || e.code === 'ER_LOCK_WAIT_TIMEOUT' || e.errno === 1205 || e.code === 'SQLITE_BUSY')
  );
}

/** Runs a transaction again (up to 3 times in all) when the database asks for a retry. */
export async function withDbRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 3 || !isTransientDbError(err)) throw err;
    }
  }
}

/** The network to the database failed or refused (Node's codes on mysql2 errors), or mysql2 lost the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
]);

/** MySQL/MariaDB errors (by errno) meaning "not now": the server is gone, full or busy. */
const MYSQL_UNAVAILABLE = new Map<number, string>([
  [1040, 'ER_CON_COUNT_ERROR'], // too many connections
  [1041, 'ER_OUT_OF_RESOURCES'],
  [1053, 'ER_SERVER_SHUTDOWN'],
  [1129, 'ER_HOST_IS_BLOCKED'],
  [1158, 'ER_NET_READ_ERROR'],
  [1159, 'ER_NET_READ_INTERRUPTED'],
  [1160, 'ER_NET_ERROR_ON_WRITE'],
  [1161, 'ER_NET_WRITE_INTERRUPTED'],
  [1203, 'ER_TOO_MANY_USER_CONNECTIONS'],
  [1205, 'ER_LOCK_WAIT_TIMEOUT'],
  [1213, 'ER_LOCK_DEADLOCK'],
  [1226, 'ER_USER_LIMIT_REACHED'],
  [1317, 'ER_QUERY_INTERRUPTED'],
  [1927, 'ER_CONNECTION_KILLED'], // MariaDB: KILL of this connection
  [2006, 'CR_SERVER_GONE_ERROR'],
  [2013, 'CR_SERVER_LOST'],
  [3032, 'ER_SERVER_OFFLINE_MODE'],
  [4031, 'ER_CLIENT_INTERACTION_TIMEOUT'],
]);
const MYSQL_UNAVAILABLE_CODES = new Set(MYSQL_UNAVAILABLE.values());

/** SQLite result codes (with their extended forms, e.g. SQLITE_IOERR_FSYNC) meaning the file cannot be used now. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|PROTOCOL|NOMEM)(_|$)/;

/** better-sqlite3 on a closed handle (a TypeError without a code). */
const SQLITE_CLOSED = /database connection is not open/i;

/**
 * True when the database cannot serve the request for now, whatever the query: refused, lost,
 * reset or timed-out connections, no free connection within the pool's acquire timeout
 * (KnexTimeoutError), too many connections, the server shutting down or gone away, lock waits
 * and deadlocks, SQLite busy or locked beyond busy_timeout, a file that cannot be opened, read
 * or written. These are answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = asError(err);
  if (!e) return false;
  if (e.name === 'KnexTimeoutError') return true;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || MYSQL_UNAVAILABLE_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  if (typeof e.errno === 'number' && MYSQL_UNAVAILABLE.has(e.errno)) return true;
  // mysql2 marks every error that ends the connection as fatal (handshake refused, socket closed,
  // "Can't add new command when connection is in closed state").
  if (e.fatal === true) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return SQLITE_CLOSED.test(message) || message === 'Unable to acquire a connection';
}

/**
 * A COMMIT that failed with one of these was certainly not applied: the database rolled the
 * transaction back (deadlock victim, lock wait timeout) or refused it (a constraint checked at
 * commit, SQLite busy or locked). Any other failure of a COMMIT (the connection lost, reset or
 * timed out, the server gone, an I/O error) leaves the outcome unknown: it may have committed.
 */
export function isCommitRefused(err: unknown): boolean {
  const e = asError(err);
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || e.errno === 1213 || e.errno === 1205) return true;
  if (/^SQLITE_(BUSY|LOCKED|CONSTRAINT)(_|$)/.test(code)) return true;
  return isUniqueViolation(err) || isForeignKeyViolation(err);
}

/**
 * A database error in one short line for the log: its code and the driver's own message, without
 * the statement Knex puts in front of it (which holds the values: names, emails).
 */
export function describeDbError(err: unknown): string {
  const e = asError(err);
  if (!e) return String(err).slice(0, 200);
  const raw = typeof e.message === 'string' ? e.message : String(err);
  const cut = raw.lastIndexOf(' - ');
  const message = (cut === -1 ? raw : raw.slice(cut + 3)).split('\n')[0].slice(0, 200);
  const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' && e.name !== 'Error' ? e.name : '';
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** Seconds a client is asked to wait (Retry-After) while the database is unavailable. */
export const DB_RETRY_AFTER_SECONDS = 5;

/**
 * The database's log lines while it is failing (requests answered 503, Knex's pool warnings): one
 * line each, no stack, at most one a second together, however many requests fail (ThrottledLog).
 */
/** The database's notices, at most one line a second (a 10 s outage writes about ten). */
export const dbLog = new ThrottledLog((line) => processLog().error(line));

export function logDatabaseUnavailable(where: string, err: unknown): void {
  dbLog.log(`[db] database unavailable (${describeDbError(err)}) in ${where}`);
}

/** Recognises constraint violations from either driver, so services can answer 400 instead of 500. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return !!e && (e.code === 'ER_DUP_ENTRY' || e.errno === 1062 || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY');
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return !!e && (e.code === 'ER_NO_REFERENCED_ROW_2' || e.code === 'ER_ROW_IS_REFERENCED_2' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY');
}

/**
 * Errors after which the database asks for the transaction to run again: MySQL picked it as a
 * deadlock victim or its lock wait timed out, or SQLite stayed busy past busy_timeout.
 */
export function isTransientDbError(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return !!e && (e.code === 'ER_LOCK_DEADLOCK' || e.errno === 1213 || e.code === 'ER_LOCK_WAIT_TIMEOUT' || e.errno === 1205 || e.code === 'SQLITE_BUSY');
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

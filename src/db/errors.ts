/** Recognises constraint violations from either driver, so services can answer 400 instead of 500. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return !!e && (e.code === 'ER_DUP_ENTRY' || e.errno === 1062 || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY');
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return !!e && (e.code === 'ER_NO_REFERENCED_ROW_2' || e.code === 'ER_ROW_IS_REFERENCED_2' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY');
}

/**
 * Conversions between JavaScript values and what the two databases store, used by repos only.
 * Dates are written as UTC 'YYYY-MM-DD HH:MM:SS.mmm' strings, which MySQL DATETIME(3) accepts
 * and which sort correctly as SQLite TEXT; MySQL reads them back as Date, SQLite as string.
 */
export function toDbDate(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

export function fromDbDate(v: unknown): Date | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  const s = String(v);
  return new Date(s.includes('T') ? s : `${s.replace(' ', 'T')}Z`);
}

export function toDbBool(b: boolean): number {
  return b ? 1 : 0;
}

export function fromDbBool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || (typeof v === 'bigint' && v === 1n);
}

export function toDbJson(v: unknown): string {
  return JSON.stringify(v ?? null);
}

/** MySQL may hand back parsed JSON; SQLite always a string. */
export function fromDbJson<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined || v === '') return fallback;
  if (typeof v !== 'string') return v as T;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

export function fromDbNumber(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Escapes LIKE wildcards; pair with `ESCAPE '!'`. */
export function likeContains(term: string): string {
  return `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** The id of a row just inserted: SQLite and MySQL answer `[id]`, some builds `[{id}]`. */
export function insertedId(result: unknown[]): number {
  const id = result[0];
  return Number(typeof id === 'object' && id !== null ? (id as { id: number }).id : id);
}

/** A second, direct better-sqlite3 connection to a test database (the package ships no type declarations). */
import { createRequire } from 'node:module';

export interface SqliteHandle {
  readonly open: boolean;
  exec(sql: string): void;
  pragma(source: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  close(): void;
}

const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteHandle;

export function openSqlite(file: string): SqliteHandle {
  return new Database(file);
}

/** The stored_files table as the storage kernel needs it (rows are written with their application). */
import type { Knex } from 'knex';

/** Which of `keys` have a stored_files row: one query. */
export async function knownKeys(db: Knex, keys: string[]): Promise<Set<string>> {
  const rows = (await db('stored_files').whereIn('storage_key', keys).select('storage_key')) as { storage_key: string }[];
  return new Set(rows.map((r) => r.storage_key));
}

/**
 * Retention of form entries (issue 17): `careers-admin forms purge --older-than` removes entries
 * older than an age (of one form or all), and `careers-admin applicants erase --email` also removes
 * the entries whose email-type field holds that address (compared exactly, as applications are).
 * Rows go in one transaction (the entries, their files' rows, their API posts by cascade) with an
 * audit entry without the address; the files after the commit (the orphan sweep removes any left),
 * then, on SQLite, the write-ahead log is flushed so nothing erased stays on disk.
 */
import { flushDeleted, type Db } from '../db/knex.js';
import type { FileStorage } from '../storage/storage.js';
import { removableEntries, type EntryCriteria } from './queries.js';
import { deleteEntries } from './repo.js';

export interface EntryRemoval {
  entries: number;
  files: number;
  byForm: Map<number, number>;
}

function summarise(rows: { form_id: number; keys: unknown[] }[]): EntryRemoval {
  const byForm = new Map<number, number>();
  for (const r of rows) byForm.set(r.form_id, (byForm.get(r.form_id) ?? 0) + 1);
  return { entries: rows.length, files: rows.reduce((n, r) => n + r.keys.length, 0), byForm };
}

/** What a removal with these criteria would take now (nothing changes). */
export type { EntryCriteria };

export async function planEntryRemoval(db: Db, c: EntryCriteria): Promise<EntryRemoval> {
  return summarise(await removableEntries(db, c));
}

/** Removes the entries matching now; answers what went and the files that could not be removed yet. */
export async function removeEntries(
  deps: { db: Db; storage: FileStorage; now: () => Date },
  c: EntryCriteria,
  action: 'purge' | 'erase',
): Promise<EntryRemoval & { filesLeft: string[] }> {
  const rows = await deps.db.transaction(async (trx) => {
    const selected = await removableEntries(trx, c);
    if (!selected.length) return selected;
    const details = { count: selected.length, created_before: c.createdBefore?.toISOString() ?? null, form_id: c.formId ?? null };
    await deleteEntries(trx, selected, { action: `entries.${action}`, details }, deps.now());
    return selected;
  });
  if (rows.length) await flushDeleted(deps.db);
  const filesLeft: string[] = [];
  for (const key of rows.flatMap((r) => r.keys.map((k) => k.key))) {
    await deps.storage.remove(key).catch(() => filesLeft.push(key));
  }
  return { ...summarise(rows), filesLeft };
}

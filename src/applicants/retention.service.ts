/**
 * Retention (the CLI's applicants purge and erase): applications matching criteria go with every
 * row of theirs (and their person, with the last of them) in one transaction, then their files; on SQLite the write-ahead log is flushed so
 * nothing erased stays on disk.
 */
import { flushDeleted, type Db } from '../db/knex.js';
import type { FileStorage } from '../storage/storage.js';
import { removablePreview, selectRemovable, type RemovalCriteria } from './retention.queries.js';
import { bumpCounter, insertApplicationAudit } from './repo.js';
import { deleteApplications } from './retention.repo.js';
import type { Logger } from '../log/logger.js';
import { removeEmptyPeople } from '../people/index.js';

export interface RetentionDeps {
  db: Db;
  storage: FileStorage;
  now: () => Date;
  log: Logger;
}

export interface RemovalSummary {
  applications: number;
  /** Applications per job id. */
  byJob: Map<number, number>;
  /** Resume files the applications had. */
  files: number;
}

function summarise(rows: { job_id: number; storage_key: string | null }[]): RemovalSummary {
  const byJob = new Map<number, number>();
  for (const r of rows) byJob.set(r.job_id, (byJob.get(r.job_id) ?? 0) + 1);
  return { applications: rows.length, byJob, files: rows.filter((r) => r.storage_key).length };
}

/** How many applications a dry run lists one by one. */
const PREVIEW_ROWS = 50;

/** What a purge or an erase with these criteria would remove now (a dry run; nothing changes), with the first applications. */
export async function planRemoval(
  { db }: Pick<RetentionDeps, 'db'>,
  criteria: RemovalCriteria,
): Promise<RemovalSummary & { preview: { id: number; job_title: string; created_at: string }[] }> {
  const [rows, preview] = await Promise.all([selectRemovable(db, criteria), removablePreview(db, criteria, PREVIEW_ROWS)]);
  return { ...summarise(rows), preview };
}

export interface RemovalResult extends RemovalSummary {
  /** Files that could not be removed: the orphan sweep removes them later (no row points at them). */
  filesLeft: string[];
}

/**
 * Deletes the applications matching `criteria` (selected again inside the transaction, so what
 * goes is exactly what matched at that moment) with their answers, post records, search words and
 * stored_files rows, in ONE transaction that also raises the `applications.removed` counter (the
 * dashboard and insights caches of every process see it) and writes one audit entry (no personal
 * data: the criteria without the email, and the count). Files are removed after the commit: a
 * failure there leaves files without a row, which the orphan sweep removes; a row never points
 * at a missing file.
 */
export async function removeApplications(
  deps: RetentionDeps,
  criteria: RemovalCriteria,
  audit: { action: 'purge' | 'erase'; userId?: number | null },
): Promise<RemovalResult> {
  const now = deps.now();
  const rows = await deps.db.transaction(async (trx) => {
    const selected = await selectRemovable(trx, criteria);
    if (!selected.length) return selected;
    await deleteApplications(trx, selected);
    // The person goes with their last application (aliases, suggestions and merges with it).
    await removeEmptyPeople(trx, [...new Set(selected.flatMap((r) => (r.person_id === null ? [] : [r.person_id])))]);
    await bumpCounter(trx, 'applications.removed');
    const details = {
      count: selected.length,
      created_before: criteria.createdBefore?.toISOString() ?? null,
      status: criteria.status ?? null,
      job_id: criteria.jobId ?? null,
    };
    await insertApplicationAudit(trx, [{ userId: audit.userId ?? null, action: audit.action, entityId: null, details }], now);
    return selected;
  });
  if (rows.length) await flushDeleted(deps.db);
  const filesLeft: string[] = [];
  for (const r of rows) {
    if (!r.storage_key) continue;
    await deps.storage.remove(r.storage_key).catch((err) => {
      deps.log.error(
        { key: r.storage_key, err: (err as Error).message },
        '[applicants] could not remove a resume file; the orphan sweep will',
      );
      filesLeft.push(r.storage_key!);
    });
  }
  return { ...summarise(rows), filesLeft };
}

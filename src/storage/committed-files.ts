/**
 * Rows committed with their files (DESIGN.md section 4): files are written (and fsynced) first,
 * then one transaction commits the rows that point at them. The caller owns the files until the
 * commit: they are removed when anything before or in the transaction fails, kept once it
 * committed, and kept when the COMMIT itself failed with its outcome unknown (it may have
 * committed: the orphan sweep removes them later if no row points at them).
 */
import { isCommitRefused, withDbRetry } from '../db/errors.js';
import type { Db } from '../db/knex.js';
import type { FileStorage } from './storage.js';
import type { Logger } from '../log/logger.js';

/** The COMMIT failed in a way that may have committed (connection lost, server gone, I/O error). */
export class CommitOutcomeUnknown extends Error {
  constructor(public readonly cause: unknown) {
    super('the commit failed with its outcome unknown');
    this.name = 'CommitOutcomeUnknown';
  }
}

/**
 * Runs `write` in a transaction, again for a deadlock victim; a failure once every statement has
 * run is the COMMIT's, and unless the database refused it, rejects with CommitOutcomeUnknown.
 */
export async function commitRows<T>(db: Db, write: (trx: Db) => Promise<T>): Promise<T> {
  let committing = false;
  try {
    return await withDbRetry(() => {
      committing = false;
      return db.transaction(async (trx) => {
        const result = await write(trx);
        committing = true;
        return result;
      });
    });
  } catch (err) {
    if (committing && !isCommitRefused(err)) throw new CommitOutcomeUnknown(err);
    throw err;
  }
}

/** Removes files nothing will point at; a failure is logged (the orphan sweep removes them later). */
export async function discardFiles(storage: FileStorage, keys: string[], log: Logger): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      storage.remove(key).catch((err) => log.error({ key, err: (err as Error).message }, '[uploads] could not remove an uploaded file')),
    ),
  );
}

/** Runs `run` owning the files `keys`: they stay when it resolves or the commit's outcome is unknown, else they go. */
export async function withOwnedFiles<T>(storage: FileStorage, keys: string[], log: Logger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof CommitOutcomeUnknown)) await discardFiles(storage, keys, log);
    throw err;
  }
}

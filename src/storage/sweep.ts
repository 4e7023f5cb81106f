/**
 * The orphan sweep: removes stored files that no `stored_files` row points at.
 *
 * An application is written file first (fsynced), then its rows in one transaction, so a process
 * killed between the two (kill -9, power cut, out of memory) leaves a file nobody knows about.
 * The sweep walks the storage, checks the keys against `stored_files.storage_key` in batches (one
 * query per batch, never one per file), and removes the files without a row whose last change is
 * older than a grace period (default one hour), so an upload still in flight in any process is
 * never touched. Empty fan-out folders are removed afterwards.
 *
 * It runs in the background at server start and daily (scheduleUploadSweeps, src/server.ts), and
 * by hand with `careers-admin files sweep [--older-than-minutes N]`.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Db } from '../db/knex.js';
import { knownKeys } from './repo.js';
import type { SweepableStorage } from './storage.js';
import type { Logger } from '../log/logger.js';

export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000;
/** Keys checked per query: well under every database's limit of bound parameters. */
const DEFAULT_SWEEP_BATCH = 500;
/** Daily, at a quiet hour (server-local time). */
const DAILY_SWEEP_CRON = '17 3 * * *';

export interface SweepOptions {
  /** Files changed less than this long ago are kept whatever the database says. 0: no grace. */
  olderThanMs?: number;
  batchSize?: number;
  /** Clock, ms since the epoch. */
  now?: () => number;
  /** Asked between files: true stops the sweep early (server shutdown). */
  shouldStop?: () => boolean;
}

export interface SweepResult {
  /** Files looked at. */
  scanned: number;
  /** Keys of the files removed (no row, older than the grace period). */
  removed: string[];
  /** Files without a row kept because they are younger than the grace period. */
  keptYoung: number;
  /** Fan-out folders removed: emptied by the sweep, or found empty. */
  foldersRemoved: number;
}

export async function sweepOrphanFiles(db: Db, storage: SweepableStorage, opts: SweepOptions = {}): Promise<SweepResult> {
  const grace = opts.olderThanMs ?? DEFAULT_SWEEP_GRACE_MS;
  const batchSize = Math.max(1, opts.batchSize ?? DEFAULT_SWEEP_BATCH);
  const now = opts.now ?? Date.now;
  const result: SweepResult = { scanned: 0, removed: [], keptYoung: 0, foldersRemoved: 0 };
  // Candidates are old enough to go if the database does not know them; young files wait for the count.
  let batch: { key: string; young: boolean }[] = [];

  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    const known = await knownKeys(
      db,
      current.map((c) => c.key),
    );
    for (const c of current) {
      if (known.has(c.key)) continue;
      if (c.young) {
        result.keptYoung++;
        continue;
      }
      const { folderRemoved } = await storage.discard(c.key);
      if (folderRemoved) result.foldersRemoved++;
      result.removed.push(c.key);
    }
  };

  for await (const file of storage.list()) {
    if (opts.shouldStop?.()) break;
    result.scanned++;
    // The cut-off is taken per file, so a long sweep never catches up with a fresh upload.
    const young = now() - file.mtimeMs < grace;
    batch.push({ key: file.key, young });
    if (batch.length >= batchSize) await flush();
  }
  if (!opts.shouldStop?.()) {
    await flush();
    result.foldersRemoved += await storage.pruneEmptyFolders();
  }
  return result;
}

export interface ScheduledSweeps {
  /** The run started at once (resolves when it is done; never rejects). */
  initial: Promise<void>;
  /** Stops the schedule and waits for a running sweep to stop. */
  stop: () => Promise<void>;
}

/**
 * Sweeps once now, in the background (listening is not delayed), and then on `schedule`
 * (node-cron; default daily). Runs never overlap; failures are logged, never thrown.
 */
export function scheduleUploadSweeps(
  db: Db,
  storage: SweepableStorage,
  logger: Logger,
  opts: {
    schedule?: string | null;
    olderThanMs?: number;
    log?: (line: string) => void;
    logError?: (line: string, err: unknown) => void;
  } = {},
): ScheduledSweeps {
  const log = opts.log ?? ((line: string) => logger.info(line));
  const logError = opts.logError ?? ((line: string, err: unknown) => logger.error({ err: err instanceof Error ? err.message : err }, line));
  let stopping = false;
  let running: Promise<void> | null = null;

  const runOnce = (): Promise<void> => {
    if (running || stopping) return running ?? Promise.resolve();
    running = sweepOrphanFiles(db, storage, { olderThanMs: opts.olderThanMs, shouldStop: () => stopping })
      .then(
        (r) => {
          if (r.removed.length) log(`Upload sweep: removed ${r.removed.length} orphaned file(s) with no database row.`);
        },
        (err) => logError('[uploads] orphan sweep failed:', err),
      )
      .finally(() => {
        running = null;
      });
    return running;
  };

  const schedule = opts.schedule === undefined ? DAILY_SWEEP_CRON : opts.schedule;
  let task: ScheduledTask | null = null;
  if (schedule) {
    task = cron.schedule(schedule, () => runOnce(), { name: 'uploads-orphan-sweep', noOverlap: true });
  }
  const initial = new Promise<void>((resolve) => setImmediate(resolve)).then(runOnce);

  return {
    initial,
    stop: async () => {
      stopping = true;
      await task?.destroy();
      await running;
    },
  };
}

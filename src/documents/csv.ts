/**
 * CSV files (candidate imports, issue 35) parsed off the main thread: a worker thread of its own
 * per file (csv-worker.ts) with a capped heap and a deadline, so a hostile or huge file costs the
 * server neither its event loop nor its memory. The file's bytes are copied to the thread.
 */
import { once } from 'node:events';
import { startThread } from './thread.js';
import type { CsvAnswer, CsvJob } from './csv-worker.js';

const CSV_LIMITS = { deadlineMs: 20_000, heapMb: 256 } as const;

export class CsvProblem extends Error {}

/** The file's records (header row first), or a CsvProblem saying why not (not CSV, too many rows or columns, too slow, too big). */
export async function parseCsv(bytes: Uint8Array, opts: { maxRecords: number; maxFields: number }): Promise<string[][]> {
  const job: CsvJob = { bytes, maxRecords: opts.maxRecords, maxFields: opts.maxFields };
  const worker = startThread(import.meta.url, './csv-worker.ts', 'csv-worker', {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: CSV_LIMITS.heapMb, maxYoungGenerationSizeMb: 16 },
  });
  const deadline = setTimeout(() => void worker.terminate(), CSV_LIMITS.deadlineMs);
  try {
    const [answer] = (await Promise.race([once(worker, 'message'), once(worker, 'exit').then(() => [null])])) as [CsvAnswer | null];
    if (!answer) throw new CsvProblem(`The file could not be read within ${CSV_LIMITS.deadlineMs / 1000} s and ${CSV_LIMITS.heapMb} MB.`);
    if (!answer.ok) throw new CsvProblem(`The file is not a CSV file this import can read: ${answer.message}`);
    if (answer.records.length > opts.maxRecords) throw new CsvProblem(`The file has more than ${opts.maxRecords - 1} rows.`);
    return answer.records;
  } catch (err) {
    if (err instanceof CsvProblem) throw err;
    throw new CsvProblem(`The file could not be read within ${CSV_LIMITS.heapMb} MB: ${(err as Error).message}`);
  } finally {
    clearTimeout(deadline);
    await worker.terminate();
  }
}

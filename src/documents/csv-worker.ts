/**
 * The CSV parser's own thread (src/documents/csv.ts starts one per file; built to
 * dist/csv-worker.js): csv-parse reads the bytes in a V8 heap capped by the caller, so a file that
 * is slow or large to parse stops here, not in the server's thread. Answers the records as arrays
 * of strings (the header row first), or why it could not.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'csv-parse/sync';

export interface CsvJob {
  bytes: Uint8Array;
  maxRecords: number;
  maxFields: number;
}
export type CsvAnswer = { ok: true; records: string[][] } | { ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('csv-worker.ts runs as a worker thread of src/documents/csv.ts');
const job = workerData as CsvJob;
let answer: CsvAnswer;
try {
  const records = parse(Buffer.from(job.bytes), {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // One more than allowed: the caller tells "too many rows" from "exactly the limit".
    to: job.maxRecords + 1,
    max_record_size: 1_000_000,
  }) as string[][];
  answer = records.some((r) => r.length > job.maxFields)
    ? { ok: false, message: `A row has more than ${job.maxFields} columns.` }
    : { ok: true, records };
} catch (err) {
  answer = { ok: false, message: (err as Error).message.split('\n')[0].slice(0, 300) };
}
port.postMessage(answer);

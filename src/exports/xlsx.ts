/**
 * Excel exports (DESIGN.md 'Exports'): real .xlsx workbooks written by exceljs's streaming
 * WorkbookWriter into a stream (the HTTP response, or a file for `careers-admin export`), one row
 * committed at a time, so an export of any size holds only the rows of the batches being written.
 * The workbook is written in a worker thread of its own (xlsx-worker.ts) while this thread reads
 * the next rows. Shared by every export (applicants, application posts, form entries, form posts,
 * reports).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../documents/thread.js';
import type { Response } from 'express';
import type { CellValue, ExportColumn } from './cells.js';
import type { FromWorkbook, ToWorkbook, WorkbookSetup } from './xlsx-worker.js';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export { escapeCell, textCell, type CellValue, type ExportColumn } from './cells.js';

function attachmentHeaders(res: Response, filename: string): void {
  res.status(200);
  res.setHeader('Content-Type', XLSX_CONTENT_TYPE);
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** One worksheet: its name, header and rows. */
interface SheetSpec {
  sheetName: string;
  columns: ExportColumn[];
  rows: AsyncIterable<CellValue[][]>;
}

/** What an export is: the services describe it, the routes and the CLI write it. */
export interface WorkbookSpec extends SheetSpec {
  filename: string;
  /** Further worksheets, written after the first in this order (a report's tables, one sheet each). */
  moreSheets?: SheetSpec[];
  /**
   * The IANA zone the date cells are written in (the viewer's, `?tz=` on an HR export), named in
   * the headers in place of "(UTC)"; unset: UTC.
   */
  timeZone?: string | null;
}

/** The message of a `?tz=` that names no time zone. */
const TIME_ZONE_MESSAGE = 'Unknown time zone: use an IANA name such as Europe/Paris.';

/** `?tz=` of an export: null for none (UTC), the zone's name, or undefined when it names no zone. */
function exportTimeZone(raw: unknown): string | null | undefined {
  if (raw === undefined || raw === '' || raw === 'UTC') return null;
  if (typeof raw !== 'string' || raw.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(raw)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return raw; // named as the viewer's browser names it (ICU would say Asia/Calcutta for Asia/Kolkata)
  } catch {
    return undefined;
  }
}

/**
 * The workbook thread's V8 heap: writing cells makes garbage fast, and a young generation of a few
 * MB collected it so often that the export took half again the CPU of writing it (issue 33,
 * bench/README.md); at 32 MB, as the server's own thread has, it costs some MB of memory instead.
 * The old generation only holds exceljs and the batch being written, and the cap stops a runaway
 * export from taking the server's memory.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 256 };

/** The workbook's thread: xlsx-worker.ts beside the source under tsx, dist/xlsx-worker.js in the bundle (scripts/build.mjs). */
function startWorkbookThread(setup: WorkbookSetup): Worker {
  return startThread(import.meta.url, './xlsx-worker.ts', 'xlsx-worker', { workerData: setup, resourceLimits: THREAD_LIMITS });
}

/** A workbook's thread, as the server's side follows it: batches written, finished, or failed. */
class WorkbookThread {
  private readonly worker: Worker;
  written = 0;
  done = false;
  failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(out: Writable, setup: WorkbookSetup, isClosed: () => boolean) {
    this.worker = startWorkbookThread(setup);
    this.worker.on('message', (message: FromWorkbook) => {
      if (message.type === 'data') {
        // Acknowledged once the output has taken it, so the thread never runs ahead of a slow reader.
        const bytes = message.chunk.byteLength;
        if (!isClosed() && !out.destroyed)
          out.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, bytes), () => this.post({ type: 'ack', bytes }));
        return;
      }
      if (message.type === 'written') this.written += 1;
      else if (message.type === 'done') this.done = true;
      else this.fail(new Error(`the workbook could not be written: ${message.message}`));
      this.notify();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (!this.done) this.fail(new Error(`the workbook's thread stopped (exit code ${code})`));
    });
  }

  post(message: ToWorkbook): void {
    if (!this.failure) this.worker.postMessage(message);
  }

  /** Hands a batch to the thread; its number of rows, or null at the end of the rows. */
  postRows(batch: IteratorResult<CellValue[][]>): number | null {
    if (batch.done) return null;
    this.post({ type: 'rows', rows: batch.value });
    return batch.value.length;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Resolves when `ready()` holds; rejects when the thread failed. */
  async until(ready: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (ready()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  stop(): void {
    this.worker.removeAllListeners('message');
    void this.worker.terminate();
  }
}

/**
 * Batches handed to the thread and not yet written, at most: enough that the thread keeps writing
 * while this thread waits on a database query for the next rows (an export query reads 500 rows,
 * handed on 100 at a time), and few enough that memory does not grow with the export.
 */
export const BATCHES_AHEAD = 6;

/**
 * Writes the workbook into `out` and ends it: each sheet's header row, then every batch its `rows`
 * yield (text cells are escaped, numbers and dates stay typed). The workbook is written by a
 * thread of its own (xlsx-worker.ts): each batch is handed over as soon as it is read, and the
 * next ones are read while the thread writes, so at most BATCHES_AHEAD batches are in memory (in
 * the thread) and this thread keeps none of them. Waits for `out` when it
 * is slower than the rows, so a slow reader (a download, a disk) never piles rows up in memory.
 * Rejects with ExportAborted if `out` closes early (the rows' generator is closed). `onRows` gets
 * the number of data rows written so far, after each batch; the answer is the total.
 */
export async function writeWorkbook(out: Writable, book: WorkbookSpec, onRows?: (rows: number) => void): Promise<number> {
  // Resolves when the stream closes (finished or cut off), so no wait below can hang.
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    out.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  const aborted = () => isClosed && !out.writableFinished;
  const sheets = [book, ...(book.moreSheets ?? [])];
  const thread = new WorkbookThread(
    out,
    { sheets: sheets.map(({ sheetName, columns }) => ({ sheetName, columns })), timeZone: book.timeZone ?? null },
    () => isClosed,
  );
  /** Waits for the thread, or for the output to close (the thread's wait then ends when it is stopped). */
  const until = async (ready: () => boolean) => {
    const waiting = thread.until(ready);
    waiting.catch(() => undefined);
    await Promise.race([waiting, closed]);
    if (aborted()) throw new ExportAborted();
  };
  /** Rows of each batch handed to the thread and not yet counted as written. */
  const unwritten: number[] = [];
  let counted = 0;
  let count = 0;
  /** Waits until at most `left` batches are unwritten, counting those written. */
  const settle = async (left: number) => {
    while (unwritten.length > left) {
      await until(() => thread.written > counted);
      counted += 1;
      count += unwritten.shift()!;
      onRows?.(count);
    }
  };
  try {
    for (const spec of sheets) {
      const batches = spec.rows[Symbol.asyncIterator]();
      let reading: Promise<IteratorResult<CellValue[][]>> | null = batches.next();
      let finished = false;
      try {
        for (;;) {
          // Handed over (copied) at once: nothing here keeps the rows while the thread writes them.
          const rows = thread.postRows(await reading);
          reading = null;
          if (rows === null) break;
          unwritten.push(rows);
          await settle(BATCHES_AHEAD);
          // The next batch is read while the thread writes. A failure is taken where it is awaited.
          reading = batches.next();
          reading.catch(() => undefined);
        }
        finished = true;
      } finally {
        // Stopped early: the batch being read is dropped and the rows' generator closed.
        if (!finished) {
          await reading?.catch(() => undefined);
          await batches.return?.(undefined);
        }
      }
      thread.post({ type: 'sheet-end' });
    }
    await settle(0);
    await until(() => thread.done);
    // Every byte of the zip came before `done`; the output ends once it has taken them.
    const finished = once(out, 'finish');
    finished.catch(() => undefined);
    out.end();
    await Promise.race([finished, closed]);
    if (aborted()) throw new ExportAborted();
    return count;
  } finally {
    thread.stop();
  }
}

/** The stream closed before the workbook was written (a client went away, a file was cut off). */
class ExportAborted extends Error {
  constructor() {
    super('export aborted: the output closed early');
    this.name = 'ExportAborted';
  }
}

/**
 * writeWorkbook as a route answers with it, with the download's headers: a client that goes away
 * mid-download ends the export quietly (the headers are out, so nothing more can be said); other
 * errors reach the error handler, which can only cut the connection, so the client sees a failed
 * download.
 */
export async function sendWorkbook(res: Response, book: WorkbookSpec): Promise<void> {
  // The viewer's zone (`?tz=Europe/Paris`, the pages add it): dates written in it, named in the headers.
  const tz = exportTimeZone(res.req?.query?.tz);
  if (tz === undefined) {
    res.status(400).json({ tz: [TIME_ZONE_MESSAGE] });
    return;
  }
  if (tz) book = { ...book, timeZone: tz };
  attachmentHeaders(res, book.filename);
  try {
    await writeWorkbook(res, book);
  } catch (err) {
    if (!(err instanceof ExportAborted)) throw err;
  }
}

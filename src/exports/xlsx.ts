/**
 * Excel exports (DESIGN.md 'Exports'): real .xlsx workbooks written by exceljs's streaming
 * WorkbookWriter straight into a stream (the HTTP response, or a file for `careers-admin export`),
 * one row committed at a time, so an export of any size holds only the rows of the batch being
 * written. Shared by every export (applicants, application posts, form entries, form posts).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Response } from 'express';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Excel refuses longer cell texts. */
const CELL_MAX_CHARS = 32_767;

/** Characters that make a spreadsheet treat a typed-in or pasted cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain signed number ("+919876543210", "-5", "2.5") computes nothing; it is left as it is. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;
/** Characters XML 1.0 cannot carry (they would corrupt the workbook). */
const XML_INVALID =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Formula-injection escape: a text starting with = + - @ tab or CR gets a leading single quote,
 * so it stays text when someone edits the cell or saves the sheet as CSV.
 */
export function escapeCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** Any value as a safe text cell: escaped, XML-clean, within Excel's length limit. */
export function textCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = escapeCell(String(value).replace(XML_INVALID, ''));
  if (text.length > CELL_MAX_CHARS) text = `${text.slice(0, CELL_MAX_CHARS - 1)}…`;
  return text;
}

export type CellValue = string | number | Date | null;

export interface ExportColumn {
  header: string;
  width?: number;
  /** Date cells get this number format (default 'yyyy-mm-dd hh:mm'). */
  numFmt?: string;
}

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

/** A date as the wall clock of `fmt`'s zone shows it, as the UTC date Excel's serial numbers read. */
function wallClock(d: Date, fmt: Intl.DateTimeFormat): Date {
  const p = Object.fromEntries(fmt.formatToParts(d).map((x) => [x.type, x.value]));
  return new Date(
    Date.UTC(
      Number(p.year),
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour) % 24,
      Number(p.minute),
      Number(p.second),
      d.getUTCMilliseconds(),
    ),
  );
}

/**
 * Writes one worksheet into `out`: the header row, then every batch `rows` yields (text cells are
 * escaped here, numbers and dates stay typed). Waits for `out` between batches when its buffer is
 * full, so a slow reader (a download, a disk) never piles rows up in memory. Rejects with
 * ExportAborted if `out` closes early. `onRows` gets the number of data rows written so far, after
 * each batch; the answer is the total.
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
  // exceljs is loaded on the first export, not by every process at start (it is 20-odd MB).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const zone = book.timeZone ?? null;
  const zoneFormat = zone
    ? new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
    : null;
  let count = 0;
  // One sheet at a time, each committed before the next is begun (the streaming writer's rule).
  for (const spec of [book, ...(book.moreSheets ?? [])]) {
    const sheet = workbook.addWorksheet(spec.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = spec.columns.map((c, i) => ({ key: `c${i}`, width: c.width ?? 18 }));
    const header = sheet.addRow(spec.columns.map((c) => textCell(zone ? c.header.replace(/\(UTC\)$/, `(${zone})`) : c.header)));
    header.font = { bold: true };
    header.commit();
    const dateFormat = spec.columns.map((c) => c.numFmt ?? 'yyyy-mm-dd hh:mm');
    const batches = spec.rows[Symbol.asyncIterator]();
    let next = batches.next();
    let batch = await next;
    try {
      for (; !batch.done; batch = await next) {
        for (const values of batch.value) {
          const row = sheet.addRow(
            values.map((v) =>
              v instanceof Date ? (zoneFormat ? wallClock(v, zoneFormat) : v) : typeof v === 'number' || v === null ? v : textCell(v),
            ),
          );
          values.forEach((v, i) => {
            if (v instanceof Date) row.getCell(i + 1).numFmt = dateFormat[i];
          });
          row.commit();
        }
        count += batch.value.length;
        onRows?.(count);
        // The next batch is read while the zip compresses this one (zlib works off the main
        // thread), so at most two batches are in memory. A failure is taken where it is awaited.
        next = batches.next();
        next.catch(() => undefined);
        // exceljs writes each sheet's XML into the zip's entry stream without waiting for it, so the
        // zip (and the stream behind it) must drain before another batch is written: that is what
        // keeps memory flat when the reader is slower than the database.
        const entry = sheetSink(sheet);
        if (entry?._writableState?.needDrain) await Promise.race([new Promise<void>((resolve) => entry.once('drain', resolve)), closed]);
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), closed]);
        if (aborted()) throw new ExportAborted();
      }
    } finally {
      // Stopped early: the batch being read is dropped and the rows' generator closed.
      if (!batch.done) {
        await next.catch(() => undefined);
        await batches.return?.(undefined);
      }
    }
    sheet.commit();
  }
  await Promise.race([workbook.commit(), closed]);
  if (aborted()) throw new ExportAborted();
  return count;
}

interface EntryStream {
  _writableState?: { needDrain?: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * The stream the worksheet's XML is piped into (archiver's entry stream, from the readable-stream
 * package, hence duck-typed). exceljs keeps it on the worksheet's StreamBuf; should that ever
 * change, this returns null and only the response's own backpressure applies.
 */
function sheetSink(sheet: unknown): EntryStream | null {
  const pipes = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const sink = Array.isArray(pipes) ? (pipes[0] as EntryStream | undefined) : undefined;
  return sink && typeof sink.once === 'function' && sink._writableState ? sink : null;
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

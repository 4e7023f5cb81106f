/**
 * The workbook's own thread (a worker thread src/exports/xlsx.ts starts for each export; built to
 * dist/xlsx-worker.js): exceljs's streaming writer and its zip run here, in a V8 heap of their own
 * with a small young generation, while the server's thread reads the next batch of rows. The
 * garbage of writing cells never reaches the server's heap, and the two threads work at once.
 *
 * The conversation, in order: the sheets' names and columns and the time zone come as workerData;
 * then each sheet's batches (`rows`), each answered with `written` once its rows are in the zip
 * and the zip has taken the sheet's XML, and `sheet-end` after the sheet's last batch; after the
 * last sheet the workbook is finished and `done` sent. The zip's bytes go back as `data`, each
 * acknowledged (`ack`) once the output has taken it: at most OUT_WINDOW bytes are on their way,
 * so a slow reader holds the zip, the zip holds the sheet and the sheet the next batch.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { textCell, wallClock, zoneFormat, type CellValue, type SheetLayout } from './cells.js';

/** What the thread is started with. */
export interface WorkbookSetup {
  sheets: SheetLayout[];
  /** The IANA zone the date cells are written in (named in the headers in place of "(UTC)"); null: UTC. */
  timeZone: string | null;
}

/** From the server's thread. */
export type ToWorkbook = { type: 'rows'; rows: CellValue[][] } | { type: 'sheet-end' } | { type: 'ack'; bytes: number };

/** To the server's thread. */
export type FromWorkbook =
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'written' }
  | { type: 'done' }
  | { type: 'failed'; message: string };

/** Bytes of the zip sent to the server's thread and not yet taken by the output. */
const OUT_WINDOW = 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('xlsx-worker.ts runs as a worker thread of src/exports/xlsx.ts');
const setup = workerData as WorkbookSetup;
const send = (message: FromWorkbook, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

let unacked = 0;
let held: (() => void) | null = null;
const inbox: ToWorkbook[] = [];
let wake: (() => void) | null = null;

port.on('message', (message: ToWorkbook) => {
  if (message.type === 'ack') {
    unacked -= message.bytes;
    if (held && unacked < OUT_WINDOW) {
      const go = held;
      held = null;
      go();
    }
    return;
  }
  inbox.push(message);
  wake?.();
  wake = null;
});

async function nextMessage(): Promise<ToWorkbook> {
  while (!inbox.length) await new Promise<void>((resolve) => (wake = resolve));
  return inbox.shift()!;
}

/** The zip's bytes, on to the server's thread; a write waits while OUT_WINDOW bytes are unacknowledged. */
const out = new Writable({
  write(chunk: Buffer, _encoding, done) {
    // A copy with an ArrayBuffer of its own, moved (not copied again) to the other thread.
    const bytes = new Uint8Array(chunk);
    unacked += bytes.byteLength;
    send({ type: 'data', chunk: bytes }, [bytes.buffer as ArrayBuffer]);
    if (unacked < OUT_WINDOW) done();
    else held = done;
  },
});

interface EntryStream {
  _writableState?: { needDrain?: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * The stream the worksheet's XML is piped into (archiver's entry stream, from the readable-stream
 * package, hence duck-typed). exceljs keeps it on the worksheet's StreamBuf; should that ever
 * change, this returns null and only the output's own window applies.
 */
function sheetSink(sheet: unknown): EntryStream | null {
  const pipes = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const sink = Array.isArray(pipes) ? (pipes[0] as EntryStream | undefined) : undefined;
  return sink && typeof sink.once === 'function' && sink._writableState ? sink : null;
}

async function writeBook(): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const zone = setup.timeZone;
  const zoned = zone ? zoneFormat(zone) : null;
  // One sheet at a time, each committed before the next is begun (the streaming writer's rule).
  for (const spec of setup.sheets) {
    const sheet = workbook.addWorksheet(spec.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = spec.columns.map((c, i) => ({ key: `c${i}`, width: c.width ?? 18 }));
    const header = sheet.addRow(spec.columns.map((c) => textCell(zone ? c.header.replace(/\(UTC\)$/, `(${zone})`) : c.header)));
    header.font = { bold: true };
    header.commit();
    const dateFormat = spec.columns.map((c) => c.numFmt ?? 'yyyy-mm-dd hh:mm');
    for (let message = await nextMessage(); message.type === 'rows'; message = await nextMessage()) {
      for (const values of message.rows) {
        const row = sheet.addRow(
          values.map((v) =>
            v instanceof Date ? (zoned ? wallClock(v, zoned) : v) : typeof v === 'number' || v === null ? v : textCell(v),
          ),
        );
        values.forEach((v, i) => {
          if (v instanceof Date) row.getCell(i + 1).numFmt = dateFormat[i];
        });
        row.commit();
      }
      // exceljs writes the sheet's XML into the zip's entry stream without waiting for it, so the
      // zip (and the output behind it) must drain before the next batch is asked for.
      const entry = sheetSink(sheet);
      if (entry?._writableState?.needDrain) await new Promise<void>((resolve) => entry.once('drain', resolve));
      send({ type: 'written' });
    }
    sheet.commit();
  }
  // Resolves once the zip is finished and its last bytes were handed on.
  await workbook.commit();
  send({ type: 'done' });
}

writeBook().catch((err: unknown) => send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));

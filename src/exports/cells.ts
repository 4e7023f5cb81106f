/**
 * What every export's cells and sheets are (shared by src/exports/xlsx.ts, which the services and
 * routes use, and the workbook thread, src/exports/xlsx-worker.ts, which writes them): the cell
 * types, the formula-injection escape, and the time zone dates are written in. Node-free.
 */

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

/** A worksheet's name and columns: what the workbook thread needs before its rows. */
export interface SheetLayout {
  sheetName: string;
  columns: ExportColumn[];
}

/** The wall clock of an IANA zone, as `wallClock` reads it. */
export function zoneFormat(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** A date as the wall clock of `fmt`'s zone shows it, as the UTC date Excel's serial numbers read. */
export function wallClock(d: Date, fmt: Intl.DateTimeFormat): Date {
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

/**
 * One date format for every HR screen (issue 20, "Everyday polish"): "Nov 26, 2026, 9:05 AM GMT+1",
 * in the viewer's time zone with the zone named. Pages render times in UTC inside
 * `<time datetime="ISO" data-local>` (src/render/formatters.ts) and islands/site.ts writes them
 * again in the viewer's zone; islands format with the same functions. English like the rest of
 * the interface, so every screen reads the same.
 */

const LOCALE = 'en-US';

const TIME_OPTIONS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const OPTIONS: Record<TimeKind, Intl.DateTimeFormatOptions> = {
  time: TIME_OPTIONS,
  date: DATE_OPTIONS,
  seconds: { ...TIME_OPTIONS, second: '2-digit' },
};

/** Building an Intl.DateTimeFormat is slow: one per kind and zone is kept. */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: TimeKind, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone ?? ''}`;
  let fmt = formats.get(key);
  if (!fmt) {
    const options = OPTIONS[kind];
    try {
      fmt = new Intl.DateTimeFormat(LOCALE, { ...options, timeZone });
    } catch {
      fmt = new Intl.DateTimeFormat(LOCALE, { ...options, timeZone: 'UTC' }); // a zone the runtime does not know
    }
    formats.set(key, fmt);
  }
  return fmt;
}

/** 'time': date, time and zone; 'seconds': the same with seconds (delivery attempts); 'date': the day alone. */
export type TimeKind = 'time' | 'seconds' | 'date';

/**
 * An ISO time (or Date) as shown on HR screens; `timeZone` unset = the runtime's own zone (the
 * viewer's, in a browser). '' for a value that is no time.
 */
export function formatTime(value: string | Date, kind: TimeKind = 'time', timeZone?: string): string {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '' : format(kind, timeZone).format(d);
}

/**
 * The formatted time in the pieces a line may break between: the date ("Mar 15, 2026,"), the
 * clock ("10:05 PM") and the zone ("UTC"), each shown whole (`.time-part`), so a narrow column
 * never splits a date or leaves "PM" alone on a line. One piece for a date alone; none for no time.
 */
export function timeParts(value: string | Date, kind: TimeKind = 'time', timeZone?: string): string[] {
  const text = formatTime(value, kind, timeZone);
  if (!text) return [];
  const split = /^(.*?\d{4},) (.+) (\S+)$/.exec(text);
  return split ? split.slice(1) : [text];
}

/** The viewer's time zone by its IANA name ("Europe/Berlin"), or null when the runtime does not say. */
export function viewerTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

const SHORT_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/**
 * A near time in few characters, "Tue 3 Dec 10:00" (issue 32: a board card's next interview), in
 * the viewer's zone unless `timeZone` is given. '' for a value that is no time.
 */
export function formatShortTime(value: string | Date, timeZone?: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-GB', { ...SHORT_OPTIONS, timeZone });
  } catch {
    fmt = new Intl.DateTimeFormat('en-GB', { ...SHORT_OPTIONS, timeZone: 'UTC' });
  }
  return fmt.format(d).replace(/,/g, '');
}

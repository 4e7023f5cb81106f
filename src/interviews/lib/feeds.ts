/**
 * Reading an interviewer's busy times from a calendar (issue 32), without OAuth:
 * - `ical`: a secret iCal feed (GET), parsed with ical.js; recurring events expanded with its
 *   iterator (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides), times in their TZID zone (the
 *   feed's VTIMEZONE, else the IANA zone of that name through luxon); transparent and cancelled
 *   events are free time.
 * - `caldav`: a CALDAV:free-busy-query REPORT for the window (RFC 4791 section 7.10), its VFREEBUSY
 *   parsed with ical.js (FBTYPE=FREE is free, every other type busy).
 *
 * Outbound rules of the webhooks (unless WEBHOOK_ALLOW_PRIVATE): only http(s), the host checked
 * (`isAllowedHost`), every address a name resolves to checked in the socket's lookup (the
 * delivery worker's `guardedLookup`, so no DNS rebinding), a redirect followed only through the
 * same checks (at most 3), 10 s in all, at most 5 MB read. Errors never carry the address: it is a
 * secret.
 */
import dns from 'node:dns';
import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { Agent, request } from 'undici';
import { isAllowedHost } from '../../http/private-address.js';
import { guardedLookup, type LookupAll } from '../../posts/index.js';
import type { CalendarKind } from '../availability.types.js';
import { type Interval, mergeIntervals } from './slots.js';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const DAY = 86_400_000;
/** Occurrences walked per recurring event before giving up on it (a minutely rule from 1970). */
const MAX_OCCURRENCES = 20_000;

export interface CalendarAddress {
  kind: CalendarKind;
  url: string;
  username?: string;
  password?: string;
}

export interface FeedOptions {
  allowPrivate: boolean;
  /** Name resolution (tests hand in their own); dns.lookup by default. */
  lookup?: LookupAll;
  timeoutMs?: number;
  maxBytes?: number;
}

/** A calendar that could not be read, with a short reason fit to show (never the address). */
class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset',
  UND_ERR_SOCKET: 'Connection reset',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host not found (DNS lookup failed)',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Host unreachable',
  ETIMEDOUT: 'Timed out',
  UND_ERR_CONNECT_TIMEOUT: 'Timed out',
  UND_ERR_HEADERS_TIMEOUT: 'Timed out',
  UND_ERR_BODY_TIMEOUT: 'Timed out',
};

/** A reason without the address: error codes and our own messages only (a library's message may quote the URL). */
function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  if (e?.name === 'FeedError' || e?.name === 'RefusedAddress') return e.message;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'Timed out';
  const code = typeof e?.code === 'string' ? e.code : '';
  if (CAUSES[code]) return CAUSES[code];
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/.test(code)) return `TLS error (${code})`;
  if (e?.cause) return describe(e.cause);
  return code ? `Request failed (${code})` : 'Request failed';
}

/** The answer's text, at most `max` bytes (more: a FeedError). */
async function readText(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early ends the stream (and its connection).
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) break;
    chunks.push(chunk);
  }
  if (size > max) throw new FeedError(`The calendar is larger than ${Math.max(1, Math.round(max / 1024 / 1024))} MB`);
  return Buffer.concat(chunks).toString('utf8');
}

/** Fetches the calendar's text under the outbound rules. */
async function fetchText(
  address: CalendarAddress,
  init: { method: string; headers: Record<string, string>; body?: string },
  opts: FeedOptions,
): Promise<string> {
  const agent = new Agent({
    connect: {
      timeout: opts.timeoutMs ?? TIMEOUT_MS,
      lookup: guardedLookup(opts.lookup ?? (dns.lookup as unknown as LookupAll), opts.allowPrivate) as never,
    },
  });
  const signal = AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS);
  const headers: Record<string, string> = { 'user-agent': 'Careers-Calendar/1', ...init.headers };
  if (address.username || address.password)
    headers.authorization = `Basic ${Buffer.from(`${address.username ?? ''}:${address.password ?? ''}`).toString('base64')}`;
  try {
    let target: URL;
    try {
      target = new URL(address.url);
    } catch {
      throw new FeedError('Invalid calendar address');
    }
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new FeedError('Refused: only http and https calendars are read');
      if (!opts.allowPrivate && !isAllowedHost(target.hostname)) throw new FeedError(`Refused: ${target.hostname} is not a public address`);
      const res = await request(target, { dispatcher: agent, method: init.method, headers, body: init.body, signal });
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location && hop < MAX_REDIRECTS) {
        await res.body.dump().catch(() => undefined);
        const next = new URL(String(res.headers.location), target);
        // Credentials go only to the origin they were given for.
        if (next.origin !== target.origin) delete headers.authorization;
        target = next;
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump().catch(() => undefined);
        throw new FeedError(`The calendar answered HTTP ${res.statusCode}`);
      }
      return await readText(res.body, opts.maxBytes ?? MAX_BYTES);
    }
  } catch (err) {
    throw new FeedError(describe(err));
  } finally {
    agent.close().catch(() => undefined);
  }
}

/** The zone a TZID names when it is an IANA zone luxon knows (asked once per name), else `fallback`. */
type ZoneOf = (tzid: string | undefined) => string;
function zoneResolver(fallback: string): ZoneOf {
  const known = new Map<string, string>();
  return (tzid) => {
    if (!tzid) return fallback;
    let zone = known.get(tzid);
    if (zone === undefined) {
      zone = IANAZone.isValidZone(tzid) ? tzid : fallback;
      known.set(tzid, zone);
    }
    return zone;
  };
}

/**
 * A time as ms since the epoch: UTC or a zone the feed defines; else its TZID (`tzid`: the event's,
 * which the iterator's copies lose) as an IANA zone through luxon; a floating time in the fallback zone.
 */
function toMs(time: ICAL.Time, zoneOf: ZoneOf, tzid?: string): number {
  const tz = time.zone;
  if (tz && tz !== ICAL.Timezone.localTimezone && tz.tzid !== 'floating') return time.toUnixTime() * 1000;
  const zone = zoneOf((time as unknown as { timezone?: string }).timezone ?? tzid);
  const dt = DateTime.fromObject(
    { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
    { zone },
  );
  return dt.isValid ? dt.toMillis() : DateTime.fromObject({ year: time.year, month: time.month, day: time.day }, { zone }).toMillis();
}

/** An all-day date's start in the fallback zone (the interviewer's: a day off is their whole day). */
function dayStart(time: ICAL.Time, zoneOf: ZoneOf): number {
  return DateTime.fromObject({ year: time.year, month: time.month, day: time.day }, { zone: zoneOf(undefined) }).toMillis();
}

/** The TZID of an event's DTSTART, if any. */
function tzidOf(component: ICAL.Component): string | undefined {
  const tzid = component.getFirstProperty('dtstart')?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
}

function span(start: ICAL.Time, end: ICAL.Time, zoneOf: ZoneOf, tzid?: string): Interval {
  if (start.isDate) {
    const s = dayStart(start, zoneOf);
    return { start: s, end: end.isDate && end.compare(start) > 0 ? dayStart(end, zoneOf) : s + DAY };
  }
  return { start: toMs(start, zoneOf, tzid), end: toMs(end, zoneOf, tzid) };
}

/** Whether an event (or one override of it) takes no time: cancelled or transparent. */
function isFree(component: ICAL.Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const transp = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  return status === 'CANCELLED' || transp === 'TRANSPARENT';
}

/**
 * Where to start walking a recurring event for a window from `from`: null when the series ended
 * before it (an UNTIL long past, no RDATE, no override); for a DAILY or WEEKLY rule without COUNT,
 * an occurrence whole weeks (times the interval) after DTSTART, shortly before the window, so a
 * series begun years ago is not walked from its start (the same dates: the rule repeats every such
 * span, and ical.js keeps the wall-clock time across DST); else DTSTART.
 */
function seriesStart(event: ICAL.Event, from: number): ICAL.Time | undefined | null {
  const rules = event.component.getAllProperties('rrule');
  if (rules.length !== 1 || event.component.hasProperty('rdate')) return undefined;
  const rule = rules[0].getFirstValue() as ICAL.Recur;
  const hasOverrides = Object.keys(event.exceptions ?? {}).length > 0;
  if (rule.until && rule.until.toUnixTime() * 1000 < from - 3 * DAY && !hasOverrides) return null;
  if (rule.count || (rule.freq !== 'WEEKLY' && rule.freq !== 'DAILY')) return undefined;
  const span = 7 * (rule.interval || 1);
  const start = event.startDate;
  const k = Math.floor((from - 3 * DAY - start.toUnixTime() * 1000) / DAY / span);
  if (k <= 0) return undefined;
  const moved = start.clone();
  moved.adjust(k * span, 0, 0, 0);
  return moved;
}

/** The busy times of an iCalendar text within [from, to); `zone`: where floating times and all-day dates lie. */
export function busyFromIcal(text: string, from: number, to: number, zone: string): Interval[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new FeedError('The address did not answer an iCalendar file');
  }
  if (root.name !== 'vcalendar') throw new FeedError('The address did not answer an iCalendar file');
  const zoneOf = zoneResolver(zone);
  const events = root.getAllSubcomponents('vevent');
  const masters = new Map<string, ICAL.Event>();
  const overrides: ICAL.Component[] = [];
  const busy: Interval[] = [];
  const keep = (i: Interval) => {
    if (i.end > from && i.start < to) busy.push(i);
  };
  for (const c of events) {
    if (c.hasProperty('recurrence-id')) overrides.push(c);
    // `exceptions: []`: ical.js would otherwise search the whole calendar for each event's overrides; they are related below.
    else masters.set(String(c.getFirstPropertyValue('uid') ?? Math.random()), new ICAL.Event(c, { exceptions: [] }));
  }
  for (const c of overrides) {
    const master = masters.get(String(c.getFirstPropertyValue('uid')));
    if (master?.isRecurring()) master.relateException(c);
    else if (!isFree(c)) {
      const e = new ICAL.Event(c, { exceptions: [] });
      if (e.startDate && e.endDate) keep(span(e.startDate, e.endDate, zoneOf, tzidOf(c)));
    }
  }
  for (const event of masters.values()) {
    try {
      if (!event.startDate) continue;
      if (!event.isRecurring()) {
        if (!isFree(event.component) && event.endDate) keep(span(event.startDate, event.endDate, zoneOf, tzidOf(event.component)));
        continue;
      }
      const tzid = tzidOf(event.component);
      const start = seriesStart(event, from);
      if (start === null) continue;
      const it = event.iterator(start);
      // Rule dates read as UTC (a floating or TZID time is then off by at most a day): a cheap
      // test; two days' margin each side, as an override may move an occurrence a little.
      const [low, high] = [from - 2 * DAY, to + 2 * DAY];
      for (let n = 0, next = it.next(); next && n < MAX_OCCURRENCES; n++, next = it.next()) {
        const rough = next.toUnixTime() * 1000;
        if (rough >= high) break;
        if (rough < low) continue;
        const d = event.getOccurrenceDetails(next);
        if (!isFree(d.item.component)) keep(span(d.startDate, d.endDate, zoneOf, tzidOf(d.item.component) ?? tzid));
      }
    } catch {
      // One malformed event (a broken RRULE) costs only itself.
    }
  }
  return mergeIntervals(busy);
}

const caldavStamp = (ms: number) => `${new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/** The busy periods of a CalDAV free/busy answer within [from, to). */
function busyFromFreeBusy(text: string, from: number, to: number, zone: string): Interval[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new FeedError('The CalDAV server did not answer free/busy times');
  }
  const zoneOf = zoneResolver(zone);
  const busy: Interval[] = [];
  for (const fb of root.name === 'vfreebusy' ? [root] : root.getAllSubcomponents('vfreebusy')) {
    for (const prop of fb.getAllProperties('freebusy')) {
      if (String(prop.getParameter('fbtype') ?? 'BUSY').toUpperCase() === 'FREE') continue;
      for (const value of prop.getValues() as ICAL.Period[]) {
        const i = { start: toMs(value.start, zoneOf), end: toMs(value.getEnd(), zoneOf) };
        if (i.end > from && i.start < to) busy.push(i);
      }
    }
  }
  return mergeIntervals(busy);
}

/** The calendar's busy times within [from, to), or a FeedError saying why it could not be read. */
export async function readBusy(address: CalendarAddress, from: number, to: number, zone: string, opts: FeedOptions): Promise<Interval[]> {
  if (address.kind === 'caldav') {
    const body =
      '<?xml version="1.0" encoding="utf-8"?>\n' +
      '<C:free-busy-query xmlns:C="urn:ietf:params:xml:ns:caldav">' +
      `<C:time-range start="${caldavStamp(from)}" end="${caldavStamp(to)}"/></C:free-busy-query>`;
    const text = await fetchText(
      address,
      { method: 'REPORT', headers: { depth: '1', 'content-type': 'application/xml; charset=utf-8' }, body },
      opts,
    );
    return busyFromFreeBusy(text, from, to, zone);
  }
  const text = await fetchText(address, { method: 'GET', headers: { accept: 'text/calendar, */*;q=0.5' } }, opts);
  return busyFromIcal(text, from, to, zone);
}

/**
 * An interviewer's working hours and the calendars read for their busy times (issue 32).
 * Calendar addresses are secrets: sealed with the server key (AES-256-GCM) before they are stored,
 * answered only as `url_hint`, never logged (a read's error names a cause, never the address).
 * A calendar once read is kept for CALENDAR_CACHE_SECONDS in the read cache, its outcome (busy times
 * or the error) included, so a failing calendar is not asked on every search either.
 */
import type { AppContext } from '../context.js';
import { Forbidden, NotFound, ValidationError } from '../http/errors.js';
import { isAllowedHost } from '../http/private-address.js';
import type { UserRole } from '../users/index.js';
import { DateTime } from 'luxon';
import {
  AVAILABILITY_LIMITS,
  AVAILABILITY_MESSAGES as M,
  type CalendarInput,
  type SettingsInput,
  calendarSchema,
} from './availability.schema.js';
import { type CalendarSource, DEFAULT_SETTINGS, type InterviewerSettings, type SettingsAnswer } from './availability.types.js';
import { userExists } from './availability.queries.js';
import {
  type CalendarRow,
  calendarsOfUsers,
  countCalendars,
  deleteCalendar,
  insertCalendar,
  recordRead,
  saveSettings,
  settingsOfUsers,
} from './calendars.repo.js';
import { type FeedOptions, readBusy } from './lib/feeds.js';
import type { Interval } from './lib/slots.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'cache' | 'serverKey' | 'now' | 'log'>;

/** Who asks: the session's user and role. */
export interface Viewer {
  userId: number;
  role: UserRole;
}

/** The user whose settings `viewer` asks for: themselves, or (admins only) another existing user. */
export async function settingsOwner(ctx: Ctx, viewer: Viewer, userId: number | 'me'): Promise<number> {
  if (userId === 'me' || userId === viewer.userId) return viewer.userId;
  if (viewer.role !== 'admin') throw new Forbidden(M.othersSettings);
  if (!(await userExists(ctx.db, userId))) throw new NotFound(M.userNotFound);
  return userId;
}

/** Each user's settings; the defaults for users who saved none. */
export async function settingsOf(ctx: Pick<Ctx, 'db'>, userIds: readonly number[]): Promise<Map<number, InterviewerSettings>> {
  const saved = await settingsOfUsers(ctx.db, userIds);
  return new Map(userIds.map((id) => [id, saved.get(id) ?? DEFAULT_SETTINGS]));
}

export async function interviewerSettings(ctx: Ctx, userId: number): Promise<SettingsAnswer> {
  const saved = (await settingsOfUsers(ctx.db, [userId])).get(userId);
  return { user_id: userId, ...(saved ?? DEFAULT_SETTINGS), is_default: !saved };
}

export async function replaceInterviewerSettings(ctx: Ctx, userId: number, input: SettingsInput): Promise<SettingsAnswer> {
  await saveSettings(ctx.db, userId, input, ctx.now());
  return interviewerSettings(ctx, userId);
}

/** The calendar schema under this server's address policy. */
export function calendarInputSchema(config: Ctx['config']) {
  return calendarSchema(config.webhookAllowPrivate ? undefined : isAllowedHost);
}

/** What is shown of an address: scheme, host, '…' and its last 4 characters. */
function urlHint(href: string): string {
  const url = new URL(href);
  return `${url.protocol}//${url.host.slice(0, 100)}…${href.slice(-4)}`;
}

function sourceOf(row: CalendarRow): CalendarSource {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    url_hint: row.url_hint,
    has_credentials: row.credentials_encrypted !== null,
    created_at: row.created_at.toISOString(),
    last_fetched_at: row.last_fetched_at?.toISOString() ?? null,
    last_error: row.last_error,
  };
}

export async function listCalendars(ctx: Ctx, userId: number): Promise<CalendarSource[]> {
  return (await calendarsOfUsers(ctx.db, [userId])).map(sourceOf);
}

export async function addCalendar(ctx: Ctx, userId: number, input: CalendarInput): Promise<CalendarSource> {
  if ((await countCalendars(ctx.db, userId)) >= AVAILABILITY_LIMITS.calendars) throw new ValidationError({}, M.tooManyCalendars);
  const credentials =
    input.kind === 'caldav' && (input.username || input.password)
      ? await ctx.serverKey.seal(JSON.stringify({ username: input.username, password: input.password }))
      : null;
  const id = await insertCalendar(
    ctx.db,
    {
      hr_user_id: userId,
      kind: input.kind,
      label: input.label,
      url_encrypted: await ctx.serverKey.seal(input.url),
      credentials_encrypted: credentials,
      url_hint: urlHint(input.url),
    },
    ctx.now(),
  );
  const row = (await calendarsOfUsers(ctx.db, [userId])).find((r) => r.id === id);
  return sourceOf(row as CalendarRow);
}

export async function removeCalendar(ctx: Ctx, userId: number, id: number): Promise<void> {
  if (!(await deleteCalendar(ctx.db, userId, id))) throw new NotFound(M.calendarNotFound);
}

/** A calendar's outcome as kept in the cache. */
interface CalendarRead {
  busy: Interval[];
  error: string | null;
}

/** One calendar read for the 63 days from the day before `from`'s UTC day, or its error (recorded on its row). */
async function readCalendar(ctx: Ctx, row: CalendarRow, windowStart: number, zone: string): Promise<CalendarRead> {
  const windowEnd = windowStart + 63 * 86_400_000;
  const opts: FeedOptions = { allowPrivate: ctx.config.webhookAllowPrivate };
  let read: CalendarRead;
  try {
    const url = await ctx.serverKey.open(row.url_encrypted);
    const creds = row.credentials_encrypted
      ? (JSON.parse(await ctx.serverKey.open(row.credentials_encrypted)) as { username: string; password: string })
      : null;
    const busy = await readBusy({ kind: row.kind, url, ...(creds ?? {}) }, windowStart, windowEnd, zone, opts);
    read = { busy, error: null };
  } catch (err) {
    // FeedError messages name a cause, never the address; anything else is said generically.
    const error = (err as Error)?.name === 'FeedError' ? (err as Error).message : 'The calendar could not be read';
    read = { busy: [], error };
  }
  await recordRead(ctx.db, row.id, ctx.now(), read.error).catch((err) =>
    ctx.log.warn({ err: (err as Error).message, calendar: row.id }, 'calendar read not recorded'),
  );
  return read;
}

/** A calendar that could not be read. */
export interface CalendarProblem {
  userId: number;
  label: string;
  error: string;
}

/**
 * The busy times in [from, to) of each user's calendars (kept for CALENDAR_CACHE_SECONDS), and the
 * calendars that failed (their owners counted as free there).
 */
export async function calendarBusy(
  ctx: Ctx,
  userIds: readonly number[],
  settings: Map<number, InterviewerSettings>,
  from: number,
  to: number,
): Promise<{ busy: Map<number, Interval[]>; problems: CalendarProblem[] }> {
  const rows = await calendarsOfUsers(ctx.db, userIds);
  const windowStart = DateTime.fromMillis(from, { zone: 'utc' }).startOf('day').toMillis() - 86_400_000;
  const busy = new Map<number, Interval[]>(userIds.map((id) => [id, []]));
  const problems: CalendarProblem[] = [];
  const reads = await Promise.all(
    rows.map((row) => {
      const zone = settings.get(row.hr_user_id)?.time_zone ?? 'UTC';
      return ctx.cache.timed(`calendar-feeds:${row.id}:${windowStart}:${zone}`, ctx.config.calendarCacheSeconds, () =>
        readCalendar(ctx, row, windowStart, zone),
      );
    }),
  );
  rows.forEach((row, i) => {
    const read = reads[i];
    if (read.error) problems.push({ userId: row.hr_user_id, label: row.label, error: read.error });
    const list = busy.get(row.hr_user_id) as Interval[];
    for (const b of read.busy) if (b.end > from && b.start < to) list.push(b);
  });
  return { busy, problems };
}

/**
 * The inputs of interviewer availability (issue 32) and their messages, shared by the API and the
 * islands: working hours, a calendar source, the Find a time query. Node-free (zod/mini). A time
 * zone is valid when the platform's Intl knows it as an IANA zone (the check luxon's
 * IANAZone.isValidZone makes).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import { isBlank, isRowId, oneLine, text, textInput } from '../shared/input-rules.js';
import { CALENDAR_KINDS, type CalendarKind } from './availability.types.js';

export const AVAILABILITY_LIMITS = {
  label: 100,
  url: 2000,
  username: 200,
  password: 500,
  /** Calendars per interviewer. */
  calendars: 10,
  /** Buffers and minimum notice, in minutes (a day). */
  minutes: 1440,
  interviewers: 10,
  durationMin: 5,
  durationMax: 480,
  days: 60,
  count: 50,
} as const;

export const AVAILABILITY_MESSAGES = {
  notObject: FIELD_MESSAGES.notObject,
  timeZone: 'Choose a time zone from the list, such as Europe/Berlin.',
  workDays: 'Choose at least one working day: ISO weekdays from 1 (Monday) to 7 (Sunday), each once.',
  time: 'Give a time as HH:MM, from 00:00 to 23:59.',
  endAfterStart: 'The working day must end after it starts.',
  minutes: `Give a whole number of minutes from 0 to ${AVAILABILITY_LIMITS.minutes}.`,
  kind: `The kind is one of ${CALENDAR_KINDS.join(', ')}.`,
  url: 'Give the calendar address: an https:// (or webcal://) address.',
  urlCredentials: 'Give the user name and password in their own fields, not in the address.',
  urlPrivate: 'The calendar address must not point to a private or local address.',
  credentialsIcal: 'A user name and password go with a CalDAV calendar only.',
  tooManyCalendars: `An interviewer can add at most ${AVAILABILITY_LIMITS.calendars} calendars. Remove one first.`,
  calendarNotFound: 'Calendar not found.',
  userNotFound: 'HR user not found.',
  othersSettings: "Only admins may change another user's working hours.",
  interviewers: `Choose 1 to ${AVAILABILITY_LIMITS.interviewers} interviewers: HR user ids separated by commas.`,
  interviewerUnknown: 'Choose active HR users.',
  duration: `The duration is a whole number of minutes from ${AVAILABILITY_LIMITS.durationMin} to ${AVAILABILITY_LIMITS.durationMax}.`,
  from: 'Give the start as a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.',
  days: `Search 1 to ${AVAILABILITY_LIMITS.days} days.`,
  count: `Ask for 1 to ${AVAILABILITY_LIMITS.count} slots.`,
  step: 'The step is 5, 10, 15, 20, 30 or 60 minutes.',
} as const;
const M = AVAILABILITY_MESSAGES;

/** Whether `zone` is an IANA time zone name the platform knows. */
function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: M.notObject });

const minutes = () =>
  z.pipe(
    z
      .unknown()
      .check(z.refine((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= AVAILABILITY_LIMITS.minutes, M.minutes)),
    z.transform((v) => v as number),
  );

export interface SettingsInput {
  time_zone: string;
  work_days: number[];
  work_start: string;
  work_end: string;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  min_notice_minutes: number;
}

/** PUT …/settings/: the whole settings. */
export function settingsSchema() {
  return object({
    time_zone: z.pipe(
      z.unknown().check(z.refine(isTimeZone, M.timeZone)),
      z.transform((v) => v as string),
    ),
    work_days: z.pipe(
      z
        .unknown()
        .check(
          z.refine(
            (v) =>
              Array.isArray(v) &&
              v.length >= 1 &&
              v.length <= 7 &&
              v.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) &&
              new Set(v).size === v.length,
            M.workDays,
          ),
        ),
      z.transform((v) => [...(v as number[])].sort((a, b) => a - b)),
    ),
    work_start: z.pipe(
      z.unknown().check(z.refine((v) => typeof v === 'string' && TIME.test(v), M.time)),
      z.transform((v) => v as string),
    ),
    work_end: z.pipe(
      z.unknown().check(z.refine((v) => typeof v === 'string' && TIME.test(v), M.time)),
      z.transform((v) => v as string),
    ),
    buffer_before_minutes: minutes(),
    buffer_after_minutes: minutes(),
    min_notice_minutes: minutes(),
  }).check(
    z.check((ctx) => {
      const { work_start: start, work_end: end } = ctx.value;
      if (start && end && start >= end) ctx.issues.push(issue(end, M.endAfterStart, ['work_end']));
    }),
  ) as unknown as z.ZodMiniType<SettingsInput>;
}

/** A calendar address as read: http(s), or webcal (read as https); null when it is none of them. */
function calendarUrl(raw: string): URL | null {
  const text = /^webcals?:\/\//i.test(raw) ? raw.replace(/^webcals?:/i, 'https:') : raw;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

export interface CalendarInput {
  kind: CalendarKind;
  label: string;
  url: string;
  username: string;
  password: string;
}

/** POST …/calendars/. `hostAllowed`: the outbound address policy (absent: WEBHOOK_ALLOW_PRIVATE, any host). */
export function calendarSchema(hostAllowed?: (hostname: string) => boolean) {
  return object({
    kind: z.pipe(
      z.unknown().check(z.refine((v) => CALENDAR_KINDS.includes(v as CalendarKind), M.kind)),
      z.transform((v) => v as CalendarKind),
    ),
    label: oneLine(AVAILABILITY_LIMITS.label, true),
    url: z.pipe(
      textInput(),
      z.string().check(
        z.overwrite((s) => s.trim()),
        z.minLength(1, FIELD_MESSAGES.required),
        z.maxLength(AVAILABILITY_LIMITS.url, FIELD_MESSAGES.tooLong(AVAILABILITY_LIMITS.url)),
        z.check<string>((ctx) => {
          if (!ctx.value) return;
          const url = calendarUrl(ctx.value);
          if (!url) return void ctx.issues.push(issue('', M.url));
          if (url.username || url.password) return void ctx.issues.push(issue('', M.urlCredentials));
          if (hostAllowed && !hostAllowed(url.hostname)) return void ctx.issues.push(issue('', M.urlPrivate));
          ctx.value = url.href;
          if (url.href.length > AVAILABILITY_LIMITS.url) ctx.issues.push(issue('', FIELD_MESSAGES.tooLong(AVAILABILITY_LIMITS.url)));
        }),
      ),
    ),
    username: oneLine(AVAILABILITY_LIMITS.username),
    password: text(AVAILABILITY_LIMITS.password),
  }).check(
    z.check((ctx) => {
      if (ctx.value.kind === 'ical' && (ctx.value.username || ctx.value.password))
        ctx.issues.push(issue('', M.credentialsIcal, ['username']));
    }),
  ) as unknown as z.ZodMiniType<CalendarInput>;
}

interface FindTimeQuery {
  interviewers: number[];
  duration: number;
  from: Date | null;
  days: number;
  count: number;
  tz: string | null;
  step: number;
}

const STEPS = [5, 10, 15, 20, 30, 60];

/** A whole number in [min, max] given as digits (query text); blank: `fallback`. */
const queryNumber = (min: number, max: number, fallback: number | null, message: string) =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (v) =>
            (isBlank(v) && fallback !== null) || (typeof v === 'string' && /^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max),
          message,
        ),
      ),
    z.transform((v) => (isBlank(v) ? (fallback as number) : Number(v))),
  );

/** GET /api/hr/interviewers/find-time/: the query parameters as text. */
export function findTimeSchema() {
  return object({
    interviewers: z.pipe(
      z.unknown().check(
        z.refine((v) => {
          if (typeof v !== 'string' || !v) return false;
          const ids = v.split(',').map((s) => s.trim());
          return ids.length <= AVAILABILITY_LIMITS.interviewers && ids.every((id) => isRowId(id));
        }, M.interviewers),
      ),
      z.transform((v) => [...new Set((v as string).split(',').map((s) => Number(s.trim())))]),
    ),
    duration: queryNumber(AVAILABILITY_LIMITS.durationMin, AVAILABILITY_LIMITS.durationMax, null, M.duration),
    from: z.pipe(
      z
        .unknown()
        .check(
          z.refine(
            (v) =>
              isBlank(v) ||
              (typeof v === 'string' &&
                /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
                !Number.isNaN(Date.parse(v))),
            M.from,
          ),
        ),
      z.transform((v) => (isBlank(v) ? null : new Date(v as string))),
    ),
    days: queryNumber(1, AVAILABILITY_LIMITS.days, 14, M.days),
    count: queryNumber(1, AVAILABILITY_LIMITS.count, 10, M.count),
    tz: z.pipe(
      z.unknown().check(z.refine((v) => isBlank(v) || isTimeZone(v), M.timeZone)),
      z.transform((v) => (isBlank(v) ? null : (v as string))),
    ),
    step: z.pipe(
      z.unknown().check(z.refine((v) => isBlank(v) || (typeof v === 'string' && STEPS.includes(Number(v))), M.step)),
      z.transform((v) => (isBlank(v) ? 15 : Number(v))),
    ),
  }) as unknown as z.ZodMiniType<FindTimeQuery>;
}

export const FIND_TIME_PARAMS = ['interviewers', 'duration', 'from', 'days', 'count', 'tz', 'step'] as const;

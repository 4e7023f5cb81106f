/**
 * Finding a time (issue 32): the next slots when every chosen interviewer is free (their working
 * hours in their zone, buffers, minimum notice, the busy times of their calendars and their
 * scheduled interviews), and the conflicts of a planned interview with working hours and
 * calendars (helper of the interviews' warnings; other interviews are checked there).
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../context.js';
import { ValidationError } from '../http/errors.js';
import { AVAILABILITY_MESSAGES as M } from './availability.schema.js';
import type { FindTimeWarning, InterviewerSettings, Slot } from './availability.types.js';
import { activeUsers, interviewerChoices, scheduledInterviews } from './availability.queries.js';
import { calendarBusy, settingsOf } from './calendars.service.js';
import { collisions, findFreeSlots, type Interval, withinWorkingHours } from './lib/slots.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'cache' | 'serverKey' | 'now' | 'log'>;

const DAY = 86_400_000;

export interface FindSlotsInput {
  userIds: number[];
  durationMinutes: number;
  /** Search from here (default: now). */
  from?: Date | null;
  days: number;
  count: number;
  stepMinutes?: number;
}

/** The interviewers' names, or a 400 naming `interviewers` when one is unknown or inactive. */
async function interviewers(ctx: Ctx, userIds: readonly number[]): Promise<Map<number, string>> {
  const names = await activeUsers(ctx.db, userIds);
  if (!userIds.length || names.size !== userIds.length) throw new ValidationError({ interviewers: [M.interviewerUnknown] });
  return names;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The next `count` slots when all of `userIds` are free, and the calendars that could not be read. */
export async function findSlots(ctx: Ctx, input: FindSlotsInput): Promise<{ slots: Slot[]; warnings: FindTimeWarning[] }> {
  const names = await interviewers(ctx, input.userIds);
  const now = ctx.now().getTime();
  const from = Math.max(input.from?.getTime() ?? now, now);
  const to = from + input.days * DAY;
  const settings = await settingsOf(ctx, input.userIds);
  const [calendars, interviews] = await Promise.all([
    calendarBusy(ctx, input.userIds, settings, from, to),
    scheduledInterviews(ctx.db, input.userIds, new Date(from - DAY), new Date(to + DAY)),
  ]);
  const people = input.userIds.map((id) => ({
    settings: settings.get(id) as InterviewerSettings,
    busy: [
      ...(calendars.busy.get(id) ?? []),
      ...interviews.filter((i) => i.userId === id).map((i): Interval => ({ start: i.start, end: i.end })),
    ],
  }));
  const slots = findFreeSlots({
    people,
    now,
    from,
    to,
    durationMinutes: input.durationMinutes,
    stepMinutes: input.stepMinutes ?? 15,
    count: input.count,
  });
  return {
    slots: slots.map((s) => ({ starts_at: iso(s.start), ends_at: iso(s.end) })),
    warnings: calendars.problems.map((p) => ({
      kind: 'calendar',
      user_id: p.userId,
      interviewer: names.get(p.userId) ?? '',
      detail: `${p.label}: ${p.error}. Counted as free.`,
    })),
  };
}

export interface Conflict {
  kind: 'busy' | 'outside_hours';
  user_id: number;
  interviewer: string;
  detail: string;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Mon–Fri 09:00–17:00 Europe/Berlin" */
function hoursText(s: InterviewerSettings): string {
  const days = s.work_days;
  const run = days.length > 2 && days.every((d, i) => i === 0 || d === days[i - 1] + 1);
  const dayText = run ? `${WEEKDAYS[days[0] - 1]}–${WEEKDAYS[days[days.length - 1] - 1]}` : days.map((d) => WEEKDAYS[d - 1]).join(', ');
  return `${dayText} ${s.work_start}–${s.work_end} ${s.time_zone}`;
}

const clock = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('ccc d LLL HH:mm');

/**
 * What a planned interview [startsAt, endsAt) runs into for each HR user: outside their working
 * hours, or busy in their calendars (with their buffers). Scheduled interviews are not counted here.
 * `ignoreInterviewId` is accepted for the interviews' calls; calendars hold no interview ids.
 */
export async function busyConflicts(
  ctx: Ctx,
  input: { userIds: number[]; startsAt: Date; endsAt: Date; ignoreInterviewId?: number },
): Promise<Conflict[]> {
  if (!input.userIds.length) return [];
  const names = await activeUsers(ctx.db, input.userIds);
  const ids = input.userIds.filter((id) => names.has(id));
  const [start, end] = [input.startsAt.getTime(), input.endsAt.getTime()];
  const settings = await settingsOf(ctx, ids);
  const calendars = await calendarBusy(ctx, ids, settings, start - DAY, end + DAY);
  const out: Conflict[] = [];
  for (const id of ids) {
    const s = settings.get(id) as InterviewerSettings;
    const interviewer = names.get(id) as string;
    if (!withinWorkingHours(s, start, end))
      out.push({ kind: 'outside_hours', user_id: id, interviewer, detail: `Outside ${interviewer}'s working hours (${hoursText(s)})` });
    const hits = collisions({ settings: s, busy: calendars.busy.get(id) ?? [] }, start, end);
    if (hits.length) {
      const b = hits[0];
      out.push({
        kind: 'busy',
        user_id: id,
        interviewer,
        detail: `${interviewer} is busy in their calendar ${clock(b.start, s.time_zone)}–${DateTime.fromMillis(b.end, { zone: s.time_zone }).toFormat('HH:mm')} (${s.time_zone})`,
      });
    }
  }
  return out;
}

/** The HR users Find a time offers. */
export function findTimeChoices(ctx: Pick<Ctx, 'db'>) {
  return interviewerChoices(ctx.db);
}

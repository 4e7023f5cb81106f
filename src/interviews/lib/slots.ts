/**
 * The interval maths of finding interview slots (issue 32), pure: times are milliseconds since the
 * epoch, intervals half-open [start, end). Working hours are laid out in the interviewer's zone with
 * luxon (so a day across a DST change keeps its wall-clock hours).
 */
import { DateTime } from 'luxon';
import type { InterviewerSettings } from '../availability.types.js';

export interface Interval {
  start: number;
  end: number;
}

const MINUTE = 60_000;

/** Sorted, overlapping and touching intervals joined, empty ones dropped. */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = list.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** `HH:MM` as minutes after midnight. */
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The working hours of `settings` that meet [from, to), in its zone, day by day. */
function workingIntervals(settings: InterviewerSettings, from: number, to: number): Interval[] {
  const zone = settings.time_zone;
  const [startMin, endMin] = [minutesOf(settings.work_start), minutesOf(settings.work_end)];
  const out: Interval[] = [];
  let day = DateTime.fromMillis(from, { zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromMillis(to, { zone }).startOf('day');
  while (day <= last) {
    if (settings.work_days.includes(day.weekday)) {
      const start = day.set({ hour: Math.floor(startMin / 60), minute: startMin % 60 }).toMillis();
      const end = day.set({ hour: Math.floor(endMin / 60), minute: endMin % 60 }).toMillis();
      if (end > from && start < to) out.push({ start: Math.max(start, from), end: Math.min(end, to) });
    }
    day = day.plus({ days: 1 });
  }
  return out;
}

/**
 * Busy times widened so a slot keeps the buffers: a slot [s, e) needs [s - before, e + after) free,
 * which is the same as keeping [s, e) clear of each busy time widened by `after` before it and
 * `before` after it.
 */
function widenBusy(busy: readonly Interval[], beforeMinutes: number, afterMinutes: number): Interval[] {
  return mergeIntervals(busy.map((b) => ({ start: b.start - afterMinutes * MINUTE, end: b.end + beforeMinutes * MINUTE })));
}

/** `base` without the (merged) `remove` intervals. */
function subtract(base: readonly Interval[], remove: readonly Interval[]): Interval[] {
  const cuts = mergeIntervals(remove);
  const out: Interval[] = [];
  for (const b of mergeIntervals(base)) {
    let cursor = b.start;
    for (const c of cuts) {
      if (c.end <= cursor) continue;
      if (c.start >= b.end) break;
      if (c.start > cursor) out.push({ start: cursor, end: c.start });
      cursor = Math.max(cursor, c.end);
      if (cursor >= b.end) break;
    }
    if (cursor < b.end) out.push({ start: cursor, end: b.end });
  }
  return out;
}

/** The times inside both lists. */
function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const [x, y] = [mergeIntervals(a), mergeIntervals(b)];
  const out: Interval[] = [];
  let [i, j] = [0, 0];
  while (i < x.length && j < y.length) {
    const start = Math.max(x[i].start, y[j].start);
    const end = Math.min(x[i].end, y[j].end);
    if (end > start) out.push({ start, end });
    if (x[i].end < y[j].end) i++;
    else j++;
  }
  return out;
}

/** One interviewer as the slot search sees them: their settings and their busy times (not yet widened). */
export interface Person {
  settings: InterviewerSettings;
  busy: readonly Interval[];
}

/** When a person is free for an interview within [from, to): working hours, less busy times with buffers, from `now` + notice. */
function freeTimes(person: Person, now: number, from: number, to: number): Interval[] {
  const { settings } = person;
  const earliest = Math.max(from, now + settings.min_notice_minutes * MINUTE);
  if (earliest >= to) return [];
  const working = workingIntervals(settings, earliest, to);
  return subtract(working, widenBusy(person.busy, settings.buffer_before_minutes, settings.buffer_after_minutes));
}

export interface SlotQuery {
  people: readonly Person[];
  now: number;
  from: number;
  to: number;
  durationMinutes: number;
  stepMinutes: number;
  count: number;
}

/** The first `count` slots when everyone is free, starting on the step grid (steps counted from the hour in UTC). */
export function findFreeSlots(q: SlotQuery): Interval[] {
  if (!q.people.length || q.count <= 0) return [];
  let common = freeTimes(q.people[0], q.now, q.from, q.to);
  for (const p of q.people.slice(1)) {
    if (!common.length) break;
    common = intersect(common, freeTimes(p, q.now, q.from, q.to));
  }
  const [step, length] = [q.stepMinutes * MINUTE, q.durationMinutes * MINUTE];
  const slots: Interval[] = [];
  for (const free of common) {
    for (let s = Math.ceil(free.start / step) * step; s + length <= free.end; s += step) {
      slots.push({ start: s, end: s + length });
      if (slots.length >= q.count) return slots;
    }
  }
  return slots;
}

/** Whether [start, end) lies inside the person's working hours. */
export function withinWorkingHours(settings: InterviewerSettings, start: number, end: number): boolean {
  return subtract([{ start, end }], workingIntervals(settings, start, end)).length === 0;
}

/** The busy times (widened by the buffers) that [start, end) runs into. */
export function collisions(person: Person, start: number, end: number): Interval[] {
  const { settings } = person;
  return person.busy.filter(
    (b) => b.start - settings.buffer_after_minutes * MINUTE < end && b.end + settings.buffer_before_minutes * MINUTE > start,
  );
}

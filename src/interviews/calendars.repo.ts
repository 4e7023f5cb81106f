/** Writes (and reads for writes) of interviewer availability (issue 32): `interviewer_settings` and `calendar_sources`. */
import type { Db } from '../db/knex.js';
import { fromDbDate, insertedId, toDbDate } from '../db/codecs.js';
import type { CalendarKind, InterviewerSettings } from './availability.types.js';

/** A stored calendar source, its address and credentials still sealed. */
export interface CalendarRow {
  id: number;
  hr_user_id: number;
  kind: CalendarKind;
  label: string;
  url_encrypted: string;
  credentials_encrypted: string | null;
  url_hint: string;
  created_at: Date;
  last_fetched_at: Date | null;
  last_error: string | null;
}

function settingsOf(row: Record<string, unknown>): InterviewerSettings {
  return {
    time_zone: String(row.time_zone),
    work_days: String(row.work_days).split(',').filter(Boolean).map(Number),
    work_start: String(row.work_start),
    work_end: String(row.work_end),
    buffer_before_minutes: Number(row.buffer_before_minutes),
    buffer_after_minutes: Number(row.buffer_after_minutes),
    min_notice_minutes: Number(row.min_notice_minutes),
  };
}

/** The saved settings of each user who has a row. */
export async function settingsOfUsers(db: Db, userIds: readonly number[]): Promise<Map<number, InterviewerSettings>> {
  if (!userIds.length) return new Map();
  const rows = await db('interviewer_settings').whereIn('hr_user_id', userIds).select('*');
  return new Map(rows.map((r: Record<string, unknown>) => [Number(r.hr_user_id), settingsOf(r)]));
}

export async function saveSettings(db: Db, userId: number, s: InterviewerSettings, now: Date): Promise<void> {
  const row = {
    time_zone: s.time_zone,
    work_days: s.work_days.join(','),
    work_start: s.work_start,
    work_end: s.work_end,
    buffer_before_minutes: s.buffer_before_minutes,
    buffer_after_minutes: s.buffer_after_minutes,
    min_notice_minutes: s.min_notice_minutes,
    updated_at: toDbDate(now),
  };
  await db('interviewer_settings')
    .insert({ hr_user_id: userId, ...row })
    .onConflict('hr_user_id')
    .merge(row);
}

function calendarOf(r: Record<string, unknown>): CalendarRow {
  return {
    id: Number(r.id),
    hr_user_id: Number(r.hr_user_id),
    kind: r.kind as CalendarKind,
    label: String(r.label),
    url_encrypted: String(r.url_encrypted),
    credentials_encrypted: r.credentials_encrypted == null ? null : String(r.credentials_encrypted),
    url_hint: String(r.url_hint),
    created_at: fromDbDate(r.created_at) as Date,
    last_fetched_at: fromDbDate(r.last_fetched_at),
    last_error: r.last_error == null ? null : String(r.last_error),
  };
}

/** The calendars of these users, oldest first. */
export async function calendarsOfUsers(db: Db, userIds: readonly number[]): Promise<CalendarRow[]> {
  if (!userIds.length) return [];
  const rows = await db('calendar_sources').whereIn('hr_user_id', userIds).orderBy('id').select('*');
  return rows.map(calendarOf);
}

export async function countCalendars(db: Db, userId: number): Promise<number> {
  const row = await db('calendar_sources').where({ hr_user_id: userId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function insertCalendar(
  db: Db,
  row: Omit<CalendarRow, 'id' | 'last_fetched_at' | 'last_error' | 'created_at'>,
  now: Date,
): Promise<number> {
  return insertedId(await db('calendar_sources').insert({ ...row, created_at: toDbDate(now) }));
}

/** Removes a user's calendar; false when they have none with that id. */
export async function deleteCalendar(db: Db, userId: number, id: number): Promise<boolean> {
  return (await db('calendar_sources').where({ id, hr_user_id: userId }).delete()) > 0;
}

/** What the last read of a calendar gave: when, and its error (null: read fine). */
export async function recordRead(db: Db, id: number, at: Date, error: string | null): Promise<void> {
  await db('calendar_sources')
    .where({ id })
    .update({ last_fetched_at: toDbDate(at), last_error: error === null ? null : error.slice(0, 500) });
}

/**
 * The only code writing the interviews feature's tables (migration 033: interviews,
 * interview_participants) and its audit entries (the application's timeline). It reads the
 * application, its job and stages, stage kits and HR users (other features' tables) only to check
 * and name them.
 */
import type { Knex } from 'knex';
import { isMysql } from '../db/knex.js';
import { fromDbDate, insertedId, toDbDate } from '../db/codecs.js';
import type { InterviewType } from './interviews.types.js';

type Row = Record<string, any>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

// ---- What an interview is checked and named against ----

export interface ApplicationRow {
  id: number;
  job_id: number;
  job_title: string;
  stage_id: number | null;
  name: string;
  email: string;
  webhook_url: string | null;
}

export async function findApplication(db: Knex, id: number): Promise<ApplicationRow | null> {
  const row = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('a.id', id)
    .first('a.id', 'a.job_id', 'a.stage_id', 'a.first_name', 'a.last_name', 'a.email', 'j.title', 'j.webhook_enabled', 'j.webhook_url');
  if (!row) return null;
  const hook = (row.webhook_enabled === true || Number(row.webhook_enabled) === 1) && row.webhook_url ? String(row.webhook_url) : null;
  return {
    id: Number(row.id),
    job_id: Number(row.job_id),
    job_title: row.title,
    stage_id: num(row.stage_id),
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    email: row.email,
    webhook_url: hook,
  };
}

export async function stageOfJob(db: Knex, jobId: number, stageId: number): Promise<{ id: number; name: string } | null> {
  const row = await db('job_stages').where({ job_id: jobId, id: stageId }).first('id', 'name');
  return row ? { id: Number(row.id), name: row.name } : null;
}

export async function kitIdOfStage(db: Knex, stageId: number): Promise<number | null> {
  const row = await db('interview_kits').where({ stage_id: stageId }).first('id');
  return row ? Number(row.id) : null;
}

export interface HrUserRow {
  id: number;
  username: string;
  email: string | null;
  active: boolean;
}

export async function hrUsersById(db: Knex, ids: number[]): Promise<Map<number, HrUserRow>> {
  if (!ids.length) return new Map();
  const rows: Row[] = await db('hr_users').whereIn('id', ids).select('id', 'username', 'email', 'is_active');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), username: r.username, email: r.email ?? null, active: r.is_active === true || Number(r.is_active) === 1 },
    ]),
  );
}

/** Locks these HR users' rows for the transaction (MySQL; SQLite runs one transaction at a time): a booking's claim on their time. */
export async function lockUsers(trx: Knex, ids: number[]): Promise<void> {
  if (ids.length && isMysql(trx)) await trx('hr_users').whereIn('id', ids).orderBy('id').forUpdate().select('id');
}

// ---- Interviews ----

export interface InterviewValues {
  stage_id: number | null;
  stage_name: string;
  kit_id: number | null;
  type: InterviewType;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
}

export interface ParticipantValues {
  hr_user_id: number | null;
  email: string;
  name: string;
}

const dbValues = (v: InterviewValues) => ({
  ...v,
  starts_at: toDbDate(v.starts_at),
  ends_at: toDbDate(v.ends_at),
});

export async function insertInterview(
  trx: Knex,
  v: InterviewValues & { application_id: number; uid: string; created_by: number | null; booking_link_id: number | null },
  participants: ParticipantValues[],
  now: Date,
): Promise<number> {
  const at = toDbDate(now);
  const id = insertedId(
    await trx('interviews').insert({
      ...dbValues(v),
      application_id: v.application_id,
      uid: v.uid,
      sequence: 0,
      status: 'scheduled',
      booking_link_id: v.booking_link_id,
      created_by: v.created_by,
      created_at: at,
      updated_at: at,
    }),
  );
  await insertParticipants(trx, id, participants);
  return id;
}

async function insertParticipants(trx: Knex, interviewId: number, list: ParticipantValues[]): Promise<void> {
  if (list.length)
    await trx('interview_participants').insert(list.map((p) => ({ ...p, interview_id: interviewId, response: 'needs-action' })));
}

/** The interview's row locked for a change: its status, sequence and times as they are now. */
export async function lockInterview(
  trx: Knex,
  id: number,
): Promise<{ id: number; status: string; sequence: number; starts_at: Date; ends_at: Date } | null> {
  const row = await trx('interviews').where({ id }).forUpdate().first('id', 'status', 'sequence', 'starts_at', 'ends_at');
  return row
    ? {
        id: Number(row.id),
        status: row.status,
        sequence: Number(row.sequence),
        starts_at: fromDbDate(row.starts_at)!,
        ends_at: fromDbDate(row.ends_at)!,
      }
    : null;
}

/** Writes a change (sent with `sequence`); a new time clears the reminders sent for the old one. */
export async function updateInterview(
  trx: Knex,
  id: number,
  v: InterviewValues,
  sequence: number,
  timeChanged: boolean,
  now: Date,
): Promise<void> {
  await trx('interviews')
    .where({ id })
    .update({
      ...dbValues(v),
      sequence,
      updated_at: toDbDate(now),
      ...(timeChanged ? { reminded_24h_at: null, reminded_1h_at: null } : {}),
    });
}

/** Replaces the interviewers: the ones kept keep their row (and response). */
export async function replaceParticipants(trx: Knex, interviewId: number, keep: string[], add: ParticipantValues[]): Promise<void> {
  const q = trx('interview_participants').where({ interview_id: interviewId });
  if (keep.length) q.whereNotIn('email', keep);
  await q.delete();
  await insertParticipants(trx, interviewId, add);
}

/** Marks it cancelled (once): false when it already was. */
export async function markCancelled(trx: Knex, id: number, sequence: number, now: Date): Promise<boolean> {
  const at = toDbDate(now);
  const n = await trx('interviews')
    .where({ id, status: 'scheduled' })
    .update({ status: 'cancelled', sequence, cancelled_at: at, updated_at: at });
  return n === 1;
}

/** Claims a reminder (`column`: reminded_24h_at or reminded_1h_at) of a scheduled interview at that start: false when another process did. */
export async function claimReminder(
  trx: Knex,
  id: number,
  column: 'reminded_24h_at' | 'reminded_1h_at',
  startsAt: Date,
  now: Date,
): Promise<boolean> {
  const n = await trx('interviews')
    .where({ id, status: 'scheduled', starts_at: toDbDate(startsAt) })
    .whereNull(column)
    .update({ [column]: toDbDate(now) });
  return n === 1;
}

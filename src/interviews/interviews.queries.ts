/**
 * Read models of interviews (issue 32): an interview with its interviewers, an application's
 * interviews, the scheduled interviews an interviewer already has at a time (the overlap
 * warning), and the interviews due a reminder. Reads applications, jobs and HR users read-only.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { Interview, Interviewer, InterviewResponse, InterviewStatus, InterviewType } from './interviews.types.js';

type Row = Record<string, any>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => fromDbDate(v)!.toISOString();

/** An interview as stored, with the row-only fields the services need. */
export interface InterviewRecord extends Interview {
  uid: string;
  reminded_24h_at: Date | null;
  reminded_1h_at: Date | null;
}

function recordOf(r: Row, interviewers: Interviewer[]): InterviewRecord {
  return {
    id: Number(r.id),
    application_id: Number(r.application_id),
    stage_id: num(r.stage_id),
    stage_name: r.stage_name,
    kit_id: num(r.kit_id),
    type: r.type as InterviewType,
    starts_at: iso(r.starts_at),
    ends_at: iso(r.ends_at),
    time_zone: r.time_zone,
    location: r.location ?? null,
    video_url: r.video_url ?? null,
    candidate_notes: r.candidate_notes ?? null,
    status: r.status as InterviewStatus,
    sequence: Number(r.sequence),
    booked_by_candidate: r.booking_link_id !== null && r.booking_link_id !== undefined,
    interviewers,
    created_by: num(r.created_by),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    uid: r.uid,
    reminded_24h_at: fromDbDate(r.reminded_24h_at),
    reminded_1h_at: fromDbDate(r.reminded_1h_at),
  };
}

async function participantsOf(db: Knex, ids: number[]): Promise<Map<number, Interviewer[]>> {
  const out = new Map<number, Interviewer[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows: Row[] = await db('interview_participants')
    .whereIn('interview_id', ids)
    .orderBy('id')
    .select('interview_id', 'hr_user_id', 'email', 'name', 'response');
  for (const r of rows)
    out.get(Number(r.interview_id))?.push({
      user_id: num(r.hr_user_id),
      email: r.email,
      name: r.name,
      response: r.response as InterviewResponse,
    });
  return out;
}

export async function findInterview(db: Knex, id: number): Promise<InterviewRecord | null> {
  const row = await db('interviews').where({ id }).first();
  if (!row) return null;
  return recordOf(row, (await participantsOf(db, [id])).get(id) ?? []);
}

/** An application's interviews, oldest first. */
export async function interviewsOfApplication(db: Knex, applicationId: number): Promise<InterviewRecord[]> {
  const rows: Row[] = await db('interviews')
    .where({ application_id: applicationId })
    .orderBy([{ column: 'starts_at' }, { column: 'id' }]);
  const people = await participantsOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => recordOf(r, people.get(Number(r.id)) ?? []));
}

/** A scheduled interview another one would overlap, for one of its interviewers. */
export interface OverlapRow {
  interview_id: number;
  user_id: number | null;
  email: string;
  interviewer: string;
  stage_name: string;
  candidate: string;
  job_title: string;
  starts_at: Date;
  ends_at: Date;
}

/** The scheduled interviews of these people (HR user ids or emails) that overlap [startsAt, endsAt). */
export async function overlappingInterviews(
  db: Knex,
  who: { userIds: number[]; emails: string[] },
  startsAt: Date,
  endsAt: Date,
  ignoreInterviewId: number | null,
): Promise<OverlapRow[]> {
  if (!who.userIds.length && !who.emails.length) return [];
  const q = db('interviews as i')
    .join('interview_participants as p', 'p.interview_id', 'i.id')
    .join('applications as a', 'a.id', 'i.application_id')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('i.status', 'scheduled')
    .where('i.starts_at', '<', toDbDate(endsAt))
    .where('i.ends_at', '>', toDbDate(startsAt))
    .where((w) => {
      if (who.userIds.length) w.orWhereIn('p.hr_user_id', who.userIds);
      if (who.emails.length) w.orWhereIn('p.email', who.emails);
    })
    .orderBy([{ column: 'i.starts_at' }, { column: 'i.id' }])
    .limit(100)
    .select(
      'i.id',
      'p.hr_user_id',
      'p.email',
      'p.name',
      'i.stage_name',
      'a.first_name',
      'a.last_name',
      'j.title',
      'i.starts_at',
      'i.ends_at',
    );
  if (ignoreInterviewId !== null) q.whereNot('i.id', ignoreInterviewId);
  const rows: Row[] = await q;
  return rows.map((r) => ({
    interview_id: Number(r.id),
    user_id: num(r.hr_user_id),
    email: r.email,
    interviewer: r.name,
    stage_name: r.stage_name,
    candidate: [r.first_name, r.last_name].filter(Boolean).join(' '),
    job_title: r.title,
    starts_at: fromDbDate(r.starts_at)!,
    ends_at: fromDbDate(r.ends_at)!,
  }));
}

/** Scheduled interviews starting in (now, now + withinMs] whose reminder `column` is not sent yet, soonest first. */
export async function interviewsDueReminder(
  db: Knex,
  column: 'reminded_24h_at' | 'reminded_1h_at',
  now: Date,
  withinMs: number,
  limit: number,
): Promise<InterviewRecord[]> {
  const rows: Row[] = await db('interviews')
    .where('status', 'scheduled')
    .where('starts_at', '>', toDbDate(now))
    .where('starts_at', '<=', toDbDate(new Date(now.getTime() + withinMs)))
    .whereNull(column)
    .orderBy([{ column: 'starts_at' }, { column: 'id' }])
    .limit(limit);
  const people = await participantsOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => recordOf(r, people.get(Number(r.id)) ?? []));
}

/** Reads of the candidates feature: what a person's status page shows, and what their data download holds. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson } from '../db/codecs.js';

type Row = Record<string, any>;

export interface StatusApplication {
  id: number;
  job_title: string;
  job_public_id: string;
  job_status: string;
  stage: string | null;
  stage_kind: string | null;
  outcome: string | null;
  outcome_reason: string | null;
  created_at: Date;
  first_name: string;
  email: string;
}

/** The person's applications, newest first. */
export async function personApplications(db: Knex, personId: number): Promise<StatusApplication[]> {
  const rows: Row[] = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('job_stages as s', 's.id', 'a.stage_id')
    .where('a.person_id', personId)
    .select(
      'a.id',
      'j.title as job_title',
      'j.public_id as job_public_id',
      'j.status as job_status',
      's.name as stage',
      's.kind as stage_kind',
      'a.outcome',
      'a.outcome_reason',
      'a.created_at',
      'a.first_name',
      'a.email',
    )
    .orderBy([
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ]);
  return rows.map((r) => ({
    id: Number(r.id),
    job_title: String(r.job_title),
    job_public_id: String(r.job_public_id),
    job_status: String(r.job_status),
    stage: r.stage ?? null,
    stage_kind: r.stage_kind ?? null,
    outcome: r.outcome ?? null,
    outcome_reason: r.outcome_reason ?? null,
    created_at: fromDbDate(r.created_at)!,
    first_name: String(r.first_name),
    email: String(r.email),
  }));
}

export interface UpcomingInterview {
  application_id: number;
  type: string;
  stage_name: string;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
}

/** Scheduled interviews of these applications that have not ended, soonest first. */
export async function upcomingInterviews(db: Knex, applicationIds: number[], now: Date): Promise<UpcomingInterview[]> {
  if (!applicationIds.length) return [];
  const rows: Row[] = await db('interviews')
    .whereIn('application_id', applicationIds)
    .where('status', 'scheduled')
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .select('application_id', 'type', 'stage_name', 'starts_at', 'ends_at', 'time_zone', 'location', 'video_url', 'candidate_notes');
  return rows.map((r) => ({
    application_id: Number(r.application_id),
    type: String(r.type),
    stage_name: String(r.stage_name),
    starts_at: fromDbDate(r.starts_at)!,
    ends_at: fromDbDate(r.ends_at)!,
    time_zone: String(r.time_zone),
    location: r.location ?? null,
    video_url: r.video_url ?? null,
    candidate_notes: r.candidate_notes ?? null,
  }));
}

/** Booking links of these applications still open (not revoked, not expired, no interview booked with them): when sent, until when. */
export async function openBookingLinks(
  db: Knex,
  applicationIds: number[],
  now: Date,
): Promise<{ application_id: number; created_at: Date; expires_at: Date }[]> {
  if (!applicationIds.length) return [];
  const rows: Row[] = await db('booking_links as b')
    .whereIn('b.application_id', applicationIds)
    .whereNull('b.revoked_at')
    .where('b.expires_at', '>', now)
    .whereNotExists(db('interviews as i').select(db.raw('1')).whereRaw('i.booking_link_id = b.id').where('i.status', 'scheduled'))
    .orderBy('b.created_at')
    .select('b.application_id', 'b.created_at', 'b.expires_at');
  return rows.map((r) => ({
    application_id: Number(r.application_id),
    created_at: fromDbDate(r.created_at)!,
    expires_at: fromDbDate(r.expires_at)!,
  }));
}

/** Offers sent to these applications and waiting for the candidate's answer (issue 34's offers), oldest first. */
export async function offersWaiting(
  db: Knex,
  applicationIds: number[],
): Promise<{ application_id: number; sent_at: Date; expires_on: string }[]> {
  if (!applicationIds.length) return [];
  const rows: Row[] = await db('offers')
    .whereIn('application_id', applicationIds)
    .where('status', 'sent')
    .orderBy('sent_at')
    .select('application_id', 'sent_at', 'expires_on');
  return rows.map((r) => ({ application_id: Number(r.application_id), sent_at: fromDbDate(r.sent_at)!, expires_on: String(r.expires_on) }));
}

/** Everything stored of these applications that an erase removes (and the candidate gave or was told), for their download. */
export async function applicationsData(db: Knex, applicationIds: number[]): Promise<Record<string, unknown>[]> {
  if (!applicationIds.length) return [];
  const [apps, answers, experiences, education, skills, transitions, emails, files]: Row[][] = await Promise.all([
    db('applications as a')
      .join('jobs as j', 'j.id', 'a.job_id')
      .whereIn('a.id', applicationIds)
      .orderBy('a.id')
      .select('a.*', 'j.title as job_title', 'j.public_id as job_public_id'),
    db('application_answers').whereIn('application_id', applicationIds).orderBy('id').select('application_id', 'question_text', 'answer'),
    db('application_experiences').whereIn('application_id', applicationIds).orderBy(['application_id', 'position']),
    db('application_education').whereIn('application_id', applicationIds).orderBy(['application_id', 'position']),
    db('application_skills').whereIn('application_id', applicationIds).orderBy(['application_id', 'position']),
    db('stage_transitions as t')
      .leftJoin('job_stages as s', 's.id', 't.to_stage_id')
      .whereIn('t.application_id', applicationIds)
      .orderBy('t.id')
      .select('t.application_id', 's.name as stage', 't.outcome', 't.reason', 't.at'),
    db('email_posts')
      .whereIn('application_id', applicationIds)
      .whereNot('template', 'hr_notification')
      .orderBy('id')
      .select('application_id', 'payload', 'status', 'created_at'),
    db('applications as a')
      .join('stored_files as f', 'f.id', 'a.resume_file_id')
      .whereIn('a.id', applicationIds)
      .select('a.id as application_id', 'f.original_name', 'f.content_type', 'f.size', 'f.sha256'),
  ]);
  const of = (rows: Row[], id: number) => rows.filter((r) => Number(r.application_id) === id);
  const date = (v: unknown) => fromDbDate(v)?.toISOString() ?? null;
  return apps.map((a) => {
    const id = Number(a.id);
    const file = of(files, id)[0];
    return {
      id,
      job: { title: a.job_title, public_id: a.job_public_id },
      first_name: a.first_name,
      last_name: a.last_name,
      email: a.email,
      phone: a.phone,
      applied_at: date(a.created_at),
      stage_history: of(transitions, id).map((t) => ({
        stage: t.stage ?? null,
        outcome: t.outcome ?? null,
        reason: t.reason ?? null,
        at: date(t.at),
      })),
      outcome: a.outcome ?? null,
      outcome_reason: a.outcome_reason ?? null,
      source: a.source ?? null,
      consent: a.consent_at ? { given_at: date(a.consent_at), text: a.consent_text } : null,
      resume: file ? { name: file.original_name, content_type: file.content_type, size: Number(file.size), sha256: file.sha256 } : null,
      professional_experiences: of(experiences, id).map((e) => ({
        company: e.company,
        role: e.role,
        start: e.start,
        end: e.end ?? null,
        notice_period: e.notice_period,
        salary: e.salary,
        description: e.description ?? null,
      })),
      education: of(education, id).map((e) => ({ school: e.school, degree: e.degree, field: e.field, start: e.start, end: e.end ?? null })),
      skills: of(skills, id).map((s) => s.name),
      answers: of(answers, id).map((x) => ({ question: x.question_text, answer: fromDbJson(x.answer, x.answer) })),
      emails: of(emails, id).map((e) => {
        const sent = fromDbJson<{ to?: string; subject?: string }>(e.payload, {});
        return { to: sent.to ?? null, subject: sent.subject ?? null, status: e.status, at: date(e.created_at) };
      }),
    };
  });
}

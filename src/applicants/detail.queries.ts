/** One application as HR's detail page reads it (spec 02 'Applicant detail'), and its stored resume. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson } from '../db/codecs.js';
import type { ApplicationStatus } from '../shared/enums.js';
import type { ApplicantDetail } from './types.js';
import { resumeDownloadName } from './lib/file-type.js';
import { fullName, resumeUrl, resumeViewUrl } from './list.queries.js';

type Row = Record<string, any>;

/**
 * An application's skills, experiences, education and answers, in one statement (on MySQL every
 * statement is a round trip and a parse, which cost more than these four index reads): a UNION
 * ALL of the four, each row tagged with its part, its order as numbers k1..k4 and its own
 * columns as text c1..c7 (a question id comes back as text on MySQL), in each part's order (answers in the job's question order; an answer to a since-deleted question keeps
 * its place by id, after them).
 */
async function childRows(db: Knex, id: number): Promise<Record<'skills' | 'experiences' | 'education' | 'answers', Row[]>> {
  const part = (n: number, table: string, columns: (string | null)[]) =>
    db(table)
      .where('application_id', id)
      .select(
        db.raw('? as ??', [n, 'part']),
        db.raw('0 as ??', ['k1']),
        db.raw('?? as ??', ['position', 'k2']),
        db.raw('?? as ??', ['id', 'k3']),
        db.raw('0 as ??', ['k4']),
        ...columns.map((c, i) => (c === null ? db.raw('null as ??', [`c${i + 1}`]) : db.raw('?? as ??', [c, `c${i + 1}`]))),
      );
  const answers = db('application_answers as x')
    .leftJoin('job_questions as q', 'q.id', 'x.question_id')
    .where('x.application_id', id)
    .select(
      db.raw('4 as ??', ['part']),
      db.raw('CASE WHEN q.id IS NULL THEN 1 ELSE 0 END as ??', ['k1']),
      db.raw('coalesce(q.position, 0) as ??', ['k2']),
      db.raw('coalesce(q.id, 0) as ??', ['k3']),
      db.raw('x.id as ??', ['k4']),
      db.raw('null as ??', ['c1']),
      db.raw('x.question_id as ??', ['c2']),
      db.raw('x.question_text as ??', ['c3']),
      db.raw('x.answer as ??', ['c4']),
      db.raw('null as ??', ['c5']),
      db.raw('null as ??', ['c6']),
      db.raw('null as ??', ['c7']),
    );
  const rows: Row[] = await part(1, 'application_skills', ['name', null, null, null, null, null, null])
    .unionAll(part(2, 'application_experiences', ['company', 'role', 'start', 'end', 'notice_period', 'salary', 'description']))
    .unionAll(part(3, 'application_education', ['school', 'degree', 'field', 'start', 'end', null, null]))
    .unionAll(answers)
    .orderBy([{ column: 'part' }, { column: 'k1' }, { column: 'k2' }, { column: 'k3' }, { column: 'k4' }]);
  const of = (n: number) => rows.filter((r) => Number(r.part) === n);
  return {
    skills: of(1).map((r) => ({ name: r.c1 })),
    experiences: of(2).map((r) => ({
      company: r.c1,
      role: r.c2,
      start: r.c3,
      end: r.c4,
      notice_period: r.c5,
      salary: r.c6,
      description: r.c7,
    })),
    education: of(3).map((r) => ({ school: r.c1, degree: r.c2, field: r.c3, start: r.c4, end: r.c5 })),
    answers: of(4).map((r) => ({ question_id: r.c2, question_text: r.c3, answer: r.c4 })),
  };
}

/** One application with its job, resume and child rows, or null. */
export async function findApplicant(db: Knex, id: number): Promise<ApplicantDetail | null> {
  const a = (await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
    .leftJoin('job_stages as s', 's.id', 'a.stage_id')
    // The tracking link's name, shown with the source (a read-only join of the sources' table).
    .leftJoin('tracking_links as tl', 'tl.id', 'a.tracking_link_id')
    .where('a.id', id)
    .first(
      'a.*',
      'tl.name as tracking_link_name',
      'j.title as job_title',
      'j.public_id as job_public_id',
      'j.currency as job_currency',
      'f.id as resume_id',
      'f.content_type as resume_content_type',
      's.name as stage_name',
    )) as Row | undefined;
  if (!a) return null;
  const { skills, experiences, education, answers } = await childRows(db, id);
  const hasResume = a.resume_file_id !== null && a.resume_id !== null;
  return {
    id,
    job_id: Number(a.job_id),
    job_title: a.job_title,
    job_public_id: a.job_public_id,
    job_currency: a.job_currency ?? null,
    name: fullName(a),
    first_name: a.first_name,
    last_name: a.last_name,
    email: a.email,
    phone: a.phone,
    status: a.status as ApplicationStatus,
    stage_id: a.stage_id === null ? null : Number(a.stage_id),
    stage: a.stage_name ?? null,
    outcome: a.outcome ?? null,
    outcome_reason: a.outcome_reason ?? null,
    attribution:
      a.source === null || a.source === undefined
        ? null
        : {
            source: String(a.source),
            medium: a.medium ?? '',
            campaign: a.campaign ?? '',
            tracking_link_id: a.tracking_link_id === null || a.tracking_link_id === undefined ? null : Number(a.tracking_link_id),
            tracking_link_name: a.tracking_link_name ?? null,
          },
    created_at: fromDbDate(a.created_at)!.toISOString(),
    updated_at: fromDbDate(a.updated_at)!.toISOString(),
    resume_download_url: hasResume ? resumeUrl(id) : null,
    resume_filename: hasResume
      ? resumeDownloadName({
          first_name: a.first_name,
          last_name: a.last_name,
          job_title: a.job_title,
          content_type: a.resume_content_type,
        })
      : null,
    resume_content_type: hasResume ? a.resume_content_type : null,
    resume_view_url: hasResume && a.resume_content_type === 'application/pdf' ? resumeViewUrl(id) : null,
    skills: skills.map((s) => s.name),
    professional_experiences: experiences.map((e) => ({
      company: e.company,
      role: e.role,
      start: e.start,
      end: e.end ?? null,
      notice_period: e.notice_period,
      salary: e.salary,
      description: e.description ?? null,
    })),
    education: education.map((e) => ({ school: e.school, degree: e.degree, field: e.field, start: e.start, end: e.end ?? null })),
    answers: answers.map((r) => ({
      question_id: r.question_id === null ? null : Number(r.question_id),
      question_text: r.question_text,
      answer: fromDbJson<string | number | string[]>(r.answer, ''),
    })),
    consent:
      a.consent_at === null || a.consent_at === undefined
        ? null
        : { given_at: fromDbDate(a.consent_at)!.toISOString(), text: String(a.consent_text ?? '') },
  };
}

/** The stored resume of an application and its download name: null when the application or its file row is missing. */
export async function findResume(
  db: Knex,
  id: number,
): Promise<{ storage_key: string; download_name: string; content_type: string; size: number } | null> {
  const r = (await db('applications as a')
    .join('stored_files as f', 'f.id', 'a.resume_file_id')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('a.id', id)
    .first('f.storage_key', 'f.content_type', 'f.size', 'a.first_name', 'a.last_name', 'j.title as job_title')) as Row | undefined;
  return r
    ? {
        storage_key: r.storage_key,
        download_name: resumeDownloadName({
          first_name: r.first_name,
          last_name: r.last_name,
          job_title: r.job_title,
          content_type: r.content_type,
        }),
        content_type: r.content_type,
        size: Number(r.size),
      }
    : null;
}

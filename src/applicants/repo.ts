/** Database writes of an application and everything that belongs to it. Run inside one transaction. */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import type { EducationEntry, ExperienceEntry } from '../shared/application-rules.js';

interface StoredFileRow {
  storage_key: string;
  original_name: string;
  content_type: string;
  size: number;
  sha256: string;
}

/** One answer as stored; analytics read `answer_key`, `answer_number` and the choice rows. */
export interface AnswerRow {
  question_id: number;
  question_text: string;
  /** JSON: a string, a number, or a list of strings. */
  answer: string;
  answer_key: string | null;
  answer_number: number | null;
  /** Ticked options of a checkbox answer (one application_answer_choices row each). */
  choices: string[];
}

export interface NewApplication {
  job_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  ip_hash: string | null;
  resume: StoredFileRow;
  experiences: ExperienceEntry[];
  education: EducationEntry[];
  skills: string[];
  answers: AnswerRow[];
}

function insertedId(result: unknown[]): number {
  const id = result[0];
  return Number(typeof id === 'object' && id !== null ? (id as { id: number }).id : id);
}

/** Inserts the application with its file record and child rows; returns the application id. */
export async function insertApplication(trx: Knex, app: NewApplication, now: Date): Promise<number> {
  const at = toDbDate(now);
  const fileId = insertedId(await trx('stored_files').insert({ ...app.resume, created_at: at }));
  const applicationId = insertedId(
    await trx('applications').insert({
      job_id: app.job_id,
      first_name: app.first_name,
      last_name: app.last_name,
      email: app.email,
      phone: app.phone,
      status: 'NEW',
      resume_file_id: fileId,
      ip_hash: app.ip_hash,
      created_at: at,
      updated_at: at,
    }),
  );
  if (app.experiences.length) {
    await trx('application_experiences').insert(
      app.experiences.map((e, position) => ({
        application_id: applicationId,
        position,
        company: e.company,
        role: e.role,
        start: e.start,
        end: e.end || null,
        notice_period: e.notice_period,
        salary: e.salary,
        description: e.description || null,
      })),
    );
  }
  if (app.education.length) {
    await trx('application_education').insert(
      app.education.map((e, position) => ({
        application_id: applicationId,
        position,
        school: e.school,
        degree: e.degree,
        field: e.field,
        start: e.start,
        end: e.end || null,
      })),
    );
  }
  if (app.skills.length) {
    await trx('application_skills').insert(app.skills.map((name, position) => ({ application_id: applicationId, position, name })));
  }
  await insertAnswers(trx, applicationId, app.answers);
  return applicationId;
}

async function insertAnswers(trx: Knex, applicationId: number, answers: AnswerRow[]): Promise<void> {
  const row = (a: AnswerRow) => ({
    application_id: applicationId,
    question_id: a.question_id,
    question_text: a.question_text,
    answer: a.answer,
    answer_key: a.answer_key,
    answer_number: a.answer_number,
  });
  // Answers without choice rows go in one statement; checkbox answers need their own ids.
  const plain = answers.filter((a) => !a.choices.length);
  if (plain.length) await trx('application_answers').insert(plain.map(row));
  for (const a of answers.filter((x) => x.choices.length)) {
    const answerId = insertedId(await trx('application_answers').insert(row(a)));
    await trx('application_answer_choices').insert(a.choices.map((choice) => ({ answer_id: answerId, question_id: a.question_id, choice })));
  }
}

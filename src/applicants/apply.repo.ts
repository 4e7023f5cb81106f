/** Database writes of applying: an application and everything that belongs to it, in one transaction. */
import type { Knex } from 'knex';
import { insertedId, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { EducationEntry, ExperienceEntry } from '../shared/application-rules.js';
import type { Attribution } from '../shared/campaign.js';
import { applicationSearchWords } from '../shared/search-words.js';
import { tallyNewApplications } from './tallies.repo.js';
import { insertStageTransitions } from './transitions.repo.js';

type Row = Record<string, any>;

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
  /** Its person (the people feature's, by the email address; the apply service always gives it). */
  person_id?: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  ip_hash: string | null;
  /** The first touch the applicant's cookie kept (null: came directly). */
  attribution?: Attribution | null;
  /** Null only for imported applications (issue 35), which may come without a file. */
  resume: StoredFileRow | null;
  /** The stage it starts in; absent: the job's first (an import names another). */
  stage_id?: number;
  experiences: ExperienceEntry[];
  education: EducationEntry[];
  skills: string[];
  answers: AnswerRow[];
  /** The consent text the applicant agreed to (APPLY_CONSENT_TEXT when they applied); absent: none asked. Its time is the application's. */
  consent_text?: string | null;
}

/** Inserts the application with its file record and child rows; returns the application id. */
export async function insertApplication(trx: Knex, app: NewApplication, now: Date): Promise<number> {
  const at = toDbDate(now);
  const fileId = app.resume ? insertedId(await trx('stored_files').insert({ ...app.resume, created_at: at })) : null;
  const stageId = app.stage_id ?? (await entryStageId(trx, app.job_id));
  const applicationId = insertedId(
    await trx('applications').insert({
      job_id: app.job_id,
      person_id: app.person_id ?? null,
      first_name: app.first_name,
      last_name: app.last_name,
      email: app.email,
      phone: app.phone,
      status: 'NEW',
      stage_id: stageId,
      resume_file_id: fileId,
      ip_hash: app.ip_hash,
      source: app.attribution?.source ?? null,
      medium: app.attribution?.medium || null,
      campaign: app.attribution?.campaign || null,
      // A link removed since the cookie was set is not pointed at.
      tracking_link_id: app.attribution?.linkId ? trx.raw('(SELECT id FROM tracking_links WHERE id = ?)', [app.attribution.linkId]) : null,
      consent_at: app.consent_text ? at : null,
      consent_text: app.consent_text ?? null,
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
  // Its entry in the stage-transition ledger (transitions.repo.ts), at the application's time.
  await insertStageTransitions(
    trx,
    [
      {
        application_id: applicationId,
        job_id: app.job_id,
        from_stage_id: null,
        to_stage_id: stageId,
        outcome: null,
        reason: null,
        by_user_id: null,
      },
    ],
    now,
  );
  await insertAnswers(trx, applicationId, app.answers);
  await insertSearchWords(trx, applicationId, app, at);
  // Last: the tally rows are shared by every application to the job (locked until the commit).
  await tallyNewApplications(trx, app.job_id, [{ id: applicationId, answers: app.answers }]);
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
  // In the questions' order (ids follow it): each run of answers without choice rows in one
  // statement; a checkbox answer on its own, as its choice rows need its id.
  let run: AnswerRow[] = [];
  const flush = async () => {
    if (run.length) await trx('application_answers').insert(run.map(row));
    run = [];
  };
  for (const a of answers) {
    if (!a.choices.length) {
      run.push(a);
      continue;
    }
    await flush();
    const answerId = insertedId(await trx('application_answers').insert(row(a)));
    await trx('application_answer_choices').insert(
      a.choices.map((choice) => ({ answer_id: answerId, question_id: a.question_id, choice })),
    );
  }
  await flush();
}

/** The application's search words (src/shared/search-words.ts), written with it. */
async function insertSearchWords(
  trx: Knex,
  applicationId: number,
  app: Pick<NewApplication, 'first_name' | 'last_name' | 'email' | 'phone'>,
  createdAt: string,
): Promise<void> {
  const words = applicationSearchWords(app);
  if (words.length)
    await trx('application_search_words').insert(words.map((word) => ({ word, application_id: applicationId, created_at: createdAt })));
}

/** The stage a new application of the job starts in: its first stage (every job is made with its stages, migration 023 gave the older ones theirs). */
export async function entryStageId(trx: Knex, jobId: number): Promise<number> {
  const q = trx('job_stages')
    .whereIn('job_id', [jobId])
    .orderBy([{ column: 'job_id' }, { column: 'position' }, { column: 'id' }])
    .select('id', 'job_id', 'name', 'position', 'kind');
  const [first]: Row[] = await (isMysql(trx) ? q.forShare() : q);
  if (!first) throw new Error(`Job ${jobId} has no pipeline stages.`);
  return Number(first.id);
}

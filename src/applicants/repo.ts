/** Database writes of an application and everything that belongs to it. Run inside one transaction. */
import type { Knex } from 'knex';
import { insertedId, toDbDate, toDbJson } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { EducationEntry, ExperienceEntry } from '../shared/application-rules.js';
import type { ApplicationStatus } from '../shared/enums.js';
import type { Attribution } from '../shared/campaign.js';
import { applicationSearchWords } from '../shared/search-words.js';

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
  /** The first touch the applicant's cookie kept (null: came directly). */
  attribution?: Attribution | null;
  resume: StoredFileRow;
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
  const fileId = insertedId(await trx('stored_files').insert({ ...app.resume, created_at: at }));
  const applicationId = insertedId(
    await trx('applications').insert({
      job_id: app.job_id,
      first_name: app.first_name,
      last_name: app.last_name,
      email: app.email,
      phone: app.phone,
      status: 'NEW',
      stage_id: await entryStageId(trx, app.job_id),
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

/**
 * Whether the application exists; on MySQL its row is share-locked until the commit, so a purge
 * or erase running at the same time waits, and a note is never written for an application going away.
 */
export async function lockApplicationForChild(trx: Knex, applicationId: number): Promise<boolean> {
  const q = trx('applications').where({ id: applicationId }).first('id');
  return !!(await (isMysql(trx) ? q.forShare() : q));
}

/** An answer as the tallies count it (migration 011): the columns insights group by, and its choice rows. */
export type TalliedAnswer = Pick<AnswerRow, 'answer_key' | 'answer_number' | 'choices'> & { question_id: number | null };

type TallyKind = 'a' | 'k' | 'n' | 'c';
/** One tally row's change: question, kind, value (key or choice), number, and how many answer rows. */
type TallyDelta = [questionId: number, kind: TallyKind, value: string, number: number | string, n: number];

/** Tally rows per statement: 5 bound values each, far under every database's limit. */
const TALLY_ROWS = 500;

/**
 * Adds the answers of new applications of one job to the answer tallies, and the applications to
 * the job's tally count and highest id (migration 011), in the transaction that inserts them:
 * one row per question for its answers, one per answer key, per number and per ticked choice,
 * the same groups insights count. Rows equal for the database (MySQL's collation, 2 and 2.0000)
 * are added up by the upsert itself.
 */
export async function tallyNewApplications(
  trx: Knex,
  jobId: number,
  applications: { id: number; answers: TalliedAnswer[] }[],
): Promise<void> {
  if (!applications.length) return;
  const deltas = new Map<string, TallyDelta>();
  const add = (questionId: number, kind: TallyKind, value: string, number: number) => {
    const key = `${questionId}\u0000${kind}\u0000${value}\u0000${number}`;
    const d = deltas.get(key);
    if (d) d[4] += 1;
    else deltas.set(key, [questionId, kind, value, number, 1]);
  };
  let maxId = 0;
  for (const app of applications) {
    maxId = Math.max(maxId, app.id);
    for (const a of app.answers) {
      if (a.question_id === null) continue;
      add(a.question_id, 'a', '', 0);
      if (a.answer_key !== null) add(a.question_id, 'k', a.answer_key, 0);
      if (a.answer_number !== null) add(a.question_id, 'n', '', a.answer_number);
      for (const choice of a.choices) add(a.question_id, 'c', choice, 0);
    }
  }
  await applyTallyDeltas(trx, [...deltas.values()]);
  const mysql = isMysql(trx);
  await trx('answer_tally_jobs')
    .insert({ job_id: jobId, applications: applications.length, max_application_id: maxId })
    .onConflict('job_id')
    .merge({
      applications: trx.raw(mysql ? 'applications + VALUES(applications)' : 'answer_tally_jobs.applications + excluded.applications'),
      max_application_id: trx.raw(
        mysql
          ? 'GREATEST(max_application_id, VALUES(max_application_id))'
          : 'MAX(answer_tally_jobs.max_application_id, excluded.max_application_id)',
      ),
    });
}

/**
 * Upserts tally changes in one order (question, kind, value, number), so two transactions
 * touching the same rows wait for each other rather than deadlock; rows brought to zero go.
 */
async function applyTallyDeltas(trx: Knex, deltas: TallyDelta[]): Promise<void> {
  if (!deltas.length) return;
  const sorted = deltas.sort(
    (x, y) =>
      x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0) || Number(x[3]) - Number(y[3]),
  );
  const mysql = isMysql(trx);
  // Written out: Knex's SQLite upsert of many rows is a compound SELECT, limited to 500 terms.
  const upsert = mysql
    ? 'ON DUPLICATE KEY UPDATE n = n + VALUES(n)'
    : 'ON CONFLICT (question_id, kind, value, number) DO UPDATE SET n = answer_tallies.n + excluded.n';
  for (let i = 0; i < sorted.length; i += TALLY_ROWS) {
    const rows = sorted.slice(i, i + TALLY_ROWS);
    await trx.raw(
      `INSERT INTO answer_tallies (question_id, kind, value, number, n) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
      rows.flat(),
    );
  }
  if (sorted.some((d) => d[4] < 0)) {
    const questions = [...new Set(sorted.filter((d) => d[4] < 0).map((d) => d[0]))];
    for (let i = 0; i < questions.length; i += ID_CHUNK)
      await trx('answer_tallies')
        .whereIn('question_id', questions.slice(i, i + ID_CHUNK))
        .where('n', '<=', 0)
        .delete();
  }
}

/** What the answers of these applications add to the tallies, read from the rows (to be taken off before they are deleted). */
async function storedTallies(trx: Knex, ids: number[]): Promise<TallyDelta[]> {
  const answers = () => trx('application_answers').whereIn('application_id', ids).whereNotNull('question_id');
  const [all, keys, numbers, choices]: Record<string, any>[][] = await Promise.all([
    answers().select('question_id').count({ n: '*' }).groupBy('question_id'),
    answers()
      .whereNotNull('answer_key')
      .select('question_id', { value: 'answer_key' })
      .count({ n: '*' })
      .groupBy('question_id', 'answer_key'),
    answers()
      .whereNotNull('answer_number')
      .select('question_id', { number: 'answer_number' })
      .count({ n: '*' })
      .groupBy('question_id', 'answer_number'),
    trx('application_answer_choices as c')
      .join('application_answers as a', 'a.id', 'c.answer_id')
      .whereIn('a.application_id', ids)
      .whereNotNull('c.question_id')
      .select({ question_id: 'c.question_id', value: 'c.choice' })
      .count({ n: '*' })
      .groupBy('c.question_id', 'c.choice'),
  ]);
  return [
    ...all.map((r): TallyDelta => [Number(r.question_id), 'a', '', 0, Number(r.n)]),
    ...keys.map((r): TallyDelta => [Number(r.question_id), 'k', String(r.value), 0, Number(r.n)]),
    ...numbers.map((r): TallyDelta => [Number(r.question_id), 'n', '', r.number, Number(r.n)]),
    ...choices.map((r): TallyDelta => [Number(r.question_id), 'c', String(r.value), 0, Number(r.n)]),
  ];
}

/** Counters the read caches put in their stamps (migration 005): raised in the writer's transaction. */
export type ChangeCounter = 'applications.status' | 'applications.removed' | 'applications.stage';

export async function bumpCounter(trx: Knex, name: ChangeCounter): Promise<void> {
  await trx('change_counters').where({ name }).increment('value', 1);
}

/**
 * Sets the status of those of `ids` that have another one; answers which ids exist and what
 * changed (id and the status it had). The rows are locked first (FOR UPDATE on MySQL) in one
 * order, ascending id, chunk after chunk, so two changes over overlapping applications wait for
 * each other instead of deadlocking, and two changes of one application are written, and
 * audited, one after the other.
 */
export async function updateStatuses(
  trx: Knex,
  ids: number[],
  status: ApplicationStatus,
  now: Date,
): Promise<{ found: Set<number>; changed: { id: number; from: ApplicationStatus }[] }> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const found = new Set<number>();
  const changed: { id: number; from: ApplicationStatus }[] = [];
  for (let i = 0; i < sorted.length; i += ID_CHUNK) {
    const q = trx('applications')
      .select('id', 'status')
      .whereIn('id', sorted.slice(i, i + ID_CHUNK))
      .orderBy('id');
    // SQLite has one writer at a time already (and Knex warns on FOR UPDATE there).
    const rows: { id: number; status: ApplicationStatus }[] = await (isMysql(trx) ? q.forUpdate() : q);
    for (const r of rows) {
      found.add(Number(r.id));
      if (r.status !== status) changed.push({ id: Number(r.id), from: r.status });
    }
  }
  for (let i = 0; i < changed.length; i += ID_CHUNK) {
    await trx('applications')
      .whereIn(
        'id',
        changed.slice(i, i + ID_CHUNK).map((c) => c.id),
      )
      .update({ status, updated_at: toDbDate(now) });
  }
  return { found, changed };
}

export interface ApplicationAudit {
  /** 'application' unless told (a job's stage list is a 'job' entry). */
  entity?: string;
  userId: number | null;
  action: string;
  entityId: number | null;
  details: unknown;
}

/** Who changed which application and when; written in the same transaction as the change. */
export async function insertApplicationAudit(trx: Knex, entries: ApplicationAudit[], now: Date): Promise<void> {
  const at = toDbDate(now);
  const rows = entries.map((e) => ({
    user_id: e.userId,
    action: e.action,
    entity: e.entity ?? 'application',
    entity_id: e.entityId,
    details: toDbJson(e.details),
    created_at: at,
  }));
  for (let i = 0; i < rows.length; i += ID_CHUNK) await trx('audit_log').insert(rows.slice(i, i + ID_CHUNK));
}

/** Ids per statement: well under every database's limit of bound parameters. */
const ID_CHUNK = 500;

/** An application as retention sees it: its id and its resume's storage key. */
export interface RemovableApplication {
  id: number;
  job_id: number;
  resume_file_id: number | null;
  storage_key: string | null;
}

/**
 * Deletes the applications and everything of theirs: answers and their choices, skills,
 * experiences, education, search words, outbound post and email records, notes and audit entries
 * (their timeline), then the applications and their stored_files rows. Children go first, by
 * application id, in chunks, so the foreign keys never cascade row by row. Their answers are taken off the answer tallies, all at the end in one order
 * (as an application's insert adds them), and each job's tally count and highest id follow.
 * Run inside one transaction.
 */
export async function deleteApplications(trx: Knex, apps: RemovableApplication[]): Promise<void> {
  const taken = new Map<string, TallyDelta>();
  for (let i = 0; i < apps.length; i += ID_CHUNK) {
    const chunk = apps.slice(i, i + ID_CHUNK);
    const ids = chunk.map((a) => a.id);
    for (const d of await storedTallies(trx, ids)) {
      const key = `${d[0]}\u0000${d[1]}\u0000${d[2]}\u0000${d[3]}`;
      const seen = taken.get(key);
      if (seen) seen[4] -= d[4];
      else taken.set(key, [d[0], d[1], d[2], d[3], -d[4]]);
    }
    await trx('application_answer_choices')
      .whereIn('answer_id', trx('application_answers').select('id').whereIn('application_id', ids))
      .delete();
    for (const table of [
      'application_answers',
      'application_skills',
      'application_experiences',
      'application_education',
      'application_search_words',
      'application_posts',
      'email_posts',
      'application_notes',
    ]) {
      await trx(table).whereIn('application_id', ids).delete();
    }
    // Their history too (status changes, notes, stages): the timeline goes with the application.
    await trx('audit_log').where('entity', 'application').whereIn('entity_id', ids).delete();
    await trx('applications').whereIn('id', ids).delete();
    const fileIds = chunk.map((a) => a.resume_file_id).filter((id): id is number => id !== null);
    if (fileIds.length) await trx('stored_files').whereIn('id', fileIds).delete();
  }
  await applyTallyDeltas(trx, [...taken.values()]);
  const byJob = new Map<number, number>();
  for (const a of apps) byJob.set(a.job_id, (byJob.get(a.job_id) ?? 0) + 1);
  for (const [jobId, removed] of [...byJob].sort((x, y) => x[0] - y[0])) {
    await trx('answer_tally_jobs')
      .where({ job_id: jobId })
      .update({
        applications: trx.raw('applications - ?', [removed]),
        max_application_id: trx.raw('COALESCE((SELECT MAX(id) FROM applications WHERE job_id = ?), 0)', [jobId]),
      });
  }
}

/** How many applications are in each of `stageIds` (rejected ones too: they keep their stage). */
export async function applicationsPerStage(trx: Knex, stageIds: number[]): Promise<Map<number, number>> {
  if (!stageIds.length) return new Map();
  const rows: Row[] = await trx('applications').whereIn('stage_id', stageIds).select('stage_id').count({ n: '*' }).groupBy('stage_id');
  return new Map(rows.map((r) => [Number(r.stage_id), Number(r.n)]));
}

// ---- The pipeline's columns of applications (migration 013), written by src/pipeline/ through index.ts ----

type Row = Record<string, any>;

export interface PipelineState {
  id: number;
  job_id: number;
  stage_id: number | null;
  outcome: string | null;
  outcome_reason: string | null;
  status: ApplicationStatus;
}

/** The applications' pipeline columns, locked in ascending id order (as updateStatuses does). */
export async function lockPipelineStates(trx: Knex, ids: number[]): Promise<PipelineState[]> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: PipelineState[] = [];
  for (let i = 0; i < sorted.length; i += ID_CHUNK) {
    const q = trx('applications')
      .select('id', 'job_id', 'stage_id', 'outcome', 'outcome_reason', 'status')
      .whereIn('id', sorted.slice(i, i + ID_CHUNK))
      .orderBy('id');
    const rows: Row[] = await (isMysql(trx) ? q.forUpdate() : q);
    for (const r of rows) {
      out.push({
        id: Number(r.id),
        job_id: Number(r.job_id),
        stage_id: r.stage_id === null ? null : Number(r.stage_id),
        outcome: r.outcome ?? null,
        outcome_reason: r.outcome_reason ?? null,
        status: r.status,
      });
    }
  }
  return out;
}

/** Sets the pipeline columns (and status) of applications that end up alike, in chunks. */
export async function writePipelineStates(
  trx: Knex,
  ids: number[],
  values: { stage_id: number | null; outcome: string | null; outcome_reason: string | null; status: ApplicationStatus },
  now: Date,
): Promise<void> {
  for (let i = 0; i < ids.length; i += ID_CHUNK)
    await trx('applications')
      .whereIn('id', ids.slice(i, i + ID_CHUNK))
      .update({ ...values, updated_at: toDbDate(now) });
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

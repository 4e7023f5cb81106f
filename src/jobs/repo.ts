/** All database access for jobs and their questions. */
import type { Knex } from 'knex';
import { bumpPublicVersion } from '../db/public-version.js';
import { fromDbBool, fromDbDate, fromDbJson, fromDbNumber, likeContains, toDbBool, toDbDate, toDbJson } from '../db/codecs.js';
import type { Job, JobQuestion, PublicJobFilters } from './types.js';
import { PUBLIC_ID_PATTERN } from '../shared/input-rules.js';
import type { JobInput } from './schema.js';

type Row = Record<string, any>;

function mapQuestion(r: Row): JobQuestion {
  return {
    id: Number(r.id),
    text: r.text ?? '',
    help_text: r.help_text ?? '',
    placeholder: r.placeholder ?? '',
    required: fromDbBool(r.required),
    answer_type: r.answer_type,
    options: fromDbJson<string[]>(r.options, []),
    order: Number(r.position),
  };
}

function mapJob(r: Row, questions: JobQuestion[] = []): Job {
  return {
    id: Number(r.id),
    public_id: r.public_id,
    title: r.title,
    department: r.department || null,
    location: r.location ?? '',
    job_type: r.job_type,
    work_mode: r.work_mode,
    description: r.description ?? '',
    responsibilities: r.responsibilities ?? '',
    requirements: r.requirements ?? '',
    perks_benefits: r.perks_benefits ?? '',
    currency: r.currency,
    min_salary: fromDbNumber(r.min_salary),
    max_salary: fromDbNumber(r.max_salary),
    salary_period: r.salary_period ?? 'YEAR',
    experience_required: r.experience_required ?? '',
    duration: r.duration || null,
    status: r.status,
    closes_at: fromDbDate(r.closes_at),
    applicant_countries: fromDbJson<string[]>(r.applicant_countries, []),
    views: Number(r.views ?? 0),
    webhook_enabled: fromDbBool(r.webhook_enabled),
    webhook_include_source: fromDbBool(r.webhook_include_source),
    webhook_url: r.webhook_url || null,
    webhook_secret: r.webhook_secret || null,
    created_at: fromDbDate(r.created_at)!,
    updated_at: fromDbDate(r.updated_at)!,
    questions,
  };
}

/** Columns the public list needs (no rich text bodies, no webhook settings). */
const LIST_COLUMNS = [
  'id',
  'public_id',
  'title',
  'department',
  'location',
  'job_type',
  'work_mode',
  'currency',
  'min_salary',
  'max_salary',
  'salary_period',
  'experience_required',
  'duration',
  'status',
  'closes_at',
  'created_at',
  'updated_at',
];

/** Active jobs whose closing instant, if any, is still ahead of `now`: the jobs taking applications. */
function whereOpen(q: Knex.QueryBuilder, now: Date): Knex.QueryBuilder {
  return q.where('status', 'ACTIVE').where((w) => w.whereNull('closes_at').orWhere('closes_at', '>', toDbDate(now)));
}

function applyPublicFilters(q: Knex.QueryBuilder, f: PublicJobFilters, now: Date): Knex.QueryBuilder {
  whereOpen(q, now);
  // Any case on both databases: MariaDB's collation ignores it, SQLite is told to.
  if (f.department) {
    if ((q as unknown as { client: { config: { client: string } } }).client.config.client === 'mysql2') q.where('department', f.department);
    else q.whereRaw('department = ? COLLATE NOCASE', [f.department]);
  }
  if (f.title) q.whereRaw('title LIKE ? ESCAPE ?', [likeContains(f.title), '!']);
  if (f.location) q.whereRaw('location LIKE ? ESCAPE ?', [likeContains(f.location), '!']);
  if (f.job_type) q.where('job_type', f.job_type);
  if (f.work_mode) q.where('work_mode', f.work_mode);
  return q;
}

export async function listPublicJobs(
  db: Knex,
  f: PublicJobFilters,
  page: number,
  pageSize: number,
  now: Date,
): Promise<{ count: number; jobs: Job[] }> {
  const [{ n }] = await applyPublicFilters(db('jobs').count({ n: '*' }), f, now);
  const rows = await applyPublicFilters(db('jobs').select(LIST_COLUMNS), f, now)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { count: Number(n), jobs: rows.map((r: Row) => mapJob(r)) };
}

/** The newest `limit` open jobs matching the filters, with their texts (the job feeds). */
export async function listPublicJobsWithTexts(db: Knex, f: PublicJobFilters, limit: number, now: Date): Promise<Job[]> {
  const rows = await applyPublicFilters(db('jobs').select('*'), f, now)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  return rows.map((r: Row) => mapJob(r));
}

export async function listActiveLocations(db: Knex, now: Date): Promise<string[]> {
  const rows = await whereOpen(db('jobs').distinct('location'), now).whereNot('location', '').orderBy('location');
  return rows.map((r: Row) => r.location as string);
}

/**
 * Departments as one list whatever their case ('Engineering' and 'engineering' are one), each
 * spelled as most of its jobs spell it (the first by name on a tie), by name. MariaDB groups them
 * by its case-insensitive collation already (one row each, any spelling); SQLite returns each
 * spelling, folded here.
 */
function oneSpellingEach(rows: Row[]): string[] {
  const best = new Map<string, { name: string; n: number }>();
  for (const r of rows) {
    const name = String(r.department);
    const n = Number(r.n);
    const key = name.toLocaleLowerCase('en');
    const seen = best.get(key);
    if (!seen || n > seen.n || (n === seen.n && name < seen.name)) best.set(key, { name, n: Math.max(n, seen?.n ?? 0) });
  }
  return [...best.values()].map((b) => b.name).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

/** The departments of the jobs taking applications, for the list page's filter: one spelling each. */
export async function listActiveDepartments(db: Knex, now: Date): Promise<string[]> {
  const rows = await whereOpen(db('jobs').select('department').count({ n: '*' }).groupBy('department'), now)
    .whereNotNull('department')
    .whereNot('department', '');
  return oneSpellingEach(rows);
}

/** The departments of every job that is still a job post (not REMOVED): the editor's suggestions, one spelling each. */
export async function listDepartmentsInUse(db: Knex): Promise<string[]> {
  const rows = await db('jobs')
    .select('department')
    .count({ n: '*' })
    .groupBy('department')
    .whereNot('status', 'REMOVED')
    .whereNotNull('department')
    .whereNot('department', '');
  return oneSpellingEach(rows);
}

/** The earliest closing instant after `now` among active jobs: when the public lists next change without a write. */
export async function nextClosingInstant(db: Knex, now: Date): Promise<Date | null> {
  const row = await db('jobs').min({ at: 'closes_at' }).where('status', 'ACTIVE').where('closes_at', '>', toDbDate(now)).first();
  return fromDbDate(row?.at);
}

export async function listActiveForSitemap(db: Knex, now: Date): Promise<{ public_id: string; updated_at: Date }[]> {
  const rows = await whereOpen(db('jobs').select('public_id', 'updated_at'), now).orderBy('id');
  return rows.map((r: Row) => ({ public_id: r.public_id, updated_at: fromDbDate(r.updated_at)! }));
}

export async function loadQuestions(db: Knex, jobId: number): Promise<JobQuestion[]> {
  const rows = await db('job_questions')
    .where({ job_id: jobId, is_deleted: toDbBool(false) })
    .orderBy([{ column: 'position' }, { column: 'id' }]);
  return rows.map(mapQuestion);
}

/**
 * The job page shows no questions, so it may skip loading them. Public ids compare exactly on
 * both databases (utf8mb4_bin on MySQL, migration 004); a string that cannot be a public id is
 * not looked up, so MySQL's trailing-space padding ('dev-1 ' = 'dev-1') never matches either.
 */
export async function findJobByPublicId(db: Knex, publicId: string, withQuestions = true): Promise<Job | null> {
  if (!PUBLIC_ID_PATTERN.test(publicId)) return null;
  const row = await db('jobs').where({ public_id: publicId }).first();
  if (!row) return null;
  return mapJob(row, withQuestions ? await loadQuestions(db, Number(row.id)) : []);
}

export async function findJobById(db: Knex, id: number): Promise<Job | null> {
  const row = await db('jobs').where({ id }).first();
  return row ? mapJob(row, await loadQuestions(db, Number(row.id))) : null;
}

/** Which of `ids` are public ids of existing jobs (one query). */
export async function takenPublicIds(db: Knex, ids: string[]): Promise<Set<string>> {
  return new Set((await db('jobs').whereIn('public_id', ids).pluck('public_id')) as string[]);
}

export async function countJobs(db: Knex): Promise<number> {
  const [{ n }] = await db('jobs').count({ n: '*' });
  return Number(n);
}

export async function publicIdExists(db: Knex, publicId: string): Promise<boolean> {
  if (!PUBLIC_ID_PATTERN.test(publicId)) return false;
  return !!(await db('jobs').where({ public_id: publicId }).first('id'));
}

function jobColumns(input: JobInput, now: Date): Row {
  return {
    title: input.title,
    department: input.department,
    location: input.location,
    job_type: input.job_type,
    work_mode: input.work_mode,
    description: input.description,
    responsibilities: input.responsibilities,
    requirements: input.requirements,
    perks_benefits: input.perks_benefits,
    currency: input.currency,
    min_salary: input.min_salary,
    max_salary: input.max_salary,
    salary_period: input.salary_period,
    experience_required: input.experience_required,
    duration: input.duration,
    status: input.status,
    closes_at: input.closes_at ? toDbDate(input.closes_at) : null,
    applicant_countries: input.applicant_countries.length ? toDbJson(input.applicant_countries) : null,
    webhook_enabled: toDbBool(input.webhook_enabled),
    webhook_url: input.webhook_url,
    webhook_secret: input.webhook_secret,
    webhook_include_source: toDbBool(input.webhook_include_source),
    updated_at: toDbDate(now),
  };
}

/**
 * The pipeline stages every job starts with (DESIGN.md, issue 20); the Hired stage archives the
 * applications entering it. A job is made with them (insertJob), so it never lacks stages; every
 * later change of a job's stages is the applicants feature's (its pipeline).
 */
const DEFAULT_STAGES: { name: string; kind: string | null }[] = [
  { name: 'Applied', kind: null },
  { name: 'Screen', kind: null },
  { name: 'Interview', kind: null },
  { name: 'Offer', kind: null },
  { name: 'Hired', kind: 'HIRED' },
];

/** Inserts a job, its questions and its default stages; run inside the caller's transaction. */
export async function insertJob(trx: Knex, publicId: string, input: JobInput, now: Date, publicIdDraft = false): Promise<number> {
  const [id] = await trx('jobs').insert({
    ...jobColumns(input, now),
    public_id: publicId,
    ...(publicIdDraft ? { public_id_draft: toDbBool(true) } : {}),
    views: 0,
    created_at: toDbDate(now),
  });
  const jobId = Number(typeof id === 'object' ? (id as Row).id : id);
  await replaceQuestions(trx, jobId, input.questions);
  await trx('job_stages').insert(DEFAULT_STAGES.map((s, position) => ({ job_id: jobId, name: s.name, position, kind: s.kind })));
  return jobId;
}

/** Whether the job's public id is still to be made from its title at its first save (migration 028). */
export async function hasDraftPublicId(db: Knex, jobId: number): Promise<boolean> {
  const row = await db('jobs').where({ id: jobId }).first('public_id_draft');
  return !!row && Boolean(Number(row.public_id_draft));
}

/** `publicId`: the job's public id made again at its first save (the draft mark is cleared with it). */
export async function updateJob(trx: Knex, jobId: number, input: JobInput, now: Date, publicId?: string): Promise<void> {
  await trx('jobs')
    .where({ id: jobId })
    .update({ ...jobColumns(input, now), ...(publicId === undefined ? {} : { public_id: publicId, public_id_draft: toDbBool(false) }) });
  await replaceQuestions(trx, jobId, input.questions);
}

/**
 * Questions keep their ids when the payload names them, so past answers stay linked; questions
 * left out are marked deleted rather than dropped, for the same reason.
 */
async function replaceQuestions(trx: Knex, jobId: number, questions: JobInput['questions']): Promise<void> {
  const existing = new Set((await trx('job_questions').where({ job_id: jobId }).select('id')).map((r: Row) => Number(r.id)));
  const kept = new Set<number>();
  for (const [i, q] of questions.entries()) {
    const cols = {
      text: q.text,
      help_text: q.help_text,
      placeholder: q.placeholder,
      required: toDbBool(q.required),
      answer_type: q.answer_type,
      options: toDbJson(q.options),
      position: q.order ?? i,
      is_deleted: toDbBool(false),
    };
    // The same id sent twice would overwrite one row with the other: the repeat becomes a new question.
    if (q.id && existing.has(q.id) && !kept.has(q.id)) {
      await trx('job_questions').where({ id: q.id }).update(cols);
      kept.add(q.id);
    } else {
      await trx('job_questions').insert({ ...cols, job_id: jobId });
    }
  }
  const removed = [...existing].filter((id) => !kept.has(id));
  if (removed.length)
    await trx('job_questions')
      .whereIn('id', removed)
      .update({ is_deleted: toDbBool(true) });
}

export async function addViews(db: Knex, counts: Map<number, number>): Promise<void> {
  for (const [id, n] of counts) await db('jobs').where({ id }).increment('views', n);
}

export interface AuditEntry {
  userId: number | null;
  action: string;
  entityId: number;
  details: Record<string, unknown>;
}

/** Who changed which job and when; written in the same transaction as the change. */
export async function insertJobAudit(trx: Knex, entry: AuditEntry, now: Date): Promise<void> {
  await trx('audit_log').insert({
    user_id: entry.userId,
    action: entry.action,
    entity: 'job',
    entity_id: entry.entityId,
    details: toDbJson(entry.details),
    created_at: toDbDate(now),
  });
}

/** Id, public id and title of the jobs with these public ids, by id. */
export async function jobsByPublicIds(db: Knex, publicIds: string[]): Promise<{ id: number; public_id: string; title: string }[]> {
  if (!publicIds.length) return [];
  const rows: Row[] = await db('jobs').whereIn('public_id', publicIds).select('id', 'public_id', 'title').orderBy('id');
  return rows.map((r) => ({ id: Number(r.id), public_id: String(r.public_id), title: String(r.title) }));
}

/** Applications per job, for these jobs (a job without any is absent). */
export async function applicationCountsOf(db: Knex, jobIds: number[]): Promise<Map<number, number>> {
  if (!jobIds.length) return new Map();
  const rows: Row[] = await db('applications').whereIn('job_id', jobIds).select('job_id').count({ n: '*' }).groupBy('job_id');
  return new Map(rows.map((r) => [Number(r.job_id), Number(r.n)]));
}

/** Those of these jobs someone saved after they were made (a job.update in the audit log). */
export async function editedJobIds(db: Knex, jobIds: number[]): Promise<Set<number>> {
  if (!jobIds.length) return new Set();
  const rows: Row[] = await db('audit_log')
    .where({ entity: 'job', action: 'job.update' })
    .whereIn('entity_id', jobIds)
    .distinct('entity_id');
  return new Set(rows.map((r) => Number(r.entity_id)));
}

/** Deletes those of these jobs that have no application, in one transaction; answers their ids. */
export function deleteJobsWithoutApplications(db: Knex, jobIds: number[]): Promise<number[]> {
  return db.transaction(async (trx) => {
    const busy = new Set(((await trx('applications').whereIn('job_id', jobIds).distinct('job_id')) as Row[]).map((r) => Number(r.job_id)));
    const gone = jobIds.filter((id) => !busy.has(id));
    if (gone.length) {
      await trx('jobs').whereIn('id', gone).del();
      await bumpPublicVersion(trx);
    }
    return gone;
  });
}

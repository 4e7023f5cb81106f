/**
 * The applicants list and one application (spec 02 'Applicants', 'Applicant detail'), read in
 * the database: every filter is an index range (job_id, status, created_at), and a search is a
 * few ranges of the words index (src/shared/search-words.ts): an application matches when each
 * query word is a prefix of one of its name or email words, or the query's digits appear in its
 * phone number. No `LIKE '%q%'` scan. Totals are counted up to COUNT_CAP (SEARCH_COUNT_CAP with
 * a search); past it the list says 'more than' the cap instead of counting every row.
 *
 * How a search runs depends on how many applications its words match, counted first (an index
 * range each, cut at BROAD_WORD): the rarest word gives the candidate ids (`a.id IN (range)`) and
 * the other words are checked per candidate (`EXISTS`, on the (application_id, word) index). A
 * search for one broad word ('sharma', 'example') reads the list in its order instead, checking
 * each row, which stops early because its matches are dense.
 */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, toDbDate } from '../../db/codecs.js';
import { PHONE_MARK, prefixEnd, searchTerms } from '../../shared/search-words.js';
import type { ApplicationStatus } from '../../shared/enums.js';
import type { ApplicantDetail, ApplicantFilters, ApplicantRow } from '../types.js';

export const COUNT_CAP = 1_000;
/** A search's total is counted up to this; a broad word's matches are many, and counting them all is most of its cost. */
export const SEARCH_COUNT_CAP = 100;
/** A word matching at least this many applications is broad (see above). */
const BROAD_WORD = 1_000;

type Row = Record<string, any>;

export const resumeUrl = (id: number) => `/api/hr/applications/${id}/resume/`;
export const resumeViewUrl = (id: number) => `/api/hr/applications/${id}/resume/?disposition=inline`;

const dayStart = (day: string) => toDbDate(new Date(`${day}T00:00:00.000Z`));
const nextDayStart = (day: string) => toDbDate(new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000));

/** Applications with a stored word starting with `prefix`. */
function wordRange(db: Knex, prefix: string) {
  return db('application_search_words').select('application_id').where('word', '>=', prefix).andWhere('word', '<', prefixEnd(prefix));
}

/** The application `a` has a stored word starting with `prefix`. */
function hasWord(db: Knex, prefix: string) {
  return db('application_search_words as w').select('w.application_id').where('w.application_id', db.ref('a.id')).andWhere('w.word', '>=', prefix).andWhere('w.word', '<', prefixEnd(prefix));
}

/** A search, ready to run: its words rarest first, whether to read in list order, the phone key. */
export interface SearchPlan {
  words: string[];
  scan: boolean;
  phoneKey: string | null;
}

/** null: no search (no query, or a query with no letters or digits). */
export async function planSearch(db: Knex, q: string): Promise<SearchPlan | null> {
  const { words, phoneDigits } = searchTerms(q);
  if (!words.length && !phoneDigits) return null;
  const counted = await Promise.all(
    words.map(async (word) => {
      const [row]: Row[] = await db.count({ n: '*' }).from(wordRange(db, word).limit(BROAD_WORD).as('r'));
      return { word, n: Number(row?.n ?? 0) };
    }),
  );
  counted.sort((x, y) => x.n - y.n);
  // Only a lone broad word is read in list order: the matches of several broad words together
  // may be rare, and a scan in list order would then read most of the table.
  return { words: counted.map((c) => c.word), scan: counted.length === 1 && counted[0].n >= BROAD_WORD, phoneKey: phoneDigits ? PHONE_MARK + phoneDigits : null };
}

/** `applications AS a` narrowed by the filters (no ordering, no columns). */
export function filteredApplications(db: Knex, f: ApplicantFilters, search: SearchPlan | null): Knex.QueryBuilder {
  const q = db('applications as a');
  if (f.job_id !== null) q.where('a.job_id', f.job_id);
  if (f.status) q.where('a.status', f.status);
  if (f.date_from) q.where('a.created_at', '>=', dayStart(f.date_from));
  if (f.date_to) q.where('a.created_at', '<', nextDayStart(f.date_to));
  if (search) {
    const { scan } = search;
    q.where((match) => {
      if (search.words.length) {
        match.where((all) => {
          search.words.forEach((w, i) => (i === 0 && !scan ? all.whereIn('a.id', wordRange(db, w)) : all.whereExists(hasWord(db, w))));
        });
      }
      if (search.phoneKey) match.orWhereIn('a.id', wordRange(db, search.phoneKey));
    });
  }
  return q;
}

function ordered(q: Knex.QueryBuilder, ordering: ApplicantFilters['ordering']): Knex.QueryBuilder {
  const dir = ordering === 'created_at' ? 'asc' : 'desc';
  return q.orderBy([{ column: 'a.created_at', order: dir }, { column: 'a.id', order: dir }]);
}

const fullName = (r: Row) => `${r.first_name} ${r.last_name}`.trim();

export interface ApplicantPage {
  /** Rows matching, counted up to COUNT_CAP (SEARCH_COUNT_CAP with a search); `capped`: there are more. */
  count: number;
  capped: boolean;
  /** Whether a row follows this page. */
  hasMore: boolean;
  results: ApplicantRow[];
}

export async function pageApplicants(db: Knex, f: ApplicantFilters, page: number, pageSize: number, detailed: boolean): Promise<ApplicantPage> {
  const search = await planSearch(db, f.q);
  const rowsQuery = ordered(filteredApplications(db, f, search), f.ordering)
    .select('a.id', 'a.job_id', 'a.first_name', 'a.last_name', 'a.email', 'a.phone', 'a.status', 'a.created_at', 'a.resume_file_id')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  if (detailed) {
    rowsQuery.join('jobs as j', 'j.id', 'a.job_id').leftJoin('stored_files as f', 'f.id', 'a.resume_file_id').select('j.title as job_title', 'j.public_id as job_public_id', 'f.original_name as resume_filename');
  }
  const cap = search ? SEARCH_COUNT_CAP : COUNT_CAP;
  const countQuery = db.count({ n: '*' }).from(filteredApplications(db, f, search).select('a.id').limit(cap + 1).as('c'));
  const [rows, [countRow]]: [Row[], Row[]] = await Promise.all([rowsQuery, countQuery]);
  const n = Number(countRow?.n ?? 0);
  const results = rows.slice(0, pageSize).map((r): ApplicantRow => {
    const id = Number(r.id);
    const row: ApplicantRow = {
      id,
      job_id: Number(r.job_id),
      name: fullName(r),
      email: r.email,
      phone: r.phone,
      status: r.status,
      created_at: fromDbDate(r.created_at)!.toISOString(),
      resume_download_url: r.resume_file_id === null ? null : resumeUrl(id),
    };
    if (detailed) Object.assign(row, { job_title: r.job_title, job_public_id: r.job_public_id, resume_filename: r.resume_filename ?? null });
    return row;
  });
  return { count: Math.min(n, cap), capped: n > cap, hasMore: rows.length > pageSize, results };
}

/** The application shown before and after `id` in the filtered list (null at either end). */
export async function neighbours(db: Knex, f: ApplicantFilters, current: { id: number; created_at: Date }): Promise<{ previous: number | null; next: number | null }> {
  const at = toDbDate(current.created_at);
  const after = (q: Knex.QueryBuilder) => q.where((w) => w.where('a.created_at', '>', at).orWhere((e) => e.where('a.created_at', at).andWhere('a.id', '>', current.id)));
  const before = (q: Knex.QueryBuilder) => q.where((w) => w.where('a.created_at', '<', at).orWhere((e) => e.where('a.created_at', at).andWhere('a.id', '<', current.id)));
  const search = await planSearch(db, f.q);
  const newer = ordered(after(filteredApplications(db, f, search)), 'created_at').first('a.id');
  const older = ordered(before(filteredApplications(db, f, search)), '-created_at').first('a.id');
  const [n, o]: (Row | undefined)[] = await Promise.all([newer, older]);
  const newerId = n ? Number(n.id) : null;
  const olderId = o ? Number(o.id) : null;
  return f.ordering === '-created_at' ? { previous: newerId, next: olderId } : { previous: olderId, next: newerId };
}

/** One application with its job, resume and child rows, or null. */
export async function findApplicant(db: Knex, id: number): Promise<ApplicantDetail | null> {
  const a = (await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
    .where('a.id', id)
    .first('a.*', 'j.title as job_title', 'j.public_id as job_public_id', 'f.original_name as resume_filename', 'f.content_type as resume_content_type')) as Row | undefined;
  if (!a) return null;
  const [skills, experiences, education, answers]: Row[][] = await Promise.all([
    db('application_skills').where('application_id', id).orderBy('position').select('name'),
    db('application_experiences').where('application_id', id).orderBy('position').select('company', 'role', 'start', 'end', 'notice_period', 'salary', 'description'),
    db('application_education').where('application_id', id).orderBy('position').select('school', 'degree', 'field', 'start', 'end'),
    db('application_answers').where('application_id', id).orderBy('id').select('question_id', 'question_text', 'answer'),
  ]);
  const hasResume = a.resume_file_id !== null && a.resume_filename !== null;
  return {
    id,
    job_id: Number(a.job_id),
    job_title: a.job_title,
    job_public_id: a.job_public_id,
    name: fullName(a),
    first_name: a.first_name,
    last_name: a.last_name,
    email: a.email,
    phone: a.phone,
    status: a.status as ApplicationStatus,
    created_at: fromDbDate(a.created_at)!.toISOString(),
    updated_at: fromDbDate(a.updated_at)!.toISOString(),
    resume_download_url: hasResume ? resumeUrl(id) : null,
    resume_filename: hasResume ? a.resume_filename : null,
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
  };
}

/** The stored resume of an application: null when the application or its file row is missing. */
export async function findResume(db: Knex, id: number): Promise<{ storage_key: string; original_name: string; content_type: string; size: number } | null> {
  const r = (await db('applications as a').join('stored_files as f', 'f.id', 'a.resume_file_id').where('a.id', id).first('f.storage_key', 'f.original_name', 'f.content_type', 'f.size')) as Row | undefined;
  return r ? { storage_key: r.storage_key, original_name: r.original_name, content_type: r.content_type, size: Number(r.size) } : null;
}

/** What `careers-admin applicants purge` and `erase` select. */
export interface RemovalCriteria {
  /** Applied before this moment. */
  createdBefore?: Date;
  status?: ApplicationStatus;
  jobId?: number;
  /** Lower-cased. */
  email?: string;
}

/** The applications a purge or an erase would remove, with their resume keys, oldest first. */
export async function selectRemovable(db: Knex, c: RemovalCriteria): Promise<{ id: number; job_id: number; resume_file_id: number | null; storage_key: string | null }[]> {
  const q = db('applications as a').leftJoin('stored_files as f', 'f.id', 'a.resume_file_id').select('a.id', 'a.job_id', 'a.resume_file_id', 'f.storage_key').orderBy('a.id');
  if (c.createdBefore) q.where('a.created_at', '<', toDbDate(c.createdBefore));
  if (c.status) q.where('a.status', c.status);
  if (c.jobId !== undefined) q.where('a.job_id', c.jobId);
  if (c.email !== undefined) q.where('a.email', c.email);
  const rows: Row[] = await q;
  return rows.map((r) => ({ id: Number(r.id), job_id: Number(r.job_id), resume_file_id: r.resume_file_id === null ? null : Number(r.resume_file_id), storage_key: r.storage_key ?? null }));
}

/**
 * The applicants list and one application (spec 02 'Applicants', 'Applicant detail'), read in
 * the database: every filter is an index range (job_id, status, created_at), and a search is a
 * few ranges of the words index (src/shared/search-words.ts): an application matches when each
 * query word is a prefix of one of its name or email words, or the query's digits appear in its
 * phone number. No `LIKE '%q%'` scan. Totals are counted up to COUNT_CAP (SEARCH_COUNT_CAP with
 * a search); past it the list says 'more than' the cap instead of counting every row.
 *
 * How a search runs depends on how many applications its words match. Their ids are read from the
 * words index (up to RESOLVE_MAX each) and intersected, the phone's added, and the list reads the
 * applications by id: the same two or three simple index reads on both databases, whose planners
 * handle `IN (subquery)` combined with OR very differently. A lone word matching BROAD_WORD or more
 * ('sharma', 'example'), or words or digits matching more than RESOLVE_MAX, are checked row by row
 * (`EXISTS` on the (application_id, word) index) while the list is read in its order, which stops
 * early because such matches are dense. Without a job filter, when every word is broad and the
 * rarest is one stored word, the list is read from the words index instead: that word's entries
 * in list order (they keep the application's created_at), the others checked per entry, stopping
 * after the page and the capped count; no id list, no sort.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import { PHONE_MARK, prefixEnd, searchTerms } from '../shared/search-words.js';
import {
  DIRECT_SOURCE,
  REJECTED_COLUMN,
  type ApplicantFilters,
  type ApplicantOrderColumn,
  type ApplicantOrdering,
  type ApplicantRow,
} from './types.js';
import { resumeDownloadName } from './lib/file-type.js';

const COUNT_CAP = 1_000;
/** A search's total is counted up to this; a broad word's matches are many, and counting them all is most of its cost. */
const SEARCH_COUNT_CAP = 100;
/** A lone word matching at least this many applications is read in list order (see above). */
const BROAD_WORD = 1_000;
/** Up to this many ids, a word's or a phone's matches are fetched and intersected in the app. */
const RESOLVE_MAX = 20_000;

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
  return db('application_search_words as w')
    .select('w.application_id')
    .where('w.application_id', db.ref('a.id'))
    .andWhere('w.word', '>=', prefix)
    .andWhere('w.word', '<', prefixEnd(prefix));
}

/**
 * A search, resolved as far as it is cheap: `ids` are applications found through the words index
 * (the words' matches intersected, or the phone's); `scanWords` (all of them) and `scanPhone` are
 * checked row by row in list order instead, because they match too many applications to list.
 * An application matches when it is in `ids`, has every `scanWords` word, or has `scanPhone`.
 */
interface SearchPlan {
  ids: number[];
  scanWords: string[];
  scanPhone: string | null;
  /**
   * Set instead of reading ids when the words are all broad (`scanWords` then holds them all):
   * the applications found by walking `word`'s entries in list order, each checked for `others`.
   */
  walk?: { word: string; others: string[] };
}

/** How many stored words start with `prefix`, counted up to `cap` + 1 (from the index alone). */
async function rangeCount(db: Knex, prefix: string, cap: number): Promise<number> {
  const [row]: Row[] = await db.count({ n: '*' }).from(
    wordRange(db, prefix)
      .limit(cap + 1)
      .as('r'),
  );
  return Number(row?.n ?? 0);
}

/** Ids of the applications with a word starting with `prefix`; with `limit`, up to limit + 1 rows. */
async function rangeIds(db: Knex, prefix: string, limit?: number): Promise<number[]> {
  const q = wordRange(db, prefix);
  if (limit !== undefined) q.limit(limit + 1);
  return [...new Set((await q).map((r: Row) => Number(r.application_id)))];
}

/** Of `ids`, those with a word starting with `prefix`: one (application_id, word) seek each. */
async function keepWithWord(db: Knex, ids: number[], prefix: string): Promise<number[]> {
  const kept = new Set<number>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows: Row[] = await wordRange(db, prefix).whereIn('application_id', ids.slice(i, i + 5000));
    for (const r of rows) kept.add(Number(r.application_id));
  }
  return ids.filter((id) => kept.has(id));
}

/** The words with how many applications they match, rarest first, counted up to `cap` + 1. */
async function byRarity(db: Knex, words: string[], cap: number): Promise<{ word: string; n: number }[]> {
  const counted = await Promise.all(words.map(async (word) => ({ word, n: await rangeCount(db, word, cap) })));
  return counted.sort((x, y) => x.n - y.n);
}

/**
 * The applications having every one of `words` (each matching more than BROAD_WORD), or null when
 * every one matches more than RESOLVE_MAX. Counted further first (from the index alone); the
 * rarest word's ids are read, and each other word, rarest first, keeps them: by reading its ids
 * too when it is not much larger, else by one seek per remaining id.
 */
async function intersectBroad(db: Knex, words: string[]): Promise<number[] | null> {
  const [first, ...others] = await byRarity(db, words, RESOLVE_MAX);
  if (first.n > RESOLVE_MAX) return null;
  let ids = await rangeIds(db, first.word);
  for (const other of others) {
    if (!ids.length) break;
    if (other.n <= RESOLVE_MAX && other.n < ids.length * 4) {
      const have = new Set(await rangeIds(db, other.word));
      ids = ids.filter((id) => have.has(id));
    } else {
      ids = await keepWithWord(db, ids, other.word);
    }
  }
  return ids;
}

/** The one stored word starting with `prefix`, or null when there are none or several (two seeks). */
async function onlyWord(db: Knex, prefix: string): Promise<string | null> {
  const firstFrom = (op: '>=' | '>', from: string): Promise<Row | undefined> =>
    db('application_search_words').where('word', op, from).andWhere('word', '<', prefixEnd(prefix)).orderBy('word').first('word');
  const first = await firstFrom('>=', prefix);
  if (!first) return null;
  return (await firstFrom('>', first.word)) ? null : String(first.word);
}

/**
 * null: no search (an empty or blank query). A query with no letter or digit (`%`, `!!!`, an
 * emoji) is a search that matches nothing, never the whole list. `walkable`: the list can be
 * read by walking a word's entries in order (no job filter, whose own index range is shorter).
 */
export async function planSearch(db: Knex, q: string, walkable = false): Promise<SearchPlan | null> {
  if (!q.trim()) return null;
  const { words, phoneDigits } = searchTerms(q);
  const plan: SearchPlan = { ids: [], scanWords: [], scanPhone: null };
  if (words.length) {
    // Counting up to BROAD_WORD is enough to find a rare word.
    const counted = await byRarity(db, words, BROAD_WORD);
    const rarest = counted[0];
    const walkWord = walkable && !phoneDigits && rarest.n > BROAD_WORD ? await onlyWord(db, rarest.word) : null;
    if (walkWord !== null) {
      // Every word is broad: matches are dense along the walk, which stops after a page.
      return { ...plan, scanWords: words, walk: { word: walkWord, others: counted.slice(1).map((c) => c.word) } };
    }
    if (rarest.n <= BROAD_WORD) {
      // The rarest word gives the candidates; each other word keeps those that have it.
      let ids = await rangeIds(db, rarest.word);
      for (const other of counted.slice(1)) if (ids.length) ids = await keepWithWord(db, ids, other.word);
      plan.ids = ids;
    } else if (counted.length > 1) {
      // Broad words together (a first name and a surname): their ids, read as index ranges and
      // intersected here, unless every one of them matches more than RESOLVE_MAX.
      const ids = await intersectBroad(db, words);
      if (ids === null) plan.scanWords = words;
      else plan.ids = ids;
    } else {
      plan.scanWords = words;
    }
  }
  if (phoneDigits) {
    const key = PHONE_MARK + phoneDigits;
    const phoneIds = await rangeIds(db, key, RESOLVE_MAX);
    if (phoneIds.length > RESOLVE_MAX) plan.scanPhone = key;
    else plan.ids = [...new Set([...plan.ids, ...phoneIds])];
  }
  return plan;
}

/** `a` in the stage named `stage` (any job's), not rejected; or rejected, for REJECTED_COLUMN. */
function whereStage(db: Knex, q: Knex.QueryBuilder, stage: string): void {
  if (stage.toLocaleLowerCase('en') === REJECTED_COLUMN.toLocaleLowerCase('en')) q.where('a.outcome', 'REJECTED');
  else q.whereIn('a.stage_id', db('job_stages').select('id').where('name', stage)).whereNull('a.outcome');
}

/**
 * `a` from the source named, in any case on both databases ('LinkedIn' finds 'linkedin': MariaDB's
 * collation ignores case, SQLite is told to), or that came directly for DIRECT_SOURCE.
 */
function whereSource(db: Knex, q: Knex.QueryBuilder, source: string): void {
  if (source === DIRECT_SOURCE) q.whereNull('a.source');
  else if (db.client.config.client === 'mysql2') q.where('a.source', source);
  else q.whereRaw('a.source = ? COLLATE NOCASE', [source]);
}

/** How many sources the filter's list offers at most (the most used ones). */
const SOURCES_SEEN_MAX = 200;

/**
 * The sources applications came from, for the source filter's list: one entry per source whatever
 * its case, spelled as most of its applications spell it, by name; the most used first when there
 * are more than SOURCES_SEEN_MAX.
 */
export async function sourcesSeen(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('applications')
    .whereNotNull('source')
    .select('source')
    .count({ n: '*' })
    .groupBy('source')
    .orderBy('n', 'desc')
    .limit(SOURCES_SEEN_MAX * 4);
  const best = new Map<string, { name: string; n: number; total: number }>();
  for (const r of rows) {
    const name = String(r.source);
    const n = Number(r.n);
    const key = name.toLocaleLowerCase('en');
    const seen = best.get(key);
    if (!seen) best.set(key, { name, n, total: n });
    else {
      seen.total += n;
      if (n > seen.n) Object.assign(seen, { name, n });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.total - a.total)
    .slice(0, SOURCES_SEEN_MAX)
    .map((s) => s.name)
    .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

/** `applications AS a` narrowed by the filters (no ordering, no columns). */
export function filteredApplications(db: Knex, f: ApplicantFilters, search: SearchPlan | null): Knex.QueryBuilder {
  const q = db('applications as a');
  if (f.job_id !== null) q.where('a.job_id', f.job_id);
  // Issue 31: a hiring manager's jobs, an interviewer's applications (empty: none).
  if (f.scope?.jobIds) q.whereIn('a.job_id', f.scope.jobIds.length ? [...f.scope.jobIds] : [0]);
  if (f.scope?.applicationIds) q.whereIn('a.id', f.scope.applicationIds.length ? [...f.scope.applicationIds] : [0]);
  if (f.status) q.where('a.status', f.status);
  // A stage by name, across jobs (the ranges of applications_stage_idx), not rejected; or the rejected ones.
  if (f.stage) whereStage(db, q, f.stage);
  if (f.source !== undefined && f.source !== null) whereSource(db, q, f.source);
  if (f.date_from) q.where('a.created_at', '>=', dayStart(f.date_from));
  if (f.date_to) q.where('a.created_at', '<', nextDayStart(f.date_to));
  if (search) {
    const { ids, scanWords, scanPhone } = search;
    q.where((match) => {
      if (ids.length) match.orWhereIn('a.id', ids);
      if (scanWords.length) {
        match.orWhere((all) => {
          for (const w of scanWords) all.whereExists(hasWord(db, w));
        });
      }
      if (scanPhone) match.orWhereExists(hasWord(db, scanPhone));
      if (!ids.length && !scanWords.length && !scanPhone) match.whereRaw('1 = 0');
    });
  }
  return q;
}

/**
 * The columns an ordering sorts by, all in one direction and always ending with the id, so the
 * order is total: pages never repeat or skip a row, and previous/next and the export's batches
 * continue from a row's key. Each is an index on both databases (the id is part of every
 * secondary index): created_at, (last_name, first_name), email, (status, created_at).
 */
function orderKey(ordering: ApplicantOrdering): { columns: string[]; dir: 'asc' | 'desc' } {
  const desc = ordering.startsWith('-');
  const column = (desc ? ordering.slice(1) : ordering) as ApplicantOrderColumn;
  const leading = {
    created_at: ['a.created_at'],
    name: ['a.last_name', 'a.first_name'],
    email: ['a.email'],
    status: ['a.status', 'a.created_at'],
  }[column];
  return { columns: [...leading, 'a.id'], dir: desc ? 'desc' : 'asc' };
}

export function ordered(q: Knex.QueryBuilder, ordering: ApplicantOrdering): Knex.QueryBuilder {
  const { columns, dir } = orderKey(ordering);
  return q.orderBy(columns.map((column) => ({ column, order: dir })));
}

/** The order reversed (for the row before one). */
const reversed = (ordering: ApplicantOrdering): ApplicantOrdering =>
  (ordering.startsWith('-') ? ordering.slice(1) : `-${ordering}`) as ApplicantOrdering;

/** The values of a row (read with at least its ordering's columns) for those columns. */
export const keyOf = (row: Row, ordering: ApplicantOrdering): unknown[] => orderKey(ordering).columns.map((c) => row[c.slice(2)]);

/**
 * Rows strictly after `key` in `ordering`, with c1 >= v1 beside it so the databases read a range
 * of the order's index from the key on. SQLite compares the row value (c1, c2, ...) > (v1, v2, ...),
 * a range of that index; MariaDB gets it spelled out, (c1 > v1) OR (c1 = v1 AND c2 > v2) ...,
 * which it reads as ranges of the same index (SQLite would read each OR branch apart and sort).
 */
export function afterKey(db: Knex, q: Knex.QueryBuilder, ordering: ApplicantOrdering, key: unknown[]): Knex.QueryBuilder {
  const { columns, dir } = orderKey(ordering);
  const op = dir === 'asc' ? '>' : '<';
  q.where(columns[0], `${op}=`, key[0] as any);
  if (!isMysql(db)) {
    const list = columns.map(() => '??').join(', ');
    const values = columns.map(() => '?').join(', ');
    return q.whereRaw(`(${list}) ${op} (${values})`, [...columns, ...(key as Knex.RawBinding[])]);
  }
  return q.andWhere((any) => {
    columns.forEach((column, i) => {
      any.orWhere((one) => {
        for (let j = 0; j < i; j++) one.where(columns[j], key[j] as any);
        one.where(column, op, key[i] as any);
      });
    });
  });
}

const isDateOrder = (ordering: ApplicantOrdering) => ordering === 'created_at' || ordering === '-created_at';

export const fullName = (r: Row) => `${r.first_name} ${r.last_name}`.trim();

export interface ApplicantPage {
  /** Rows matching, counted up to COUNT_CAP (SEARCH_COUNT_CAP with a search); `capped`: there are more. */
  count: number;
  capped: boolean;
  /** Whether a row follows this page. */
  hasMore: boolean;
  results: ApplicantRow[];
}

export const LIST_COLUMNS = [
  'a.id',
  'a.job_id',
  'a.first_name',
  'a.last_name',
  'a.email',
  'a.phone',
  'a.status',
  'a.created_at',
  'a.resume_file_id',
  'a.stage_id',
  'a.outcome',
  'a.source',
  'a.medium',
  'a.campaign',
];

/**
 * Up to `limit` ids of the filtered list (no job filter) in its order, found by walking the
 * entries of `walk.word` on (word, created_at, application_id): the dates are a range of that
 * index, the status is read by primary key and the other words checked on (application_id, word),
 * so the walk stops after `limit` matches.
 */
async function walkIds(db: Knex, f: ApplicantFilters, walk: NonNullable<SearchPlan['walk']>, limit: number): Promise<number[]> {
  const dir = f.ordering === 'created_at' ? 'asc' : 'desc';
  const q = db('application_search_words as w').where('w.word', walk.word);
  if (f.date_from) q.where('w.created_at', '>=', dayStart(f.date_from));
  if (f.date_to) q.where('w.created_at', '<', nextDayStart(f.date_to));
  if (f.status || f.stage || f.source) q.join('applications as a', 'a.id', 'w.application_id');
  if (f.status) q.where('a.status', f.status);
  if (f.stage) whereStage(db, q, f.stage);
  if (f.source) whereSource(db, q, f.source);
  for (const other of walk.others) {
    q.whereExists(
      db('application_search_words as o')
        .select('o.application_id')
        .where('o.application_id', db.ref('w.application_id'))
        .andWhere('o.word', '>=', other)
        .andWhere('o.word', '<', prefixEnd(other)),
    );
  }
  const rows: Row[] = await q
    .orderBy([
      { column: 'w.created_at', order: dir },
      { column: 'w.application_id', order: dir },
    ])
    .limit(limit)
    .select('w.application_id');
  return rows.map((r) => Number(r.application_id));
}

/** A page of rows (and one more) and the total counted up to `cap` + 1. */
async function pageRowsAndCount(
  db: Knex,
  f: ApplicantFilters,
  search: SearchPlan | null,
  offset: number,
  pageSize: number,
  cap: number,
): Promise<[Row[], number]> {
  if (search?.walk) {
    const ids = await walkIds(db, f, search.walk, Math.max(cap, offset + pageSize) + 1);
    const pageIds = ids.slice(offset, offset + pageSize + 1);
    const rows: Row[] = pageIds.length
      ? await ordered(db('applications as a').whereIn('a.id', pageIds), f.ordering).select(LIST_COLUMNS)
      : [];
    return [rows, ids.length];
  }
  const page = ordered(filteredApplications(db, f, search), f.ordering)
    .limit(pageSize + 1)
    .offset(offset);
  // Sorted by a name, an email or a status, the page's ids are read first and its rows by id:
  // without filters the ids come from the order's index alone, where reading whole rows past a
  // deep offset makes MariaDB sort the table instead.
  const rowsQuery: Promise<Row[]> = isDateOrder(f.ordering)
    ? page.select(LIST_COLUMNS)
    : page.select('a.id').then((idRows: Row[]) =>
        idRows.length
          ? ordered(
              db('applications as a').whereIn(
                'a.id',
                idRows.map((r) => Number(r.id)),
              ),
              f.ordering,
            ).select(LIST_COLUMNS)
          : [],
      );
  const countQuery = db.count({ n: '*' }).from(
    filteredApplications(db, f, search)
      .select('a.id')
      .limit(cap + 1)
      .as('c'),
  );
  const [rows, [countRow]]: [Row[], Row[]] = await Promise.all([rowsQuery, countQuery]);
  return [rows, Number(countRow?.n ?? 0)];
}

export async function pageApplicants(
  db: Knex,
  f: ApplicantFilters,
  page: number,
  pageSize: number,
  detailed: boolean,
): Promise<ApplicantPage> {
  // The words index keeps created_at, so only the date orders can be read along it.
  const search = await planSearch(db, f.q, f.job_id === null && isDateOrder(f.ordering));
  const cap = search ? SEARCH_COUNT_CAP : COUNT_CAP;
  const [rows, n] = await pageRowsAndCount(db, f, search, (page - 1) * pageSize, pageSize, cap);
  const pageRows = rows.slice(0, pageSize);
  // The page's jobs and file names are read for its rows only, after them: joined into the list
  // query, MariaDB could plan the join first and sort every application.
  const [jobs, fileTypes, stages] = await Promise.all([
    detailed ? jobsOf(db, pageRows) : new Map<number, Row>(),
    detailed ? fileTypesOf(db, pageRows) : new Map<number, string>(),
    stageNamesOf(db, pageRows),
  ]);
  const results = pageRows.map((r): ApplicantRow => {
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
      stage_id: r.stage_id === null ? null : Number(r.stage_id),
      stage: r.stage_id === null ? null : (stages.get(Number(r.stage_id)) ?? null),
      outcome: r.outcome ?? null,
      source: r.source ?? null,
    };
    if (detailed) {
      const job = jobs.get(Number(r.job_id));
      const job_public_id = job?.public_id ?? '';
      const content_type = r.resume_file_id === null ? undefined : fileTypes.get(Number(r.resume_file_id));
      const resume_filename =
        content_type === undefined
          ? null
          : resumeDownloadName({ first_name: r.first_name, last_name: r.last_name, job_title: job?.title ?? '', content_type });
      Object.assign(row, { job_title: job?.title ?? '', job_public_id, resume_filename });
    }
    return row;
  });
  return { count: Math.min(n, cap), capped: n > cap, hasMore: rows.length > pageSize, results };
}

export async function jobsOf(db: Knex, rows: Row[]): Promise<Map<number, Row>> {
  const ids = [...new Set(rows.map((r) => Number(r.job_id)))];
  const jobs: Row[] = ids.length ? await db('jobs').whereIn('id', ids).select('id', 'title', 'public_id') : [];
  return new Map(jobs.map((j) => [Number(j.id), j]));
}

/** The names of the rows' stages (one primary-key read). */
export async function stageNamesOf(db: Knex, rows: Row[]): Promise<Map<number, string>> {
  const ids = [
    ...new Set(
      rows
        .map((r) => r.stage_id)
        .filter((id) => id !== null && id !== undefined)
        .map(Number),
    ),
  ];
  const stages: Row[] = ids.length ? await db('job_stages').whereIn('id', ids).select('id', 'name') : [];
  return new Map(stages.map((st) => [Number(st.id), String(st.name)]));
}

export async function fileTypesOf(db: Knex, rows: Row[]): Promise<Map<number, string>> {
  const ids = rows
    .map((r) => r.resume_file_id)
    .filter((id) => id !== null)
    .map(Number);
  const files: Row[] = ids.length ? await db('stored_files').whereIn('id', ids).select('id', 'content_type') : [];
  return new Map(files.map((f) => [Number(f.id), f.content_type]));
}

/** The application shown before and after `id` in the filtered list, in its order (null at either end). */
export async function neighbours(db: Knex, f: ApplicantFilters, id: number): Promise<{ previous: number | null; next: number | null }> {
  const columns = orderKey(f.ordering).columns;
  const current: Row | undefined = await db('applications as a').where('a.id', id).first(columns);
  if (!current) return { previous: null, next: null };
  const search = await planSearch(db, f.q);
  const step = (ordering: ApplicantOrdering) =>
    ordered(afterKey(db, filteredApplications(db, f, search), ordering, keyOf(current, ordering)), ordering).first('a.id');
  const [n, p]: (Row | undefined)[] = await Promise.all([step(f.ordering), step(reversed(f.ordering))]);
  return { previous: p ? Number(p.id) : null, next: n ? Number(n.id) : null };
}

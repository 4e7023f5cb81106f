/**
 * The applicants list and one application (spec 02 'Applicants', 'Applicant detail'), read in
 * the database: every filter is an index range (job_id, status, created_at), and a search is a
 * few ranges of the words index (src/shared/search-words.ts): an application matches when each
 * query word is a prefix of one of its name or email words, or the query's digits appear in its
 * phone number. No `LIKE '%q%'` scan. Totals are counted up to COUNT_CAP (SEARCH_COUNT_CAP with
 * a search); past it the list says 'more than' the cap instead of counting every row.
 *
 * How a search runs depends on how many applications its words match, which one statement asks
 * the words index first (probeWords). A rare word's applications are read from the index, each
 * kept when it has the other words (one seek each), with the phone's beside them, and the list
 * reads the applications by id: the same simple index reads on both databases, whose planners
 * handle `IN (subquery)` combined with OR very differently. A lone word matching BROAD_WORD or more
 * ('sharma', 'example'), or words or digits matching more than RESOLVE_MAX, are checked row by row
 * (`EXISTS` on the (application_id, word) index) while the list is read in its order, which stops
 * early because such matches are dense. Without a job filter, when every word is broad and the
 * rarest is one stored word, the list is read from the words index instead: that word's entries
 * in list order (they keep the application's created_at), the others checked per entry, stopping
 * after the page and the capped count; no id list, no sort.
 *
 * On MySQL every statement is a round trip and a parse, which cost more than most of these reads:
 * a page's rows come with their stage, job and file names and the capped total in one statement,
 * so a list is one statement and a search three.
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
 * A query word as the words index has it: how many stored words start with it (counted up to
 * BROAD_WORD + 1), and `only`, the stored word itself when it starts exactly one ('sharma' is
 * one word, 'sh' many).
 */
interface WordMatch {
  word: string;
  n: number;
  only: string | null;
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
  walk?: { word: string; others: WordMatch[] };
}

/**
 * What the words index says of the query's words and phone digits, in one statement (on MySQL
 * every statement is a round trip and a parse, which cost more than these index reads): per word,
 * its entries counted up to BROAD_WORD + 1 and the first and last stored word of its range (two
 * seeks; equal when it starts one stored word); the phone's entries counted up to RESOLVE_MAX + 1.
 */
async function probeWords(db: Knex, words: string[], phoneKey: string | null): Promise<{ words: WordMatch[]; phone: number }> {
  const bounds = (w: string) => db('application_search_words').where('word', '>=', w).andWhere('word', '<', prefixEnd(w));
  const columns: Record<string, Knex.QueryBuilder> = {};
  words.forEach((w, i) => {
    columns[`n${i}`] = db.count('*').from(
      wordRange(db, w)
        .limit(BROAD_WORD + 1)
        .as('r'),
    );
    columns[`lo${i}`] = bounds(w).min('word');
    columns[`hi${i}`] = bounds(w).max('word');
  });
  if (phoneKey)
    columns.phone = db.count('*').from(
      wordRange(db, phoneKey)
        .limit(RESOLVE_MAX + 1)
        .as('p'),
    );
  const [row]: Row[] = await db.select(columns);
  return {
    words: words.map((word, i) => {
      const lo = row[`lo${i}`];
      return { word, n: Number(row[`n${i}`]), only: lo !== null && lo !== undefined && lo === row[`hi${i}`] ? String(lo) : null };
    }),
    phone: phoneKey ? Number(row.phone) : 0,
  };
}

/**
 * Joins `alias`: the entry of the stored word `word` of the same application as `w` (its
 * created_at is the application's, so (word, created_at, application_id) is one seek of the
 * unique index), read after `w`. Forced in that order (SQLite's CROSS JOIN, MySQL's
 * STRAIGHT_JOIN): `w` is read in list order and stops early, whereas a planner starting from the
 * other word would read all of its entries and sort; MariaDB, given EXISTS instead, materialises
 * every entry of the other word first.
 */
function joinSameApplication(db: Knex, q: Knex.QueryBuilder, alias: string, word: string): void {
  q.joinRaw(`${isMysql(db) ? 'STRAIGHT_JOIN' : 'CROSS JOIN'} ?? AS ?? ON ??.?? = ? AND ??.?? = ?? AND ??.?? = ??`, [
    'application_search_words',
    alias,
    alias,
    'word',
    word,
    alias,
    'created_at',
    'w.created_at',
    alias,
    'application_id',
    'w.application_id',
  ]);
}

/** `w`'s application has a stored word starting with `other.word` (one seek; see joinSameApplication). */
function withOtherWord(db: Knex, q: Knex.QueryBuilder, other: WordMatch, i: number): void {
  if (other.only !== null) {
    joinSameApplication(db, q, `o${i}`, other.only);
    return;
  }
  q.whereExists(
    db('application_search_words as o')
      .select('o.application_id')
      .where('o.application_id', db.ref('w.application_id'))
      .andWhere('o.word', '>=', other.word)
      .andWhere('o.word', '<', prefixEnd(other.word)),
  );
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
  const count = async (word: string) => {
    const [row]: Row[] = await db.count({ n: '*' }).from(
      wordRange(db, word)
        .limit(cap + 1)
        .as('r'),
    );
    return Number(row?.n ?? 0);
  };
  const counted = await Promise.all(words.map(async (word) => ({ word, n: await count(word) })));
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

/**
 * The applications having `rarest` (at most BROAD_WORD of them) and every one of `others`, and,
 * with `phoneKey`, those whose phone holds the digits: one statement (the phone's part a UNION
 * ALL), with each other word that is one stored word checked by a seek per candidate; a prefix
 * of several stored words keeps the candidates afterwards (keepWithWord).
 */
async function resolveIds(
  db: Knex,
  rarest: WordMatch | null,
  others: WordMatch[],
  phoneKey: string | null,
): Promise<{ words: number[]; phone: number[] }> {
  const parts: Knex.QueryBuilder[] = [];
  if (rarest) {
    const q = db('application_search_words as w')
      .where('w.word', '>=', rarest.word)
      .andWhere('w.word', '<', prefixEnd(rarest.word))
      .select('w.application_id', db.raw('1 as ??', ['part']));
    others.forEach((o, i) => {
      if (o.only !== null) withOtherWord(db, q, o, i);
    });
    parts.push(q);
  }
  if (phoneKey) parts.push(wordRange(db, phoneKey).select(db.raw('2 as ??', ['part'])));
  if (!parts.length) return { words: [], phone: [] };
  const rows: Row[] = await (parts.length === 1 ? parts[0] : parts[0].unionAll(parts[1]));
  let words = [...new Set(rows.filter((r) => Number(r.part) === 1).map((r) => Number(r.application_id)))];
  for (const o of others) if (o.only === null && words.length) words = await keepWithWord(db, words, o.word);
  return { words, phone: [...new Set(rows.filter((r) => Number(r.part) === 2).map((r) => Number(r.application_id)))] };
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
  const phoneKey = phoneDigits ? PHONE_MARK + phoneDigits : null;
  if (!words.length && !phoneKey) return plan;
  const probe = await probeWords(db, words, phoneKey);
  // The phone's matches are read with the words' when there are few enough to list.
  const phoneIds = phoneKey !== null && probe.phone <= RESOLVE_MAX ? phoneKey : null;
  if (phoneKey !== null && !phoneIds) plan.scanPhone = phoneKey;
  const counted = [...probe.words].sort((x, y) => x.n - y.n);
  const rarest = counted[0];
  if (rarest && rarest.n === 0) {
    // A word that starts no stored word: no application has every word (the phone may still match).
  } else if (rarest && walkable && !phoneDigits && rarest.n > BROAD_WORD && rarest.only !== null) {
    // Every word is broad: matches are dense along the walk, which stops after a page.
    return { ...plan, scanWords: words, walk: { word: rarest.only, others: counted.slice(1) } };
  } else if (rarest && rarest.n <= BROAD_WORD) {
    // The rarest word gives the candidates; each other word keeps those that have it.
    const found = await resolveIds(db, rarest, counted.slice(1), phoneIds);
    plan.ids = [...new Set([...found.words, ...found.phone])];
    return plan;
  } else if (counted.length > 1) {
    // Broad words together (a first name and a surname): their ids, read as index ranges and
    // intersected here, unless every one of them matches more than RESOLVE_MAX.
    const ids = await intersectBroad(db, words);
    if (ids === null) plan.scanWords = words;
    else plan.ids = ids;
  } else if (rarest) {
    plan.scanWords = words;
  }
  if (phoneIds) plan.ids = [...new Set([...plan.ids, ...(await resolveIds(db, null, [], phoneIds)).phone])];
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
 * index, each other word is one seek of the same index (or of (application_id, word) for a
 * prefix of several stored words), the status is read by primary key, so the walk stops after
 * `limit` matches.
 */
async function walkIds(db: Knex, f: ApplicantFilters, walk: NonNullable<SearchPlan['walk']>, limit: number): Promise<number[]> {
  const dir = f.ordering === 'created_at' ? 'asc' : 'desc';
  const q = db('application_search_words as w').where('w.word', walk.word);
  if (f.date_from) q.where('w.created_at', '>=', dayStart(f.date_from));
  if (f.date_to) q.where('w.created_at', '<', nextDayStart(f.date_to));
  walk.others.forEach((other, i) => {
    withOtherWord(db, q, other, i);
  });
  if (f.status || f.stage || f.source) q.join('applications as a', 'a.id', 'w.application_id');
  if (f.status) q.where('a.status', f.status);
  if (f.stage) whereStage(db, q, f.stage);
  if (f.source) whereSource(db, q, f.source);
  const rows: Row[] = await q
    .orderBy([
      { column: 'w.created_at', order: dir },
      { column: 'w.application_id', order: dir },
    ])
    .limit(limit)
    .select('w.application_id');
  return rows.map((r) => Number(r.application_id));
}

/**
 * The list's columns with the names a row shows (its stage; `detailed`: its job's title and
 * public id, its resume's type), read in the same statement by primary key. LEFT JOINs: the
 * databases read the applications first, in the order's index, and stop at the page.
 */
function withNames(q: Knex.QueryBuilder, detailed: boolean): Knex.QueryBuilder {
  q.leftJoin('job_stages as s', 's.id', 'a.stage_id').select([...LIST_COLUMNS, 's.name as stage_name']);
  if (detailed) {
    q.leftJoin('jobs as j', 'j.id', 'a.job_id')
      .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
      .select('j.title as job_title', 'j.public_id as job_public_id', 'f.content_type as resume_content_type');
  }
  return q;
}

/** Ids in one statement's IN lists at most, when the total is read beside the rows (twice the ids: SQLite binds at most 32,766 values). */
const FOLDED_IDS_MAX = 5_000;

/**
 * A page of rows (and one more), with their names (withNames), and the total counted up to
 * `cap` + 1. The total is read in the page's statement (a scalar subquery, run once), so a list is
 * one statement, or two when ids come first.
 */
async function pageRowsAndCount(
  db: Knex,
  f: ApplicantFilters,
  search: SearchPlan | null,
  offset: number,
  pageSize: number,
  cap: number,
  detailed: boolean,
): Promise<[Row[], number]> {
  const byIds = (ids: number[]) => withNames(ordered(db('applications as a').whereIn('a.id', ids), f.ordering), detailed);
  if (search?.walk) {
    const ids = await walkIds(db, f, search.walk, Math.max(cap, offset + pageSize) + 1);
    const pageIds = ids.slice(offset, offset + pageSize + 1);
    return [pageIds.length ? await byIds(pageIds) : [], ids.length];
  }
  const counted = () =>
    db.count({ n: '*' }).from(
      filteredApplications(db, f, search)
        .select('a.id')
        .limit(cap + 1)
        .as('c'),
    );
  const page = ordered(filteredApplications(db, f, search), f.ordering)
    .limit(pageSize + 1)
    .offset(offset);
  const separateCount = (search?.ids.length ?? 0) > FOLDED_IDS_MAX;
  if (!separateCount) page.select({ list_total: counted() });
  // Sorted by a name, an email or a status, the page's ids are read first and its rows by id:
  // without filters the ids come from the order's index alone, where reading whole rows past a
  // deep offset makes MariaDB sort the table instead.
  const rowsQuery: Promise<Row[]> = isDateOrder(f.ordering)
    ? withNames(page, detailed)
    : page.select('a.id').then(async (idRows: Row[]) => {
        if (!idRows.length) return [];
        const rows: Row[] = await byIds(idRows.map((r) => Number(r.id)));
        // The total came with the ids.
        for (const r of rows) r.list_total = idRows[0].list_total;
        return rows;
      });
  const countAlone = async () => Number(((await counted()) as Row[])[0]?.n ?? 0);
  const [rows, total] = await Promise.all([rowsQuery, separateCount ? countAlone() : null]);
  if (total !== null) return [rows, total];
  // No row on this page: none at all when it is the first; past the end, the total on its own.
  if (!rows.length) return [rows, offset === 0 ? 0 : await countAlone()];
  return [rows, Number(rows[0].list_total)];
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
  const [rows, n] = await pageRowsAndCount(db, f, search, (page - 1) * pageSize, pageSize, cap, detailed);
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
      stage_id: r.stage_id === null ? null : Number(r.stage_id),
      stage: r.stage_id === null ? null : (r.stage_name ?? null),
      outcome: r.outcome ?? null,
      source: r.source ?? null,
    };
    if (detailed) {
      const content_type = r.resume_file_id === null ? null : r.resume_content_type;
      const job_title = r.job_title ?? '';
      const resume_filename =
        content_type === null || content_type === undefined
          ? null
          : resumeDownloadName({ first_name: r.first_name, last_name: r.last_name, job_title, content_type });
      Object.assign(row, { job_title, job_public_id: r.job_public_id ?? '', resume_filename });
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

/**
 * The application shown before and after `id` in the filtered list, in its order (null at either
 * end): the row's key, then both neighbours in one statement (two scalar subqueries, each a range
 * of the order's index stopped at its first row).
 */
export async function neighbours(db: Knex, f: ApplicantFilters, id: number): Promise<{ previous: number | null; next: number | null }> {
  const columns = orderKey(f.ordering).columns;
  const [current, search]: [Row | undefined, SearchPlan | null] = await Promise.all([
    db('applications as a').where('a.id', id).first(columns),
    planSearch(db, f.q),
  ]);
  if (!current) return { previous: null, next: null };
  const step = (ordering: ApplicantOrdering) =>
    ordered(afterKey(db, filteredApplications(db, f, search), ordering, keyOf(current, ordering)), ordering)
      .select('a.id')
      .limit(1);
  const [row]: Row[] = await db.select({ next: step(f.ordering), previous: step(reversed(f.ordering)) });
  const idOf = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { previous: idOf(row?.previous), next: idOf(row?.next) };
}

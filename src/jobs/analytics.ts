/**
 * Job insights (spec 02 'Job insights', 'Analytics response'), computed in the database: every
 * figure is a COUNT / GROUP BY over the indexes the schema keeps for it —
 * (question_id, answer_key) on application_answers, (question_id, choice) on
 * application_answer_choices — so no answer row is read into the process.
 *
 * Decisions:
 * - `percent` is the share of the applicants who ANSWERED the question (optional questions can be
 *   left blank), rounded to one decimal. Checkbox percentages may add up to more than 100 (one
 *   applicant ticks several options); each stays <= 100, and the UI caps every bar at 100 anyway.
 * - Choice questions list every current option in the editor's order, 0 included; answers given
 *   under an option that has since been removed follow, most frequent first.
 * - Number questions list each distinct value when there are at most NUMBER_DISTINCT_MAX of them,
 *   otherwise at most NUMBER_BUCKETS equal ranges with "nice" widths (1, 2, 2.5, 5 x 10^k):
 *   "10–19" for whole numbers, "2.5 to under 5" otherwise.
 * - Text questions: the TOP_ANSWERS most frequent answers, grouped by their normalised key
 *   (trimmed, lower-cased); `value` is the spelling used most often among the first
 *   SPELLING_SAMPLE answers with that key, as typed (so "Yes" rather than "yes" or "YES").
 */
import type { Knex } from 'knex';
import { isMysql } from '../db/knex.js';
import { fromDbJson, fromDbNumber } from '../db/codecs.js';
import { NotFound } from '../http/errors.js';
import type { AnswerType } from '../shared/enums.js';
import { findJobById } from './repo.js';
import type { Job, JobQuestion } from './types.js';

export const TOP_ANSWERS = 10;
export const NUMBER_DISTINCT_MAX = 12;
export const NUMBER_BUCKETS = 10;

export interface TextStats {
  type: 'text';
  /** Applicants who answered the question. */
  answered: number;
  top_answers: { value: string; count: number }[];
}

export interface DistributionStats {
  type: 'distribution';
  answered: number;
  distribution: { option: string; count: number; percent: number }[];
}

export interface QuestionAnalytics {
  id: number;
  text: string;
  answer_type: AnswerType;
  stats: TextStats | DistributionStats;
}

export interface JobAnalytics {
  total_applicants: number;
  questions: QuestionAnalytics[];
}

type Row = Record<string, any>;

/** Route ids are positive integers of sane size; anything else is simply not found. */
export function parseJobId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) throw new NotFound();
  return Number(raw);
}

/** The job with its current questions, or 404. */
export async function requireJob(db: Knex, id: number): Promise<Job> {
  const job = await findJobById(db, id);
  if (!job) throw new NotFound();
  return job;
}

export function percentOf(count: number, of: number): number {
  return of > 0 ? Math.round((count * 1000) / of) / 10 : 0;
}

export async function countApplicants(db: Knex, jobId: number): Promise<number> {
  const row = (await db('applications').where({ job_id: jobId }).count({ n: '*' }).first()) as Row | undefined;
  return Number(row?.n ?? 0);
}

/** Applicants who answered each question, in one pass over the (question_id, answer_key) index. */
async function answeredCounts(db: Knex, questionIds: number[]): Promise<Map<number, number>> {
  if (!questionIds.length) return new Map();
  const rows: Row[] = await db('application_answers').select('question_id').count({ n: '*' }).whereIn('question_id', questionIds).groupBy('question_id');
  return new Map(rows.map((r) => [Number(r.question_id), Number(r.n)]));
}

/** How many answers of a key are looked at to pick the spelling shown for it. */
const SPELLING_SAMPLE = 50;

async function textStats(db: Knex, q: JobQuestion, answered: number): Promise<TextStats> {
  // Grouping and counting come from the (question_id, answer_key) index alone.
  const groups: Row[] = await db('application_answers')
    .select('answer_key')
    .count({ n: '*' })
    .where('question_id', q.id)
    .whereNotNull('answer_key')
    .groupBy('answer_key')
    .orderBy([{ column: 'n', order: 'desc' }, { column: 'answer_key', order: 'asc' }])
    .limit(TOP_ANSWERS);
  // The key is lower-cased; show the spelling most used among the key's first answers instead.
  const values = await Promise.all(
    groups.map(async (g) => {
      const rows: Row[] = await db('application_answers').select('answer').where({ question_id: q.id, answer_key: g.answer_key }).orderBy('id').limit(SPELLING_SAMPLE);
      return mostCommon(rows.map((r) => fromDbJson<unknown>(r.answer, null)).filter((v): v is string => typeof v === 'string')) ?? String(g.answer_key);
    }),
  );
  return { type: 'text', answered, top_answers: groups.map((g, i) => ({ value: values[i], count: Number(g.n) })) };
}

/** The most frequent string (the earliest on a tie), or null for none. */
export function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const v of values) {
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (best === null || n > counts.get(best)!) best = v;
  }
  return best;
}

async function choiceStats(db: Knex, q: JobQuestion, answered: number): Promise<DistributionStats> {
  const rows: Row[] =
    q.answer_type === 'checkbox'
      ? await db('application_answer_choices').select({ k: 'choice' }).count({ n: '*' }).where('question_id', q.id).groupBy('choice')
      : await db('application_answers').select({ k: 'answer_key' }).count({ n: '*' }).where('question_id', q.id).whereNotNull('answer_key').groupBy('answer_key');
  const counts = new Map(rows.map((r) => [String(r.k), Number(r.n)]));
  const listed = q.options.map((option) => ({ option, count: counts.get(option) ?? 0 }));
  const current = new Set(q.options);
  const former = [...counts].filter(([k]) => !current.has(k)).map(([option, count]) => ({ option, count })).sort((a, b) => b.count - a.count || a.option.localeCompare(b.option));
  return {
    type: 'distribution',
    answered,
    distribution: [...listed, ...former].map((d) => ({ ...d, percent: percentOf(d.count, answered) })),
  };
}

/** 1, 2, 2.5 or 5 times a power of ten, at least `raw` (at least 1 for whole numbers). */
export function niceWidth(raw: number, whole: boolean): number {
  if (!(raw > 0)) return 1;
  if (whole && raw <= 1) return 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const widths = [1, 2, 2.5, 5, 10].map((s) => dec(s * pow)).filter((x) => !whole || Number.isInteger(x));
  return widths.find((x) => x >= raw - 1e-9) ?? dec(10 * pow);
}

/** Four decimals, like the column (DECIMAL(20,4)), so float steps never print 0.30000000000000004. */
const dec = (n: number) => Number(n.toFixed(4));

async function numberStats(db: Knex, q: JobQuestion, answered: number): Promise<DistributionStats> {
  const { n_distinct } = (await db('application_answers')
    .where('question_id', q.id)
    .whereNotNull('answer_key')
    .first(db.raw('COUNT(DISTINCT answer_key) AS n_distinct'))) as Row;
  if (Number(n_distinct) <= NUMBER_DISTINCT_MAX) {
    // answer_key is String(n): the values come straight off the index.
    const rows: Row[] = await db('application_answers').select({ k: 'answer_key' }).count({ n: '*' }).where('question_id', q.id).whereNotNull('answer_key').groupBy('answer_key');
    const distribution = rows
      .map((r) => ({ option: String(r.k), count: Number(r.n), percent: percentOf(Number(r.n), answered) }))
      .sort((a, b) => Number(a.option) - Number(b.option));
    return { type: 'distribution', answered, distribution };
  }
  // Whole numbers compare equal to their integer cast (MySQL rounds on CAST AS SIGNED, SQLite
  // truncates: either way a fraction never equals it).
  const intCast = isMysql(db) ? 'CAST(answer_number AS SIGNED)' : 'CAST(answer_number AS INTEGER)';
  const range = (await db('application_answers')
    .where('question_id', q.id)
    .whereNotNull('answer_number')
    .first(
      db.raw('MIN(answer_number) AS lo'),
      db.raw('MAX(answer_number) AS hi'),
      db.raw(`SUM(CASE WHEN answer_number <> ${intCast} THEN 1 ELSE 0 END) AS fractions`),
    )) as Row;
  const lo = fromDbNumber(range.lo) ?? 0;
  const hi = fromDbNumber(range.hi) ?? 0;
  const whole = Number(range.fractions ?? 0) === 0;
  const width = niceWidth((hi - lo) / NUMBER_BUCKETS, whole);
  const start = dec(Math.floor(lo / width) * width);
  const buckets = Math.max(1, Math.floor(dec((hi - start) / width)) + 1);
  const bounds = Array.from({ length: buckets + 1 }, (_, i) => dec(start + i * width));
  // One pass: SUM(CASE ...) per range, lower bound included, upper bound excluded.
  const sums = bounds.slice(0, -1).map((b, i) => db.raw('SUM(CASE WHEN answer_number >= ? AND answer_number < ? THEN 1 ELSE 0 END) AS ??', [b, bounds[i + 1], `b${i}`]));
  const counted = (await db('application_answers').where('question_id', q.id).whereNotNull('answer_number').first(...sums)) as Row;
  const distribution = bounds.slice(0, -1).map((b, i) => {
    const count = Number(counted[`b${i}`] ?? 0);
    const option = whole ? (width === 1 ? String(b) : `${b}–${dec(bounds[i + 1] - 1)}`) : `${b} to under ${bounds[i + 1]}`;
    return { option, count, percent: percentOf(count, answered) };
  });
  return { type: 'distribution', answered, distribution };
}

/** Stats of the job's current questions, in order. */
export async function jobAnalytics(db: Knex, job: Job): Promise<JobAnalytics> {
  const [total, answered] = await Promise.all([countApplicants(db, job.id), answeredCounts(db, job.questions.map((q) => q.id))]);
  const questions = await Promise.all(
    job.questions.map(async (q): Promise<QuestionAnalytics> => {
      const n = answered.get(q.id) ?? 0;
      const stats =
        q.answer_type === 'short_text' || q.answer_type === 'long_text'
          ? await textStats(db, q, n)
          : q.answer_type === 'number'
            ? await numberStats(db, q, n)
            : await choiceStats(db, q, n);
      return { id: q.id, text: q.text, answer_type: q.answer_type, stats };
    }),
  );
  return { total_applicants: total, questions };
}

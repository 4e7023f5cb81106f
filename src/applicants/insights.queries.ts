/**
 * Job insights (spec 02 'Job insights', 'Analytics response'), computed in the database from
 * counts. Every figure comes from one of four groups per question: its answer rows, their
 * `answer_key`s, their `answer_number`s and the ticked choices of checkbox answers. Those groups
 * are kept counted in `answer_tallies`, and each job's applications (how many, the highest id) in
 * `answer_tally_jobs` (migration 011), both written in the transaction that inserts or deletes
 * applications (the apply API, purges and erasures), so a job's insights read the tally tables
 * alone, a few rows per question, not its applications or answers: about ten statements per job,
 * whatever its size. Rows written or deleted some other way (by hand) are therefore not seen. The
 * same groups can be counted over the answers instead (`from: 'answers'`, for tests and the
 * benchmark), on the indexes kept for them — (question_id, answer_key) and (question_id,
 * answer_number) on application_answers, (question_id, choice) on application_answer_choices —
 * with the same results. Only the spelling shown for a top text answer reads answer rows (up to
 * SPELLING_SAMPLE per answer).
 *
 * Decisions:
 * - `percent` is the share of the applicants who ANSWERED the question (optional questions can be
 *   left blank), rounded to one decimal. Checkbox percentages may add up to more than 100 (one
 *   applicant ticks several options); each stays <= 100, and the UI caps every bar at 100 anyway.
 * - Choice questions list every current option in the editor's order, 0 included; answers given
 *   under an option that has since been removed follow, most frequent first.
 * - Number questions are grouped into 10 or 11 (NUMBER_BUCKETS + 1 at most) equal ranges with
 *   "nice" widths (1, 2, 2.5, 5 x 10^k), lower bound included: "10–19" for whole numbers, "2.5 to
 *   under 5" otherwise; only a handful of distinct values (NUMBER_DISTINCT_MAX, a 1-5 rating
 *   say) are listed one by one. Their `numbers` give the lowest, the median (the mean of the two
 *   middle answers when their count is even) and the highest answer.
 * - Text questions: the TOP_ANSWERS most frequent answers, grouped by their normalised key
 *   (trimmed, lower-cased); `value` is the spelling used most often among the first
 *   SPELLING_SAMPLE answers with that key, as typed (so "Yes" rather than "yes" or "YES").
 */
import type { Knex } from 'knex';
import { isMysql } from '../db/knex.js';
import { fromDbJson, fromDbNumber } from '../db/codecs.js';
import type { Job, JobQuestion } from '../jobs/types.js';
import type { DistributionStats, JobAnalytics, QuestionAnalytics, TextStats } from './types.js';

const TOP_ANSWERS = 10;
const NUMBER_DISTINCT_MAX = 5;
const NUMBER_BUCKETS = 10;

type Row = Record<string, any>;

function percentOf(count: number, of: number): number {
  return of > 0 ? Math.round((count * 1000) / of) / 10 : 0;
}

/**
 * Where the four groups of a question are counted: the tallies, or the answer rows themselves.
 * Both give the same rows: a group's value and how many answer rows it has (never 0).
 */
interface Counts {
  /** The question's answer rows. */
  answers(q: JobQuestion): Promise<number>;
  /** Per `answer_key`; with `top`, only the most frequent (ties by key), each row with the total over all keys as `answered`. */
  keys(q: JobQuestion, top?: number): Promise<Row[]>;
  /** Per `answer_number`, ascending, at most `limit` of them. */
  numbers(q: JobQuestion, limit: number): Promise<Row[]>;
  /** Over every number: how many, the lowest, the highest, how many with a fraction. */
  numberRange(q: JobQuestion): Promise<Row>;
  /** How many numbers fall in each [bounds[i], bounds[i + 1]). */
  numberBuckets(q: JobQuestion, bounds: number[]): Promise<number[]>;
  /** The number at 0-based position `k` of all of them in ascending order. */
  numberAt(q: JobQuestion, k: number): Promise<unknown>;
  /** Per ticked checkbox choice. */
  choices(q: JobQuestion): Promise<Row[]>;
}

/**
 * Whole numbers compare equal to their integer cast (MySQL rounds on CAST AS SIGNED, SQLite
 * truncates: either way a fraction never equals it).
 */
const intCast = (db: Knex, column: string) => (isMysql(db) ? `CAST(${column} AS SIGNED)` : `CAST(${column} AS INTEGER)`);

/** SUM(CASE ...) per range, lower bound included, upper bound excluded; `weight` is what each row adds. */
function bucketSums(db: Knex, column: string, weight: string, bounds: number[]) {
  return bounds
    .slice(0, -1)
    .map((_, i) =>
      db.raw(`SUM(CASE WHEN ?? >= ? AND ?? < ? THEN ${weight} ELSE 0 END) AS ??`, [column, bounds[i], column, bounds[i + 1], `b${i}`]),
    );
}

/** The groups counted in `answer_tallies` (migration 011): a few rows per question. */
function tallyCounts(db: Knex): Counts {
  const tally = (q: JobQuestion, kind: 'a' | 'k' | 'n' | 'c') => db('answer_tallies').where({ question_id: q.id, kind }).where('n', '>', 0);
  return {
    async answers(q) {
      const row = (await tally(q, 'a').first('n')) as Row | undefined;
      return Number(row?.n ?? 0);
    },
    async keys(q, top) {
      const rows = () => tally(q, 'k').select({ answer_key: 'value', n: 'n' });
      if (top === undefined) return rows();
      // From the top end of the (question_id, kind, n) index (migration 038), not by sorting all
      // of a question's keys (thousands for a long text): the count of the top-th group first,
      // then the groups with at least that count, ordered and cut as before.
      const [cut, sum] = await Promise.all([
        tally(q, 'k')
          .orderBy('n', 'desc')
          .offset(top - 1)
          .first('n') as Promise<Row | undefined>,
        tally(q, 'k').first(db.raw('SUM(n) AS answered')) as Promise<Row | undefined>,
      ]);
      const groups: Row[] = await rows()
        .where('n', '>=', Number(cut?.n ?? 1))
        .orderBy([
          { column: 'n', order: 'desc' },
          { column: 'value', order: 'asc' },
        ])
        .limit(top);
      return groups.map((g) => ({ ...g, answered: sum?.answered }));
    },
    numbers: (q, limit) => tally(q, 'n').select({ v: 'number', n: 'n' }).orderBy('number').limit(limit),
    numberRange: async (q) =>
      (await tally(q, 'n').first(
        db.raw('SUM(n) AS answered'),
        db.raw('MIN(number) AS lo'),
        db.raw('MAX(number) AS hi'),
        db.raw(`SUM(CASE WHEN number <> ${intCast(db, 'number')} THEN n ELSE 0 END) AS fractions`),
      )) as Row,
    async numberBuckets(q, bounds) {
      const row = (await tally(q, 'n').first(...bucketSums(db, 'number', 'n', bounds))) as Row;
      return bounds.slice(0, -1).map((_, i) => Number(row[`b${i}`] ?? 0));
    },
    async numberAt(q, k) {
      // The first value whose running count passes k.
      const running = tally(q, 'n').select('number', db.raw('SUM(n) OVER (ORDER BY number) AS upto'));
      const row = (await db.from(running.as('t')).where('upto', '>', k).orderBy('number').first('number')) as Row | undefined;
      return row?.number;
    },
    choices: (q) => tally(q, 'c').select({ k: 'value', n: 'n' }),
  };
}

/** The same groups counted over the answer rows, each from an index kept for it. */
function answerCounts(db: Knex): Counts {
  const answers = (q: JobQuestion) => db('application_answers').where('question_id', q.id);
  return {
    async answers(q) {
      const [{ n }] = (await answers(q).count({ n: '*' })) as Row[];
      return Number(n);
    },
    keys(q, top) {
      // Grouping and counting come from the (question_id, answer_key) index alone; the window sum
      // counts every answer (the applicants who answered) before LIMIT keeps the top groups.
      const rows = answers(q).select('answer_key').count({ n: '*' }).whereNotNull('answer_key').groupBy('answer_key');
      if (top === undefined) return rows;
      return rows
        .select(db.raw('SUM(COUNT(*)) OVER () AS answered'))
        .orderBy([
          { column: 'n', order: 'desc' },
          { column: 'answer_key', order: 'asc' },
        ])
        .limit(top);
    },
    // Distinct values in order, straight off the (question_id, answer_number) index (migration
    // 002); LIMIT stops the scan when there are too many values to carry over.
    numbers: (q, limit) =>
      answers(q)
        .select({ v: 'answer_number' })
        .count({ n: '*' })
        .whereNotNull('answer_number')
        .groupBy('answer_number')
        .orderBy('answer_number')
        .limit(limit),
    numberRange: async (q) =>
      (await answers(q)
        .whereNotNull('answer_number')
        .first(
          db.raw('COUNT(*) AS answered'),
          db.raw('MIN(answer_number) AS lo'),
          db.raw('MAX(answer_number) AS hi'),
          db.raw(`SUM(CASE WHEN answer_number <> ${intCast(db, 'answer_number')} THEN 1 ELSE 0 END) AS fractions`),
        )) as Row,
    async numberBuckets(q, bounds) {
      const row = (await answers(q)
        .whereNotNull('answer_number')
        .first(...bucketSums(db, 'answer_number', '1', bounds))) as Row;
      return bounds.slice(0, -1).map((_, i) => Number(row[`b${i}`] ?? 0));
    },
    async numberAt(q, k) {
      const row = (await answers(q).whereNotNull('answer_number').orderBy('answer_number').offset(k).first('answer_number')) as
        | Row
        | undefined;
      return row?.answer_number;
    },
    choices: (q) => db('application_answer_choices').select({ k: 'choice' }).count({ n: '*' }).where('question_id', q.id).groupBy('choice'),
  };
}

/** How many answers of a key are looked at to pick the spelling shown for it. */
const SPELLING_SAMPLE = 50;

/**
 * The first SPELLING_SAMPLE answers of each group's key, tagged with the group's position `g`.
 * One statement: a UNION ALL of one small index-ordered sample per key. MySQL takes each sample
 * as a parenthesised SELECT (MariaDB would copy each into a temporary table if it were a derived
 * table, 2-3 ms a question); SQLite allows ORDER BY and LIMIT in a derived table only.
 */
function spellingSamples(db: Knex, q: JobQuestion, groups: Row[]): Promise<Row[]> {
  const sample = (key: unknown) =>
    db('application_answers').select('answer').where({ question_id: q.id, answer_key: key }).orderBy('id').limit(SPELLING_SAMPLE);
  if (isMysql(db)) {
    const parts = groups.map((g, i) =>
      sample(g.answer_key)
        .select(db.raw(`${Number(i)} AS g`))
        .toSQL()
        .toNative(),
    );
    return db
      .raw(
        parts.map((p) => `(${p.sql})`).join(' UNION ALL '),
        parts.flatMap((p) => p.bindings),
      )
      .then(([rows]) => rows as Row[]);
  }
  const samples = groups.map((g, i) =>
    db
      // A literal tag, not a binding: Knex orders a select-list binding after the subquery's.
      .select(db.raw(`${Number(i)} AS g`), 'answer')
      .from(sample(g.answer_key).as(`s${i}`)),
  );
  return samples[0].unionAll(samples.slice(1), false);
}

async function textStats(db: Knex, counts: Counts, q: JobQuestion): Promise<TextStats> {
  const groups = await counts.keys(q, TOP_ANSWERS);
  // The key is lower-cased; show the spelling most used among the key's first answers instead.
  const sampled: Row[] = groups.length ? await spellingSamples(db, q, groups) : [];
  const byGroup = groups.map(() => [] as string[]);
  for (const r of sampled) {
    const v = fromDbJson<unknown>(r.answer, null);
    if (typeof v === 'string') byGroup[Number(r.g)]?.push(v);
  }
  const values = groups.map((g, i) => mostCommon(byGroup[i]) ?? String(g.answer_key));
  return {
    type: 'text',
    answered: Number(groups[0]?.answered ?? 0),
    top_answers: groups.map((g, i) => ({ value: values[i], count: Number(g.n) })),
  };
}

/** The most frequent string (the earliest on a tie), or null for none. */
function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const v of values) {
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (best === null || n > counts.get(best)!) best = v;
  }
  return best;
}

async function choiceStats(counts: Counts, q: JobQuestion): Promise<DistributionStats> {
  let rows: Row[];
  let answered: number;
  if (q.answer_type === 'checkbox') {
    // Choice rows are counted per option; the applicants who answered are the answer rows.
    [rows, answered] = await Promise.all([counts.choices(q), counts.answers(q)]);
  } else {
    rows = (await counts.keys(q)).map((r) => ({ k: r.answer_key, n: r.n }));
    answered = rows.reduce((sum, r) => sum + Number(r.n), 0);
  }
  const byOption = new Map(rows.map((r) => [String(r.k), Number(r.n)]));
  const listed = q.options.map((option) => ({ option, count: byOption.get(option) ?? 0 }));
  const current = new Set(q.options);
  const former = [...byOption]
    .filter(([k]) => !current.has(k))
    .map(([option, count]) => ({ option, count }))
    .sort((a, b) => b.count - a.count || a.option.localeCompare(b.option));
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

/** Ranges of NUMBER_BUCKETS-ish "nice" width covering lo..hi: bounds[i] <= x < bounds[i + 1]. */
function numberRanges(lo: number, hi: number, whole: boolean): { bounds: number[]; labels: string[] } {
  const width = niceWidth((hi - lo) / NUMBER_BUCKETS, whole);
  const start = dec(Math.floor(lo / width) * width);
  const buckets = Math.max(1, Math.floor(dec((hi - start) / width)) + 1);
  const bounds = Array.from({ length: buckets + 1 }, (_, i) => dec(start + i * width));
  const labels = bounds
    .slice(0, -1)
    .map((b, i) => (whole ? (width === 1 ? String(b) : `${b}–${dec(bounds[i + 1] - 1)}`) : `${b} to under ${bounds[i + 1]}`));
  return { bounds, labels };
}

/** Up to this many distinct values are counted by value and put into ranges here. */
const NUMBER_VALUES_READ = 1000;

async function numberStats(counts: Counts, q: JobQuestion): Promise<DistributionStats> {
  const values = await counts.numbers(q, NUMBER_VALUES_READ + 1);
  const counted = values.map((r) => ({ v: fromDbNumber(r.v) ?? 0, n: Number(r.n) }));
  if (!counted.length) return { type: 'distribution', answered: 0, distribution: [] };
  if (counted.length <= NUMBER_VALUES_READ) {
    const answered = counted.reduce((sum, c) => sum + c.n, 0);
    const at = async (k: number) => {
      let upto = 0;
      for (const c of counted) {
        upto += c.n;
        if (upto > k) return c.v;
      }
      return counted[counted.length - 1].v;
    };
    const numbers = await summary(at, answered, counted[0].v, counted[counted.length - 1].v);
    if (counted.length <= NUMBER_DISTINCT_MAX) {
      return {
        type: 'distribution',
        answered,
        distribution: counted.map((c) => ({ option: String(c.v), count: c.n, percent: percentOf(c.n, answered) })),
        numbers,
      };
    }
    const { bounds, labels } = numberRanges(
      counted[0].v,
      counted[counted.length - 1].v,
      counted.every((c) => Number.isInteger(c.v)),
    );
    const inRange = labels.map(() => 0);
    let i = 0;
    for (const c of counted) {
      while (c.v >= bounds[i + 1]) i++;
      inRange[i] += c.n;
    }
    return {
      type: 'distribution',
      answered,
      distribution: labels.map((option, k) => ({ option, count: inRange[k], percent: percentOf(inRange[k], answered) })),
      numbers,
    };
  }
  // Many distinct values (salaries, say): range, counts and median are computed in the database.
  const range = await counts.numberRange(q);
  const answered = Number(range.answered ?? 0);
  const lo = fromDbNumber(range.lo) ?? 0;
  const hi = fromDbNumber(range.hi) ?? 0;
  const { bounds, labels } = numberRanges(lo, hi, Number(range.fractions ?? 0) === 0);
  const [inRange, numbers] = await Promise.all([
    counts.numberBuckets(q, bounds),
    summary(async (k) => fromDbNumber(await counts.numberAt(q, k)) ?? 0, answered, lo, hi),
  ]);
  return {
    type: 'distribution',
    answered,
    distribution: labels.map((option, i) => ({ option, count: inRange[i], percent: percentOf(inRange[i], answered) })),
    numbers,
  };
}

/** Lowest, median and highest of `answered` numbers, given the k-th smallest. */
async function summary(
  at: (k: number) => Promise<number>,
  answered: number,
  min: number,
  max: number,
): Promise<{ min: number; median: number; max: number }> {
  const lower = Math.floor((answered - 1) / 2);
  const upper = Math.ceil((answered - 1) / 2);
  const [a, b] = lower === upper ? [await at(lower), null] : [await at(lower), await at(upper)];
  return { min, median: b === null ? a : dec((a + b) / 2), max };
}

/**
 * What a job's analytics were computed from: the job's updated_at and questions, and its
 * applications as the tallies hold them (count and highest id). Answers are written only together
 * with their application and never edited, so any new, removed or re-questioned application
 * changes it.
 */
export async function insightsStamp(db: Knex, job: Job): Promise<{ stamp: string; applications: JobApplications }> {
  // The count and highest id change with every new application of the job; a purge or erase
  // lowers the count, and raises the `applications.removed` counter too (a status change alters no answer).
  const [applications, removed] = await Promise.all([
    talliedApplications(db, job.id),
    db('change_counters').where({ name: 'applications.removed' }).first('value') as Promise<Row | undefined>,
  ]);
  const stamp = JSON.stringify([
    job.updated_at.toISOString(),
    applications.total,
    applications.maxId,
    Number(removed?.value ?? 0),
    job.questions.map((q) => [q.id, q.answer_type, q.text, q.options]),
  ]);
  return { stamp, applications };
}

/** How many applications a job has, and the highest id among them (0 for none). */
export interface JobApplications {
  total: number;
  maxId: number;
}

/** The job's applications as the tallies hold them (one primary-key read). */
async function talliedApplications(db: Knex, jobId: number): Promise<JobApplications> {
  const row = (await db('answer_tally_jobs').where({ job_id: jobId }).first('applications', 'max_application_id')) as Row | undefined;
  return { total: Number(row?.applications ?? 0), maxId: Number(row?.max_application_id ?? 0) };
}

/** The job's applications counted over their rows (an index range of the job's every application). */
async function countedApplications(db: Knex, jobId: number): Promise<JobApplications> {
  const row = (await db('applications').where({ job_id: jobId }).first(db.raw('COUNT(*) AS n'), db.raw('MAX(id) AS m'))) as Row | undefined;
  return { total: Number(row?.n ?? 0), maxId: Number(row?.m ?? 0) };
}

/**
 * Computes the stats afresh (no cache; run it inside a transaction for one snapshot): from the
 * tally tables (what the server does), or counted over the applications and their answers.
 * `applications` is what the caller read already (the insights stamp), else it is read here.
 */
export async function computeAnalytics(
  db: Knex,
  job: Job,
  applications?: JobApplications,
  from: 'tallies' | 'answers' = 'tallies',
): Promise<JobAnalytics> {
  const known = applications ?? (await (from === 'tallies' ? talliedApplications : countedApplications)(db, job.id));
  const counts = from === 'tallies' ? tallyCounts(db) : answerCounts(db);
  const questions = await Promise.all(
    job.questions.map(async (q): Promise<QuestionAnalytics> => {
      const stats =
        q.answer_type === 'short_text' || q.answer_type === 'long_text'
          ? await textStats(db, counts, q)
          : q.answer_type === 'number'
            ? await numberStats(counts, q)
            : await choiceStats(counts, q);
      return { id: q.id, text: q.text, answer_type: q.answer_type, stats };
    }),
  );
  return { total_applicants: known.total, questions };
}

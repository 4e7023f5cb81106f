/** The answer tallies insights read (migration 011): raised when applications are written, lowered before they are deleted. */
import type { Knex } from 'knex';
import { isMysql } from '../db/knex.js';
import { ID_CHUNK } from './repo.js';
import type { AnswerRow } from './apply.repo.js';

/** An answer as the tallies count it (migration 011): the columns insights group by, and its choice rows. */
export type TalliedAnswer = Pick<AnswerRow, 'answer_key' | 'answer_number' | 'choices'> & { question_id: number | null };

type TallyKind = 'a' | 'k' | 'n' | 'c';
/** One tally row's change: question, kind, value (key or choice), number, and how many answer rows. */
export type TallyDelta = [questionId: number, kind: TallyKind, value: string, number: number | string, n: number];

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
export async function applyTallyDeltas(trx: Knex, deltas: TallyDelta[]): Promise<void> {
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
export async function storedTallies(trx: Knex, ids: number[]): Promise<TallyDelta[]> {
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

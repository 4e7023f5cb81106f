/**
 * Answer tallies (issue 19): job insights read per-question counts instead of counting every
 * answer row. Counting 50,000 applications' answers (five questions, about 310,000 index
 * entries) took 27 ms on SQLite and 70 ms on MariaDB per request, so ten HR users opening the
 * insights of a big job at once waited 0.5 s (bench/README, HR back office).
 * 1. `answer_tallies`: one row per question and kind, with the count of answer rows:
 *    kind 'a' every answer row of the question; 'k' per `answer_key` (non-null); 'n' per
 *    `answer_number` (non-null); 'c' per ticked checkbox `choice`. These are exactly the
 *    GROUP BYs that src/applicants/insights.queries.ts ran over the answers, with the same column
 *    types and (on MySQL) the same collation, so a value groups with the same others.
 * 2. `answer_tally_jobs`: per job, how many applications the tallies hold and the highest id
 *    among them. Insights use the tallies only when both equal what the job's applications are
 *    (the count and highest id the insights stamp reads anyway); otherwise, e.g. after rows were
 *    deleted by hand, they count the answers as before.
 * Both are written in the transaction that inserts or deletes applications (src/applicants/repo.ts)
 * and filled here from the rows already there. No foreign keys: an application's insert would
 * share-lock the question and job rows for them, and jobs and questions are never deleted.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      // As application_answers.answer_key and application_answer_choices.choice.
      t.collate('utf8mb4_unicode_ci');
    }
  };
  await knex.schema.createTable('answer_tallies', (t) => {
    tableOpts(t);
    t.integer('question_id').unsigned().notNullable();
    t.string('kind', 1).notNullable();
    t.string('value', 191).notNullable().defaultTo('');
    t.decimal('number', 20, 4).notNullable().defaultTo(0);
    t.integer('n').notNullable();
    t.primary(['question_id', 'kind', 'value', 'number']);
  });
  await knex.schema.createTable('answer_tally_jobs', (t) => {
    tableOpts(t);
    t.integer('job_id').unsigned().notNullable().primary();
    t.integer('applications').notNullable();
    t.integer('max_application_id').unsigned().notNullable();
  });

  await knex.raw(`
    INSERT INTO answer_tallies (question_id, kind, value, number, n)
    SELECT question_id, 'a', '', 0, COUNT(*) FROM application_answers WHERE question_id IS NOT NULL GROUP BY question_id`);
  await knex.raw(`
    INSERT INTO answer_tallies (question_id, kind, value, number, n)
    SELECT question_id, 'k', answer_key, 0, COUNT(*) FROM application_answers WHERE question_id IS NOT NULL AND answer_key IS NOT NULL GROUP BY question_id, answer_key`);
  await knex.raw(`
    INSERT INTO answer_tallies (question_id, kind, value, number, n)
    SELECT question_id, 'n', '', answer_number, COUNT(*) FROM application_answers WHERE question_id IS NOT NULL AND answer_number IS NOT NULL GROUP BY question_id, answer_number`);
  await knex.raw(`
    INSERT INTO answer_tallies (question_id, kind, value, number, n)
    SELECT question_id, 'c', choice, 0, COUNT(*) FROM application_answer_choices WHERE question_id IS NOT NULL GROUP BY question_id, choice`);
  await knex.raw(`
    INSERT INTO answer_tally_jobs (job_id, applications, max_application_id)
    SELECT job_id, COUNT(*), MAX(id) FROM applications GROUP BY job_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('answer_tally_jobs');
  await knex.schema.dropTableIfExists('answer_tallies');
}

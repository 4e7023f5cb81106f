/**
 * The public job list reads its columns from this index alone on SQLite. SQLite stores a row's
 * columns in order, and the list's columns (currency, salaries, dates...) come after the four
 * rich texts, so reading them from the table walks each job's overflow pages: the page of 30 jobs
 * took 120 µs of reading, a tenth of a request (bench/README, public pages). MySQL keeps long
 * texts off the row (InnoDB DYNAMIC), and its index key limit would not take these columns, so
 * it gets nothing here.
 */
import type { Knex } from 'knex';

const INDEX = 'jobs_public_list_idx';

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw(
    `CREATE INDEX ${INDEX} ON jobs (status, created_at, id, public_id, title, location, job_type, work_mode, currency, min_salary, max_salary, experience_required, duration, updated_at)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw(`DROP INDEX IF EXISTS ${INDEX}`);
}

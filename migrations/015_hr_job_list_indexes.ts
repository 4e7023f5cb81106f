/**
 * The HR job lists read their columns from these indexes alone on SQLite, for the reason migration
 * 010 gives for the public list: a job's row holds its rich texts before these columns, so reading
 * them from the table walks each job's overflow pages, a thousand jobs at a time here (the
 * applicants list's job selector, the dashboard, Manage Jobs; bench/README, HR back office).
 * MySQL keeps long texts off the row, so it gets nothing here.
 */
import type { Knex } from 'knex';

const BY_TITLE = 'jobs_by_title_idx';
const NEWEST = 'jobs_hr_list_idx';

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw(`CREATE INDEX ${BY_TITLE} ON jobs (title, id, public_id, status)`);
  await knex.raw(
    `CREATE INDEX ${NEWEST} ON jobs (created_at, id, public_id, title, location, job_type, work_mode, status, views, updated_at)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw(`DROP INDEX IF EXISTS ${BY_TITLE}`);
  await knex.raw(`DROP INDEX IF EXISTS ${NEWEST}`);
}

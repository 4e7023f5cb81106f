/**
 * Issue 21's job fields: a free-text department (grouped and filtered on /careers), a closing
 * instant in UTC (past it the job takes no applications and leaves the public lists), the pay
 * period of the salary (YEAR, MONTH or HOUR) and, for remote jobs, the countries applicants may
 * live in (a JSON list of ISO 3166-1 alpha-2 codes, as text like the questions' options).
 *
 * Indexes: the public list's department filter reads (status, department) and the next closing
 * instant of the active jobs reads (status, closes_at), on both databases. On SQLite the public
 * list and the HR job list read their columns from indexes alone (migrations 010 and 015); those
 * are made again with the new columns the lists show, or every page would walk the rows' overflow
 * pages again.
 */
import type { Knex } from 'knex';

const DEPARTMENT_INDEX = 'jobs_status_department_idx';
const CLOSING_INDEX = 'jobs_status_closes_idx';
const PUBLIC_LIST_INDEX = 'jobs_public_list_idx';
const LIST_COLUMNS_BEFORE =
  'status, created_at, id, public_id, title, location, job_type, work_mode, currency, min_salary, max_salary, experience_required, duration, updated_at';
const HR_LIST_INDEX = 'jobs_hr_list_idx';
const HR_LIST_COLUMNS_BEFORE = 'created_at, id, public_id, title, location, job_type, work_mode, status, views, updated_at';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.alterTable('jobs', (t) => {
    t.string('department', 191).nullable();
    t.specificType('closes_at', 'DATETIME(3)').nullable();
    t.string('salary_period', 8).notNullable().defaultTo('YEAR');
    t.text('applicant_countries').nullable();
  });
  await knex.raw(`CREATE INDEX ${DEPARTMENT_INDEX} ON jobs (status, department)`);
  await knex.raw(`CREATE INDEX ${CLOSING_INDEX} ON jobs (status, closes_at)`);
  if (!mysql) {
    await knex.raw(`DROP INDEX IF EXISTS ${PUBLIC_LIST_INDEX}`);
    await knex.raw(`CREATE INDEX ${PUBLIC_LIST_INDEX} ON jobs (${LIST_COLUMNS_BEFORE}, department, closes_at, salary_period)`);
    await knex.raw(`DROP INDEX IF EXISTS ${HR_LIST_INDEX}`);
    await knex.raw(`CREATE INDEX ${HR_LIST_INDEX} ON jobs (${HR_LIST_COLUMNS_BEFORE}, department, closes_at)`);
  }
}

export async function down(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  if (mysql) {
    await knex.raw(`DROP INDEX ${DEPARTMENT_INDEX} ON jobs`);
    await knex.raw(`DROP INDEX ${CLOSING_INDEX} ON jobs`);
    await knex.schema.alterTable('jobs', (t) => {
      t.dropColumn('department');
      t.dropColumn('closes_at');
      t.dropColumn('salary_period');
      t.dropColumn('applicant_countries');
    });
    return;
  }
  await knex.raw(`DROP INDEX IF EXISTS ${DEPARTMENT_INDEX}`);
  await knex.raw(`DROP INDEX IF EXISTS ${CLOSING_INDEX}`);
  await knex.raw(`DROP INDEX IF EXISTS ${PUBLIC_LIST_INDEX}`);
  await knex.raw(`DROP INDEX IF EXISTS ${HR_LIST_INDEX}`);
  for (const column of ['department', 'closes_at', 'salary_period', 'applicant_countries'])
    await knex.raw(`ALTER TABLE jobs DROP COLUMN ${column}`);
  await knex.raw(`CREATE INDEX ${PUBLIC_LIST_INDEX} ON jobs (${LIST_COLUMNS_BEFORE})`);
  await knex.raw(`CREATE INDEX ${HR_LIST_INDEX} ON jobs (${HR_LIST_COLUMNS_BEFORE})`);
}

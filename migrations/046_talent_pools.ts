/**
 * Issue 35 ("Talent pool"):
 * - `talent_pools`: the pools HR keeps, by name.
 * - `pool_members`: who is in a pool (a person), why (`reason`, e.g. "Rejected: Position filled"),
 *   who added them and when. A member is offered for new jobs only while their consent holds.
 * - `pool_consents`: a person's consent to be kept for future jobs: its text, when given (or
 *   renewed) and until when (POOL_CONSENT_DAYS later). Erasing the person removes all of it.
 * - `pool_invites`: a member invited to apply for a job (once per job).
 * Rolling back drops the four tables.
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };
  const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');
  const user = (t: Knex.CreateTableBuilder, name: string) =>
    t.integer(name).unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
  const person = (t: Knex.CreateTableBuilder) =>
    t.integer('person_id').unsigned().notNullable().references('id').inTable('people').onDelete('CASCADE');

  await knex.schema.createTable('talent_pools', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    user(t, 'created_by');
    dt(t, 'created_at').notNullable();
  });
  await knex.schema.createTable('pool_members', (t) => {
    tableOpts(t);
    t.integer('pool_id').unsigned().notNullable().references('id').inTable('talent_pools').onDelete('CASCADE');
    person(t);
    t.string('reason', 200).notNullable();
    user(t, 'added_by');
    dt(t, 'added_at').notNullable();
    t.primary(['pool_id', 'person_id']);
    t.index(['person_id'], 'pool_members_person_idx');
  });
  await knex.schema.createTable('pool_consents', (t) => {
    tableOpts(t);
    person(t).primary();
    t.text('consent_text').notNullable();
    dt(t, 'given_at').notNullable();
    dt(t, 'expires_at').notNullable();
  });
  await knex.schema.createTable('pool_invites', (t) => {
    tableOpts(t);
    person(t);
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    user(t, 'invited_by');
    dt(t, 'invited_at').notNullable();
    t.primary(['person_id', 'job_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['pool_invites', 'pool_consents', 'pool_members', 'talent_pools']) await knex.schema.dropTable(table);
}

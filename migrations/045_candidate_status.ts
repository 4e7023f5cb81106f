/**
 * Issue 35 ("A status page for the candidate"):
 * - `stage_status_texts`: what candidates read on their status page while an application is at a
 *   stage, kept by admins per stage name (`name_key`: the name folded to lower case, so "Screen"
 *   on every job shares one text); a stage without a row reads the built-in text.
 * - `erasure_requests`: a candidate's request, from the status page, to erase their data; HR
 *   confirms it in one click (the erase runs then and removes the request with the person).
 * Rolling back drops both tables (the texts HR wrote and the open requests).
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

  await knex.schema.createTable('stage_status_texts', (t) => {
    tableOpts(t);
    t.string('name_key', 60).notNullable().primary();
    t.string('name', 60).notNullable();
    t.string('text', 500).notNullable();
    user(t, 'updated_by');
    dt(t, 'updated_at').notNullable();
  });
  await knex.schema.createTable('erasure_requests', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('person_id').unsigned().notNullable().references('id').inTable('people').onDelete('CASCADE');
    dt(t, 'requested_at').notNullable();
    t.unique(['person_id'], { indexName: 'erasure_requests_person_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('erasure_requests');
  await knex.schema.dropTable('stage_status_texts');
}

/**
 * Where applicants come from (issue 21, source attribution):
 * - `tracking_links`: links HR makes per channel or per referring employee, `/go/{slug}`, each
 *   with the source, medium and campaign it gives, optionally one job it leads to, and its clicks.
 * - `applications.source`, `medium`, `campaign`, `tracking_link_id`: the first touch kept in the
 *   applicant's signed cookie when the application was sent (all null: came directly). Filtered
 *   and grouped by source over (source, created_at).
 * - `jobs.webhook_include_source`: the job's webhook payload carries the source only when HR
 *   opts in, so the spec's payload keys stay exactly as they are by default.
 */
import type { Knex } from 'knex';

const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('tracking_links', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.increments('id');
    t.string('slug', 64).notNullable().unique('tracking_links_slug_unique');
    t.string('name', 191).notNullable();
    t.string('source', 100).notNullable();
    t.string('medium', 100).notNullable().defaultTo('');
    t.string('campaign', 100).notNullable().defaultTo('');
    t.integer('job_id').unsigned().nullable().references('id').inTable('jobs').onDelete('SET NULL');
    t.integer('clicks').unsigned().notNullable().defaultTo(0);
    t.integer('created_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    dt(t, 'created_at').notNullable();
  });
  await knex.schema.alterTable('applications', (t) => {
    t.string('source', 100).nullable();
    t.string('medium', 100).nullable();
    t.string('campaign', 100).nullable();
    // No foreign key: SQLite would rebuild the whole table to add one. Removing a link clears it
    // in the same transaction (src/sources/repo.ts).
    t.integer('tracking_link_id').unsigned().nullable();
    t.index(['source', 'created_at'], 'applications_source_idx');
  });
  await knex.schema.alterTable('jobs', (t) => {
    t.boolean('webhook_include_source').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  if (mysql) {
    await knex.schema.alterTable('applications', (t) => {
      t.dropIndex(['source', 'created_at'], 'applications_source_idx');
      t.dropColumns('source', 'medium', 'campaign', 'tracking_link_id');
    });
    await knex.schema.alterTable('jobs', (t) => t.dropColumn('webhook_include_source'));
  } else {
    // Raw drops: Knex would rebuild the tables, and with foreign keys on the rebuild cascades.
    await knex.raw('DROP INDEX applications_source_idx');
    for (const c of ['tracking_link_id', 'source', 'medium', 'campaign']) await knex.raw(`ALTER TABLE applications DROP COLUMN ${c}`);
    await knex.raw('ALTER TABLE jobs DROP COLUMN webhook_include_source');
  }
  await knex.schema.dropTableIfExists('tracking_links');
}

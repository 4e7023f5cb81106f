/**
 * Issue 30 ("A Duplicate gets a public id from its new title when first saved"): `jobs.public_id_draft`
 * marks a job whose public id was made from a provisional title (a duplicate, "Copy of …"). The
 * job's first save makes its public id again from the title it then has and clears the mark, so a
 * copy renamed before it is saved does not keep `copy-of-…` for ever. Existing jobs are not marked.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.boolean('public_id_draft').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  // SQLite drops the column in place (knex's dropColumn would rebuild jobs, and with foreign keys
  // on, the rebuild's DROP TABLE would take every application with it).
  if (knex.client.config.client === 'mysql2') {
    await knex.schema.alterTable('jobs', (t) => {
      t.dropColumn('public_id_draft');
    });
  } else {
    await knex.raw('ALTER TABLE jobs DROP COLUMN public_id_draft');
  }
}

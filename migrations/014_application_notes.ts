/**
 * Notes on applications (issue 20, "Notes and history"): plain text written by HR users, with
 * their author and times. A note goes with its application (purge, erase); the author's id is
 * cleared if the user row ever goes, the note stays. Notes are read per application, newest
 * first, over (application_id, id). The timeline's audit entries need no new index: the
 * (entity, entity_id) index of audit_log already holds each entry's id after its key, on both
 * databases, so they come in id order without a sort.
 */
import type { Knex } from 'knex';

const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('application_notes', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    // At most 10,000 characters (src/applicants/schema.ts): up to 40,000 bytes, within TEXT.
    t.text('text').notNullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    t.index(['application_id', 'id'], 'application_notes_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('application_notes');
}

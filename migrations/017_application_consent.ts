/**
 * Consent in the apply wizard (issue 20, "Everyday polish"): with APPLY_CONSENT_TEXT set, an
 * application records when the applicant agreed and the exact text they agreed to, since the
 * setting can change later. Both stay null for applications sent while the setting was off.
 * Consent text is at most APPLY_CONSENT_TEXT's 2,000 characters: TEXT holds it on both databases.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('applications', (t) => {
    t.specificType('consent_at', 'DATETIME(3)').nullable();
    t.text('consent_text').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  // In place on SQLite: Knex would rebuild the table, and with the foreign keys on, dropping the
  // old table would delete every row that points at an application.
  if (knex.client.config.client === 'mysql2') {
    await knex.schema.alterTable('applications', (t) => {
      t.dropColumn('consent_text');
      t.dropColumn('consent_at');
    });
    return;
  }
  await knex.raw('ALTER TABLE applications DROP COLUMN consent_text');
  await knex.raw('ALTER TABLE applications DROP COLUMN consent_at');
}

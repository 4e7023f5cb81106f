/**
 * Emails sent later and HR's notification digest (issue 30, "Rejections and emails"):
 * - on `email_posts`: `send_after`, the time HR chose for a scheduled email (null: at once). A
 *   scheduled email is PENDING with its `next_attempt_at` at that time, so the outbox's claim
 *   (which only takes due rows, with its lease) sends it when due and once, whichever process
 *   claims it; `cancelled_at` and `cancelled_by` say who cancelled one before it went (status
 *   CANCELLED, no next attempt).
 * - on `email_templates`: `default_delay_minutes`, the delay a screen offers first for that
 *   template (null: send at once).
 * - `hr_notify_digests`: one row per recipient and period of the HR notification digest
 *   (HR_NOTIFY_DIGEST=hourly|daily), unique, so one process only writes each digest.
 * No foreign keys on email_posts (as 016: a rebuild on SQLite would delete the delivery attempts).
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  await knex.schema.alterTable('email_posts', (t) => {
    t.specificType('send_after', 'DATETIME(3)').nullable();
    t.specificType('cancelled_at', 'DATETIME(3)').nullable();
    t.integer('cancelled_by').unsigned().nullable();
  });
  await knex.schema.alterTable('email_templates', (t) => {
    t.integer('default_delay_minutes').unsigned().nullable();
  });
  await knex.schema.createTable('hr_notify_digests', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.increments('id');
    t.string('recipient', 254).notNullable();
    t.specificType('period_start', 'DATETIME(3)').notNullable();
    t.integer('applications').unsigned().notNullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.unique(['recipient', 'period_start'], { indexName: 'hr_notify_digests_period_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hr_notify_digests');
  if (isMysql(knex)) {
    await knex.schema.alterTable('email_posts', (t) => t.dropColumns('send_after', 'cancelled_at', 'cancelled_by'));
    await knex.schema.alterTable('email_templates', (t) => t.dropColumns('default_delay_minutes'));
  } else {
    // In place on SQLite: a rebuild of email_posts would delete the attempts cascading from it.
    for (const column of ['send_after', 'cancelled_at', 'cancelled_by']) await knex.raw('ALTER TABLE email_posts DROP COLUMN ??', [column]);
    await knex.raw('ALTER TABLE email_templates DROP COLUMN default_delay_minutes');
  }
}

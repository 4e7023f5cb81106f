/**
 * Outbound delivery (issue 12):
 * - `claim_token` on every outbox: the claim a worker holds on a row with `locked_until`, so only
 *   that worker saves the row's result (another may hold it after the lease ran out).
 * - an index on `next_attempt_at` of every outbox, and on (job_id / form_id, next_attempt_at):
 *   the worker claims due rows job by job in that order (a claimed row's next attempt time is its
 *   lease's end), without a sort and without reading other jobs' waiting rows.
 * - `message_id` on both webhook outboxes: the `webhook-id` a receiver sees, stable across retries
 *   (and across a repeat after a worker died mid-delivery), so it can drop a repeat. Rows written
 *   before this migration get `msg_app_{id}` / `msg_form_{id}`.
 * - `email_posts`: the email outbox (applicant confirmation, HR notification), delivered by the
 *   same engine with the same status columns, kept apart so /hr/posts lists webhook posts only.
 * - `post_attempts`: one row per delivery attempt of any kind. Each points at its post through
 *   the column of its kind, with ON DELETE CASCADE, so attempts go when their post goes; the
 *   retention sweep removes older ones.
 */
import type { Knex } from 'knex';

const dt = (t: Knex.CreateTableBuilder | Knex.AlterTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };
  const concat = (prefix: string) => (mysql ? `CONCAT('${prefix}', id)` : `'${prefix}' || id`);

  for (const [table, prefix, group] of [
    ['application_posts', 'msg_app_', 'job_id'],
    ['form_posts', 'msg_form_', 'form_id'],
  ] as const) {
    await knex.schema.alterTable(table, (t) => {
      t.string('message_id', 64).nullable();
      t.string('claim_token', 32).nullable();
      t.index(['next_attempt_at'], `${table}_next_idx`);
      t.index([group, 'next_attempt_at'], `${table}_group_next_idx`);
    });
    await knex.raw(`UPDATE ${table} SET message_id = ${concat(prefix)}`);
  }

  await knex.schema.createTable('email_posts', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().nullable().references('id').inTable('applications').onDelete('CASCADE');
    t.string('template', 32).notNullable(); // applicant_confirmation, hr_notification
    t.text('payload').notNullable(); // JSON {to, subject, text, html}
    t.string('status', 16).notNullable().defaultTo('PENDING');
    t.integer('status_code').nullable();
    t.text('error_message').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    dt(t, 'next_attempt_at').nullable();
    dt(t, 'locked_until').nullable();
    t.string('claim_token', 32).nullable();
    dt(t, 'delivered_at').nullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    t.index(['next_attempt_at'], 'email_posts_next_idx');
    t.index(['application_id'], 'email_posts_app_idx');
  });

  await knex.schema.createTable('post_attempts', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_post_id').unsigned().nullable().references('id').inTable('application_posts').onDelete('CASCADE');
    t.integer('form_post_id').unsigned().nullable().references('id').inTable('form_posts').onDelete('CASCADE');
    t.integer('email_post_id').unsigned().nullable().references('id').inTable('email_posts').onDelete('CASCADE');
    t.string('status', 16).notNullable(); // SUCCESS, FAILED
    t.integer('status_code').nullable();
    t.string('error', 500).nullable(); // a short error or the start of the response body
    t.integer('duration_ms').notNullable();
    dt(t, 'created_at').notNullable();
    t.index(['application_post_id', 'id'], 'post_attempts_app_post_idx');
    t.index(['form_post_id', 'id'], 'post_attempts_form_post_idx');
    t.index(['email_post_id', 'id'], 'post_attempts_email_post_idx');
    t.index(['created_at'], 'post_attempts_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('post_attempts');
  await knex.schema.dropTableIfExists('email_posts');
  for (const [table, group] of [
    ['application_posts', 'job_id'],
    ['form_posts', 'form_id'],
  ] as const) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex([group, 'next_attempt_at'], `${table}_group_next_idx`);
      t.dropIndex(['next_attempt_at'], `${table}_next_idx`);
      t.dropColumn('message_id');
      t.dropColumn('claim_token');
    });
  }
}

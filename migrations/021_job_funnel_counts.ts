/**
 * The apply funnel (issue 21, "Funnel per wizard step"): how many times each stage of a job's way
 * to an application happened, per UTC day and device class. One row per (job, day, step, event,
 * device); web processes add their buffered counts to it with an atomic upsert (src/funnel/repo.ts),
 * so several processes on one database add up exactly. The unique key also serves the HR read:
 * one job's rows over a range of days.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('job_funnel_counts', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    // 'YYYY-MM-DD' (UTC): sorts and compares as text on both databases, no time zone involved.
    t.string('day', 10).notNullable();
    // view, apply, a wizard step (src/funnel/types.ts) or submitted.
    t.string('step', 24).notNullable();
    t.string('event', 12).notNullable();
    t.string('device', 12).notNullable();
    t.bigInteger('count').unsigned().notNullable().defaultTo(0);
    t.primary(['job_id', 'day', 'step', 'event', 'device'], 'job_funnel_counts_pk');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_funnel_counts');
}

/**
 * Interview kits and scorecards (issue 31, "Interview kits and scorecards"):
 * - `kit_templates`: reusable kits HR keeps (name, instructions, questions, attributes with what a
 *   1 to 4 means; questions and attributes as JSON text).
 * - `interview_kits`: a job's kit for one of its stages (one per stage), started from a template
 *   or written for it; `template_id` says which template it came from (no foreign key: deleting a
 *   template leaves the kits made from it).
 * - `scorecards`: one interviewer's feedback on an application at a stage: an HR user, or an
 *   outside person by email; ratings and notes per attribute (JSON), the overall recommendation,
 *   kept as a draft until submitted. `stage_name` keeps the stage's name if the stage is removed
 *   later (no foreign key on stage_id, as applications.stage_id). `reminded_at`: the one overdue
 *   reminder was queued. `token_hash`: the SHA-256 of an outside interviewer's feedback link.
 * - `scorecard_amendments`: notes added to a scorecard after its 24 hours of editing.
 * - `scorecard_decisions`: the debrief's decision on an application at a stage, and who made it.
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
  await knex.schema.createTable('kit_templates', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('instructions').notNullable();
    t.text('questions').notNullable();
    t.text('attributes').notNullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
  });
  await knex.schema.createTable('interview_kits', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.integer('stage_id').unsigned().notNullable().references('id').inTable('job_stages').onDelete('CASCADE');
    t.integer('template_id').unsigned().nullable();
    t.text('instructions').notNullable();
    t.text('questions').notNullable();
    t.text('attributes').notNullable();
    dt(t, 'updated_at').notNullable();
    t.integer('updated_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.unique(['stage_id'], { indexName: 'interview_kits_stage_uq' });
    t.index(['job_id'], 'interview_kits_job_idx');
  });
  await knex.schema.createTable('scorecards', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('stage_id').unsigned().notNullable();
    t.string('stage_name', 60).notNullable();
    t.integer('interviewer_user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.string('interviewer_email', 191).nullable();
    t.string('interviewer_name', 100).notNullable();
    dt(t, 'interview_at').nullable();
    t.integer('requested_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    dt(t, 'requested_at').notNullable();
    t.text('ratings').notNullable();
    t.string('recommendation', 16).nullable();
    dt(t, 'submitted_at').nullable();
    dt(t, 'updated_at').notNullable();
    dt(t, 'reminded_at').nullable();
    t.string('token_hash', 64).nullable().unique();
    dt(t, 'token_expires_at').nullable();
    t.index(['application_id', 'stage_id'], 'scorecards_application_idx');
    t.index(['submitted_at', 'reminded_at'], 'scorecards_due_idx');
    t.index(['interviewer_user_id'], 'scorecards_interviewer_idx');
  });
  await knex.schema.createTable('scorecard_amendments', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('scorecard_id').unsigned().notNullable().references('id').inTable('scorecards').onDelete('CASCADE');
    t.integer('user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.text('note').notNullable();
    dt(t, 'created_at').notNullable();
    t.index(['scorecard_id'], 'scorecard_amendments_card_idx');
  });
  await knex.schema.createTable('scorecard_decisions', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('stage_id').unsigned().nullable();
    t.string('stage_name', 60).notNullable();
    t.string('decision', 16).notNullable();
    t.string('reason', 100).nullable();
    t.integer('user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    dt(t, 'created_at').notNullable();
    t.index(['application_id', 'created_at'], 'scorecard_decisions_application_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['scorecard_decisions', 'scorecard_amendments', 'scorecards', 'interview_kits', 'kit_templates']) {
    await knex.schema.dropTableIfExists(table);
  }
}

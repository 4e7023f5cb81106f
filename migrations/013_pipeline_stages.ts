/**
 * Pipeline stages and outcomes (issue 20, "Stages and outcomes").
 * 1. `job_stages`: a job's ordered stages (`position` from 0). The first stage is where new
 *    applications arrive; `kind` 'HIRED' marks the stage whose entry archives an application (it
 *    keeps that mark through renames). Seeded here for every job with Applied, Screen, Interview,
 *    Offer, Hired; jobs made later get the same list when their stages are first needed.
 * 2. `rejection_reasons`: the list HR keeps; seeded with Not a fit, Withdrew, Position filled, Other.
 * 3. `applications.stage_id` (the stage the application is in, also kept while it is rejected),
 *    `outcome` ('REJECTED' or null) and `outcome_reason` (the reason's text when rejected, kept as
 *    written even if the list changes later). Every existing application starts in its job's
 *    first stage (Applied) whatever its status: an ARCHIVED one is not moved to Hired or Rejected,
 *    since nothing says which it was.
 *    No foreign key on stage_id: SQLite would rebuild the whole table to add one; the service
 *    checks the stage and locks it instead.
 * 4. Indexes: (job_id, outcome, stage_id, created_at, id) gives a board's counts from the index
 *    alone and each column's newest cards as one range; (stage_id, created_at) serves the list's
 *    stage filter and "is this stage in use".
 * 5. The change counter `applications.stage`, raised with every stage or outcome change and every
 *    stage rename, so cached per-stage totals are never stale.
 */
import type { Knex } from 'knex';

const STAGES = ['Applied', 'Screen', 'Interview', 'Offer', 'Hired'];
const REASONS = ['Not a fit', 'Withdrew', 'Position filled', 'Other'];

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };
  await knex.schema.createTable('job_stages', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('name', 60).notNullable();
    t.integer('position').notNullable();
    t.string('kind', 16).nullable();
    t.index(['job_id', 'position'], 'job_stages_job_idx');
  });
  await knex.schema.createTable('rejection_reasons', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('name', 100).notNullable();
    t.integer('position').notNullable();
  });
  await knex.schema.alterTable('applications', (t) => {
    t.integer('stage_id').unsigned().nullable();
    t.string('outcome', 16).nullable();
    t.string('outcome_reason', 100).nullable();
  });

  await knex('rejection_reasons').insert(REASONS.map((name, position) => ({ name, position })));
  await knex('change_counters').insert({ name: 'applications.stage', value: 0 });
  // One statement per default stage: every job gets it at once, whatever the number of jobs.
  for (const [position, name] of STAGES.entries()) {
    await knex.raw('INSERT INTO job_stages (job_id, name, position, kind) SELECT id, ?, ?, ? FROM jobs ORDER BY id', [
      name,
      position,
      name === 'Hired' ? 'HIRED' : null,
    ]);
  }
  await knex.raw(
    'UPDATE applications SET stage_id = (SELECT s.id FROM job_stages s WHERE s.job_id = applications.job_id AND s.position = 0)',
  );

  await knex.schema.alterTable('applications', (t) => {
    t.index(['job_id', 'outcome', 'stage_id', 'created_at', 'id'], 'applications_board_idx');
    t.index(['stage_id', 'created_at'], 'applications_stage_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('applications', (t) => {
    t.dropIndex([], 'applications_board_idx');
    t.dropIndex([], 'applications_stage_idx');
  });
  // In place on SQLite: Knex would rebuild the table, and inside the migration's transaction the
  // foreign keys stay on, so dropping the old table would delete every answer, skill and file row
  // that cascades from it.
  if (knex.client.config.client === 'mysql2') {
    await knex.schema.alterTable('applications', (t) => t.dropColumns('outcome_reason', 'outcome', 'stage_id'));
  } else {
    for (const column of ['outcome_reason', 'outcome', 'stage_id']) await knex.raw('ALTER TABLE applications DROP COLUMN ??', [column]);
  }
  await knex('change_counters').where({ name: 'applications.stage' }).delete();
  await knex.schema.dropTableIfExists('rejection_reasons');
  await knex.schema.dropTableIfExists('job_stages');
}

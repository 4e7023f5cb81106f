/**
 * Issue 31 ("Hiring team per job"): `job_team_members`, who is on a job's hiring team and as what
 * (`recruiter`, `hiring_manager`, `coordinator`, `interviewer`, checked in code). One role per
 * user per job (the primary key); a job's or a user's removal takes their rows with it. The index
 * on user_id answers "which jobs is this user on", asked on every scoped HR request.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('job_team_members', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.primary(['job_id', 'user_id']);
    t.index(['user_id'], 'job_team_members_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_team_members');
}

/**
 * The team without SSH (issue 20):
 * 1. `hr_users.role`: 'admin' (everything) or 'recruiter' (everything but users and settings),
 *    checked in code. Every user made before roles existed could do everything, so every existing
 *    row becomes an admin; the column's default stays 'admin' (what `careers-admin user create`
 *    makes), while the Users page and its API name the role of each user they create.
 * 2. `hr_user_links`: one-time sign-in links (a new user's first password, or a reset). Only the
 *    SHA-256 of the token is stored, with its expiry; `used_at` is set once, so a used link can say
 *    so rather than look unknown.
 */
import type { Knex } from 'knex';

const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.alterTable('hr_users', (t) => {
    t.string('role', 16).notNullable().defaultTo('admin');
  });
  await knex('hr_users').update({ role: 'admin' });
  await knex.schema.createTable('hr_user_links', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('purpose', 16).notNullable();
    t.integer('created_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    dt(t, 'created_at').notNullable();
    dt(t, 'expires_at').notNullable();
    dt(t, 'used_at').nullable();
    t.index(['user_id'], 'hr_user_links_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hr_user_links');
  // In place on SQLite: Knex would rebuild the table, and inside the migration's transaction the
  // foreign keys stay on, so dropping the old table would delete every session of every user.
  if (knex.client.config.client === 'mysql2') await knex.schema.alterTable('hr_users', (t) => t.dropColumn('role'));
  else await knex.raw('ALTER TABLE hr_users DROP COLUMN role');
}

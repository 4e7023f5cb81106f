/**
 * HR users get an email address (issue 30, company sign-in): `hr_users.email`, nullable, unique.
 * Stored trimmed with ASCII letters lower-cased (the repo writes it so), and compared byte for
 * byte on both databases (utf8mb4_bin on MySQL, as applications' emails since migration 008), so
 * company sign-in matches a verified address to exactly one user. Several users may have none.
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  if (isMysql(knex)) {
    await knex.raw('ALTER TABLE `hr_users` ADD COLUMN `email` VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL');
  } else {
    await knex.raw('ALTER TABLE hr_users ADD COLUMN email VARCHAR(191) NULL');
  }
  await knex.schema.alterTable('hr_users', (t) => t.unique(['email'], { indexName: 'hr_users_email_unique' }));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hr_users', (t) => t.dropUnique(['email'], 'hr_users_email_unique'));
  // In place on SQLite (see migration 012): Knex's rebuild would cascade-delete every session.
  if (isMysql(knex)) await knex.schema.alterTable('hr_users', (t) => t.dropColumn('email'));
  else await knex.raw('ALTER TABLE hr_users DROP COLUMN email');
}

/**
 * Email equality is exact on both databases (DESIGN.md section 3): `applications.email` becomes
 * binary-collated on MySQL (utf8mb4_bin), so neither an erase nor the one-application-per-email
 * rule can match `straße@...` or a full-width address to a different person's ASCII one, as
 * utf8mb4_unicode_ci folding did. SQLite already compares bytes: nothing to do there.
 *
 * `down` restores utf8mb4_unicode_ci; it fails (changing nothing) when two applications to one job
 * differ only in what that collation folds, rather than dropping one.
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

async function setEmailCollation(knex: Knex, collation: 'utf8mb4_bin' | 'utf8mb4_unicode_ci'): Promise<void> {
  // MODIFY keeps the unique (job_id, email) and the email indexes.
  if (isMysql(knex))
    await knex.raw(`ALTER TABLE \`applications\` MODIFY \`email\` VARCHAR(254) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`);
}

export async function up(knex: Knex): Promise<void> {
  await setEmailCollation(knex, 'utf8mb4_bin');
}

export async function down(knex: Knex): Promise<void> {
  await setEmailCollation(knex, 'utf8mb4_unicode_ci');
}

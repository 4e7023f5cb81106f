/**
 * email_posts.payload as MEDIUMTEXT (16 MB) on MySQL (issue 28). It holds one email as JSON: the
 * subject, the text and its HTML part. An email may be 20,000 characters once its variables are
 * filled in (FILLED_LIMITS in src/emails/schema.ts): up to 4 bytes each in utf8mb4, twice (text
 * and HTML), more where the HTML escapes a character, so TEXT's 65,535 bytes gave a 500 for a
 * long message in a non-Latin script. SQLite's TEXT has no size limit: nothing to do there.
 *
 * `down` restores TEXT; it fails (and changes nothing) while a payload no longer fits, rather
 * than cutting an email that waits to be sent.
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  if (isMysql(knex)) await knex.raw('ALTER TABLE `email_posts` MODIFY `payload` MEDIUMTEXT NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  if (isMysql(knex)) await knex.raw('ALTER TABLE `email_posts` MODIFY `payload` TEXT NOT NULL');
}

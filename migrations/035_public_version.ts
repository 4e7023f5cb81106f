/**
 * Issue 33 ("validate instead of re-render"): `public_versions`, one counter per part of the site
 * its public pages are made from. The row `pages` is raised by every write that can change a
 * public page (jobs created, saved, seeded or removed), in that write's transaction; with
 * PUBLIC_CACHE_SECONDS=0 a process keeps each page it rendered with the counter it read first and
 * answers it again, after one primary-key read, while the counter has not moved
 * (src/db/public-version.ts).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('public_versions', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('name', 32).primary();
    t.bigInteger('version').unsigned().notNullable().defaultTo(0);
  });
  await knex('public_versions').insert({ name: 'pages', version: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('public_versions');
}

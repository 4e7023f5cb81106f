/**
 * The server key's table (DESIGN.md section 3, src/db/server-key.ts): one row per key, made on
 * first start. Rate-limit rows are keyed by a keyed hash of the client address from now on, so the
 * rows written before, which held raw addresses, go (they are counters of a few minutes).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('server_keys', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('name', 64).primary();
    t.string('value', 128).notNullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
  });
  await knex('rate_limit_hits').delete();
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('server_keys');
}

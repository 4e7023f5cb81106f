/**
 * Issue 35 ("A site HR can brand"): `site_settings`, one row (id 1) of what admins set on
 * /hr/settings/site: the company name, the hero's title and text, the "About us" block (sanitised
 * rich text), the empty-site message, the accent colour, the footer links (a JSON array of
 * {label, url}) and the logo. A null column means "not set": the environment's setting (or the
 * built-in default) applies. The logo is kept here, not in file storage, so every process serves it
 * from the database: `logo` as served (sanitised SVG, re-encoded PNG or WebP) with its Content-Type,
 * `logo_png` a PNG of it for emails, feeds and search engines, `logo_hash` the hash of `logo` (its
 * public URL), and its size in CSS pixels.
 * Rolling back drops the table (every setting and the logo).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('site_settings', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.integer('id').unsigned().notNullable().primary();
    t.string('company_name', 191).nullable();
    t.string('hero_title', 191).nullable();
    t.text('hero_text').nullable();
    t.text('about_html').nullable();
    t.text('empty_message').nullable();
    t.string('accent_color', 7).nullable();
    t.text('footer_links').nullable();
    // Up to a few hundred KB: MEDIUMBLOB on MySQL (a BLOB stops at 64 KB).
    if (mysql) {
      t.specificType('logo', 'MEDIUMBLOB').nullable();
      t.specificType('logo_png', 'MEDIUMBLOB').nullable();
    } else {
      t.binary('logo').nullable();
      t.binary('logo_png').nullable();
    }
    t.string('logo_type', 40).nullable();
    t.string('logo_hash', 64).nullable();
    t.integer('logo_width').unsigned().nullable();
    t.integer('logo_height').unsigned().nullable();
    t.integer('updated_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.specificType('updated_at', 'DATETIME(3)').nullable();
  });
  await knex('site_settings').insert({ id: 1 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_settings');
}

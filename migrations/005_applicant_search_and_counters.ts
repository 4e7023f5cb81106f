/**
 * The applicants list (issue 11):
 * 1. `application_search_words`: each application's normalised name and email words and phone
 *    digit tails (src/shared/search-words.ts), indexed (word, application_id), so a search is a few
 *    index ranges instead of a `LIKE '%q%'` scan; with the application's `created_at` (indexed
 *    (word, created_at, application_id)), so a common word's matches are read in list order. On MySQL the word compares byte for byte
 *    (utf8mb4_bin), as SQLite compares text, so a prefix range means the same on both.
 *    Existing applications are indexed here (backfill): read in id order, 2,000 at a time, and
 *    written with multi-row INSERTs, so 200,000 applications take seconds, not minutes.
 * 2. On SQLite, indexes on the two columns that point at `stored_files`, so deleting file rows
 *    does not read whole tables.
 * 3. `change_counters`: counters raised in the same transaction as a status change
 *    (`applications.status`) or a deletion of applications (`applications.removed`). The dashboard
 *    and insights caches put them in their stamps, so they stay exact in every process whatever
 *    changes, deletes included.
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../src/db/codecs.js';
import { applicationSearchWords } from '../src/shared/search-words.js';

const BATCH = 2000;
/** Rows per INSERT: 3 bound values each, under SQLite's 32,766 and MySQL's 65,535. */
const ROWS_PER_INSERT = 5000;

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('application_search_words', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('word', 64).notNullable();
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    // The application's, which never changes: a word's entries can be read in list order.
    t.specificType('created_at', 'DATETIME(3)').notNullable();
  });

  await knex.schema.createTable('change_counters', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('name', 64).primary();
    t.bigInteger('value').notNullable().defaultTo(0);
  });
  // Deleting a stored_files row (a purge or an erase) makes the database look for rows that point
  // at it. InnoDB indexes every foreign key column by itself; SQLite does not, and would read every
  // application (and every form entry file) once per deleted file.
  if (!mysql) {
    await knex.schema.alterTable('applications', (t) => t.index(['resume_file_id'], 'applications_resume_file_idx'));
    await knex.schema.alterTable('form_entry_files', (t) => t.index(['file_id'], 'form_entry_files_file_idx'));
  }

  await knex('change_counters').insert([
    { name: 'applications.status', value: 0 },
    { name: 'applications.removed', value: 0 },
  ]);

  let after = 0;
  for (;;) {
    const apps: { id: number; first_name: string; last_name: string; email: string; phone: string; created_at: unknown }[] = await knex(
      'applications',
    )
      .select('id', 'first_name', 'last_name', 'email', 'phone', 'created_at')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH);
    if (!apps.length) break;
    after = Number(apps[apps.length - 1].id);
    const rows = apps.flatMap((a) => {
      const at = toDbDate(fromDbDate(a.created_at)!);
      return applicationSearchWords(a).map((word) => [word, Number(a.id), at] as const);
    });
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      await knex.raw(
        `INSERT INTO application_search_words (word, application_id, created_at) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
  }
  // The indexes are built once the words are in: one sort each instead of millions of inserts
  // at random places (the backfill of 200,000 applications took twice as long with them).
  await knex.schema.alterTable('application_search_words', (t) => {
    // Search: a range of words, and one word's applications in list order (created_at, id).
    // Deletes by application, and the check of a search's other words.
    t.unique(['word', 'created_at', 'application_id'], { indexName: 'application_search_words_word_uq' });
    t.index(['application_id', 'word'], 'application_search_words_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') {
    await knex.schema.alterTable('form_entry_files', (t) => t.dropIndex(['file_id'], 'form_entry_files_file_idx'));
    await knex.schema.alterTable('applications', (t) => t.dropIndex(['resume_file_id'], 'applications_resume_file_idx'));
  }
  await knex.schema.dropTableIfExists('change_counters');
  await knex.schema.dropTableIfExists('application_search_words');
}

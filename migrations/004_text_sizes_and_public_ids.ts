/**
 * Column sizes and comparisons that must agree with what the server accepts, on both databases.
 *
 * 1. MEDIUMTEXT (16 MB) on MySQL where a value may pass TEXT's 65,535 bytes. The job schema allows
 *    100,000 characters of rich text per field (up to 4 bytes each in utf8mb4, more once the
 *    sanitiser escapes `&`/`<`), so a long question text or help text gave a 500
 *    (ER_TRUNCATED_WRONG_VALUE_FOR_FIELD / ER_DATA_TOO_LONG):
 *    - job_questions.text, job_questions.help_text;
 *    - application_answers.question_text (the question's snapshot) and answer (same size class);
 *    - forms.description, success_message, inactive_notice and form_fields.help_text: the form
 *      editor's rich text gets the same 100,000-character limit as jobs;
 *    - form_posts.payload: the body sent for a form entry, as large as form_entries.data (already
 *      MEDIUMTEXT).
 *    Checked and left as TEXT: job_questions.options (at most 50 options of 191 characters: under
 *    58 KB even with every character JSON-escaped), application_experiences.description (at most
 *    5,000 characters, 15 KB), application_posts.payload (a handful of short fields),
 *    audit_log.details (field names), forms.api_mapping and form_fields.options/allowed_extensions
 *    (short lists).
 *    SQLite's TEXT has no size limit: nothing to do there.
 * 2. jobs.public_id and forms.public_id compare case-sensitively on MySQL (utf8mb4_bin), as they
 *    do on SQLite: 'Dev-1' and 'dev-1' are two ids, and /careers/DEV-1 is not /careers/dev-1.
 * 3. applications(first_name) is indexed: the applicants search matches first name, last name,
 *    email and phone, and only (last_name, first_name), email and phone had an index.
 *
 * `down` restores TEXT and the table's case-insensitive collation. It fails (and changes nothing
 * on that table) when a value no longer fits TEXT or two public ids differ only in case, rather
 * than cutting data or dropping a job.
 */
import type { Knex } from 'knex';

/** [table, column, nullable] made MEDIUMTEXT on MySQL. */
const MEDIUM_TEXT_COLUMNS: Record<string, [string, boolean][]> = {
  job_questions: [
    ['text', false],
    ['help_text', true],
  ],
  application_answers: [
    ['question_text', false],
    ['answer', false],
  ],
  forms: [
    ['description', true],
    ['success_message', true],
    ['inactive_notice', true],
  ],
  form_fields: [['help_text', true]],
  form_posts: [['payload', false]],
};

const PUBLIC_ID_TABLES = ['jobs', 'forms'];
const FIRST_NAME_INDEX = 'applications_first_name_idx';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

async function setTextType(knex: Knex, type: 'MEDIUMTEXT' | 'TEXT'): Promise<void> {
  for (const [table, columns] of Object.entries(MEDIUM_TEXT_COLUMNS)) {
    // One ALTER per table, so each table is rebuilt once.
    const modify = columns.map(([column, nullable]) => `MODIFY \`${column}\` ${type} ${nullable ? 'NULL' : 'NOT NULL'}`).join(', ');
    await knex.raw(`ALTER TABLE \`${table}\` ${modify}`);
  }
}

async function setPublicIdCollation(knex: Knex, collation: 'utf8mb4_bin' | 'utf8mb4_unicode_ci'): Promise<void> {
  for (const table of PUBLIC_ID_TABLES) {
    // MODIFY keeps the unique index; the column stays VARCHAR(64) NOT NULL.
    await knex.raw(`ALTER TABLE \`${table}\` MODIFY \`public_id\` VARCHAR(64) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`);
  }
}

export async function up(knex: Knex): Promise<void> {
  if (isMysql(knex)) {
    await setTextType(knex, 'MEDIUMTEXT');
    await setPublicIdCollation(knex, 'utf8mb4_bin');
  }
  await knex.schema.alterTable('applications', (t) => {
    t.index(['first_name'], FIRST_NAME_INDEX);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('applications', (t) => {
    t.dropIndex(['first_name'], FIRST_NAME_INDEX);
  });
  if (isMysql(knex)) {
    await setPublicIdCollation(knex, 'utf8mb4_unicode_ci');
    await setTextType(knex, 'TEXT');
  }
}

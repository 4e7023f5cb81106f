/**
 * Issue 35 ("One person across jobs"): a candidate is a person who owns applications.
 * - `people`: one row per email address applied with (exact, binary-collated on MySQL as
 *   applications.email is, so it matches what erase matches). A person merged into another keeps
 *   its row as an alias: `merged_into_id` names the person whose applications are now its own, so
 *   a later application with that address joins them.
 * - `applications.person_id`: the person the application belongs to (null for rows written around
 *   the apply service, such as test and bench seeding).
 * - `person_suggestions`: possible duplicates HR reviews (never merged automatically): a newer
 *   person and an older one sharing a phone number (`PHONE`) or the same name with the same resume
 *   file hash (`NAME_RESUME`); `dismissed_at` set when HR said they are not the same person, so the
 *   pair is not suggested again.
 * - `person_merges`: each merge, what it moved (application and alias person ids, JSON), who and
 *   when, and its undo (`undone_at`), allowed for 7 days.
 * Existing applications get their people here, and the suggestions among them.
 * Rolling back drops the three tables and the column.
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };
  const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');
  const user = (t: Knex.CreateTableBuilder, name: string) =>
    t.integer(name).unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
  const person = (t: Knex.CreateTableBuilder, name: string) =>
    t.integer(name).unsigned().notNullable().references('id').inTable('people').onDelete('CASCADE');

  await knex.schema.createTable('people', (t) => {
    tableOpts(t);
    t.increments('id');
    if (mysql) t.specificType('email', 'VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
    else t.string('email', 254).notNullable();
    t.integer('merged_into_id').unsigned().nullable().references('id').inTable('people').onDelete('SET NULL');
    dt(t, 'created_at').notNullable();
    t.unique(['email'], { indexName: 'people_email_uq' });
    t.index(['merged_into_id'], 'people_merged_into_idx');
  });
  // No foreign key (as applications.stage_id): SQLite could add it but never drop the column again;
  // a person is removed only once no application names it (src/people/repo.ts).
  await knex.schema.alterTable('applications', (t) => {
    t.integer('person_id').unsigned().nullable();
    t.index(['person_id', 'created_at'], 'applications_person_idx');
  });
  await knex.schema.createTable('person_suggestions', (t) => {
    tableOpts(t);
    person(t, 'person_id');
    person(t, 'other_person_id');
    t.string('reason', 16).notNullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'dismissed_at').nullable();
    user(t, 'dismissed_by');
    t.primary(['person_id', 'other_person_id']);
    t.index(['other_person_id'], 'person_suggestions_other_idx');
    t.index(['dismissed_at', 'created_at'], 'person_suggestions_open_idx');
  });
  await knex.schema.createTable('person_merges', (t) => {
    tableOpts(t);
    t.increments('id');
    person(t, 'from_person_id');
    person(t, 'into_person_id');
    t.text('moved').notNullable();
    user(t, 'merged_by');
    dt(t, 'created_at').notNullable();
    dt(t, 'undone_at').nullable();
    user(t, 'undone_by');
    t.index(['from_person_id'], 'person_merges_from_idx');
    t.index(['into_person_id'], 'person_merges_into_idx');
  });

  // Existing applications: one person per address, from its first application.
  await knex.raw('INSERT INTO people (email, created_at) SELECT email, MIN(created_at) FROM applications GROUP BY email');
  if (mysql) await knex.raw('UPDATE applications a JOIN people p ON p.email = a.email SET a.person_id = p.id');
  else await knex.raw('UPDATE applications SET person_id = (SELECT p.id FROM people p WHERE p.email = applications.email)');
  // And the possible duplicates among them (the newer person first).
  const now = mysql ? 'NOW(3)' : "strftime('%Y-%m-%d %H:%M:%f', 'now')";
  const ignore = mysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  await knex.raw(
    `${ignore} INTO person_suggestions (person_id, other_person_id, reason, created_at)
     SELECT DISTINCT a.person_id, b.person_id, 'PHONE', ${now} FROM applications a
     JOIN applications b ON b.phone = a.phone AND b.person_id < a.person_id
     WHERE a.phone <> ''`,
  );
  // From the resume hashes two or more applications share (few), not from every pair of
  // applications with a common name: on 200,000 applications with the usual names the pairs by
  // name alone run into the tens of millions (minutes on MariaDB, as stored_files.sha256 has no index).
  const sharedResumes = `(SELECT f.id, f.sha256 FROM stored_files f WHERE f.sha256 IN (
       SELECT sf.sha256 FROM applications x JOIN stored_files sf ON sf.id = x.resume_file_id GROUP BY sf.sha256 HAVING COUNT(*) > 1))`;
  await knex.raw(
    `${ignore} INTO person_suggestions (person_id, other_person_id, reason, created_at)
     SELECT DISTINCT a.person_id, b.person_id, 'NAME_RESUME', ${now}
     FROM ${sharedResumes} fa
     JOIN ${sharedResumes} fb ON fb.sha256 = fa.sha256
     JOIN applications a ON a.resume_file_id = fa.id
     JOIN applications b ON b.resume_file_id = fb.id AND b.last_name = a.last_name AND b.first_name = a.first_name AND b.person_id < a.person_id`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('person_merges');
  await knex.schema.dropTable('person_suggestions');
  if (isMysql(knex)) {
    await knex.schema.alterTable('applications', (t) => {
      t.dropIndex(['person_id', 'created_at'], 'applications_person_idx');
      t.dropColumn('person_id');
    });
  } else {
    // Raw drops: Knex would rebuild the table, and with foreign keys on the rebuild cascades.
    await knex.raw('DROP INDEX applications_person_idx');
    await knex.raw('ALTER TABLE applications DROP COLUMN person_id');
  }
  await knex.schema.dropTable('people');
}

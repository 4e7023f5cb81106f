/**
 * Migration 004 on SQLite and MySQL: MEDIUMTEXT where values can pass 64 KB (MySQL only; SQLite
 * TEXT has no limit), case-sensitive public ids, the applications(first_name) index, and a `down`
 * that puts everything back.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { toDbDate } from '../../src/db/codecs.js';
import { migrationStatus } from '../../src/db/migrations.js';

const MEDIUM: [string, string, 'YES' | 'NO'][] = [
  ['job_questions', 'text', 'NO'],
  ['job_questions', 'help_text', 'YES'],
  ['application_answers', 'question_text', 'NO'],
  ['application_answers', 'answer', 'NO'],
  ['forms', 'description', 'YES'],
  ['forms', 'success_message', 'YES'],
  ['forms', 'inactive_notice', 'YES'],
  ['form_fields', 'help_text', 'YES'],
  ['form_posts', 'payload', 'NO'],
];

async function columnInfo(db: Knex, table: string, column: string): Promise<{ type: string; nullable: string; collation: string | null }> {
  const [rows] = await db.raw(
    'SELECT column_type AS t, is_nullable AS n, collation_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?',
    [table, column],
  );
  return { type: String(rows[0].t).toLowerCase(), nullable: rows[0].n, collation: rows[0].c };
}

async function indexNames(db: Knex, kind: string, table: string): Promise<string[]> {
  if (kind === 'mysql') {
    const [rows] = await db.raw(
      'SELECT DISTINCT index_name AS n FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ?',
      [table],
    );
    return rows.map((r: any) => r.n);
  }
  const rows = await db.raw(`PRAGMA index_list('${table}')`);
  return rows.map((r: any) => r.name);
}

for (const kind of databaseKinds()) {
  describe(`migration 004: text sizes, public ids, first-name index [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('is registered and applied', async () => {
      const [, pending] = await t.db.migrate.list();
      expect(pending).to.deep.equal([]);
      const done = (await t.db('knex_migrations').select('name')).map((r: any) => r.name);
      expect(done).to.include('004_text_sizes_and_public_ids');
    });

    it('indexes applications(first_name)', async () => {
      expect(await indexNames(t.db, kind, 'applications')).to.include('applications_first_name_idx');
    });

    if (kind === 'mysql') {
      it('makes the long text columns MEDIUMTEXT with their nullability, and public ids utf8mb4_bin', async () => {
        for (const [table, column, nullable] of MEDIUM) {
          expect(await columnInfo(t.db, table, column), `${table}.${column}`).to.include({ type: 'mediumtext', nullable });
        }
        for (const table of ['jobs', 'forms']) {
          expect(await columnInfo(t.db, table, 'public_id'), table).to.deep.equal({
            type: 'varchar(64)',
            nullable: 'NO',
            collation: 'utf8mb4_bin',
          });
          expect(await indexNames(t.db, kind, table), table).to.include(`${table}_public_id_unique`);
        }
      });
    }

    it('stores 100,000-character form texts and a large form post payload, and public ids that differ only in case', async () => {
      const now = toDbDate(new Date());
      const big = '😀'.repeat(25_000) + 'x'.repeat(50_000);
      const [formId] = await t.db('forms').insert({
        public_id: 'Form-1',
        title: 'Form',
        description: big,
        success_message: big,
        inactive_notice: big,
        api_mapping: '{}',
        created_at: now,
        updated_at: now,
      });
      await t.db('forms').insert({ public_id: 'form-1', title: 'Other form', api_mapping: '{}', created_at: now, updated_at: now });
      const [sectionId] = await t.db('form_sections').insert({ form_id: formId, title: 'S' });
      await t.db('form_fields').insert({
        section_id: sectionId,
        form_id: formId,
        name: 'f',
        label: 'F',
        field_type: 'long_text',
        help_text: big,
        options: '[]',
        allowed_extensions: '[]',
      });
      const data = JSON.stringify({ f: big });
      const [entryId] = await t.db('form_entries').insert({ form_id: formId, data, created_at: now });
      await t.db('form_posts').insert({
        form_id: formId,
        entry_id: entryId,
        target_url: 'https://hooks.example.com/',
        payload: data,
        created_at: now,
        updated_at: now,
      });
      const form = await t.db('forms').where({ public_id: 'Form-1' }).first();
      expect([form.description, form.success_message, form.inactive_notice]).to.deep.equal([big, big, big]);
      expect((await t.db('forms').where({ public_id: 'form-1' }).first()).title).to.equal('Other form');
      expect(await t.db('forms').where({ public_id: 'FORM-1' }).first()).to.equal(undefined);
      expect((await t.db('form_fields').where({ section_id: sectionId }).first()).help_text).to.equal(big);
      expect((await t.db('form_posts').where({ entry_id: entryId }).first()).payload).to.equal(data);
    });

    it('rolls back and applies again', async () => {
      await t.db('form_posts').delete();
      await t.db('form_entries').delete();
      await t.db('form_fields').delete();
      await t.db('form_sections').delete();
      await t.db('forms').delete();
      // Later migrations go first, then 004.
      while ((await migrationStatus(t.db)).applied.includes('004_text_sizes_and_public_ids')) await t.db.migrate.down();
      expect(await indexNames(t.db, kind, 'applications')).not.to.include('applications_first_name_idx');
      if (kind === 'mysql') {
        for (const [table, column, nullable] of MEDIUM)
          expect(await columnInfo(t.db, table, column), `${table}.${column}`).to.include({ type: 'text', nullable });
        expect((await columnInfo(t.db, 'jobs', 'public_id')).collation).to.equal('utf8mb4_unicode_ci');
      }
      await t.db.migrate.latest();
      expect(await indexNames(t.db, kind, 'applications')).to.include('applications_first_name_idx');
      if (kind === 'mysql') expect((await columnInfo(t.db, 'jobs', 'public_id')).collation).to.equal('utf8mb4_bin');
    });
  });
}

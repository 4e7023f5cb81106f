/**
 * Migration 005 on SQLite and MySQL: existing applications get their search words (backfill),
 * the change counters start at 0, and `down` removes both tables.
 */
import { expect } from 'chai';
import { migrationStatus } from '../../src/db/migrations.js';
import { applicationSearchWords } from '../../src/shared/search-words.js';
import { toDbDate } from '../../src/db/codecs.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`migration 005: applicant search words and change counters [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('indexes the applications that exist when it runs, and rolls back', async () => {
      const job = await makeJob(t.db, { title: 'Before' });
      // Back to before 005, the later ones first.
      while ((await migrationStatus(t.db)).applied.includes('005_applicant_search_and_counters')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('application_search_words')).to.equal(false);
      expect(await t.db.schema.hasTable('change_counters')).to.equal(false);
      const at = toDbDate(new Date());
      const people = Array.from({ length: 2500 }, (_, i) => ({
        job_id: job.id,
        first_name: i % 2 ? 'Zoë' : 'Łukasz',
        last_name: `Nowak-${i}`,
        email: `p${i}@example.com`,
        phone: `+9198765${String(i).padStart(5, '0')}`,
        status: 'NEW',
        created_at: at,
        updated_at: at,
      }));
      for (let i = 0; i < people.length; i += 500) await t.db('applications').insert(people.slice(i, i + 500));
      await t.db.migrate.latest();
      const rows: { word: string; application_id: number }[] = await t.db('application_search_words').select('word', 'application_id');
      const apps: any[] = await t.db('applications').select('id', 'first_name', 'last_name', 'email', 'phone');
      const expected = apps.flatMap((a) => applicationSearchWords(a).map((w) => `${a.id} ${w}`)).sort();
      expect(rows.map((r) => `${r.application_id} ${r.word}`).sort()).to.deep.equal(expected);
      expect(rows.filter((r) => r.word === 'lukasz')).to.have.length(1250);
      // 005's counters (later migrations add their own, such as 013's applications.stage).
      expect(
        await t
          .db('change_counters')
          .whereIn('name', ['applications.removed', 'applications.status'])
          .orderBy('name')
          .select('name', 'value'),
      ).to.deep.equal([
        { name: 'applications.removed', value: 0 },
        { name: 'applications.status', value: 0 },
      ]);
    });
  });
}

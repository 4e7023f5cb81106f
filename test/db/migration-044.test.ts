/**
 * Migration 044 (issue 35) on a site that already has applications: every application gets the
 * person of its exact email, and the pairs HR should review are suggested from what is there (a
 * shared phone number; the same name with the same resume file hash), never more. Down drops the
 * people tables and the column and keeps the applications.
 */
import { expect } from 'chai';
import { migrationStatus } from '../../src/db/migrations.js';
import { insertApplications } from '../helpers/applications.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`migration 044: people from existing applications [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('links each application to the person of its email and suggests only the phone and name-and-resume pairs', async () => {
      while ((await migrationStatus(t.db)).applied.includes('044_people')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('people')).to.equal(false);

      const [first, second] = [await makeJob(t.db, { public_id: 'first' }), await makeJob(t.db, { public_id: 'second' })];
      const person = (email: string, first_name: string, last_name: string, phone: string) => ({ email, first_name, last_name, phone });
      await insertApplications(
        t.db,
        first.id,
        [
          person('ann@example.com', 'Ann', 'Lee', '+15550100001'),
          person('bob@example.com', 'Bob', 'Ray', '+15550100001'), // Ann's phone
          person('carol@example.com', 'Carol', 'King', '+15550100003'),
          person('dan@example.com', 'Dan', 'Ode', '+15550100004'),
          person('eve@example.com', 'Carol', 'King', '+15550100005'), // Carol's name, another resume
        ],
        first.questions,
      );
      await insertApplications(
        t.db,
        second.id,
        [
          person('ann@example.com', 'Ann', 'Lee', '+15550100001'), // Ann again: the same person
          person('carol.k@example.org', 'Carol', 'King', '+15550100006'), // Carol's name and resume
        ],
        second.questions,
      );
      const apps = await t.db('applications').orderBy('id').select('id', 'email', 'resume_file_id');
      const fileOf = (email: string, job = 0) => apps.filter((a) => a.email === email)[job].resume_file_id;
      // Carol's two applications and Dan's carry the same file content; Eve's another.
      for (const email of ['carol@example.com', 'carol.k@example.org', 'dan@example.com'])
        await t
          .db('stored_files')
          .where({ id: fileOf(email) })
          .update({ sha256: 'c'.repeat(64) });

      await t.db.migrate.latest();

      const people = await t.db('people').select('id', 'email');
      expect(people.map((p) => p.email).sort()).to.deep.equal(
        ['ann@example.com', 'bob@example.com', 'carol.k@example.org', 'carol@example.com', 'dan@example.com', 'eve@example.com'].sort(),
      );
      const idOf = (email: string) => Number(people.find((p) => p.email === email)!.id);
      const linked = await t.db('applications').orderBy('id').select('email', 'person_id');
      for (const a of linked) expect(Number(a.person_id), a.email).to.equal(idOf(a.email));

      const pair = (a: string, b: string) => [Math.max(idOf(a), idOf(b)), Math.min(idOf(a), idOf(b))];
      const suggestions = await t.db('person_suggestions').select('person_id', 'other_person_id', 'reason', 'dismissed_at');
      expect(suggestions.map((s) => [s.reason, Number(s.person_id), Number(s.other_person_id), s.dismissed_at]).sort()).to.deep.equal(
        [
          ['NAME_RESUME', ...pair('carol@example.com', 'carol.k@example.org'), null],
          ['PHONE', ...pair('ann@example.com', 'bob@example.com'), null],
        ].sort(),
      );

      while ((await migrationStatus(t.db)).applied.includes('044_people')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('people')).to.equal(false);
      expect(await t.db.schema.hasColumn('applications', 'person_id')).to.equal(false);
      expect(await t.db('applications').count({ n: '*' }).first()).to.satisfy((r: { n: number | string }) => Number(r.n) === 7);
      await t.db.migrate.latest();
    });
  });
}

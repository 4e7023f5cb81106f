/** Migration 020 (source attribution): up on a database with applications keeps them, down and up again leave the schema whole. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications, realisticApplications } from '../helpers/applications.js';

for (const kind of databaseKinds()) {
  describe(`migration 020: source attribution [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('goes down and up again without losing applications or their answers', async () => {
      const job = await makeJob(t.db, { title: 'Kept' });
      await insertApplications(t.db, job.id, realisticApplications(5, [], { seed: 1, emailTag: 'm20' }), []);
      await t.db.migrate.down({ name: '020_source_attribution' } as never);
      expect(await t.db.schema.hasColumn('applications', 'source')).to.equal(false);
      expect(await t.db.schema.hasTable('tracking_links')).to.equal(false);
      expect(await t.db.schema.hasColumn('jobs', 'webhook_include_source')).to.equal(false);
      expect(Number((await t.db('applications').count({ n: '*' }))[0].n)).to.equal(5);
      await t.db.migrate.latest();
      expect(await t.db.schema.hasColumn('applications', 'tracking_link_id')).to.equal(true);
      expect(Number((await t.db('applications').count({ n: '*' }))[0].n)).to.equal(5);
      expect(Number((await t.db('application_skills').count({ n: '*' }))[0].n)).to.be.greaterThan(0);
    });
  });
}

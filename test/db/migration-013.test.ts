/**
 * Migration 013 (pipeline stages): every existing job gets Applied, Screen, Interview, Offer,
 * Hired; every existing application, whatever its status, starts in its job's Applied; the
 * default rejection reasons and the `applications.stage` counter are there; it rolls back and
 * applies again.
 */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';

for (const kind of databaseKinds()) {
  describe(`migration 013: pipeline stages [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('gives existing jobs the default stages and puts existing applications in Applied', async () => {
      const jobs = [await makeJob(t.db), await makeJob(t.db)];
      for (const [i, job] of jobs.entries()) {
        await insertApplications(
          t.db,
          job.id,
          (['NEW', 'REVIEWED', 'ARCHIVED'] as const).map((status, n) => ({
            first_name: 'Old',
            last_name: `App${n}`,
            email: `old${i}-${n}@example.com`,
            phone: '+919999999999',
            status,
          })),
          [],
        );
      }
      while ((await migrationStatus(t.db)).applied.includes('013_pipeline_stages')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('job_stages')).to.equal(false);
      expect(await t.db.schema.hasColumn('applications', 'stage_id')).to.equal(false);
      await t.db.migrate.latest();
      for (const job of jobs) {
        const stages = await t.db('job_stages').where({ job_id: job.id }).orderBy('position').select('id', 'name', 'kind');
        expect(stages.map((s: any) => [s.name, s.kind])).to.deep.equal([
          ['Applied', null],
          ['Screen', null],
          ['Interview', null],
          ['Offer', null],
          ['Hired', 'HIRED'],
        ]);
        const apps = await t.db('applications').where({ job_id: job.id }).select('stage_id', 'outcome', 'status');
        expect(apps).to.have.length(3);
        for (const a of apps) expect([Number(a.stage_id), a.outcome]).to.deep.equal([Number(stages[0].id), null]);
      }
      expect((await t.db('rejection_reasons').orderBy('position').select('name')).map((r: any) => r.name)).to.deep.equal([
        'Not a fit',
        'Withdrew',
        'Position filled',
        'Other',
      ]);
      expect(await t.db('change_counters').where({ name: 'applications.stage' }).first('value')).to.not.equal(undefined);
    });
  });
}

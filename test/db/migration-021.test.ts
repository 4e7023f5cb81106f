/** Migration 021: the apply funnel's counts table, its key (one row per job, day, step, event, device), and its rollback. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { addFunnelCounts } from '../../src/funnel/repo.js';
import { makeJob } from '../helpers/factories.js';

const fails = async (work: PromiseLike<unknown>) => {
  try {
    await work;
  } catch {
    return true;
  }
  return false;
};

for (const kind of databaseKinds()) {
  describe(`migration 021: job_funnel_counts [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('keeps one row per key, adds up batches, rejects an unknown job, goes with its job, and rolls back', async () => {
      const job = await makeJob(t.db, {});
      const c = { jobId: job.id, day: '2026-03-15', step: 'basic', event: 'reached', device: 'phone', count: 2 } as const;
      await addFunnelCounts(t.db, [c, { ...c, device: 'desktop', count: 1 }]);
      await addFunnelCounts(t.db, [{ ...c, count: 5 }]);
      const rows = await t.db('job_funnel_counts').orderBy('device');
      expect(rows.map((r) => [r.device, Number(r.count)])).to.deep.equal([
        ['desktop', 1],
        ['phone', 7],
      ]);
      expect(
        await fails(
          t.db('job_funnel_counts').insert({ job_id: job.id, day: c.day, step: c.step, event: c.event, device: c.device, count: 1 }),
        ),
      ).to.equal(true);
      // A batch naming a job that does not exist adds nothing at all (one transaction).
      expect(
        await fails(
          addFunnelCounts(t.db, [
            { ...c, count: 100 },
            { ...c, jobId: 999_999 },
          ]),
        ),
      ).to.equal(true);
      expect(Number((await t.db('job_funnel_counts').where({ device: 'phone' }).first()).count)).to.equal(7);
      await t.db('jobs').where('id', job.id).delete();
      expect(await t.db('job_funnel_counts').count({ n: '*' }).first()).to.satisfy((r: { n: unknown }) => Number(r.n) === 0);
      while ((await migrationStatus(t.db)).applied.includes('021_job_funnel_counts')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('job_funnel_counts')).to.equal(false);
      await t.db.migrate.latest();
      expect(await t.db.schema.hasTable('job_funnel_counts')).to.equal(true);
    });
  });
}

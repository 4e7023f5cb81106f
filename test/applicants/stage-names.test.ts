/**
 * The applicants list's stage filter names (pipeline listStageNames, issue 33: read along
 * job_stages_name_idx, migration 036): every live job's stage names, each once, in the first
 * place a live job gives it; names only removed jobs have are left out.
 */
import { expect } from 'chai';
import { listStageNames } from '../../src/pipeline/index.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`stage names of the applicants list's filter [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    const rename = (jobId: number, position: number, name: string) =>
      t.db('job_stages').where({ job_id: jobId, position }).update({ name });

    it('lists each live name once, where live jobs first put it, without names of removed jobs only', async () => {
      const a = await makeJob(t.db, { title: 'A', public_id: 'names-a' });
      const b = await makeJob(t.db, { title: 'B', public_id: 'names-b' });
      const removed = await makeJob(t.db, { title: 'C', public_id: 'names-c' });
      expect(await listStageNames({ db: t.db })).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      // B: a call before the screen; the removed job has a stage of its own and Offer first.
      await rename(b.id, 1, 'Phone call');
      await rename(b.id, 2, 'Screen');
      await rename(removed.id, 0, 'Sourcing');
      await rename(removed.id, 1, 'Offer');
      await t.db('jobs').where({ id: removed.id }).update({ status: 'REMOVED' });
      expect(await listStageNames({ db: t.db })).to.deep.equal(['Applied', 'Phone call', 'Screen', 'Interview', 'Offer', 'Hired']);
      // Once A is removed too, B's list is the only one left: Screen in its third place, no Interview.
      await t.db('jobs').where({ id: a.id }).update({ status: 'REMOVED' });
      expect(await listStageNames({ db: t.db })).to.deep.equal(['Applied', 'Phone call', 'Screen', 'Offer', 'Hired']);
    });
  });
}

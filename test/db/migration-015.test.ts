/** Migration 015: on SQLite the HR job lists read their columns from an index, not from the jobs' rows. */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { listJobChoices, listJobStats, pageJobSummaries } from '../../src/jobs/queries.js';
import { makeJob } from '../helpers/factories.js';

let explained = 0;

/** The query plans of the statements `work` runs that read the jobs table. */
async function jobPlans(db: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const queries: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings: unknown[] }) => queries.push(q);
  db.on('query', listen);
  try {
    await work();
  } finally {
    db.off('query', listen);
  }
  const plans: string[] = [];
  for (const q of queries.filter((x) => /from `jobs`/.test(x.sql) && !/count\(/.test(x.sql))) {
    // A new SQL text each time: the connection keeps prepared statements by their text, and an
    // EXPLAIN's plan is not prepared again after a schema change (it reads no table).
    explained += 1;
    const rows: { detail: string }[] = await db.raw(`EXPLAIN QUERY PLAN ${q.sql} /* ${explained} */`, q.bindings as any);
    plans.push(rows.map((r) => r.detail).join('; '));
  }
  return plans;
}

for (const kind of databaseKinds()) {
  describe(`migration 015: HR job list indexes [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
      for (let i = 0; i < 3; i++) await makeJob(t.db, { title: `Job ${i}` });
    });
    after(() => t.destroy());

    it('serves the job selector, the dashboard rows and Manage Jobs from covering indexes on SQLite, and rolls back', async () => {
      const lists = async () => {
        await listJobChoices(t.db);
        await listJobStats(t.db);
        await pageJobSummaries(t.db, async () => new Map(), null, 1, 20);
      };
      if (kind === 'mysql') {
        // Nothing to do there (long texts are kept off the row); the lists still answer.
        await lists();
        expect((await listJobChoices(t.db)).map((j) => j.title)).to.deep.equal(['Job 0', 'Job 1', 'Job 2']);
        return;
      }
      const plans = await jobPlans(t.db, lists);
      expect(plans).to.have.length(3);
      for (const plan of plans) expect(plan).to.match(/USING COVERING INDEX jobs_(by_title|hr_list)_idx/);
      expect(plans.join(' ')).not.to.include('TEMP B-TREE');
      // 015 alone: the later migrations' columns stay, which the lists read (018 made the HR list's index again, under the same name).
      await t.db.migrate.down({ name: '015_hr_job_list_indexes' });
      expect((await migrationStatus(t.db)).applied).to.not.include('015_hr_job_list_indexes');
      for (const plan of await jobPlans(t.db, lists)) expect(plan).not.to.match(/jobs_(by_title|hr_list)_idx/);
      await t.db.migrate.latest();
      expect(await jobPlans(t.db, lists)).to.have.length(3);
    });
  });
}

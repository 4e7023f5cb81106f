/** Migration 036: the applicants list page's selectors (stage names, and on MySQL the job selector) read from indexes alone. */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { listJobChoices } from '../../src/jobs/queries.js';
import { listStageNames } from '../../src/pipeline/index.js';
import { makeJob } from '../helpers/factories.js';

const NAME = '036_applicant_list_page_indexes';
let explained = 0;

/** SQLite's plans of the statements `work` runs on job_stages. */
async function stagePlans(db: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const queries: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings: unknown[] }) => queries.push(q);
  db.on('query', listen);
  try {
    await work();
  } finally {
    db.off('query', listen);
  }
  const plans: string[] = [];
  for (const q of queries.filter((x) => /from `job_stages`/.test(x.sql))) {
    // A new SQL text each time: the connection keeps prepared statements by their text.
    explained += 1;
    const rows: { detail: string }[] = await db.raw(`EXPLAIN QUERY PLAN ${q.sql} /* ${explained} */`, q.bindings as any);
    plans.push(rows.map((r) => r.detail).join('; '));
  }
  return plans;
}

/** MySQL: the indexes of a table, by name. */
async function mysqlIndexes(db: Knex, table: string): Promise<string[]> {
  const [rows] = await db.raw(`SHOW INDEX FROM ${table}`);
  return [...new Set((rows as { Key_name: string }[]).map((r) => r.Key_name))];
}

for (const kind of databaseKinds()) {
  describe(`migration 036: applicants list page indexes [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
      for (let i = 0; i < 3; i++) await makeJob(t.db, { title: `Job ${i}`, public_id: `m036-${i}` });
    });
    after(() => t.destroy());

    it('reads the stage names along job_stages_name_idx (and on MySQL the job selector along jobs_by_title_idx), and rolls back', async () => {
      const names = () => listStageNames({ db: t.db });
      expect(await names()).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      expect((await listJobChoices(t.db)).map((j) => j.title)).to.deep.equal(['Job 0', 'Job 1', 'Job 2']);
      if (kind === 'mysql') {
        expect(await mysqlIndexes(t.db, 'job_stages')).to.include('job_stages_name_idx');
        expect(await mysqlIndexes(t.db, 'jobs')).to.include('jobs_by_title_idx');
      } else {
        expect((await stagePlans(t.db, names)).join(' ')).to.match(/USING COVERING INDEX job_stages_name_idx \(name=\?\)/);
      }
      await t.db.migrate.down({ name: NAME });
      expect((await migrationStatus(t.db)).applied).to.not.include(NAME);
      if (kind === 'mysql') {
        expect(await mysqlIndexes(t.db, 'job_stages')).to.not.include('job_stages_name_idx');
        expect(await mysqlIndexes(t.db, 'jobs')).to.not.include('jobs_by_title_idx');
      } else {
        expect((await stagePlans(t.db, names)).join(' ')).to.not.include('job_stages_name_idx');
      }
      // The same answers without the indexes, and again after they are back.
      expect(await names()).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      await t.db.migrate.latest();
      expect(await names()).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      expect((await listJobChoices(t.db)).map((j) => j.title)).to.deep.equal(['Job 0', 'Job 1', 'Job 2']);
    });
  });
}

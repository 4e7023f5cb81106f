/**
 * Migration 018 (issue 21's job fields): the columns on both databases; on SQLite the public list
 * (with its closing-date condition and department filter) and the HR job list still read their
 * columns from covering indexes; the department filter and the next closing instant use their
 * indexes; down() and up() again.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { listActiveDepartments, listPublicJobs, nextClosingInstant } from '../../src/jobs/repo.js';
import { pageJobSummaries } from '../../src/jobs/queries.js';
import { makeJob } from '../helpers/factories.js';

let explained = 0;

/** The query plans of the statements `work` runs that read the jobs table (SQLite). */
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
  for (const q of queries.filter((x) => /from `jobs`/.test(x.sql))) {
    explained += 1;
    const rows: { detail: string }[] = await db.raw(`EXPLAIN QUERY PLAN ${q.sql} /* ${explained} */`, q.bindings as any);
    plans.push(rows.map((r) => r.detail).join('; '));
  }
  return plans;
}

for (const kind of databaseKinds()) {
  describe(`migration 018: job department, closing date, pay period, countries [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
      for (let i = 0; i < 3; i++)
        await makeJob(t.db, { title: `Job ${i}`, department: i ? 'Engineering' : '', status: 'ACTIVE', closes_at: '2099-01-01T00:00:00Z' });
    });
    after(() => t.destroy());

    it('adds the columns, keeps the lists on covering indexes on SQLite, and rolls back', async () => {
      const now = new Date();
      const lists = async () => {
        await listPublicJobs(t.db, {}, 1, 30, now);
        await listPublicJobs(t.db, { department: 'Engineering' }, 1, 30, now);
        await pageJobSummaries(t.db, async () => new Map(), null, 1, 20);
        await listActiveDepartments(t.db, now);
        await nextClosingInstant(t.db, now);
      };
      expect((await listPublicJobs(t.db, { department: 'Engineering' }, 1, 30, now)).count).to.equal(2);
      expect((await nextClosingInstant(t.db, now))!.toISOString()).to.equal('2099-01-01T00:00:00.000Z');
      const row = await t.db('jobs').first();
      expect(row).to.include.keys('department', 'closes_at', 'salary_period', 'applicant_countries');
      expect(row.salary_period).to.equal('YEAR');
      if (kind === 'sqlite') {
        const plans = await jobPlans(t.db, lists);
        expect(plans.filter((p) => !/COUNT|count/i.test(p))).to.have.length.greaterThan(0);
        for (const plan of plans) expect(plan, plan).to.match(/USING (COVERING )?INDEX jobs_/);
        expect(plans.join(' '))
          .to.include('jobs_public_list_idx')
          .and.include('jobs_hr_list_idx')
          .and.include('jobs_status_department_idx')
          .and.include('jobs_status_closes_idx');
      }
      while ((await migrationStatus(t.db)).applied.includes('018_job_reach_fields')) await t.db.migrate.down();
      expect(await t.db('jobs').first()).to.not.have.property('department');
      await t.db.migrate.latest();
      expect(await t.db('jobs').first()).to.include.keys('department', 'closes_at', 'salary_period', 'applicant_countries');
    });
  });
}

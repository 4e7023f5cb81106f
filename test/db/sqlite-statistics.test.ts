/**
 * SQLite's planner statistics (issue 33, src/db/knex.ts keepStatistics): a connection runs
 * `PRAGMA optimize` when it opens, so the applicants list of one job, one status and a date range
 * reads the job's index (without statistics SQLite took the status index, three values, for as
 * selective: 50 ms instead of 0.02 at 200,000 applications); another process's write lock only
 * puts the statistics off, it never holds up the connection.
 */
import { expect } from 'chai';
import { createDb } from '../../src/db/knex.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertApplications, realisticApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { openSqlite } from '../helpers/sqlite.js';
import { sqliteFile } from '../../config/index.js';

describe('SQLite planner statistics', () => {
  let t: TestDb;
  let jobId = 0;
  before(async () => {
    t = await createTestDb('sqlite');
    const until = new Date('2026-11-01T00:00:00Z');
    for (let i = 0; i < 20; i++) {
      const job = await makeJob(t.db, { title: `Job ${i}`, public_id: `stats-${i}` });
      jobId = job.id;
      await insertApplications(t.db, job.id, realisticApplications(150, [], { seed: i, emailTag: `s${i}`, until }), []);
    }
    await t.db.raw('DELETE FROM sqlite_stat1').catch(() => undefined);
  });
  after(() => t.destroy());

  const listPlan = async (db: typeof t.db) => {
    const rows: { detail: string }[] = await db.raw(
      'EXPLAIN QUERY PLAN SELECT count(*) FROM (SELECT a.id FROM applications a WHERE a.job_id = ? AND a.status = ? AND a.created_at >= ? AND a.created_at < ? LIMIT 1001)',
      [jobId, 'NEW', '2025-11-01 00:00:00.000', '2026-11-01 00:00:00.000'],
    );
    return rows.map((r) => r.detail).join('; ');
  };

  it('are gathered when a connection opens, and the list of a job, a status and a year reads the job index', async () => {
    const db = createDb(t.config);
    try {
      const stats: { tbl: string; idx: string }[] = await db('sqlite_stat1').select('tbl', 'idx');
      expect(stats.map((s) => s.idx)).to.include.members(['applications_job_created_idx', 'applications_status_created_idx']);
      expect(await listPlan(db)).to.match(/USING (COVERING )?INDEX applications_job_created_idx/);
    } finally {
      await db.destroy();
    }
  });

  it('are put off, not waited for, while another process holds the write lock', async () => {
    await t.db.raw('DELETE FROM sqlite_stat1');
    const other = openSqlite(sqliteFile(t.config));
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const db = createDb(t.config);
    try {
      expect(Number((await db('applications').count({ n: '*' }))[0].n)).to.equal(3000);
      // The connection's busy timeout is 5 s: it did not wait for the lock.
      expect(Date.now() - started).to.be.below(2000);
      expect(await db('sqlite_stat1').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await db.destroy();
    }
  });
});

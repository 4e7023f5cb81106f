/**
 * The public job cache is cleared after a job write commits, not only inside its transaction: a
 * public read that runs while the transaction is open (on MySQL another connection, still seeing
 * the old rows) must not leave the old state cached. PUBLIC_CACHE_SECONDS is 60 here, so a stale
 * entry would stay for the whole test.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createDb } from '../../src/db/knex.js';
import { hrSession } from '../helpers/hr.js';

const payload = (overrides: Record<string, unknown> = {}) => ({
  title: 'Cached Role',
  location: 'Pune, India',
  job_type: 'FULL_TIME',
  work_mode: 'REMOTE',
  status: 'ACTIVE',
  ...overrides,
});

/** Resolves when the next statement matching `pattern` is sent (inside a transaction too). */
function nextQuery(db: Knex, pattern: RegExp, onQuery: () => void = () => undefined): Promise<void> {
  return new Promise((resolve) => {
    const listener = (q: { sql: string }) => {
      if (!pattern.test(q.sql)) return;
      db.off('query', listener);
      onQuery();
      resolve();
    };
    db.on('query', listener);
  });
}

for (const kind of databaseKinds()) {
  describe(`public job cache and job writes [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '60' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const hr = (method: string, path: string, body?: unknown) =>
      fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const publicTitles = async () =>
      ((await (await fetch(`${s.baseUrl}/api/jobs/?page_size=100`)).json()).results as { title: string }[]).map((j) => j.title);

    it('clears the cache once the update has committed, after whatever was cached during the transaction', async () => {
      const job = await (await hr('POST', '/api/hr/jobs/', payload({ title: 'Probe Role' }))).json();
      expect(await publicTitles()).to.include('Probe Role');
      // A reader that caches during the transaction: seeded right before the COMMIT is sent.
      const seeded = nextQuery(s.ctx.db, /^commit/i, () => {
        void s.ctx.cache.fresh('public-jobs:probe', async () => 'cached during the transaction');
      });
      const res = await hr('PUT', `/api/hr/jobs/${job.id}/`, { ...job, status: 'REMOVED' });
      expect(res.status).to.equal(200);
      await seeded;
      expect(await s.ctx.cache.fresh('public-jobs:probe', async () => 'read after the commit')).to.equal('read after the commit');
      expect(await publicTitles()).not.to.include('Probe Role');
    });

    it('clears the cache once a create has committed as well', async () => {
      expect(await publicTitles()).not.to.include('Created Role');
      const seeded = nextQuery(s.ctx.db, /^commit/i, () => {
        void s.ctx.cache.fresh('public-jobs:probe-create', async () => 'cached during the transaction');
      });
      const res = await hr('POST', '/api/hr/jobs/', payload({ title: 'Created Role' }));
      expect(res.status).to.equal(201);
      await seeded;
      expect(await s.ctx.cache.fresh('public-jobs:probe-create', async () => 'fresh')).to.equal('fresh');
      expect(await publicTitles()).to.include('Created Role');
    });

    if (kind === 'mysql') {
      it('does not keep a public read made by another connection during the transaction (a real race, held open by a lock)', async () => {
        const job = await (await hr('POST', '/api/hr/jobs/', payload({ public_id: 'race-1', title: 'Racing Role' }))).json();
        expect(await publicTitles()).to.include('Racing Role');
        // Another connection locks the end of audit_log, so the PUT's transaction stops at its
        // audit insert, after the job row was updated and the in-transaction invalidation ran.
        const locker = createDb(s.testDb.config);
        const lock = await locker.transaction();
        try {
          await lock.raw('SELECT id FROM audit_log FOR UPDATE');
          const blocked = nextQuery(s.ctx.db, /^insert into `audit_log`/i);
          const put = hr('PUT', `/api/hr/jobs/${job.id}/`, { ...job, status: 'REMOVED' });
          await blocked;
          await new Promise((r) => setTimeout(r, 100));
          // Public reads now see the committed (old) state and cache it.
          expect(await publicTitles(), 'read during the transaction').to.include('Racing Role');
          expect((await fetch(`${s.baseUrl}/api/jobs/race-1/`)).status).to.equal(200);
          expect(await (await fetch(`${s.baseUrl}/careers`)).text()).to.include('Racing Role');
          await lock.commit();
          expect((await put).status).to.equal(200);
        } finally {
          if (!lock.isCompleted()) await lock.rollback();
          await locker.destroy();
        }
        expect(await publicTitles()).not.to.include('Racing Role');
        expect((await fetch(`${s.baseUrl}/api/jobs/race-1/`)).status).to.equal(404);
        expect(await (await fetch(`${s.baseUrl}/careers`)).text()).not.to.include('Racing Role');
      });
    }
  });
}

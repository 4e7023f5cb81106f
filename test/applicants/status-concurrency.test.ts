/**
 * Status changes from many HR users at once, on SQLite and MySQL: 30 concurrent bulk and single
 * changes over overlapping applications, in every order, all answer 200 (no deadlock reaches a
 * user), and the audit trail agrees with what is stored.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr } from './helpers.js';

const STATUSES = ['NEW', 'REVIEWED', 'ARCHIVED'] as const;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

for (const kind of databaseKinds()) {
  describe(`concurrent status changes [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let ids: number[];

    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      const job = await makeJob(s.ctx.db, { title: 'Busy Job' });
      const people = Array.from({ length: 40 }, (_, i) => ({
        first_name: 'Person',
        last_name: `N${i}`,
        email: `p${i}@example.com`,
        phone: '+919800000000',
        status: 'NEW' as const,
        created_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      }));
      await insertApplications(s.ctx.db, job.id, people, []);
      ids = (await s.ctx.db('applications').orderBy('id').select('id')).map((r) => Number(r.id));
    });
    after(() => s.close());

    it('answers 30 concurrent bulk and single changes over the same rows with 200, and audits each change', async () => {
      for (const round of [1, 2, 3]) {
        const next = random(round);
        const calls = Array.from({ length: 30 }, (_, i) => {
          const status = STATUSES[Math.floor(next() * 3)];
          if (i % 3 === 0)
            return hr(s.baseUrl, token, `/api/hr/applications/${ids[Math.floor(next() * ids.length)]}/`, {
              method: 'PATCH',
              body: { status },
            });
          // Overlapping sets, in random (often descending) order.
          const some = ids.filter(() => next() < 0.5).sort(() => next() - 0.5);
          return hr(s.baseUrl, token, '/api/hr/applications/bulk-status/', {
            method: 'POST',
            body: { ids: some.length ? some : [ids[0]], status },
          });
        });
        const statuses = (await Promise.all(calls)).map((r) => r.status);
        expect(
          statuses.filter((st) => st !== 200),
          `round ${round}: ${statuses.join(',')}`,
        ).to.deep.equal([]);
      }
      // Every application's last audited change leads to the status it has.
      const audits = await s.ctx
        .db('audit_log')
        .where({ entity: 'application', action: 'status' })
        .orderBy('id')
        .select('entity_id', 'details');
      const last = new Map<number, string>();
      for (const a of audits) last.set(Number(a.entity_id), (typeof a.details === 'string' ? JSON.parse(a.details) : a.details).to);
      for (const row of await s.ctx.db('applications').select('id', 'status')) {
        expect(last.get(Number(row.id)) ?? 'NEW', `application ${row.id}`).to.equal(row.status);
      }
    });
  });
}

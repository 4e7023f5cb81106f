/**
 * Simultaneous requests against the shared rate-limit counter, over real HTTP: exactly the limit
 * passes, for applying and for each of the three sign-in keys. Each burst is repeated, so a race
 * between counting and reading back would show (it let 0-2 of 3 through on MariaDB).
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tableCounts, toFormData, validFields } from '../fixtures/apply.js';
import { createHrUser, postToken } from '../helpers/hr.js';

const ROUNDS = 4;

/** How many requests got each status. */
function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

for (const kind of databaseKinds()) {
  describe(`rate limits under simultaneous requests [${kind}]`, function () {
    this.timeout(180_000);
    let s: TestServer;
    let seq = 0;
    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '3', LOGIN_RATE_LIMIT: '3', TRUST_PROXY: 'true' });
      await makeJob(s.ctx.db, { public_id: 'burst-job' });
      await createHrUser(s.ctx.db, 'hr.admin');
    });
    after(() => s.close());
    beforeEach(() => s.ctx.db('rate_limit_hits').delete());

    const apply = async (ip: string) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/burst-job/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: `burst${++seq}@example.com` })),
        headers: { 'X-Forwarded-For': ip },
      });
      await res.arrayBuffer();
      return res.status;
    };
    const fail = async (ip: string, username: string) => {
      const res = await postToken(s.baseUrl, { username, password: 'wrong password' }, { 'X-Forwarded-For': ip });
      await res.arrayBuffer();
      return res.status;
    };

    it('eight simultaneous applications from one address with a limit of 3: exactly 3 are taken, every time', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await s.ctx.db('rate_limit_hits').delete();
        const before = (await tableCounts(s.ctx.db)).applications;
        const statuses = await Promise.all(Array.from({ length: 8 }, () => apply('192.0.2.1')));
        expect(tally(statuses), `round ${round + 1}`).to.deep.equal({ 201: 3, 429: 5 });
        expect((await tableCounts(s.ctx.db)).applications - before).to.equal(3);
      }
    });

    it('a burst as the window ends: the old count goes, exactly 3 pass in the new window', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await s.ctx.db('rate_limit_hits').delete();
        for (let i = 0; i < 3; i++) expect(await apply('192.0.2.2')).to.equal(201);
        expect(await apply('192.0.2.2')).to.equal(429);
        await s.ctx
          .db('rate_limit_hits')
          .where('key', 'like', 'apply:%')
          .update({ reset_at: toDbDate(new Date(Date.now() - 1)) });
        const statuses = await Promise.all(Array.from({ length: 8 }, () => apply('192.0.2.2')));
        expect(tally(statuses), `round ${round + 1}`).to.deep.equal({ 201: 3, 429: 5 });
      }
    });

    it('eight simultaneous failed sign-ins for one user from one address: exactly 3 are checked', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await s.ctx.db('rate_limit_hits').delete();
        const statuses = await Promise.all(Array.from({ length: 8 }, () => fail('192.0.2.3', 'hr.admin')));
        expect(tally(statuses), `round ${round + 1}`).to.deep.equal({ 401: 3, 429: 5 });
      }
    });

    it('twenty simultaneous failures from one address over many usernames: exactly 15 (five times the limit)', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await s.ctx.db('rate_limit_hits').delete();
        const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => fail('192.0.2.4', `user${round}x${i}`)));
        expect(tally(statuses), `round ${round + 1}`).to.deep.equal({ 401: 15, 429: 5 });
      }
    });

    it('twenty simultaneous failures for one username from twenty addresses: exactly 15', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await s.ctx.db('rate_limit_hits').delete();
        const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => fail(`198.51.100.${i + 1}`, 'hr.admin')));
        expect(tally(statuses), `round ${round + 1}`).to.deep.equal({ 401: 15, 429: 5 });
      }
    });
  });
}

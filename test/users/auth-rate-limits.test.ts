/** The sign-in rate limits (per username and address, per address, per username over all addresses), over real HTTP. */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createHrUser, HR_PASSWORD, postToken } from '../helpers/hr.js';

for (const kind of databaseKinds()) {
  describe(`sign-in rate limits [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    const MESSAGE = 'Too many sign-in attempts. Please try again in 15 minutes.';
    before(async () => {
      s = await startTestServer(kind, { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_SECONDS: '900' });
      await createHrUser(s.ctx.db, 'hr.admin');
      await createHrUser(s.ctx.db, 'hr.other');
    });
    after(() => s.close());
    beforeEach(() => s.ctx.db('rate_limit_hits').delete());

    const wrong = (username: string) => postToken(s.baseUrl, { username, password: 'wrong password' });

    it('limits failures per username from one address: the fourth answers 429, even with the right password', async () => {
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect((await wrong('hr.admin')).status).to.equal(401);
      const res = await wrong('HR.ADMIN');
      expect(res.status).to.equal(429);
      expect(await res.json()).to.deep.equal({ detail: MESSAGE });
      // The seconds left in the window that started with the first failure (900 s long).
      const elapsed = Math.ceil((Date.now() - started) / 1000);
      expect(Number(res.headers.get('retry-after'))).to.be.within(900 - elapsed, 900);
      expect((await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD })).status).to.equal(429);
      // Another user behind the same address is not blocked by it.
      expect((await postToken(s.baseUrl, { username: 'hr.other', password: HR_PASSWORD })).status).to.equal(200);
      expect((await wrong('hr.other')).status).to.equal(401);
    });

    it('answers Retry-After with the seconds left until the window resets, not the whole window', async () => {
      for (let i = 0; i < 3; i++) expect((await wrong('hr.admin')).status).to.equal(401);
      // The window started 780 s ago: 120 s are left.
      const resetAt = new Date(Date.now() + 120_000);
      const updated = await s.ctx
        .db('rate_limit_hits')
        .where('key', 'like', 'login-user:%')
        .update({ reset_at: toDbDate(resetAt) });
      expect(updated).to.equal(1);
      let res = await wrong('hr.admin');
      expect(res.status).to.equal(429);
      expect(await res.json()).to.deep.equal({ detail: MESSAGE });
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect(Number(res.headers.get('retry-after'))).to.be.within(118, 120);
      // The right password is refused with the same countdown.
      res = await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD });
      expect(res.status).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.within(118, 120);
      // Less than a second left still says 1, never 0 (checked when the answer came within that second:
      // on a machine too busy for that, the window is over and the next check covers it).
      const lastSecond = Date.now() + 900;
      await s.ctx
        .db('rate_limit_hits')
        .where('key', 'like', 'login-user:%')
        .update({ reset_at: toDbDate(new Date(lastSecond)) });
      res = await wrong('hr.admin');
      if (Date.now() < lastSecond) {
        expect(res.status).to.equal(429);
        expect(res.headers.get('retry-after')).to.equal('1');
      }
      // Once the window is over, the count starts again.
      await new Promise((r) => setTimeout(r, Math.max(0, lastSecond - Date.now()) + 100));
      expect((await wrong('hr.admin')).status).to.equal(401);
    });

    it('answers the per-address limit with its own seconds left', async () => {
      for (let i = 0; i < 15; i++) expect((await wrong(`spray${i}`)).status, `attempt ${i}`).to.equal(401);
      await s.ctx
        .db('rate_limit_hits')
        .where('key', 'like', 'login-ip:%')
        .update({ reset_at: toDbDate(new Date(Date.now() + 61_000)) });
      const res = await wrong('spray-last');
      expect(res.status).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.within(59, 61);
    });

    it('does not count successful sign-ins', async () => {
      for (let i = 0; i < 6; i++)
        expect((await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD })).status).to.equal(200);
      // Give the limiter's after-response decrement a moment to land.
      await new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < 3; i++) expect((await wrong('hr.admin')).status).to.equal(401);
      expect((await wrong('hr.admin')).status).to.equal(429);
    });

    it('limits failures per address over all usernames (five times the per-user limit)', async () => {
      for (let i = 0; i < 15; i++) expect((await wrong(`sprayed${i}`)).status, `attempt ${i}`).to.equal(401);
      const res = await wrong('sprayed-last');
      expect(res.status).to.equal(429);
      expect(await res.json()).to.deep.equal({ detail: MESSAGE });
      expect((await postToken(s.baseUrl, { username: 'hr.other', password: HR_PASSWORD })).status).to.equal(429);
      // Malformed requests count as failures too.
      await s.ctx.db('rate_limit_hits').delete();
      for (let i = 0; i < 15; i++) await postToken(s.baseUrl, {});
      expect((await postToken(s.baseUrl, {})).status).to.equal(429);
    });
  });

  describe(`sign-in rate limit per username over all addresses [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    const MESSAGE = 'Too many sign-in attempts. Please try again in 15 minutes.';
    before(async () => {
      // Behind a proxy, so each request can come from its own address (X-Forwarded-For).
      s = await startTestServer(kind, { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_SECONDS: '900', TRUST_PROXY: 'true' });
      await createHrUser(s.ctx.db, 'hr.admin');
      await createHrUser(s.ctx.db, 'hr.other');
    });
    after(() => s.close());

    const from = (ip: string, username: string, password = 'wrong password') =>
      postToken(s.baseUrl, { username, password }, { 'X-Forwarded-For': ip });

    it('refuses a username failed five times the limit from many addresses, not its colleagues', async () => {
      // 15 failures (5 x 3), each from its own address: no address reaches its own limits.
      const firstFailure = Date.now();
      for (let i = 1; i <= 15; i++)
        expect((await from(`203.0.113.${i}`, i % 2 ? 'hr.admin' : 'HR.Admin ')).status, `attempt ${i}`).to.equal(401);
      const res = await from('198.51.100.7', 'hr.admin');
      expect(res.status).to.equal(429);
      expect(await res.json()).to.deep.equal({ detail: MESSAGE });
      // The window runs from the first failure (the attempts take seconds on a loaded machine).
      const elapsed = Math.ceil((Date.now() - firstFailure) / 1000);
      expect(Number(res.headers.get('retry-after'))).to.be.within(900 - elapsed - 1, 900);
      // Until the window ends the user is refused from anywhere, even with the right password...
      expect((await from('198.51.100.8', 'hr.admin', HR_PASSWORD)).status).to.equal(429);
      // ...while another user, from the same addresses, signs in.
      expect((await from('203.0.113.1', 'hr.other', HR_PASSWORD)).status).to.equal(200);
      // The window over, the user signs in again.
      await s.ctx
        .db('rate_limit_hits')
        .where('key', 'like', 'login-username:%')
        .update({ reset_at: toDbDate(new Date(Date.now() - 1000)) });
      expect((await from('198.51.100.9', 'hr.admin', HR_PASSWORD)).status).to.equal(200);
    });
  });

  describe(`sign-in rate limit off [${kind}]`, function () {
    this.timeout(60_000);
    it('LOGIN_RATE_LIMIT=0 turns the limit off', async () => {
      const s = await startTestServer(kind, { LOGIN_RATE_LIMIT: '0' });
      try {
        for (let i = 0; i < 12; i++) expect((await postToken(s.baseUrl, { username: 'nobody', password: 'x' })).status).to.equal(401);
        expect(await s.ctx.db('rate_limit_hits').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      } finally {
        await s.close();
      }
    });
  });
}

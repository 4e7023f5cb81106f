/**
 * Sliding sessions (issue 30), over real HTTP on both databases: each authenticated request renews
 * the idle timeout (SESSION_IDLE_MINUTES) up to the absolute limit (SESSION_MAX_HOURS), for Bearer
 * tokens and the jwt cookie alike; the expiry is written only when it moved by more than a minute;
 * the cookie is sent again with the new Max-Age; POST /api/hr/session/renew/ is the "Stay signed
 * in" button's call. Time is the server's controlled clock (ctx.now), or, with
 * SESSION_IDLE_MINUTES=1, sessions written through the repo with creation times in the past.
 */
import { expect } from 'chai';
import { createSession, hashToken } from '../../src/users/repo.js';
import { fromDbDate } from '../../src/db/codecs.js';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createHrUser, HR_PASSWORD, postToken } from '../helpers/hr.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const BAD_TOKEN = { detail: 'Invalid or expired token.' };
const T0 = new Date('2031-03-04T08:00:00.000Z');

for (const kind of databaseKinds()) {
  describe(`Sliding HR sessions [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let clock = T0;
    const at = (ms: number) => {
      clock = new Date(T0.getTime() + ms);
    };
    before(async () => {
      s = await startTestServer(kind, {}, { now: () => clock });
      await createHrUser(s.ctx.db, 'slide.admin');
      await createHrUser(s.ctx.db, 'slide.recruiter', { role: 'recruiter' });
    });
    after(() => s.close());
    beforeEach(async () => {
      clock = T0;
      await s.ctx.db('rate_limit_hits').delete();
    });

    const signIn = async (username = 'slide.admin') => {
      const res = await postToken(s.baseUrl, { username, password: HR_PASSWORD });
      expect(res.status).to.equal(200);
      const body = await res.json();
      // The spec's answer, unchanged: only the token.
      expect(Object.keys(body)).to.deep.equal(['access']);
      return body.access as string;
    };
    const storedExpiry = async (token: string) =>
      fromDbDate(
        (
          await s.ctx
            .db('hr_sessions')
            .where({ token_hash: hashToken(token) })
            .first()
        ).expires_at,
      )!.toISOString();
    const api = (token: string, path = '/api/hr/jobs/') => fetch(s.baseUrl + path, { headers: { Authorization: `Bearer ${token}` } });
    const page = (token: string, path = '/hr/dashboard') =>
      fetch(s.baseUrl + path, { redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
    const iso = (ms: number) => new Date(T0.getTime() + ms).toISOString();

    it('starts a session for SESSION_IDLE_MINUTES and keeps a busy one alive well past the first hour', async () => {
      const token = await signIn();
      expect(await storedExpiry(token)).to.equal(iso(HOUR));
      // Busy all morning: a request every 50 minutes, each renewing the hour.
      for (let t = 50 * MIN; t <= 5 * HOUR; t += 50 * MIN) {
        at(t);
        const res = await api(token);
        expect(res.status, `after ${t / MIN} minutes`).to.equal(200);
        expect(res.headers.get('x-session-expires-in')).to.equal('3600');
        expect(res.headers.get('x-session-limit-in')).to.equal(String((12 * HOUR - t) / 1000));
        expect(await storedExpiry(token)).to.equal(iso(t + HOUR));
      }
      // /api/auth/me/ answers the renewed expiry, as the spec's fields.
      at(5 * HOUR + 10 * MIN);
      const me = await fetch(`${s.baseUrl}/api/auth/me/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(await me.json()).to.deep.equal({ username: 'slide.admin', role: 'admin', expires_at: iso(6 * HOUR + 10 * MIN) });
    });

    it('ends a session idle beyond the timeout: 401 for the API (Bearer or cookie), the sign-in page for pages', async () => {
      const token = await signIn();
      at(30 * MIN);
      expect((await page(token)).status).to.equal(200);
      at(30 * MIN + HOUR - 1000);
      expect((await api(token)).status, 'a second before the end').to.equal(200);
      at(30 * MIN + HOUR - 1000 + HOUR);
      const res = await api(token);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect(res.headers.get('x-session-expires-in')).to.equal(null);
      expect(await res.json()).to.deep.equal(BAD_TOKEN);
      const viaCookie = await fetch(`${s.baseUrl}/api/hr/jobs/`, { headers: { Cookie: `jwt=${token}` } });
      expect(viaCookie.status).to.equal(401);
      expect(await viaCookie.json()).to.deep.equal(BAD_TOKEN);
      const p = await page(token, '/hr/applicants?stage=interview');
      expect(p.status).to.equal(302);
      expect(p.headers.get('location')).to.equal('/hrviewlogin?next=%2Fhr%2Fapplicants%3Fstage%3Dinterview');
      expect(p.headers.get('set-cookie')).to.match(/^jwt=;/);
      // Logging out with it is refused as the spec's table says.
      expect(
        (await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status,
      ).to.equal(401);
    });

    it('ends a session at the absolute limit however busy, and a renewal never goes past it', async () => {
      const token = await signIn();
      for (let t = 55 * MIN; t < 12 * HOUR; t += 55 * MIN) {
        at(t);
        expect((await api(token)).status, `after ${t / MIN} minutes`).to.equal(200);
      }
      // 11 h 55: the last hour is cut to the limit.
      at(12 * HOUR - 5 * MIN);
      const last = await fetch(`${s.baseUrl}/api/hr/session/renew/`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      expect(last.status).to.equal(200);
      expect(await last.json()).to.deep.equal({ expires_at: iso(12 * HOUR), expires_in: 300, limit_at: iso(12 * HOUR) });
      expect(last.headers.get('x-session-expires-in')).to.equal('300');
      expect(last.headers.get('x-session-limit-in')).to.equal('300');
      expect(await storedExpiry(token)).to.equal(iso(12 * HOUR));
      at(12 * HOUR - 1000);
      expect((await api(token)).status).to.equal(200);
      at(12 * HOUR);
      expect((await api(token)).status).to.equal(401);
      expect((await page(token)).status).to.equal(302);
    });

    it('writes the new expiry only when it moved by more than a minute, never backwards, once for requests at the same time', async () => {
      const token = await signIn();
      at(30_000);
      const quiet = await api(token);
      expect(quiet.headers.get('x-session-expires-in'), 'the stored expiry, 30 s on').to.equal('3570');
      expect(await storedExpiry(token)).to.equal(iso(HOUR));
      at(MIN);
      await api(token);
      expect(await storedExpiry(token), 'exactly a minute: not yet').to.equal(iso(HOUR));
      at(MIN + 1);
      await api(token);
      expect(await storedExpiry(token)).to.equal(iso(HOUR + MIN + 1));
      // Ten requests at once: each sees a live session; the expiry moves once, forwards.
      at(10 * MIN);
      const answers = await Promise.all(Array.from({ length: 10 }, () => api(token)));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
      expect(await storedExpiry(token)).to.equal(iso(HOUR + 10 * MIN));
      // A clock that stepped back (another process a little behind) never shortens it.
      at(9 * MIN);
      expect((await api(token)).status).to.equal(200);
      expect(await storedExpiry(token)).to.equal(iso(HOUR + 10 * MIN));
    });

    it('sends the jwt cookie again with the new Max-Age when the expiry moved, only to a request that came with that cookie', async () => {
      const token = await signIn();
      at(10 * MIN);
      const p = await page(token);
      expect(p.status).to.equal(200);
      const cookie = p.headers.get('set-cookie')!;
      expect(cookie).to.match(new RegExp(`^jwt=${token}; Max-Age=3600; Path=/; Expires=[^;]+; SameSite=Lax$`));
      expect(cookie).to.not.match(/HttpOnly/i);
      expect(p.headers.get('x-session-expires-in')).to.equal('3600');
      // The page knows its session, for the "Stay signed in" offer.
      const html = await p.text();
      expect(html).to.include('<script type="application/json" id="hr-session">');
      expect(/<script type="application\/json" id="hr-session">([^<]*)<\/script>/.exec(html)![1]).to.match(
        /"expiresIn":3600,"limitIn":42600,"idleMinutes":60,"maxHours":12\}$/,
      );
      // Nothing moved: no cookie.
      at(10 * MIN + 20_000);
      expect((await page(token)).headers.get('set-cookie')).to.equal(null);
      // Bearer only (an outside integration): no cookie is made up.
      at(20 * MIN);
      const bearer = await api(token);
      expect(bearer.headers.get('set-cookie')).to.equal(null);
      expect(bearer.headers.get('x-session-expires-in')).to.equal('3600');
      // The island's calls send both: the cookie follows.
      at(30 * MIN);
      const both = await fetch(`${s.baseUrl}/api/hr/jobs/`, { headers: { Authorization: `Bearer ${token}`, Cookie: `jwt=${token}` } });
      expect(both.headers.get('set-cookie')).to.match(/^jwt=[^;]+; Max-Age=3600; Path=\/;/);
      // A cookie holding another token than the Bearer header's is left alone.
      const other = await signIn();
      at(45 * MIN);
      const mixed = await fetch(`${s.baseUrl}/api/hr/jobs/`, { headers: { Authorization: `Bearer ${token}`, Cookie: `jwt=${other}` } });
      expect(mixed.status).to.equal(200);
      expect(mixed.headers.get('set-cookie')).to.equal(null);
    });

    it('renews with POST /api/hr/session/renew/ for every role, with the Bearer header only', async () => {
      const token = await signIn('slide.recruiter');
      at(58 * MIN);
      const renew = (headers: Record<string, string>, body?: string) =>
        fetch(`${s.baseUrl}/api/hr/session/renew/`, { method: 'POST', headers, body });
      const ok = await renew({ Authorization: `Bearer ${token}` });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('cache-control')).to.equal('no-store');
      expect(await ok.json()).to.deep.equal({ expires_at: iso(58 * MIN + HOUR), expires_in: 3600, limit_at: iso(12 * HOUR) });
      // A body is not read: any is fine.
      expect(
        (
          await renew(
            { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            JSON.stringify({ expires_at: '2099-01-01', minutes: 1e9 }),
          )
        ).status,
      ).to.equal(200);
      expect(await storedExpiry(token), 'what the body said is ignored').to.equal(iso(58 * MIN + HOUR));
      const refused: [Record<string, string>, string][] = [
        [{}, 'Authentication credentials were not provided.'],
        [{ Cookie: `jwt=${token}` }, 'This request must send the token in the Authorization: Bearer header.'],
        [{ Authorization: 'Bearer nope' }, 'Invalid or expired token.'],
        [{ Authorization: `Bearer ${token}x` }, 'Invalid or expired token.'],
        [{ Authorization: `Token ${token}` }, 'Invalid or expired token.'],
        [{ Authorization: `Bearer ${'<script>'.repeat(1000)}` }, 'Invalid or expired token.'],
      ];
      for (const [headers, detail] of refused) {
        const res = await renew(headers);
        expect(res.status, JSON.stringify(headers).slice(0, 60)).to.equal(401);
        expect(await res.json()).to.deep.equal({ detail });
      }
      // Too late: nothing to renew.
      at(58 * MIN + 2 * HOUR);
      const late = await renew({ Authorization: `Bearer ${token}` });
      expect(late.status).to.equal(401);
      expect(await late.json()).to.deep.equal(BAD_TOKEN);
    });

    it("stops a disabled user's session at once, renewed or not", async () => {
      const id = await createHrUser(s.ctx.db, 'slide.leaving');
      const token = await signIn('slide.leaving');
      at(5 * MIN);
      expect((await api(token)).status).to.equal(200);
      await s.ctx.db('hr_users').where({ id }).update({ is_active: false });
      expect((await api(token)).status).to.equal(401);
      expect((await page(token)).status).to.equal(302);
    });
  });

  describe(`HR sessions with SESSION_IDLE_MINUTES=1 and SESSION_MAX_HOURS=1 [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let userId: number;
    before(async () => {
      s = await startTestServer(kind, { SESSION_IDLE_MINUTES: '1', SESSION_MAX_HOURS: '1' });
      userId = await createHrUser(s.ctx.db, 'one.minute');
    });
    after(() => s.close());

    /** A session written through the repo as if signed in `agoMs` ago and last active so that it ends in `leftMs`. */
    const session = async (agoMs: number, leftMs: number) => {
      const signedIn = new Date(Date.now() - agoMs);
      return (await createSession(s.ctx.db, userId, (agoMs + leftMs) / 1000, signedIn)).token;
    };
    const me = (token: string) => fetch(`${s.baseUrl}/api/auth/me/`, { headers: { Authorization: `Bearer ${token}` } });

    it('signs in for one minute: the login page hands the cookie that lifetime', async () => {
      const res = await postToken(s.baseUrl, { username: 'one.minute', password: HR_PASSWORD });
      const { access } = await res.json();
      const expires = new Date((await (await me(access)).json()).expires_at).getTime();
      expect(expires - Date.now()).to.be.within(55_000, 60_500);
      const login = await (await fetch(`${s.baseUrl}/hrviewlogin`)).text();
      expect(login).to.include('"ttlSeconds":60');
    });

    it('renews a session active within the minute, past its first minute (a write every 6 s at most)', async () => {
      // Signed in 50 minutes ago, last active 55 s ago: 5 s left.
      const token = await session(50 * MIN, 5_000);
      const res = await me(token);
      expect(res.status).to.equal(200);
      expect(Number(res.headers.get('x-session-expires-in'))).to.be.within(59, 60);
      const expires = new Date((await res.json()).expires_at).getTime();
      expect(expires - Date.now()).to.be.within(58_000, 60_500);
    });

    it('ends a session idle for over a minute', async () => {
      const token = await session(10 * MIN, -1000);
      const res = await me(token);
      expect(res.status).to.equal(401);
      expect(await res.json()).to.deep.equal(BAD_TOKEN);
      const p = await fetch(`${s.baseUrl}/hr/jobs`, { redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
      expect(p.headers.get('location')).to.equal('/hrviewlogin?next=%2Fhr%2Fjobs');
    });

    it('caps the renewal at an hour after sign-in, and ends a session past it even if its stored expiry is later', async () => {
      const near = await session(HOUR - 20_000, 5_000);
      const res = await me(near);
      expect(res.status).to.equal(200);
      expect(Number(res.headers.get('x-session-expires-in'))).to.be.within(18, 20);
      expect(res.headers.get('x-session-limit-in')).to.equal(res.headers.get('x-session-expires-in'));
      // Written before SESSION_MAX_HOURS was lowered: an expiry beyond the limit does not count.
      const past = await session(HOUR + 1000, 30 * MIN);
      expect((await me(past)).status).to.equal(401);
    });
  });
}

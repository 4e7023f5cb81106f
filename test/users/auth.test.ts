/** Sign-in, logout, /api/auth/me/ and the login page route, over real HTTP. Rate limits: auth-rate-limits.test.ts. */
import { expect } from 'chai';
import { hashPassword } from '../../src/users/lib/passwords.js';
import { hashToken, findSession, findUserByUsername, insertUser } from '../../src/users/repo.js';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { OFF_SITE_NEXT, SAME_SITE_NEXT } from '../fixtures/next-paths.js';
import { createHrUser, expiredToken, liveToken, HR_PASSWORD, postToken } from '../helpers/hr.js';

const FAILED = { detail: 'Invalid credentials or unauthorized.' };

for (const kind of databaseKinds()) {
  describe(`HR sign-in API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let adminId: number;
    before(async () => {
      s = await startTestServer(kind, { SESSION_TTL_SECONDS: '1800' });
      adminId = await createHrUser(s.ctx.db, 'hr.admin');
      await createHrUser(s.ctx.db, 'gone.user', { active: false });
    });
    after(() => s.close());
    beforeEach(() => s.ctx.db('rate_limit_hits').delete());

    const me = (headers: Record<string, string>) => fetch(`${s.baseUrl}/api/auth/me/`, { headers });

    it('signs in with JSON: 200 {access}, an opaque token stored only as its hash, with the configured lifetime', async () => {
      const before = Date.now();
      const res = await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const body = await res.json();
      expect(Object.keys(body)).to.deep.equal(['access']);
      expect(body.access).to.match(/^[A-Za-z0-9_-]{43}$/);
      const row = await s.ctx
        .db('hr_sessions')
        .where({ token_hash: hashToken(body.access) })
        .first();
      expect(row, 'session row').to.exist;
      expect(await s.ctx.db('hr_sessions').where({ token_hash: body.access }).first()).to.equal(undefined);
      const session = (await findSession(s.ctx.db, body.access, new Date()))!;
      const ttl = (session.expiresAt.getTime() - before) / 1000;
      expect(ttl).to.be.within(1799, 1802);
      const user = (await findUserByUsername(s.ctx.db, 'hr.admin'))!;
      expect(user.last_login_at!.getTime()).to.be.within(before - 1000, Date.now() + 1000);
      // The token works as Bearer and as the jwt cookie on a read.
      expect(await (await me({ Authorization: `Bearer ${body.access}` })).json()).to.include({ username: 'hr.admin' });
      const viaCookie = await me({ Cookie: `other=1; jwt=${body.access}` });
      expect(viaCookie.status).to.equal(200);
      expect((await viaCookie.json()).expires_at).to.equal(session.expiresAt.toISOString());
    });

    it('signs in with a form-encoded body and a username in any case with spaces around it', async () => {
      const res = await postToken(s.baseUrl, `username=${encodeURIComponent('  HR.Admin ')}&password=${encodeURIComponent(HR_PASSWORD)}`);
      expect(res.status).to.equal(200);
      const { access } = await res.json();
      expect((await findSession(s.ctx.db, access, new Date()))!.username).to.equal('hr.admin');
    });

    it('refuses a wrong password, an unknown user and a disabled user with the same 401', async () => {
      for (const body of [
        { username: 'hr.admin', password: 'wrong password' },
        { username: 'hr.admin', password: HR_PASSWORD.toUpperCase() },
        { username: 'nobody.here', password: HR_PASSWORD },
        { username: 'gone.user', password: HR_PASSWORD },
      ]) {
        const res = await postToken(s.baseUrl, body);
        expect(res.status, JSON.stringify(body)).to.equal(401);
        expect(await res.json()).to.deep.equal(FAILED);
      }
    });

    it('takes about as long for an unknown user as for a wrong password (a dummy scrypt runs)', async () => {
      // CPU time of this process (the server runs in it; scrypt's thread-pool work counts too), not wall
      // time: a busy machine stretches wall time at random, but not the work a request does.
      const time = async (username: string) => {
        const t = process.cpuUsage();
        await postToken(s.baseUrl, { username, password: 'not the password' });
        const used = process.cpuUsage(t);
        return (used.user + used.system) / 1000;
      };
      // A user whose hash has the app's own parameters (the helper's users have cheaper ones).
      await insertUser(s.ctx.db, 'app.cost', await hashPassword(HR_PASSWORD), new Date());
      await time('nobody'); // warm-up: the dummy hash is computed once
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await time('app.cost'));
        unknown.push(await time(`ghost${i}`));
        await s.ctx.db('rate_limit_hits').delete();
      }
      // scrypt (N=16384) costs tens of milliseconds; without the dummy run an unknown user costs
      // ~1-2 ms. The least of several tries is compared.
      expect(Math.min(...unknown)).to.be.greaterThan(Math.min(...known) * 0.5);
    });

    it('answers missing, wrong-typed, blank and over-long fields with 400 field errors', async () => {
      const cases: Array<[unknown, Record<string, string[]>]> = [
        [{}, { username: ['This field is required.'], password: ['This field is required.'] }],
        [{ username: 'hr.admin' }, { password: ['This field is required.'] }],
        [{ username: null, password: HR_PASSWORD }, { username: ['This field is required.'] }],
        [
          { username: 42, password: ['a'] },
          { username: ['Not a valid string.'], password: ['Not a valid string.'] },
        ],
        [
          { username: { $ne: '' }, password: true },
          { username: ['Not a valid string.'], password: ['Not a valid string.'] },
        ],
        [
          { username: '   ', password: '' },
          { username: ['This field may not be blank.'], password: ['This field may not be blank.'] },
        ],
        [
          [{ username: 'hr.admin', password: HR_PASSWORD }],
          { username: ['This field is required.'], password: ['This field is required.'] },
        ],
        [{ username: 'x'.repeat(257), password: HR_PASSWORD }, { username: ['Ensure this field has no more than 256 characters.'] }],
      ];
      for (const [body, errors] of cases) {
        const res = await postToken(s.baseUrl, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(await res.json()).to.deep.equal(errors);
      }
      // Repeated form fields arrive as a list: not a string.
      const res = await postToken(s.baseUrl, 'username=a&username=b&password=x');
      expect(await res.json()).to.deep.equal({ username: ['Not a valid string.'] });
      // Not JSON at all, or another content type: the fields are missing.
      const bad = await fetch(`${s.baseUrl}/api/auth/token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"username":',
      });
      expect(bad.status).to.equal(400);
      expect((await bad.json()).detail).to.match(/not valid JSON/);
      const text = await fetch(`${s.baseUrl}/api/auth/token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: 'hr.admin:pw',
      });
      expect(text.status).to.equal(400);
    });

    it('refuses a huge password at once, without hashing it', async () => {
      const t = Date.now();
      const res = await postToken(s.baseUrl, { username: 'hr.admin', password: 'p'.repeat(500_000) });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ password: ['Ensure this field has no more than 256 characters.'] });
      expect(Date.now() - t).to.be.lessThan(2000);
      const tooBig = await postToken(s.baseUrl, { username: 'hr.admin', password: 'p'.repeat(2_000_000) });
      expect(tooBig.status).to.equal(413);
      const form = await postToken(s.baseUrl, `username=hr.admin&password=${'p'.repeat(20_000)}`);
      expect(form.status).to.equal(413);
    });

    it('treats hostile strings as plain data', async () => {
      const users = await s.ctx.db('hr_users').count({ n: '*' });
      for (const username of [
        "' OR '1'='1",
        "hr.admin' --",
        'hr.admin"; DROP TABLE hr_users; --',
        '<script>alert(1)</script>',
        'hr.admin\u0000',
        'hr.ädmin',
        'HR.ADMİN',
        'hr.admin\u200b',
        'hr.\u0430dmin',
        '%',
        'hr_admin',
        '../../etc/passwd',
      ]) {
        for (const password of [HR_PASSWORD, "' OR '1'='1", '<img src=x onerror=alert(1)>']) {
          const res = await postToken(s.baseUrl, { username, password });
          expect(res.status, username).to.equal(401);
          expect(res.headers.get('content-type')).to.match(/^application\/json/);
          expect(await res.json()).to.deep.equal(FAILED);
        }
        await s.ctx.db('rate_limit_hits').delete();
      }
      expect(await s.ctx.db('hr_users').count({ n: '*' })).to.deep.equal(users);
    });

    it('logs out: the token is deleted and then refused everywhere', async () => {
      const { access } = await (await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD })).json();
      const bearer = { Authorization: `Bearer ${access}` };
      // A cookie alone cannot log out (a mutation needs the Bearer header).
      let res = await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: { Cookie: `jwt=${access}` } });
      expect(res.status).to.equal(401);
      expect(await findSession(s.ctx.db, access, new Date())).to.not.equal(null);
      res = await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: bearer });
      expect(res.status).to.equal(204);
      expect(await res.text()).to.equal('');
      expect(
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(access) })
          .first(),
      ).to.equal(undefined);
      for (const r of [
        await me(bearer),
        await me({ Cookie: `jwt=${access}` }),
        await fetch(`${s.baseUrl}/api/hr/dashboard/`, { headers: bearer }),
      ]) {
        expect(r.status).to.equal(401);
        expect(await r.json()).to.deep.equal({ detail: 'Invalid or expired token.' });
      }
      res = await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: bearer });
      expect(res.status).to.equal(401);
    });

    it('answers logout and me without a usable token with 401 {detail}', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{}, 'Authentication credentials were not provided.'],
        [{ Authorization: 'Bearer' }, 'Invalid or expired token.'],
        [{ Authorization: 'Bearer not-a-token' }, 'Invalid or expired token.'],
        [{ Authorization: `Basic ${Buffer.from(`hr.admin:${HR_PASSWORD}`).toString('base64')}` }, 'Invalid or expired token.'],
        [{ Authorization: `Bearer ${'A'.repeat(43)}` }, 'Invalid or expired token.'],
      ];
      for (const [headers, detail] of cases) {
        for (const res of [await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers }), await me(headers)]) {
          expect(res.status, JSON.stringify(headers)).to.equal(401);
          expect(res.headers.get('www-authenticate') ?? 'Bearer').to.match(/^Bearer/);
          expect(await res.json()).to.deep.equal({ detail });
        }
      }
      // A malformed Authorization header is refused even next to a valid cookie.
      const token = await liveToken(s.ctx.db, adminId);
      expect((await me({ Authorization: 'Token abc', Cookie: `jwt=${token}` })).status).to.equal(401);
      expect((await me({ Cookie: `jwt=${token}` })).status).to.equal(200);
    });

    it('refuses expired tokens and deletes expired rows on the next sign-in', async () => {
      const old = await expiredToken(s.ctx.db, adminId);
      expect((await me({ Authorization: `Bearer ${old}` })).status).to.equal(401);
      expect((await me({ Cookie: `jwt=${old}` })).status).to.equal(401);
      // Logging out with it is refused too, and removes the row.
      expect(
        (await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: { Authorization: `Bearer ${old}` } })).status,
      ).to.equal(401);
      const older = await expiredToken(s.ctx.db, adminId);
      expect(
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(older) })
          .first(),
      ).to.exist;
      expect((await postToken(s.baseUrl, { username: 'hr.admin', password: HR_PASSWORD })).status).to.equal(200);
      expect(
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(older) })
          .first(),
      ).to.equal(undefined);
      expect(
        await s.ctx
          .db('hr_sessions')
          .where('expires_at', '<=', new Date(Date.now() - 60_000))
          .count({ n: '*' }),
      ).to.deep.equal([{ n: 0 }]);
    });

    it("stops a disabled user's live session at once", async () => {
      const id = await createHrUser(s.ctx.db, 'soon.gone');
      const token = await liveToken(s.ctx.db, id);
      expect((await me({ Authorization: `Bearer ${token}` })).status).to.equal(200);
      await s.ctx.db('hr_users').where({ id }).update({ is_active: false });
      expect((await me({ Authorization: `Bearer ${token}` })).status).to.equal(401);
    });

    describe('login page /hrviewlogin', () => {
      const page = (path: string, cookie?: string) =>
        fetch(`${s.baseUrl}${path}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

      it('shows the form island with the HR header (its path starts with /hr), noindex and no-store', async () => {
        const res = await page('/hrviewlogin');
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        const html = await res.text();
        expect(html).to.include('<title>HR Login</title>');
        expect(html).to.include('<meta name="robots" content="noindex">');
        expect(html).to.include('data-island="hr-login"');
        expect(html).to.match(/<h1[^>]*>HR Login<\/h1>/);
        // Spec 01/02: paths starting with /hr use the HR header, /hrviewlogin included; signed out, without its menu (issue 30).
        expect(html).to.include('class="site-header hr-header"').and.include('<body class="hr">').and.not.include('aria-label="HR"');
        expect(html).to.not.include('aria-label="Main"');
        expect(html).to.not.include('data-logout');
        const props = JSON.parse(/id="island-hr-login-props">([^<]*)</.exec(html)![1]);
        expect(props).to.deep.equal({ next: '/hr/dashboard', ttlSeconds: 1800, idleMinutes: 30, maxHours: 12 });
      });

      it('passes a safe next on to the island and drops unsafe ones', async () => {
        const propsOf = async (next: string) => {
          const html = await (await page(`/hrviewlogin?next=${encodeURIComponent(next)}`)).text();
          return JSON.parse(/id="island-hr-login-props">([^<]*)</.exec(html)![1]).next;
        };
        expect(await propsOf('/hr/jobs/list')).to.equal('/hr/jobs/list');
        expect(await propsOf('/hr/applicants?job_id=3&q=a b')).to.equal('/hr/applicants?job_id=3&q=a%20b');
        for (const bad of [
          '//evil.example/x',
          '/\\evil.example',
          'https://evil.example/',
          'javascript:alert(1)',
          '/hrviewlogin?next=/x',
          '/api/hr/jobs/',
          'hr/dashboard',
          '/\t/evil.example',
          '',
        ]) {
          expect(await propsOf(bad), bad).to.equal('/hr/dashboard');
        }
      });

      it('sends a valid cookie on to next or the dashboard, never off-site', async () => {
        const token = await liveToken(s.ctx.db, adminId);
        let res = await page('/hrviewlogin', `jwt=${token}`);
        expect(res.status).to.equal(302);
        expect(res.headers.get('location')).to.equal('/hr/dashboard');
        res = await page(`/hrviewlogin?next=${encodeURIComponent('/hr/jobs/1/edit')}`, `jwt=${token}`);
        expect(res.headers.get('location')).to.equal('/hr/jobs/1/edit');
        res = await page(`/hrviewlogin?next=${encodeURIComponent('//evil.example')}`, `jwt=${token}`);
        expect(res.headers.get('location')).to.equal('/hr/dashboard');
      });

      it('decides on the normalised target: paths that resolve to another host go to the dashboard, signed in (302) or not (island props)', async () => {
        const token = await liveToken(s.ctx.db, adminId);
        const propsOf = async (query: string) =>
          JSON.parse(/id="island-hr-login-props">([^<]*)</.exec(await (await page(`/hrviewlogin?${query}`)).text())![1]).next;
        for (const bad of OFF_SITE_NEXT) {
          const res = await page(`/hrviewlogin?next=${encodeURIComponent(bad)}`, `jwt=${token}`);
          expect(res.status, JSON.stringify(bad)).to.equal(302);
          expect(res.headers.get('location'), JSON.stringify(bad)).to.equal('/hr/dashboard');
          expect(await propsOf(`next=${encodeURIComponent(bad)}`), JSON.stringify(bad)).to.equal('/hr/dashboard');
        }
        // The same spellings written into the query unencoded, as a link would carry them.
        for (const raw of [
          '/hr/..//evil.example',
          '/.//evil.example',
          '/hr/%2e%2e//evil.example',
          '/hr\\..\\..\\/evil.example',
          '/%2e/%2e%2e//evil.example',
        ]) {
          const res = await page(`/hrviewlogin?next=${raw}`, `jwt=${token}`);
          expect(res.headers.get('location'), raw).to.equal('/hr/dashboard');
        }
        // A repeated next is a list, not a path.
        let res = await page(`/hrviewlogin?next=/hr/jobs&next=${encodeURIComponent('//evil.example')}`, `jwt=${token}`);
        expect(res.headers.get('location')).to.equal('/hr/dashboard');
        for (const [given, want] of SAME_SITE_NEXT) {
          res = await page(`/hrviewlogin?next=${encodeURIComponent(given)}`, `jwt=${token}`);
          expect(res.headers.get('location'), given).to.equal(want);
          expect(new URL(res.headers.get('location')!, `${s.baseUrl}/hrviewlogin`).origin).to.equal(s.baseUrl);
          expect(await propsOf(`next=${encodeURIComponent(given)}`), given).to.equal(want);
        }
      });

      it('clears an invalid or expired cookie and shows the form', async () => {
        for (const cookie of ['jwt=garbage', `jwt=${await expiredToken(s.ctx.db, adminId)}`, 'jwt=%E0%A4%A']) {
          const res = await page('/hrviewlogin', cookie);
          expect(res.status, cookie).to.equal(200);
          expect(res.headers.get('set-cookie')).to.match(/^jwt=; Path=\/; Expires=Thu, 01 Jan 1970/);
        }
      });
    });
  });
}

/**
 * The team without SSH (issue 20) over real HTTP: /api/hr/users/ (list, create with a password or a
 * one-time link, read, PATCH role / disable / enable, password reset both ways), the link's page and
 * POST /api/auth/link/, the role on /api/auth/me/, a recruiter's 403 on every admin route (found
 * by walking the app) and on /hr/users, bad input, and the last-admin rule.
 */
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { ADMIN_ONLY } from '../../src/users/lib/guards.js';
import { checkCredentials } from '../../src/users/lib/passport.js';
import { findUserByUsername, hashToken, NO_PASSWORD } from '../../src/users/repo.js';
import { USER_MESSAGES } from '../../src/users/schema.js';
import { SIGN_IN_LINK_TTL_SECONDS } from '../../src/users/team.service.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, HR_PASSWORD, liveToken, signInOverHttp } from '../helpers/hr.js';
import { concrete, registeredRoutes } from '../helpers/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LINK_PATH = '/hrviewlogin/link/';

for (const kind of databaseKinds()) {
  describe(`team API [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let adminId: number;
    let admin: string;
    let recruiterId: number;
    let recruiter: string;

    before(async () => {
      s = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://careers.example.com' });
      adminId = await createHrUser(s.ctx.db, 'team.admin');
      admin = await liveToken(s.ctx.db, adminId);
      recruiterId = await createHrUser(s.ctx.db, 'team.recruiter', { role: 'recruiter' });
      recruiter = await liveToken(s.ctx.db, recruiterId);
    });
    after(() => s.close());
    beforeEach(() => s.ctx.db('rate_limit_hits').delete());

    const call = async (method: string, path: string, token: string | null, body?: unknown) => {
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(s.baseUrl + path, {
        method,
        headers,
        redirect: 'manual',
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let json: any = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, body: json, headers: res.headers };
    };
    const page = async (path: string, token: string | null) => {
      const res = await fetch(s.baseUrl + path, { redirect: 'manual', headers: token ? { Cookie: `jwt=${token}` } : {} });
      return { status: res.status, html: await res.text(), headers: res.headers };
    };
    const userCount = async () => Number((await s.ctx.db('hr_users').count({ n: '*' }).first())!.n);
    const linkToken = (url: string) => url.slice(`https://careers.example.com${LINK_PATH}`.length);

    it('reports the role on /api/auth/me/, and every existing kind of user is admin or recruiter', async () => {
      expect((await call('GET', '/api/auth/me/', admin)).body).to.include({ username: 'team.admin', role: 'admin' });
      expect((await call('GET', '/api/auth/me/', recruiter)).body).to.include({ username: 'team.recruiter', role: 'recruiter' });
      const me = await call('GET', '/api/auth/me/', admin);
      expect(Object.keys(me.body)).to.deep.equal(['username', 'role', 'expires_at']);
    });

    it('answers a recruiter 403 {detail} on every admin route, before reading the body', async () => {
      const routes = registeredRoutes(createApp(s.ctx)).filter((r) => /^\/api\/hr\/users(\/|$)/.test(r.pattern));
      expect(routes.map((r) => `${r.method} ${r.pattern}`)).to.have.members([
        'GET /api/hr/users/',
        'POST /api/hr/users/',
        'GET /api/hr/users/:id/',
        'PATCH /api/hr/users/:id/',
        'POST /api/hr/users/:id/password/',
        'POST /api/hr/users/:id/sign-in-link/',
      ]);
      for (const r of routes) {
        const path = concrete(r.pattern).replace('/1/', `/${adminId}/`);
        for (const body of MUTATIONS.has(r.method)
          ? [{ role: 'recruiter', password: 'new password 1', username: 'sneaky' }, '{"broken": ']
          : [undefined]) {
          const res = await call(r.method, path, recruiter, body);
          expect(res.status, `${r.method} ${path}`).to.equal(403);
          expect(res.body, `${r.method} ${path}`).to.deep.equal({ detail: ADMIN_ONLY.api });
        }
      }
      // Unknown paths under the admin area too, and any case.
      for (const path of ['/api/hr/users/nothing/', '/api/hr/users', '/API/HR/USERS/']) {
        expect((await call('GET', path, recruiter)).status, path).to.equal(403);
      }
      // Nothing changed.
      expect(await userCount()).to.equal(2);
      expect((await findUserByUsername(s.ctx.db, 'team.admin'))!.role).to.equal('admin');
      expect(await checkCredentials(s.ctx.db, 'team.admin', HR_PASSWORD)).to.not.equal(null);
      // The recruiter keeps every other HR call.
      expect((await call('GET', '/api/hr/dashboard/', recruiter)).status).to.equal(200);
      expect((await call('GET', '/api/hr/jobs/', recruiter)).status).to.equal(200);
    });

    it('shows a recruiter the 403 page at /hr/users, and the Users item only to admins', async () => {
      for (const path of ['/hr/users', '/hr/users?page=2', '/hr/users/anything']) {
        const r = await page(path, recruiter);
        expect(r.status, path).to.equal(403);
        expect(r.headers.get('content-type')).to.match(/^text\/html/);
        expect(r.headers.get('cache-control')).to.equal('no-store');
        expect(r.html).to.include('<title>403 — Access Denied').and.include('<h1>403 — Access Denied</h1>').and.include(ADMIN_ONLY.page);
        expect(r.html).to.include('href="/hr/dashboard">Go to Dashboard</a>');
        expect(r.html, 'no Users item for a recruiter').not.to.include('href="/hr/users"');
      }
      const dash = await page('/hr/dashboard', recruiter);
      expect(dash.status).to.equal(200);
      expect(dash.html).not.to.include('href="/hr/users"');
      const adminDash = await page('/hr/dashboard', admin);
      expect((adminDash.html.match(/<a href="\/hr\/users"[^>]*>Users<\/a>/g) ?? []).length, 'desktop and mobile').to.equal(2);
      const users = await page('/hr/users', admin);
      expect(users.status).to.equal(200);
      expect(users.html).to.include('<h1>Users</h1>').and.include('<a href="/hr/users" aria-current="page">Users</a>');
      expect(users.html).to.include('team.recruiter').and.include('Recruiter').and.include('(you)');
      // Signed out: the sign-in page first, as for every HR page.
      expect((await page('/hr/users', null)).status).to.equal(302);
    });

    it('lists users (no password hashes), paged', async () => {
      const r = await call('GET', '/api/hr/users/', admin);
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ count: 2, next: null, previous: null });
      expect(r.body.results.map((u: any) => [u.username, u.role, u.is_active, u.password_set])).to.deep.equal([
        ['team.admin', 'admin', true, true],
        ['team.recruiter', 'recruiter', true, true],
      ]);
      expect(Object.keys(r.body.results[0])).to.deep.equal([
        'id',
        'username',
        'role',
        'is_active',
        'email',
        'password_set',
        'created_at',
        'last_login_at',
      ]);
      expect(JSON.stringify(r.body)).not.to.include('scrypt');
      const p2 = await call('GET', '/api/hr/users/?page_size=1&page=2', admin);
      expect(p2.body.results.map((u: any) => u.username)).to.deep.equal(['team.recruiter']);
      expect(p2.body.previous).to.equal('https://careers.example.com/api/hr/users/?page_size=1');
      expect((await call('GET', '/api/hr/users/?page=x', admin)).status).to.equal(400);
      expect((await call('GET', '/api/hr/users/?page=9', admin)).status).to.equal(404);
      const one = await call('GET', `/api/hr/users/${recruiterId}/`, admin);
      expect(one.body).to.include({ id: recruiterId, username: 'team.recruiter', role: 'recruiter' });
      for (const id of ['999999', 'abc', '0', '99999999999', '1.0']) {
        const res = await call('GET', `/api/hr/users/${id}/`, admin);
        expect([res.status, res.body], id).to.deep.equal([404, { detail: USER_MESSAGES.notFound }]);
      }
    });

    it('creates a user with a password (recruiter unless told), who can then sign in', async () => {
      const r = await call('POST', '/api/hr/users/', admin, { username: '  Priya.Sharma ', password: 'first password 1' });
      expect(r.status).to.equal(201);
      expect(r.body.sign_in_link).to.equal(null);
      expect(r.body.user).to.include({
        username: 'priya.sharma',
        role: 'recruiter',
        is_active: true,
        password_set: true,
        last_login_at: null,
      });
      const token = await signInOverHttp(s.baseUrl, 'priya.sharma', 'first password 1');
      expect((await call('GET', '/api/auth/me/', token)).body.role).to.equal('recruiter');
      const a = await call('POST', '/api/hr/users/', admin, { username: 'second.admin', role: 'admin', password: 'second password 2' });
      expect([a.status, a.body.user.role]).to.deep.equal([201, 'admin']);
      expect((await call('GET', '/api/auth/me/', await signInOverHttp(s.baseUrl, 'second.admin', 'second password 2'))).body.role).to.equal(
        'admin',
      );
    });

    it('refuses bad input with field errors and writes nothing', async () => {
      const before = await userCount();
      const cases: Array<[unknown, Record<string, string[] | string>]> = [
        [{}, { username: ['This field is required.'] }],
        [{ username: 'ab' }, { username: [USER_MESSAGES.username] }],
        [{ username: '<script>alert(1)</script>' }, { username: [USER_MESSAGES.username] }],
        [{ username: "x'; DROP TABLE hr_users;--" }, { username: [USER_MESSAGES.username] }],
        [{ username: 'a'.repeat(151) }, { username: [USER_MESSAGES.username] }],
        [{ username: 'a'.repeat(100_000) }, { username: [USER_MESSAGES.username] }],
        [{ username: 42 }, { username: ['Must be text.'] }],
        [{ username: ['a', 'b'] }, { username: ['Must be text.'] }],
        [{ username: 'PRIYA.SHARMA' }, { username: [USER_MESSAGES.usernameTaken] }],
        [{ username: 'new.one', role: 'superuser' }, { role: [USER_MESSAGES.role] }],
        [{ username: 'new.one', role: 1 }, { role: [USER_MESSAGES.role] }],
        [{ username: 'new.one', password: 'short' }, { password: ['Password must be at least 8 characters.'] }],
        [{ username: 'new.one', password: 'p'.repeat(257) }, { password: ['Password must be at most 256 characters.'] }],
        [{ username: 'new.one', password: 12345678 }, { password: ['Must be text.'] }],
        [[{ username: 'new.one' }], { detail: USER_MESSAGES.notObject }],
        ['"new.one"', { detail: 'JSON parse error: the request body is not valid JSON.' }],
      ];
      for (const [body, errors] of cases) {
        const r = await call('POST', '/api/hr/users/', admin, body);
        const where = JSON.stringify(body).slice(0, 80);
        expect(r.status, where).to.equal(400);
        for (const [k, v] of Object.entries(errors)) expect(r.body[k], `${where} ${k}`).to.deep.equal(v);
      }
      const broken = await call('POST', '/api/hr/users/', admin, '{"username": ');
      expect(broken.status).to.equal(400);
      expect(await userCount()).to.equal(before);
      expect(await s.ctx.db('hr_user_links').count({ n: '*' }).first()).to.satisfy((row: { n: unknown }) => Number(row.n) === 0);
    });

    it('creates a user with a one-time link: stored hashed, opens a page, sets the password, signs in, once', async () => {
      const before = Date.now();
      const r = await call('POST', '/api/hr/users/', admin, { username: 'new.recruiter', role: 'recruiter' });
      expect(r.status).to.equal(201);
      expect(r.body.user).to.include({ username: 'new.recruiter', role: 'recruiter', password_set: false });
      const link = r.body.sign_in_link;
      expect(link.url).to.match(/^https:\/\/careers\.example\.com\/hrviewlogin\/link\/[A-Za-z0-9_-]{43}$/);
      const expires = new Date(link.expires_at).getTime();
      expect(expires - before).to.be.within(SIGN_IN_LINK_TTL_SECONDS * 1000 - 5000, SIGN_IN_LINK_TTL_SECONDS * 1000 + 5000);
      expect(SIGN_IN_LINK_TTL_SECONDS).to.equal(72 * 3600);
      const token = linkToken(link.url);
      // Only the hash is kept; no password works before the link is used.
      const row = await s.ctx
        .db('hr_user_links')
        .where({ token_hash: hashToken(token) })
        .first();
      expect(row).to.include({ purpose: 'invite' });
      expect(Number(row.created_by)).to.equal(adminId);
      expect(await s.ctx.db('hr_user_links').where({ token_hash: token }).first()).to.equal(undefined);
      expect((await findUserByUsername(s.ctx.db, 'new.recruiter'))!.password_hash).to.equal(NO_PASSWORD);
      for (const pw of ['', NO_PASSWORD, 'anything at all']) expect(await checkCredentials(s.ctx.db, 'new.recruiter', pw)).to.equal(null);

      // The page opens (signed out), and opening it twice uses nothing.
      for (let i = 0; i < 2; i++) {
        const p = await page(LINK_PATH + token, null);
        expect(p.status).to.equal(200);
        expect(p.headers.get('referrer-policy')).to.equal('no-referrer');
        expect(p.headers.get('cache-control')).to.equal('no-store');
        expect(p.html).to.include('<h1 id="link-heading">Set your password</h1>').and.include('new.recruiter');
        expect(p.html).to.include('<meta name="robots" content="noindex">');
      }
      // A bad password uses nothing either.
      const weak = await call('POST', '/api/auth/link/', null, { token, password: 'short' });
      expect([weak.status, weak.body]).to.deep.equal([400, { password: ['Password must be at least 8 characters.'] }]);

      const used = await call('POST', '/api/auth/link/', null, { token, password: 'my own password 1' });
      expect(used.status).to.equal(200);
      expect(Object.keys(used.body)).to.deep.equal(['access']);
      expect((await call('GET', '/api/auth/me/', used.body.access)).body).to.include({ username: 'new.recruiter', role: 'recruiter' });
      expect(await checkCredentials(s.ctx.db, 'new.recruiter', 'my own password 1')).to.not.equal(null);

      // Used: the API and the page say so, and nothing changes.
      const again = await call('POST', '/api/auth/link/', null, { token, password: 'another password 2' });
      expect([again.status, again.body]).to.deep.equal([410, { detail: USER_MESSAGES.linkUsed }]);
      const p = await page(LINK_PATH + token, null);
      expect(p.status).to.equal(410);
      expect(p.html).to.include(USER_MESSAGES.linkUsed).and.include('href="/hrviewlogin"').and.not.include('island-sign-in-link');
      expect(await checkCredentials(s.ctx.db, 'new.recruiter', 'my own password 1')).to.not.equal(null);
      const list = await call('GET', '/api/hr/users/', admin);
      expect(list.body.results.find((u: any) => u.username === 'new.recruiter')).to.include({ password_set: true });
    });

    it('answers expired, unknown and malformed links clearly, and lets exactly one of two racing uses win', async () => {
      const r = await call('POST', '/api/hr/users/', admin, { username: 'late.user' });
      const token = linkToken(r.body.sign_in_link.url);
      await s.ctx
        .db('hr_user_links')
        .where({ token_hash: hashToken(token) })
        .update({ expires_at: new Date(Date.now() - 1000) });
      const api = await call('POST', '/api/auth/link/', null, { token, password: 'late password 1' });
      expect([api.status, api.body]).to.deep.equal([410, { detail: USER_MESSAGES.linkExpired }]);
      const p = await page(LINK_PATH + token, null);
      expect(p.status).to.equal(410);
      expect(p.html).to.include(USER_MESSAGES.linkExpired);
      expect((await findUserByUsername(s.ctx.db, 'late.user'))!.password_hash).to.equal(NO_PASSWORD);

      for (const bad of ['x'.repeat(43), 'not-a-token', '%3Cscript%3E', 'a'.repeat(300)]) {
        expect((await page(LINK_PATH + bad, null)).status, bad).to.equal(404);
        const res = await call('POST', '/api/auth/link/', null, { token: decodeURIComponent(bad), password: 'some password 1' });
        expect(res.status, bad).to.be.oneOf([400, 404]);
      }
      expect((await call('POST', '/api/auth/link/', null, { token: 'x'.repeat(43), password: 'some password 1' })).body).to.deep.equal({
        detail: USER_MESSAGES.linkInvalid,
      });
      const missing = await call('POST', '/api/auth/link/', null, { password: 'some password 1' });
      expect([missing.status, missing.body]).to.deep.equal([400, { token: ['This field is required.'] }]);
      expect((await call('POST', '/api/auth/link/', null, [])).status).to.equal(400);

      // A fresh link, used twice at once: one answer 200, the other 410.
      const fresh = await call('POST', `/api/hr/users/${r.body.user.id}/sign-in-link/`, admin);
      const t2 = linkToken(fresh.body.sign_in_link.url);
      const both = await Promise.all([
        call('POST', '/api/auth/link/', null, { token: t2, password: 'racing password 1' }),
        call('POST', '/api/auth/link/', null, { token: t2, password: 'racing password 2' }),
      ]);
      expect(both.map((b) => b.status).sort()).to.deep.equal([200, 410]);
      const winner = both.find((b) => b.status === 200)!;
      const winnerPassword = winner === both[0] ? 'racing password 1' : 'racing password 2';
      expect(await checkCredentials(s.ctx.db, 'late.user', winnerPassword)).to.not.equal(null);
    });

    it('changes roles, disables (ending sessions and links) and enables users', async () => {
      const id = await createHrUser(s.ctx.db, 'role.change', { role: 'recruiter' });
      const token = await liveToken(s.ctx.db, id);
      let r = await call('PATCH', `/api/hr/users/${id}/`, admin, { role: 'admin' });
      expect([r.status, r.body.role]).to.deep.equal([200, 'admin']);
      // The role applies to the live session at once.
      expect((await call('GET', '/api/auth/me/', token)).body.role).to.equal('admin');
      expect((await call('GET', '/api/hr/users/', token)).status).to.equal(200);
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { role: 'recruiter' });
      expect(r.body.role).to.equal('recruiter');
      expect((await call('GET', '/api/hr/users/', token)).status).to.equal(403);

      // Disabling ends every session and voids an unused link.
      const link = await call('POST', `/api/hr/users/${id}/sign-in-link/`, admin);
      const linkT = linkToken(link.body.sign_in_link.url);
      const token2 = await liveToken(s.ctx.db, id);
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { is_active: false });
      expect([r.status, r.body.is_active]).to.deep.equal([200, false]);
      for (const t of [token, token2]) expect((await call('GET', '/api/auth/me/', t)).status).to.equal(401);
      expect(await s.ctx.db('hr_sessions').where({ user_id: id }).count({ n: '*' }).first()).to.satisfy(
        (row: { n: unknown }) => Number(row.n) === 0,
      );
      expect((await page(LINK_PATH + linkT, null)).status).to.equal(404);
      // A disabled user gets no link.
      const noLink = await call('POST', `/api/hr/users/${id}/sign-in-link/`, admin);
      expect([noLink.status, noLink.body]).to.deep.equal([409, { detail: USER_MESSAGES.disabledLink }]);
      // Enabled, they sign in again (with the password set before).
      await call('POST', `/api/hr/users/${id}/password/`, admin, { password: 'back again 123' });
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { is_active: true });
      expect(r.body.is_active).to.equal(true);
      await signInOverHttp(s.baseUrl, 'role.change', 'back again 123');
      // Both at once.
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { role: 'admin', is_active: false });
      expect([r.body.role, r.body.is_active]).to.deep.equal(['admin', false]);
    });

    it('refuses bad PATCH input with field errors, changing nothing', async () => {
      const id = await createHrUser(s.ctx.db, 'patch.target', { role: 'recruiter' });
      const cases: Array<[unknown, Record<string, string[] | string>]> = [
        [{}, { detail: USER_MESSAGES.emptyPatch }],
        [{ username: 'renamed' }, { detail: USER_MESSAGES.emptyPatch }],
        [{ role: 'owner' }, { role: [USER_MESSAGES.role] }],
        [{ role: null }, { role: [USER_MESSAGES.role] }],
        [{ role: '<b>admin</b>' }, { role: [USER_MESSAGES.role] }],
        [{ is_active: 'false' }, { is_active: [USER_MESSAGES.isActive] }],
        [{ is_active: 0 }, { is_active: [USER_MESSAGES.isActive] }],
        [{ role: 'admin', is_active: 'yes' }, { is_active: [USER_MESSAGES.isActive] }],
        [[{ role: 'admin' }], { detail: USER_MESSAGES.notObject }],
      ];
      for (const [body, errors] of cases) {
        const r = await call('PATCH', `/api/hr/users/${id}/`, admin, body);
        expect([r.status, r.body], JSON.stringify(body)).to.deep.equal([400, errors]);
      }
      const after = (await findUserByUsername(s.ctx.db, 'patch.target'))!;
      expect([after.role, after.is_active]).to.deep.equal(['recruiter', true]);
      for (const path of ['/api/hr/users/999999/', '/api/hr/users/x/', '/api/hr/users/-1/']) {
        const r = await call('PATCH', path, admin, { role: 'admin' });
        expect([r.status, r.body], path).to.deep.equal([404, { detail: USER_MESSAGES.notFound }]);
      }
      const big = await call('PATCH', `/api/hr/users/${id}/`, admin, { role: 'admin', filler: 'x'.repeat(17 * 1024 * 1024) });
      expect(big.status).to.equal(413);
    });

    it('sets a password for a user: their sessions end, the old password stops, links go', async () => {
      const id = await createHrUser(s.ctx.db, 'reset.me', { role: 'recruiter' });
      const t = await liveToken(s.ctx.db, id);
      const pending = linkToken((await call('POST', `/api/hr/users/${id}/sign-in-link/`, admin)).body.sign_in_link.url);
      await call('POST', `/api/hr/users/${id}/password/`, admin, { password: 'temporary pw 1' });
      const r = await call('POST', `/api/hr/users/${id}/password/`, admin, { password: 'admin set pw 2' });
      expect([r.status, r.body.sign_in_link, r.body.user.password_set]).to.deep.equal([200, null, true]);
      expect((await call('GET', '/api/auth/me/', t)).status).to.equal(401);
      expect(await checkCredentials(s.ctx.db, 'reset.me', 'temporary pw 1')).to.equal(null);
      expect(await checkCredentials(s.ctx.db, 'reset.me', 'admin set pw 2')).to.not.equal(null);
      expect((await page(LINK_PATH + pending, null)).status).to.equal(404);
      for (const [body, field, msg] of [
        [{}, 'password', 'This field is required.'],
        [{ password: 'short' }, 'password', 'Password must be at least 8 characters.'],
        [{ password: true }, 'password', 'Must be text.'],
      ] as const) {
        const bad = await call('POST', `/api/hr/users/${id}/password/`, admin, body);
        expect([bad.status, bad.body], JSON.stringify(body)).to.deep.equal([400, { [field]: [msg] }]);
      }
      expect(await checkCredentials(s.ctx.db, 'reset.me', 'admin set pw 2')).to.not.equal(null);
      expect((await call('POST', '/api/hr/users/999999/password/', admin, { password: 'admin set pw 3' })).status).to.equal(404);
      expect((await call('POST', '/api/hr/users/999999/sign-in-link/', admin)).status).to.equal(404);
    });

    it('resets a password with a link: the old password and sessions end now, a newer link replaces an older one', async () => {
      const id = await createHrUser(s.ctx.db, 'forgot.pw', { role: 'recruiter' });
      const t = await liveToken(s.ctx.db, id);
      const first = linkToken((await call('POST', `/api/hr/users/${id}/sign-in-link/`, admin)).body.sign_in_link.url);
      expect(await checkCredentials(s.ctx.db, 'forgot.pw', HR_PASSWORD)).to.equal(null);
      expect((await call('GET', '/api/auth/me/', t)).status).to.equal(401);
      const r = await call('POST', `/api/hr/users/${id}/sign-in-link/`, admin);
      expect(r.status).to.equal(201);
      expect(r.body.user.password_set).to.equal(false);
      const second = linkToken(r.body.sign_in_link.url);
      expect(
        (
          await s.ctx
            .db('hr_user_links')
            .where({ token_hash: hashToken(second) })
            .first()
        ).purpose,
      ).to.equal('reset');
      expect((await call('POST', '/api/auth/link/', null, { token: first, password: 'from first link' })).status).to.equal(404);
      const ok = await call('POST', '/api/auth/link/', null, { token: second, password: 'from second link' });
      expect(ok.status).to.equal(200);
      expect(await checkCredentials(s.ctx.db, 'forgot.pw', 'from second link')).to.not.equal(null);
    });

    it('keeps one active admin: the last one cannot demote or disable themselves (409)', async () => {
      // Every admin but team.admin goes (disabled admins do not count).
      const others = (await s.ctx.db('hr_users').where({ role: 'admin' }).whereNot({ id: adminId }).select('id')).map((r: any) =>
        Number(r.id),
      );
      for (const id of others) expect((await call('PATCH', `/api/hr/users/${id}/`, admin, { is_active: false })).status).to.equal(200);
      for (const body of [
        { role: 'recruiter' },
        { is_active: false },
        { role: 'recruiter', is_active: false },
        { role: 'recruiter', is_active: true },
      ]) {
        const r = await call('PATCH', `/api/hr/users/${adminId}/`, admin, body);
        expect([r.status, r.body], JSON.stringify(body)).to.deep.equal([409, { detail: USER_MESSAGES.lastAdmin }]);
      }
      expect((await findUserByUsername(s.ctx.db, 'team.admin'))!).to.include({ role: 'admin', is_active: true });
      expect((await call('GET', '/api/auth/me/', admin)).status).to.equal(200);
      // A no-op PATCH of the last admin is fine.
      expect((await call('PATCH', `/api/hr/users/${adminId}/`, admin, { role: 'admin', is_active: true })).status).to.equal(200);
      // With a second active admin, either may step down; then the other is the last.
      const b = await call('POST', '/api/hr/users/', admin, { username: 'backup.admin', role: 'admin', password: 'backup password' });
      const bToken = await signInOverHttp(s.baseUrl, 'backup.admin', 'backup password');
      const down = await call('PATCH', `/api/hr/users/${adminId}/`, admin, { role: 'recruiter' });
      expect([down.status, down.body.role]).to.deep.equal([200, 'recruiter']);
      expect((await call('GET', '/api/hr/users/', admin)).status).to.equal(403);
      const last = await call('PATCH', `/api/hr/users/${b.body.user.id}/`, bToken, { is_active: false });
      expect([last.status, last.body]).to.deep.equal([409, { detail: USER_MESSAGES.lastAdmin }]);
      // Two admins stepping down at once: one stays.
      expect((await call('PATCH', `/api/hr/users/${adminId}/`, bToken, { role: 'admin' })).status).to.equal(200);
      const both = await Promise.all([
        call('PATCH', `/api/hr/users/${adminId}/`, admin, { role: 'recruiter' }),
        call('PATCH', `/api/hr/users/${b.body.user.id}/`, bToken, { role: 'recruiter' }),
      ]);
      expect(both.map((x) => x.status).sort()).to.deep.equal([200, 409]);
      const active = await s.ctx.db('hr_users').where({ role: 'admin', is_active: true }).count({ n: '*' }).first();
      expect(Number(active!.n)).to.equal(1);
    });
  });
}

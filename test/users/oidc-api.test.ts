/**
 * Company sign-in (issue 30) end to end over real HTTP against a real OpenID provider
 * (oidc-provider on 127.0.0.1, test/helpers/oidc-provider.ts): the button's redirect with PKCE,
 * state and nonce, the provider's login and consent, the callback, the session afterwards (the
 * same as a password sign-in's), and every refusal landing back on /hrviewlogin with words:
 * unknown, unverified and missing email, disabled user, cancelled at the provider, tampered or
 * missing state, a forged flow cookie, a replayed callback, the provider unreachable. Also
 * OIDC_AUTO_CREATE=recruiter, OIDC_ONLY (a recruiter's password refused, an admin's taken) and HR
 * users' email addresses on /api/hr/users/ and /hr/users.
 */
import { expect } from 'chai';
import {
  OIDC_CALLBACK_PATH,
  OIDC_ERROR_MESSAGES,
  OIDC_FLOW_COOKIE,
  OidcFailure,
  OidcSignIn,
  oidcOnlyMessage,
} from '../../src/users/lib/oidc.js';
import { oidcLoginLocals } from '../../src/users/oidc.pages.js';
import { findUserByEmail, findUserByUsername } from '../../src/users/repo.js';
import { AUTH_MESSAGES, USER_MESSAGES } from '../../src/users/schema.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, HR_PASSWORD, liveToken, postToken } from '../helpers/hr.js';
import { CookieJar, providerSignIn, startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** PUBLIC_BASE_URL: what the provider redirects to; the test then calls the real server's port. */
const PUBLIC = 'http://careers.test';
const NAME = 'Acme SSO';

for (const kind of databaseKinds()) {
  describe(`company sign-in (OpenID Connect) [${kind}]`, function () {
    this.timeout(120_000);
    let op: TestProvider;
    let s: TestServer;
    let admin: string;

    before(async () => {
      op = await startOidcProvider(
        [PUBLIC + OIDC_CALLBACK_PATH],
        [
          { sub: 'ada', email: 'Ada.Lovelace@Example.com', email_verified: true },
          { sub: 'stranger', email: 'stranger@example.com', email_verified: true },
          { sub: 'unverified', email: 'grace@example.com', email_verified: false },
          { sub: 'no-email' },
          { sub: 'disabled', email: 'off@example.com', email_verified: true },
          { sub: 'newbie', email: 'New.Person@Example.org', email_verified: 'true' },
        ],
      );
      s = await startTestServer(kind, {
        PUBLIC_BASE_URL: PUBLIC,
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: op.clientId,
        OIDC_CLIENT_SECRET: op.clientSecret,
        OIDC_PROVIDER_NAME: NAME,
      });
      admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'oidc.admin'));
      await createHrUser(s.ctx.db, 'grace', { role: 'recruiter' });
      await s.ctx.db('hr_users').where({ username: 'grace' }).update({ email: 'grace@example.com' });
      const off = await createHrUser(s.ctx.db, 'off.user', { role: 'recruiter', active: false });
      await s.ctx.db('hr_users').where({ id: off }).update({ email: 'off@example.com' });
    });
    after(async () => {
      await s?.close();
      await op?.close();
    });
    beforeEach(async () => {
      await s.ctx.db('rate_limit_hits').delete();
      s.ctx.config.oidc!.autoCreate = 'off';
      s.ctx.config.oidc!.only = false;
    });

    const call = async (method: string, path: string, token: string | null, body?: unknown) => {
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(s.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };

    /** The button's link, then the provider, then the callback on the real server. */
    async function companySignIn(
      login: string,
      opts: { next?: string; abort?: boolean; callback?: (url: URL, jar: CookieJar) => void } = {},
    ) {
      const jar = new CookieJar();
      const start = await fetch(`${s.baseUrl}/hrviewlogin/oidc?next=${encodeURIComponent(opts.next ?? '/hr/applicants?stage=applied')}`, {
        redirect: 'manual',
      });
      expect(start.status).to.equal(303);
      jar.take(start);
      const authorization = new URL(start.headers.get('location')!);
      const back = new URL(await providerSignIn(authorization.href, login, PUBLIC + OIDC_CALLBACK_PATH, { abort: opts.abort }));
      opts.callback?.(back, jar);
      const res = await fetch(s.baseUrl + back.pathname + back.search, { redirect: 'manual', headers: { Cookie: jar.header() } });
      jar.take(res);
      return { authorization, back, res, location: res.headers.get('location') ?? '', jar };
    }

    /** The login page a failure lands on, with its message. */
    async function failure(location: string) {
      const url = new URL(location, s.baseUrl);
      expect(url.pathname).to.equal('/hrviewlogin');
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      return { code: url.searchParams.get('oidc_error'), next: url.searchParams.get('next'), html: await res.text() };
    }

    const me = async (token: string) => call('GET', '/api/auth/me/', token);
    const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');

    it('shows "Sign in with <provider>" on the login page, which starts the code flow with PKCE, state and nonce', async () => {
      const html = await (await fetch(`${s.baseUrl}/hrviewlogin?next=%2Fhr%2Fjobs`)).text();
      expect(html).to.include(`href="/hrviewlogin/oidc?next=%2Fhr%2Fjobs">Sign in with ${NAME}</a>`);
      expect(html).to.not.include('oidc-only-note');
      const start = await fetch(`${s.baseUrl}/hrviewlogin/oidc?next=%2Fhr%2Fjobs`, { redirect: 'manual' });
      expect(start.status).to.equal(303);
      const to = new URL(start.headers.get('location')!);
      expect(to.origin).to.equal(op.issuer);
      expect(to.searchParams.get('client_id')).to.equal(op.clientId);
      expect(to.searchParams.get('redirect_uri')).to.equal(`${PUBLIC}/hrviewlogin/oidc/callback`);
      expect(to.searchParams.get('response_type')).to.equal('code');
      expect(to.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(to.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(to.searchParams.get('state')).to.have.length.greaterThan(20);
      expect(to.searchParams.get('nonce')).to.have.length.greaterThan(20);
      expect(to.searchParams.get('scope')).to.equal('openid email profile');
      const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_FLOW_COOKIE}=`))!;
      expect(cookie)
        .to.match(/HttpOnly/i)
        .and.match(/SameSite=Lax/i)
        .and.match(/Path=\/hrviewlogin\/oidc/)
        .and.match(/Max-Age=600/);
      // The verifier never leaves in the address.
      expect(start.headers.get('location')).to.not.include('code_verifier');
    });

    it('signs in a user whose email the provider verified: the same session as a password sign-in, then the next page', async () => {
      const ada = await call('POST', '/api/hr/users/', admin, { username: 'ada', role: 'recruiter', email: ' ADA.lovelace@example.COM ' });
      expect(ada.status).to.equal(201);
      expect(ada.body.user.email).to.equal('ada.lovelace@example.com');
      const { res, location, jar } = await companySignIn('ada');
      expect(res.status).to.equal(303);
      expect(location).to.equal('/hrviewlogin/oidc/done?next=%2Fhr%2Fapplicants%3Fstage%3Dapplied');
      const token = decodeURIComponent(jar.cookies.get('jwt')!);
      const set = res.headers.getSetCookie().find((c) => c.startsWith('jwt='))!;
      expect(set)
        .to.match(/Max-Age=3600/)
        .and.match(/Path=\//)
        .and.match(/SameSite=Lax/i)
        .and.not.match(/HttpOnly/i);
      // The flow cookie is gone: one use.
      expect(res.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_FLOW_COOKIE}=`))).to.match(/Expires=Thu, 01 Jan 1970/);
      const who = await me(token);
      expect(who.status).to.equal(200);
      expect(who.body).to.include({ username: 'ada', role: 'recruiter' });
      expect((await findUserByUsername(s.ctx.db, 'ada'))!.last_login_at).to.not.equal(null);
      // The hand-off page: the island stores the token in localStorage too, then goes on.
      const done = await fetch(s.baseUrl + location, { headers: { Cookie: `jwt=${encodeURIComponent(token)}` } });
      expect(done.status).to.equal(200);
      const html = await done.text();
      expect(html).to.include('"handoff":true').and.include('/hr/applicants?stage=applied');
      // Without a session the hand-off page sends to the login page.
      const none = await fetch(s.baseUrl + location, { redirect: 'manual' });
      expect(none.status).to.equal(303);
      expect(none.headers.get('location')).to.equal('/hrviewlogin?next=%2Fhr%2Fapplicants%3Fstage%3Dapplied');
      // An HR page works with the cookie, and logout ends the session as usual.
      const page = await fetch(`${s.baseUrl}/hr/dashboard`, {
        redirect: 'manual',
        headers: { Cookie: `jwt=${encodeURIComponent(token)}` },
      });
      expect(page.status).to.equal(200);
      expect(
        (await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status,
      ).to.equal(204);
    });

    it('keeps only a same-site next: an off-site one lands on the dashboard', async () => {
      const { location } = await companySignIn('ada', { next: '//evil.example/x' });
      expect(location).to.equal('/hrviewlogin/oidc/done?next=%2Fhr%2Fdashboard');
    });

    it('refuses an unknown email (no account is made) and an unverified or missing one, with words on the login page', async () => {
      const users = Number((await s.ctx.db('hr_users').count({ n: '*' }).first())!.n);
      let r = await companySignIn('stranger');
      let f = await failure(r.location);
      expect(f.code).to.equal('unknown');
      expect(f.next).to.equal('/hr/applicants?stage=applied');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.unknown(NAME)));
      expect(r.jar.cookies.has('jwt')).to.equal(false);
      expect(Number((await s.ctx.db('hr_users').count({ n: '*' }).first())!.n)).to.equal(users);

      r = await companySignIn('unverified');
      f = await failure(r.location);
      expect(f.code).to.equal('unverified');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.unverified(NAME)));

      r = await companySignIn('no-email');
      f = await failure(r.location);
      expect(f.code).to.equal('no-email');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES['no-email'](NAME)));
    });

    it('refuses a disabled user', async () => {
      const r = await companySignIn('disabled');
      const f = await failure(r.location);
      expect(f.code).to.equal('disabled');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.disabled(NAME)));
      expect(r.jar.cookies.has('jwt')).to.equal(false);
    });

    it('with OIDC_AUTO_CREATE=recruiter makes a recruiter for an unknown verified email, once', async () => {
      s.ctx.config.oidc!.autoCreate = 'recruiter';
      const first = await companySignIn('newbie');
      expect(first.location).to.match(/^\/hrviewlogin\/oidc\/done\?/);
      const made = (await findUserByEmail(s.ctx.db, 'new.person@example.org'))!;
      expect(made).to.include({ username: 'new.person@example.org', role: 'recruiter', is_active: true });
      const who = await me(decodeURIComponent(first.jar.cookies.get('jwt')!));
      expect(who.body).to.include({ username: 'new.person@example.org', role: 'recruiter' });
      // No password: only company sign-in (or a link) lets them in.
      expect((await postToken(s.baseUrl, { username: 'new.person@example.org', password: '!' })).status).to.equal(401);
      const again = await companySignIn('newbie');
      expect(again.location).to.match(/^\/hrviewlogin\/oidc\/done\?/);
      expect(Number((await s.ctx.db('hr_users').where({ email: 'new.person@example.org' }).count({ n: '*' }).first())!.n)).to.equal(1);
      // Still never for an unverified address.
      expect((await failure((await companySignIn('unverified')).location)).code).to.equal('unverified');
    });

    it('refuses a tampered state, a missing or forged flow cookie and a replayed callback', async () => {
      let r = await companySignIn('ada', {
        callback: (url) => url.searchParams.set('state', `${url.searchParams.get('state')!.slice(0, -2)}xy`),
      });
      const f = await failure(r.location);
      expect(f.code).to.equal('state');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.state(NAME)));
      expect(r.jar.cookies.has('jwt')).to.equal(false);

      r = await companySignIn('ada', { callback: (_url, jar) => jar.cookies.delete(OIDC_FLOW_COOKIE) });
      expect((await failure(r.location)).code).to.equal('state');

      r = await companySignIn('ada', {
        callback: (_url, jar) => {
          const v = jar.cookies.get(OIDC_FLOW_COOKIE)!;
          jar.cookies.set(OIDC_FLOW_COOKIE, `${v.slice(0, -1)}${v.endsWith('0') ? '1' : '0'}`);
        },
      });
      expect((await failure(r.location)).code).to.equal('state');

      // The state of another flow (someone else's callback pasted into this browser) does not match this one's cookie.
      let otherState = '';
      await companySignIn('ada', {
        callback: (url) => {
          otherState = url.searchParams.get('state')!;
        },
      });
      r = await companySignIn('ada', { callback: (url) => url.searchParams.set('state', otherState) });
      expect((await failure(r.location)).code).to.equal('state');

      // Replaying a callback with its (cleared) cookie kept: the code was used, so no second session.
      let saved: { url: URL; cookie: string } | null = null;
      const ok = await companySignIn('ada', {
        callback: (url, jar) => {
          saved = { url: new URL(url), cookie: jar.header() };
        },
      });
      expect(ok.location).to.match(/^\/hrviewlogin\/oidc\/done\?/);
      const replay = await fetch(s.baseUrl + saved!.url.pathname + saved!.url.search, {
        redirect: 'manual',
        headers: { Cookie: saved!.cookie },
      });
      expect(replay.status).to.equal(303);
      expect((await failure(replay.headers.get('location')!)).code).to.equal('failed');

      // A callback with no query at all, or garbage, is the same refusal, never a 500.
      for (const q of ['', '?code=x', '?state=%00%ff&code=' + 'a'.repeat(5000), '?error=<script>']) {
        const res = await fetch(`${s.baseUrl}/hrviewlogin/oidc/callback${q}`, { redirect: 'manual' });
        expect(res.status, q).to.equal(303);
        expect(res.headers.get('location'), q).to.equal('/hrviewlogin?oidc_error=state');
      }
      // An unknown error code on the login page shows nothing (nothing from the address is echoed).
      const page = await (await fetch(`${s.baseUrl}/hrviewlogin?oidc_error=%3Cb%3Ehi`)).text();
      expect(page).to.not.include('oidc-error').and.not.include('<b>hi');
    });

    it('says so when the user cancels at the provider (its error parameter)', async () => {
      const r = await companySignIn('ada', { abort: true });
      expect(r.back.searchParams.get('error')).to.equal('access_denied');
      const f = await failure(r.location);
      expect(f.code).to.equal('denied');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.denied(NAME)));
    });

    it("with OIDC_ONLY=true refuses a recruiter's right password with a clear message and takes an admin's", async () => {
      s.ctx.config.oidc!.only = true;
      const html = await (await fetch(`${s.baseUrl}/hrviewlogin`)).text();
      expect(html)
        .to.include('id="oidc-only-note"')
        .and.include(`Password sign-in below is only for admins (when ${NAME} is unavailable).`);
      await s.ctx.db('hr_users').where({ username: 'grace' }).first();
      let res = await postToken(s.baseUrl, { username: 'grace', password: HR_PASSWORD });
      expect(res.status).to.equal(403);
      expect(await res.json()).to.deep.equal({ detail: oidcOnlyMessage(NAME) });
      // A wrong password says only what it always says.
      res = await postToken(s.baseUrl, { username: 'grace', password: 'wrong password' });
      expect(res.status).to.equal(401);
      expect(await res.json()).to.deep.equal({ detail: AUTH_MESSAGES.loginFailed });
      res = await postToken(s.baseUrl, 'username=oidc.admin&password=' + encodeURIComponent(HR_PASSWORD));
      expect(res.status).to.equal(200);
      expect((await res.json()).access).to.be.a('string');
      // A one-time link sets a password and signs in: an admin's only (a recruiter's stays unused).
      const invited = await call('POST', '/api/hr/users/', admin, { username: 'invited.rec', email: 'invited@example.com' });
      const linkToken = invited.body.sign_in_link.url.split('/').pop();
      let link = await call('POST', '/api/auth/link/', null, { token: linkToken, password: 'a new password' });
      expect(link).to.deep.include({ status: 403, body: { detail: oidcOnlyMessage(NAME) } });
      const invitedAdmin = await call('POST', '/api/hr/users/', admin, { username: 'invited.admin', role: 'admin' });
      link = await call('POST', '/api/auth/link/', null, {
        token: invitedAdmin.body.sign_in_link.url.split('/').pop(),
        password: 'a new password',
      });
      expect(link.status).to.equal(200);
      s.ctx.config.oidc!.only = false;
      link = await call('POST', '/api/auth/link/', null, { token: linkToken, password: 'a new password' });
      expect(link.status).to.equal(200);
      s.ctx.config.oidc!.only = true;
      // Company sign-in still works for the recruiter.
      const r = await companySignIn('ada');
      expect(r.location).to.match(/^\/hrviewlogin\/oidc\/done\?/);
    });

    it('gives HR users an email address: unique ignoring case, editable by admins, shown on /hr/users; bad input refused', async () => {
      const made = await call('POST', '/api/hr/users/', admin, {
        username: 'mail.user',
        password: HR_PASSWORD,
        email: 'Mail.User@Example.com',
      });
      expect(made.status).to.equal(201);
      const id = made.body.user.id;
      expect(made.body.user.email).to.equal('mail.user@example.com');
      expect(await call('POST', '/api/hr/users/', admin, { username: 'mail.two', email: 'MAIL.USER@example.com' })).to.deep.include({
        status: 400,
        body: { email: [USER_MESSAGES.emailTaken] },
      });
      expect(await call('PATCH', `/api/hr/users/${id}/`, admin, { email: 'ADA.LOVELACE@example.com' })).to.deep.include({
        status: 400,
        body: { email: [USER_MESSAGES.emailTaken] },
      });
      for (const bad of [
        42,
        'not-an-email',
        'a@b',
        `${'x'.repeat(190)}@example.com`,
        ['a@example.com'],
        { a: 1 },
        'a b@example.com',
        '<script>@example.com',
      ]) {
        const r = await call('PATCH', `/api/hr/users/${id}/`, admin, { email: bad });
        expect(r, JSON.stringify(bad)).to.deep.include({ status: 400, body: { email: [USER_MESSAGES.email] } });
      }
      let r = await call('PATCH', `/api/hr/users/${id}/`, admin, { email: ' Renamed@Example.com ' });
      expect(r.status).to.equal(200);
      expect(r.body.email).to.equal('renamed@example.com');
      // Its own address again is no clash.
      expect((await call('PATCH', `/api/hr/users/${id}/`, admin, { email: 'renamed@example.com' })).status).to.equal(200);
      const page = await (await fetch(`${s.baseUrl}/hr/users`, { headers: { Cookie: `jwt=${admin}` } })).text();
      expect(page).to.include('renamed@example.com');
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { email: '' });
      expect(r.body.email).to.equal(null);
      r = await call('PATCH', `/api/hr/users/${id}/`, admin, { email: null });
      expect(r.status).to.equal(200);
      expect(r.body.email).to.equal(null);
      // Several users without an address are fine; a recruiter cannot change one.
      const recruiter = await liveToken(s.ctx.db, (await findUserByUsername(s.ctx.db, 'grace'))!.id);
      expect((await call('PATCH', `/api/hr/users/${id}/`, recruiter, { email: 'x@example.com' })).status).to.equal(403);
      expect((await call('PATCH', `/api/hr/users/${id}/`, null, { email: 'x@example.com' })).status).to.equal(401);
    });

    it('says so when the provider cannot be reached, never a 500', async () => {
      // Signed in at the provider, which then stops before the code is exchanged.
      const jar = new CookieJar();
      const start = await fetch(`${s.baseUrl}/hrviewlogin/oidc?next=%2Fhr%2Fjobs`, { redirect: 'manual' });
      jar.take(start);
      const back = new URL(await providerSignIn(start.headers.get('location')!, 'ada', PUBLIC + OIDC_CALLBACK_PATH));
      const cookie = jar.header();
      await op.close();
      const res = await fetch(s.baseUrl + back.pathname + back.search, { redirect: 'manual', headers: { Cookie: cookie } });
      expect(res.status).to.equal(303);
      const f = await failure(res.headers.get('location')!);
      expect(f.code).to.equal('unreachable');
      expect(f.next).to.equal('/hr/jobs');
      expect(f.html).to.include(escaped(OIDC_ERROR_MESSAGES.unreachable(NAME)));

      // A provider that cannot be discovered at all: the button's link answers the same way.
      const dead = new OidcSignIn({
        db: s.ctx.db,
        setting: { ...s.ctx.config.oidc!, issuer: 'http://127.0.0.1:9' },
        publicBaseUrl: PUBLIC,
        serverKey: s.ctx.serverKey,
        log: s.ctx.log,
        now: () => new Date(),
      });
      const err = await dead.start('/hr/forms').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(OidcFailure);
      expect(err).to.include({ code: 'unreachable', next: '/hr/forms' });
    });

    it('shows no company sign-in when OIDC_* is unset', () => {
      expect(oidcLoginLocals({ oidc: null }, { oidc_error: 'unknown' }, '/hr/jobs')).to.deep.equal({ oidc: null, oidcError: null });
    });
  });
}

/**
 * Authorisation matrix: every /api/hr route registered in the Express app (found by walking the
 * router, so routes added later are covered without touching this file) and every guarded /hr page
 * of spec 02 refuses a request that has no valid session.
 */
import net from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createHrUser, expiredToken, liveToken, HR_PASSWORD, signInOverHttp } from '../helpers/hr.js';
import { concrete, registeredRoutes, type RouteInfo } from '../helpers/routes.js';

const isHrApi = (p: string) => /^\/api\/hr(\/|$)/i.test(p);
const isHrPage = (p: string) => /^\/hr(\/|$)/i.test(p);

/** Spec 02 section 2, 'Guarded routes', with ids filled in. */
const GUARDED_PAGES = [
  '/hr/dashboard',
  '/hr/jobs',
  '/hr/jobs/list',
  '/hr/jobs/1/insights',
  '/hr/jobs/new',
  '/hr/jobs/1/edit',
  '/hr/posts',
  '/hr/applicants',
  '/hr/applicants/1',
  '/hr/forms',
  '/hr/forms/new',
  '/hr/forms/1/edit',
  '/hr/forms/1/entries',
  '/hr/forms/1/entries/1',
  '/hr/forms/1/posts',
];

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

for (const kind of databaseKinds()) {
  describe(`HR authorisation matrix [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let api: RouteInfo[];
    let pages: string[];
    let valid: string;
    let expired: string;
    let revoked: string;
    let disabled: string;

    before(async () => {
      s = await startTestServer(kind);
      const routes = registeredRoutes(createApp(s.ctx));
      api = routes.filter((r) => isHrApi(r.pattern));
      pages = [
        ...new Set([...GUARDED_PAGES, ...routes.filter((r) => r.method === 'GET' && isHrPage(r.pattern)).map((r) => concrete(r.pattern))]),
      ];
      // User 1 is the one every route's concrete path names (`/api/hr/users/1/sign-in-link/` resets
      // that user's password and ends their sessions): a bystander, not the matrix's own user.
      expect(await createHrUser(s.ctx.db, 'matrix.bystander')).to.equal(1);
      const id = await createHrUser(s.ctx.db, 'matrix.user');
      valid = await liveToken(s.ctx.db, id);
      expired = await expiredToken(s.ctx.db, id);
      revoked = await signInOverHttp(s.baseUrl, 'matrix.user');
      const out = await fetch(`${s.baseUrl}/api/auth/logout/`, { method: 'POST', headers: { Authorization: `Bearer ${revoked}` } });
      expect(out.status).to.equal(204);
      const offId = await createHrUser(s.ctx.db, 'matrix.disabled');
      disabled = await liveToken(s.ctx.db, offId);
      await s.ctx.db('hr_users').where({ id: offId }).update({ is_active: false });
    });
    after(() => s.close());

    it('finds the HR API routes by walking the app (and the list cannot be silently empty)', () => {
      const seen = api.map((r) => `${r.method} ${r.pattern}`);
      for (const known of [
        'GET /api/hr/dashboard/',
        'GET /api/hr/jobs/',
        'POST /api/hr/jobs/',
        'GET /api/hr/jobs/:id/',
        'PUT /api/hr/jobs/:id/',
      ]) {
        expect(seen, known).to.include(known);
      }
      expect(registeredRoutes(createApp(s.ctx)).map((r) => `${r.method} ${r.pattern}`)).to.include.members([
        'POST /api/auth/token/',
        'GET /hrviewlogin',
      ]);
    });

    const call = (method: string, path: string, headers: Record<string, string>) =>
      fetch(`${s.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: MUTATIONS.has(method) ? { 'Content-Type': 'application/json', ...headers } : headers,
        body: MUTATIONS.has(method) ? '{}' : undefined,
      });

    async function expect401(method: string, path: string, headers: Record<string, string>, label: string) {
      const res = await call(method, path, headers);
      expect(res.status, `${label}: ${method} ${path}`).to.equal(401);
      expect(res.headers.get('content-type'), `${label}: ${method} ${path}`).to.match(/^application\/json/);
      const body = await res.json();
      expect(Object.keys(body), `${label}: ${method} ${path}`).to.deep.equal(['detail']);
    }

    const badCredentials = (): Array<[string, Record<string, string>]> => [
      ['no token', {}],
      ['empty Bearer', { Authorization: 'Bearer ' }],
      ['malformed token', { Authorization: 'Bearer not.a.token' }],
      ['well-shaped unknown token', { Authorization: `Bearer ${'x'.repeat(43)}` }],
      ['other scheme', { Authorization: `Basic ${Buffer.from(`matrix.user:${HR_PASSWORD}`).toString('base64')}` }],
      ['token without scheme', { Authorization: valid }],
      ['expired token', { Authorization: `Bearer ${expired}` }],
      ['revoked token', { Authorization: `Bearer ${revoked}` }],
      ["disabled user's token", { Authorization: `Bearer ${disabled}` }],
      ['expired cookie', { Cookie: `jwt=${expired}` }],
      ['revoked cookie', { Cookie: `jwt=${revoked}` }],
      ['malformed cookie', { Cookie: 'jwt=%E0%A4%A' }],
    ];

    it('answers 401 {detail} on every /api/hr route without a valid token', async () => {
      for (const r of api) {
        const path = concrete(r.pattern);
        // A route's bad credentials at once: each request is refused on its own.
        await Promise.all([
          ...badCredentials().map(([label, headers]) => expect401(r.method, path, headers, label)),
          // The spec's client omits the header when the cookie is missing; a valid cookie next to a
          // bad Bearer header does not rescue the request.
          expect401(r.method, path, { Authorization: 'Bearer nope', Cookie: `jwt=${valid}` }, 'bad Bearer + valid cookie'),
        ]);
      }
    });

    it('refuses a cookie-only token on every mutation, and accepts it on reads', async () => {
      for (const r of api) {
        const path = concrete(r.pattern);
        const res = await call(r.method, path, { Cookie: `jwt=${valid}` });
        if (MUTATIONS.has(r.method)) {
          expect(res.status, `${r.method} ${path}`).to.equal(401);
          expect((await res.json()).detail).to.match(/Bearer/);
        } else {
          expect(res.status, `${r.method} ${path}`).to.not.equal(401);
          await res.arrayBuffer();
        }
      }
    });

    it('lets a valid Bearer token through on every route (the matrix above can fail)', async () => {
      for (const r of api) {
        const path = concrete(r.pattern);
        const res = await call(r.method, path, { Authorization: `Bearer ${valid}` });
        expect(res.status, `${r.method} ${path}`).to.not.equal(401);
        expect(res.status, `${r.method} ${path}`).to.be.lessThan(500);
        await res.arrayBuffer();
      }
    });

    it('answers 401 for unknown paths under /api/hr too, and 404 once signed in', async () => {
      const unknown = ['/api/hr', '/api/hr/', '/api/hr/nothing-here/', '/api/hr/jobs/1/secret/', '/api/hr/../hr/jobs/'];
      for (const path of unknown) {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) await expect401(method, path, {}, 'unknown path');
      }
      // Express matches paths case-insensitively, so the guard does too (the error page is HTML
      // there, as the error handler treats only lower-case /api/ as the API).
      const upper = await call('GET', '/API/HR/jobs/', {});
      expect(upper.status).to.equal(401);
      await upper.arrayBuffer();
      const res = await call('GET', '/api/hr/nothing-here/', { Authorization: `Bearer ${valid}` });
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.equal({ detail: 'Not found.' });
    });

    it('checks the token before reading the body: malformed JSON, or a body declared oversized and not sent, without a valid token is 401, not 400/413', async () => {
      const send = (method: string, path: string, headers: Record<string, string>, body: string) =>
        fetch(`${s.baseUrl}${path}`, { method, redirect: 'manual', headers: { 'Content-Type': 'application/json', ...headers }, body });
      const bodies = ['{"title": ', '{', 'not json'];
      const huge = 17 * 1024 * 1024;
      /**
       * A request that says its JSON body is 17 MB and sends only its first bytes: the answer must
       * come without the rest (the token is checked before the body is read; a parser waiting for
       * the body would never answer). Answers the status line's code.
       */
      const declareHuge = async (method: string, path: string, headers: Record<string, string>): Promise<number> => {
        const { hostname, port } = new URL(s.baseUrl);
        const socket = net.connect(Number(port), hostname);
        await once(socket, 'connect');
        const head = { Host: `${hostname}:${port}`, 'Content-Type': 'application/json', 'Content-Length': String(huge), ...headers };
        socket.write(
          `${method} ${path} HTTP/1.1\r\n${Object.entries(head)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('')}\r\n{"description": "xxxx`,
        );
        const timer = setTimeout(() => socket.destroy(new Error(`no answer before the body: ${method} ${path}`)), 10_000);
        let text = '';
        try {
          for await (const chunk of socket) {
            text += chunk.toString('latin1');
            if (text.includes('\r\n')) break;
          }
        } finally {
          clearTimeout(timer);
          socket.destroy();
        }
        return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      };
      const paths = [
        ...api.filter((r) => MUTATIONS.has(r.method)).map((r) => [r.method, concrete(r.pattern)]),
        ['POST', '/api/hr/nothing-here/'],
        ['PATCH', '/api/hr/jobs/1/'],
      ];
      expect(paths.length).to.be.at.least(4);
      for (const [method, path] of paths) {
        for (const body of bodies) {
          for (const [label, headers] of [
            ['no token', {}],
            ['bad token', { Authorization: 'Bearer nope' }],
            ['cookie only', { Cookie: `jwt=${valid}` }],
            ['expired token', { Authorization: `Bearer ${expired}` }],
          ] as [string, Record<string, string>][]) {
            const res = await send(method, path, headers, body);
            const where = `${label}: ${method} ${path} with ${body.length} bytes`;
            expect(res.status, where).to.equal(401);
            expect(res.headers.get('www-authenticate'), where).to.match(/^Bearer/);
            expect(Object.keys(await res.json()), where).to.deep.equal(['detail']);
          }
        }
        for (const [label, headers] of [
          ['no token', {}],
          ['bad token', { Authorization: 'Bearer nope' }],
          ['cookie only', { Cookie: `jwt=${valid}` }],
          ['expired token', { Authorization: `Bearer ${expired}` }],
        ] as [string, Record<string, string>][])
          expect(await declareHuge(method, path, headers), `${label}: ${method} ${path} declaring ${huge} bytes`).to.equal(401);
      }
      // Signed in, the body parser answers as before.
      let res = await send('POST', '/api/hr/jobs/', { Authorization: `Bearer ${valid}` }, '{"title": ');
      expect(res.status).to.equal(400);
      expect((await res.json()).detail).to.match(/JSON/);
      res = await send('POST', '/api/hr/jobs/', { Authorization: `Bearer ${valid}` }, `{"description": "${'x'.repeat(huge)}"}`);
      expect(res.status).to.equal(413);
      await res.arrayBuffer();
      // Public JSON routes still parse (and refuse) bodies without a token.
      res = await send('POST', '/api/auth/token/', {}, '{"username": ');
      expect(res.status).to.equal(400);
      expect((await res.json()).detail).to.match(/JSON/);
    });

    it('redirects every guarded /hr page to /hrviewlogin?next=<page> without a valid cookie', async () => {
      expect(pages.length).to.be.at.least(GUARDED_PAGES.length);
      const cookies: Array<string | undefined> = [undefined, 'jwt=garbage', `jwt=${expired}`, `jwt=${revoked}`, `jwt=${disabled}`];
      for (const path of [...pages, '/hr', '/hr/', '/hr/unknown/page', '/HR/Dashboard']) {
        for (const cookie of cookies) {
          const target = `${path}?tab=2&x=%3Cb%3E`;
          // A Bearer header does not open a page: pages read the cookie only.
          const res = await call('GET', target, { ...(cookie ? { Cookie: cookie } : {}), Authorization: `Bearer ${valid}` });
          expect(res.status, `${path} ${cookie}`).to.equal(302);
          expect(res.headers.get('location'), `${path} ${cookie}`).to.equal(`/hrviewlogin?next=${encodeURIComponent(target)}`);
          expect(res.headers.get('cache-control')).to.equal('no-store');
          if (cookie) expect(res.headers.get('set-cookie'), `${path} ${cookie}`).to.match(/^jwt=; Path=\/; Expires=Thu, 01 Jan 1970/);
          await res.arrayBuffer();
        }
      }
    });

    it('opens the pages with a valid cookie (no redirect to the login page)', async () => {
      expect(pages).to.include('/hr');
      for (const path of pages) {
        const res = await call('GET', path, { Cookie: `jwt=${valid}` });
        // /hr itself is only a way to the dashboard; every other page answers in place.
        if (path === '/hr') expect([res.status, res.headers.get('location')], path).to.deep.equal([302, '/hr/dashboard']);
        else expect(res.status, path).to.not.equal(302);
        expect(res.status, path).to.be.lessThan(500);
        expect(res.headers.get('cache-control'), path).to.equal('no-store');
        await res.arrayBuffer();
      }
    });
  });
}

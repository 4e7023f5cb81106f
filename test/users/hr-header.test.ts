/**
 * The HR header (spec 01 and 02: 'Paths starting with /hr use the HR header instead'): its six
 * links with their exact targets, on the HR pages (the login page /hrviewlogin has the HR header without them, issue 30), plus Users, Emails, Pay rules, Careers site, Status texts and Import
 * for a signed-in admin (issue 20), and Logout only while the jwt cookie exists. Other paths keep the public header. /hr itself leads to the
 * dashboard; an unknown HR page is the 404 page with the HR header, nothing marked current, and a
 * link to the dashboard beside the one to /careers.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createHrUser, expiredToken, hrSession, liveToken } from '../helpers/hr.js';

/** In view: Dashboard, Jobs, Applicants, Forms; then the Reports group (Reports, Sources) and the Settings group (Manage Jobs, API Posts, My calendar, and Users, Emails, Pay rules, Careers site, Status texts, Import and Offers for admins). */
const HR_LINKS = [
  ['Dashboard', '/hr/dashboard'],
  ['Jobs', '/hr/jobs/list'],
  ['Applicants', '/hr/applicants'],
  ['Forms', '/hr/forms'],
  ['Reports', '/hr/reports'],
  ['Sources', '/hr/sources'],
  ['Manage Jobs', '/hr/jobs'],
  ['API Posts', '/hr/posts'],
  ['My calendar', '/hr/settings/calendar'],
];
/** What a signed-in admin sees (hrSession makes an admin); recruiters see HR_LINKS. */
const ADMIN_LINKS = [
  ...HR_LINKS,
  ['Users', '/hr/users'],
  ['Emails', '/hr/settings/email-templates'],
  ['Pay rules', '/hr/settings/pay-rules'],
  ['Careers site', '/hr/settings/site'],
  ['Status texts', '/hr/settings/status-texts'],
  ['Import', '/hr/settings/import'],
  ['Offers', '/hr/settings/offers'],
];

/** The inside of the first <nav> with this aria-label, or null. */
function nav(html: string, label: string): string | null {
  const m = new RegExp(`<nav[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</nav>`).exec(html);
  return m ? m[1] : null;
}

function links(navHtml: string): string[][] {
  return [...navHtml.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2].trim(), m[1]]);
}

/** [text, href] of every link in some HTML, whatever attributes come before href. */
function anchors(html: string): string[][] {
  return [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2].trim(), m[1]]);
}

/** The links inside <main>: what the page itself offers. */
const mainLinks = (html: string) => anchors(/<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]);

function logoutButtons(navHtml: string): number {
  return (navHtml.match(/<button[^>]*data-logout[^>]*>Logout<\/button>/g) ?? []).length;
}

for (const kind of databaseKinds()) {
  describe(`HR header [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let userId: number;
    before(async () => {
      s = await startTestServer(kind);
      ({ token, userId } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const page = async (path: string, cookie?: string) => {
      const res = await fetch(s.baseUrl + path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
      return { status: res.status, setCookie: res.headers.get('set-cookie'), html: await res.text() };
    };

    function expectHrHeader(html: string, where: string, withLogout: boolean, expected = withLogout ? ADMIN_LINKS : HR_LINKS) {
      const desktop = nav(html, 'HR');
      const mobile = nav(html, 'HR mobile');
      expect(desktop, `${where}: desktop HR nav`).to.be.a('string');
      expect(mobile, `${where}: mobile HR nav`).to.be.a('string');
      expect(links(desktop!), `${where}: desktop links`).to.deep.equal(expected);
      expect(links(mobile!), `${where}: mobile links`).to.deep.equal(expected);
      expect(logoutButtons(desktop!), `${where}: desktop Logout`).to.equal(withLogout ? 1 : 0);
      expect(logoutButtons(mobile!), `${where}: mobile Logout`).to.equal(withLogout ? 1 : 0);
      expect(html.includes('data-logout'), `${where}: any Logout`).to.equal(withLogout);
      expect(nav(html, 'Main'), `${where}: no public header`).to.equal(null);
      expect(html, where).to.include('<body class="hr">').and.include('<a class="brand" href="/hr/dashboard">');
    }

    /** Signed out (issue 30): the HR header's brand, but no HR menu and no Logout. */
    function expectSignedOutHeader(html: string, where: string) {
      expect(nav(html, 'HR'), `${where}: no desktop HR nav`).to.equal(null);
      expect(nav(html, 'HR mobile'), `${where}: no mobile HR nav`).to.equal(null);
      expect(html, where).to.not.include('data-menu').and.not.include('data-logout').and.not.include('href="/hr/jobs"');
      expect(nav(html, 'Main'), `${where}: no public header`).to.equal(null);
      expect(html, where).to.include('<body class="hr">').and.include('<a class="brand" href="/hr/dashboard">');
    }

    it('is the login page header, without the HR menu or Logout when signed out', async () => {
      for (const path of ['/hrviewlogin', '/hrviewlogin?next=%2Fhr%2Fjobs', '/HRVIEWLOGIN']) {
        const r = await page(path);
        expect(r.status, path).to.equal(200);
        expectSignedOutHeader(r.html, path);
        expect(r.html, path).to.include('<meta name="robots" content="noindex">');
      }
    });

    it('shows no Logout on the login page for a stale cookie, which is cleared', async () => {
      for (const cookie of ['jwt=garbage', `jwt=${await expiredToken(s.ctx.db, userId)}`]) {
        const r = await page('/hrviewlogin', cookie);
        expect(r.status, cookie).to.equal(200);
        expect(r.setCookie, cookie).to.match(/^jwt=;/);
        expectSignedOutHeader(r.html, cookie);
      }
    });

    it('is the header of every HR page, with Logout when the cookie exists', async () => {
      for (const path of ['/hr/dashboard', '/hr/jobs', '/hr/jobs/list', '/hr/jobs/new']) {
        const r = await page(path, `jwt=${token}`);
        expect(r.status, path).to.equal(200);
        expectHrHeader(r.html, path, true);
      }
      // The current page is marked.
      const dash = await page('/hr/dashboard', `jwt=${token}`);
      expect(nav(dash.html, 'HR')).to.include('<a href="/hr/dashboard" aria-current="page">Dashboard</a>');
      // A recruiter's header has no Users item.
      const recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'header.recruiter', { role: 'recruiter' }));
      for (const path of ['/hr/dashboard', '/hr/jobs', '/hr/nothing-here']) {
        const r = await page(path, `jwt=${recruiter}`);
        expectHrHeader(r.html, `recruiter ${path}`, true, HR_LINKS);
      }
    });

    it('takes /hr and /hr/ (any case) to the dashboard when signed in, and through sign-in to it when not', async () => {
      for (const path of ['/hr', '/hr/', '/HR', '/Hr/', '/hr?from=bookmark']) {
        const r = await page(path, `jwt=${token}`);
        expect(r.status, path).to.equal(302);
        expect(r.html, path).to.not.include('404');
        const res = await fetch(s.baseUrl + path, { redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
        expect(res.headers.get('location'), path).to.equal('/hr/dashboard');
        expect(res.headers.get('cache-control'), path).to.equal('no-store');
        // Signed out (no cookie, or a stale one): the guard's sign-in redirect keeps /hr as next,
        // which the signed-in answer above then takes to the dashboard.
        for (const cookie of [undefined, 'jwt=garbage']) {
          const out = await fetch(s.baseUrl + path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
          expect(out.status, `${path} ${cookie}`).to.equal(302);
          expect(out.headers.get('location'), `${path} ${cookie}`).to.equal(`/hrviewlogin?next=${encodeURIComponent(path)}`);
          await out.arrayBuffer();
        }
      }
      // The login page then sends a signed-in visitor on to that next, and /hr on to the dashboard.
      const login = await fetch(`${s.baseUrl}/hrviewlogin?next=%2Fhr`, { redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
      expect(login.headers.get('location')).to.equal('/hr');
      await login.arrayBuffer();
      // Only GET (and HEAD) lead anywhere: other methods on /hr are unknown pages.
      const head = await fetch(`${s.baseUrl}/hr/`, { method: 'HEAD', redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
      expect([head.status, head.headers.get('location')]).to.deep.equal([302, '/hr/dashboard']);
      const post = await fetch(`${s.baseUrl}/hr`, { method: 'POST', redirect: 'manual', headers: { Cookie: `jwt=${token}` } });
      expect(post.status).to.equal(404);
      await post.arrayBuffer();
    });

    it('shows unknown HR pages as the 404 page with the HR header, no item marked, and a way to the dashboard', async () => {
      // Paths under every header item, near the real pages, and past the last page of a list.
      const unknown = [
        '/hr/nothing-here',
        '/hr/applicant',
        '/hr/applicants/7/extra',
        '/hr/forms/999999/edit',
        '/hr/forms/new/extra',
        '/hr/posts/extra',
        '/hr/posts?page=999',
        '/hr/dashboard/extra',
        '/hr/jobs/999999/edit',
        '/HR/Nothing',
        '/hr/jobs?page=999',
        '/hr/jobs/list?page=999',
      ];
      for (const path of unknown) {
        const r = await page(path, `jwt=${token}`);
        expect(r.status, path).to.equal(404);
        expect(r.html, path).to.include('<title>404 — Page Not Found</title>').and.include('<h1>404 — Page Not Found</h1>');
        expectHrHeader(r.html, path, true);
        expect(r.html, `${path}: nothing marked current`).not.to.include('aria-current');
        expect(mainLinks(r.html), path).to.deep.equal([
          ['Go to Dashboard', '/hr/dashboard'],
          ['Go to Careers', '/careers'],
        ]);
        expect(r.html, path).to.include('<meta name="robots" content="noindex">');
      }
      // Signed out, the guard still answers first: the sign-in page, whether the page exists or not.
      for (const path of ['/hr/nothing-here', '/hr/applicants']) {
        const r = await page(path);
        expect([r.status, r.html.includes('404')], path).to.deep.equal([302, false]);
      }
      // Outside the guard's /hr mount, a path that only starts with /hr gets the same page, signed out.
      const loose = await page('/hrviewlogin/extra');
      expect(loose.status).to.equal(404);
      expectSignedOutHeader(loose.html, '/hrviewlogin/extra');
      expect(loose.html).to.include('href="/hr/dashboard">Go to Dashboard</a>').and.not.include('aria-current');
    });

    it('keeps the public 404 page with its one link to /careers and no item marked', async () => {
      for (const path of ['/no-such-page', '/careers/x/y/z', '/privacy/more']) {
        const r = await page(path, `jwt=${token}`);
        expect(r.status, path).to.equal(404);
        expect(nav(r.html, 'Main'), path).to.be.a('string');
        expect(r.html, path).not.to.include('aria-current').and.not.include('Go to Dashboard');
        expect(mainLinks(r.html), path).to.deep.equal([['Go to Careers', '/careers']]);
      }
      // A real page still marks its item.
      expect(nav((await page('/privacy')).html, 'Main')).to.include('<a href="/privacy" aria-current="page">Privacy</a>');
    });

    it('leaves the public header on other paths, without Logout even with a cookie', async () => {
      for (const path of ['/careers', '/privacy', '/no-such-page']) {
        const r = await page(path, `jwt=${token}`);
        expect(nav(r.html, 'Main'), path).to.be.a('string');
        expect(nav(r.html, 'HR'), path).to.equal(null);
        expect(r.html, path).not.to.include('data-logout');
        expect(r.html, path).to.include('<body class="public">');
      }
    });
  });
}

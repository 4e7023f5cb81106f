/**
 * The HR header (spec 01 and 02: 'Paths starting with /hr use the HR header instead'): its six
 * links with their exact targets, on the HR pages and on the login page /hrviewlogin, and Logout
 * only while the jwt cookie exists. Other paths keep the public header.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expiredToken } from './auth.helpers.js';
import { signIn } from './hr-jobs.helpers.js';

const HR_LINKS = [
  ['Dashboard', '/hr/dashboard'],
  ['Jobs', '/hr/jobs/list'],
  ['Manage Jobs', '/hr/jobs'],
  ['Applicants', '/hr/applicants'],
  ['Forms', '/hr/forms'],
  ['API Posts', '/hr/posts'],
];

/** The inside of the first <nav> with this aria-label, or null. */
function nav(html: string, label: string): string | null {
  const m = new RegExp(`<nav[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</nav>`).exec(html);
  return m ? m[1] : null;
}

function links(navHtml: string): string[][] {
  return [...navHtml.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2].trim(), m[1]]);
}

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
      ({ token, userId } = await signIn(s));
    });
    after(() => s.close());

    const page = async (path: string, cookie?: string) => {
      const res = await fetch(s.baseUrl + path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
      return { status: res.status, setCookie: res.headers.get('set-cookie'), html: await res.text() };
    };

    function expectHrHeader(html: string, where: string, withLogout: boolean) {
      const desktop = nav(html, 'HR');
      const mobile = nav(html, 'HR mobile');
      expect(desktop, `${where}: desktop HR nav`).to.be.a('string');
      expect(mobile, `${where}: mobile HR nav`).to.be.a('string');
      expect(links(desktop!), `${where}: desktop links`).to.deep.equal(HR_LINKS);
      expect(links(mobile!), `${where}: mobile links`).to.deep.equal(HR_LINKS);
      expect(logoutButtons(desktop!), `${where}: desktop Logout`).to.equal(withLogout ? 1 : 0);
      expect(logoutButtons(mobile!), `${where}: mobile Logout`).to.equal(withLogout ? 1 : 0);
      expect(html.includes('data-logout'), `${where}: any Logout`).to.equal(withLogout);
      expect(nav(html, 'Main'), `${where}: no public header`).to.equal(null);
      expect(html, where).to.include('<body class="hr">').and.include('<a class="brand" href="/hr/dashboard">');
    }

    it('is the login page header, without Logout when there is no cookie', async () => {
      for (const path of ['/hrviewlogin', '/hrviewlogin?next=%2Fhr%2Fjobs', '/HRVIEWLOGIN']) {
        const r = await page(path);
        expect(r.status, path).to.equal(200);
        expectHrHeader(r.html, path, false);
        expect(r.html, path).to.include('<meta name="robots" content="noindex">');
      }
    });

    it('shows no Logout on the login page for a stale cookie, which is cleared', async () => {
      for (const cookie of ['jwt=garbage', `jwt=${await expiredToken(s.ctx.db, userId)}`]) {
        const r = await page('/hrviewlogin', cookie);
        expect(r.status, cookie).to.equal(200);
        expect(r.setCookie, cookie).to.match(/^jwt=;/);
        expectHrHeader(r.html, cookie, false);
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

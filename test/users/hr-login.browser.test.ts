/** HR sign-in, guard redirects, logout and the client session helpers in real Chromium. */
import { expect } from 'chai';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { hashToken } from '../../src/users/repo.js';
import { createHrUser, HR_PASSWORD, postToken } from '../helpers/hr.js';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { OFF_SITE_NEXT, SAME_SITE_NEXT } from '../fixtures/next-paths.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FAILED = 'Invalid credentials or unauthorized.';
/** Hostile next values for the browser runs, one or two of each class (dot segments, encoded dots, backslashes, control characters, other schemes). */
const HOSTILE = OFF_SITE_NEXT.filter((v) =>
  [
    '/hr/..//evil.example',
    '/.//evil.example',
    '/hr/%2e%2e//evil.example',
    '/hr/.%2e//evil.example',
    '/hr\\..\\..\\/evil.example',
    '/.\\/evil.example',
    '/\t/evil.example',
    '//evil.example',
    'https://evil.example/',
  ].includes(v),
);
if (HOSTILE.length !== 9) throw new Error('a hostile next picked for the browser runs is no longer in OFF_SITE_NEXT');
const TTL = 1200;

/** Chromium reports an expected 401/429 answer as a console error: drop exactly those. */
function dropExpectedStatus(tab: PageWithErrors, status: number): void {
  const keep = tab.errors.filter((e) => !e.startsWith(`Failed to load resource: the server responded with a status of ${status}`));
  tab.errors.splice(0, tab.errors.length, ...keep);
}

async function storedToken(page: Page): Promise<{ cookie: string | null; local: string | null }> {
  const cookies = await page.context().cookies();
  return {
    cookie: cookies.find((c) => c.name === 'jwt')?.value ?? null,
    local: await page.evaluate(() => localStorage.getItem('jwt')),
  };
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR sign-in in Chromium [${kind}]`, function () {
    /** Screenshots of the MySQL run get their own names, so both runs can be looked at. */
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let sessionModule: string;

    before(async () => {
      s = await startTestServer(kind, { SESSION_TTL_SECONDS: String(TTL) });
      await createHrUser(s.ctx.db, 'hr.browser');
      browser = await sharedBrowser();
      // The real client session module, bundled for page.evaluate (which the page's CSP allows).
      const out = await build({
        entryPoints: ['islands/components/session.ts'],
        bundle: true,
        format: 'iife',
        globalName: 'careersSession',
        write: false,
        target: 'es2020',
      });
      sessionModule = `${out.outputFiles[0].text}\nwindow.careersSession = careersSession;`;
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    beforeEach(async () => {
      await s.ctx.db('rate_limit_hits').delete();
      tab = await openPage(browser);
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    async function signIn(page: Page, username = 'hr.browser', password = HR_PASSWORD) {
      await page.fill('#login-username', username);
      await page.fill('#login-password', password);
      await page.click('button[type=submit]');
    }

    it('shows the login form: title, labelled fields, Sign In, HR header without its menu or Logout, noindex, axe clean', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      expect(await page.title()).to.equal('HR Login');
      expect(await page.locator('h1').innerText()).to.equal('HR Login');
      await page.getByLabel('Username').waitFor();
      expect(await page.getByLabel('Password').getAttribute('type')).to.equal('password');
      expect(await page.getByLabel('Username').getAttribute('autocomplete')).to.equal('username');
      expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).to.equal(true);
      expect(await page.locator('meta[name=robots]').getAttribute('content')).to.equal('noindex');
      // Spec 01/02: paths starting with /hr use the HR header, so the login page does too; signed out, without its menu (issue 30).
      expect(await page.locator('nav[aria-label=Main]').count()).to.equal(0);
      expect(await page.locator('header.hr-header').isVisible()).to.equal(true);
      expect(await page.locator('nav[aria-label=HR], nav[aria-label="HR mobile"], details[data-menu]').count()).to.equal(0);
      expect(await page.locator('header a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).to.deep.equal(['/hr/dashboard']);
      expect(await page.locator('[data-logout]').count()).to.equal(0);
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('login-username');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-login-form${suffix}`);
    });

    it('shows the failure message for a wrong password, an unknown user and a disabled one', async () => {
      const { page } = tab;
      await createHrUser(s.ctx.db, 'hr.disabled', { active: false });
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      for (const [u, p] of [
        ['hr.browser', 'wrong password'],
        ['nobody', HR_PASSWORD],
        ['hr.disabled', HR_PASSWORD],
      ]) {
        await signIn(page, u, p);
        const alert = page.getByRole('alert');
        await alert.waitFor();
        expect(await alert.innerText()).to.equal(FAILED);
        expect(await page.inputValue('#login-password'), 'password cleared').to.equal('');
        expect(await page.evaluate(() => document.activeElement?.id)).to.equal('login-password');
        expect(page.url()).to.equal(`${s.baseUrl}/hrviewlogin`);
        expect(await storedToken(page)).to.deep.equal({ cookie: null, local: null });
      }
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-login-wrong-password${suffix}`);
      dropExpectedStatus(tab, 401);
    });

    it("shows the server's message when sign-ins are rate-limited", async () => {
      const { page } = tab;
      for (let i = 0; i < 10; i++) await postToken(s.baseUrl, { username: 'hr.browser', password: 'guess' + i });
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).to.equal('Too many sign-in attempts. Please try again in 15 minutes.');
      await screenshot(page, `hr-login-rate-limited${suffix}`);
      dropExpectedStatus(tab, 429);
    });

    it("reads 'Signing in...' and is disabled while pending, then stores the token in both places", async () => {
      const { page } = tab;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/auth/token/', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      const button = page.locator('button[type=submit]');
      await page.waitForFunction(() => document.querySelector('button[type=submit]')?.textContent === 'Signing in...');
      expect(await button.isDisabled()).to.equal(true);
      await screenshot(page, `hr-login-pending${suffix}`);
      release();
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      const { cookie, local } = await storedToken(page);
      expect(cookie).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(local).to.equal(cookie);
      const jwt = (await page.context().cookies()).find((c) => c.name === 'jwt')!;
      expect(jwt.path).to.equal('/');
      expect(jwt.sameSite).to.equal('Lax');
      expect(jwt.secure).to.equal(false); // http here; Secure is added on https
      expect(jwt.httpOnly).to.equal(false);
      expect(jwt.expires - Date.now() / 1000).to.be.within(TTL - 30, TTL + 1);
      expect(
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(cookie!) })
          .first(),
      ).to.exist;
      expect(await page.locator('h1').innerText()).to.equal('HR Dashboard');
    });

    it('works by keyboard alone', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await page.locator('#login-username').waitFor();
      await page.keyboard.type('HR.Browser');
      await page.keyboard.press('Tab');
      await page.keyboard.type(HR_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
    });

    it('keeps the origin through the guard: /hr/jobs/list signed out -> login -> /hr/jobs/list', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/list?status=ACTIVE`);
      expect(page.url()).to.equal(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr/jobs/list?status=ACTIVE')}`);
      await screenshot(page, `hr-login-guard-redirect${suffix}`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list?status=ACTIVE`);
      expect(await page.title()).to.not.match(/Not Found|Error/);
      // An off-site next is ignored: the dashboard instead.
      await tab.context.clearCookies();
      await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('//evil.example/steal')}`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
    });

    /**
     * Records every request the tab makes to a host other than the server's: a hostile next must
     * cause none. A listener, not a route: a route makes Chromium send every request of the
     * context through this process and turns its cache off, which doubled what each page load here
     * cost. Such a request goes nowhere: the shared Chromium resolves no host but 127.0.0.1.
     */
    function watchOffSite(): string[] {
      const offSite: string[] = [];
      tab.context.on('request', (request) => {
        if (new URL(request.url()).hostname !== '127.0.0.1') offSite.push(request.url());
      });
      return offSite;
    }

    async function signOutLocally(page: Page) {
      // Off the dashboard first (a plain page of the same site): its islands' reads on mount end
      // with it instead of reaching the server after the token went.
      await page.goto(`${s.baseUrl}/robots.txt`);
      await tab.context.clearCookies();
      await page.evaluate(() => localStorage.clear());
    }

    it('signing in through the form with a hostile next lands on /hr/dashboard; a same-site one on its normalised path', async () => {
      const { page } = tab;
      const offSite = watchOffSite();
      for (const next of HOSTILE) {
        await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent(next)}`);
        await signIn(page);
        await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
        expect(await page.locator('h1').innerText(), next).to.equal('HR Dashboard');
        await signOutLocally(page);
      }
      await screenshot(page, `hr-login-hostile-next-dashboard${suffix}`);
      for (const [next, want] of SAME_SITE_NEXT.filter(([, w]) => ['/hr/jobs/list', '/hr/jobs', '/careers'].includes(w))) {
        await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent(next)}`);
        await signIn(page);
        await page.waitForURL(`${s.baseUrl}${want}`);
        await signOutLocally(page);
      }
      expect(offSite).to.deep.equal([]);
    });

    it('a signed-in visit to /hrviewlogin with a hostile next is redirected to /hr/dashboard', async () => {
      const { page } = tab;
      const offSite = watchOffSite();
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      for (const next of HOSTILE) {
        await page.goto(`${s.baseUrl}/careers`);
        await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent(next)}`);
        expect(page.url(), next).to.equal(`${s.baseUrl}/hr/dashboard`);
      }
      await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr\\jobs\\list')}`);
      expect(page.url()).to.equal(`${s.baseUrl}/hr/jobs/list`);
      expect(offSite).to.deep.equal([]);
    });

    it('the island checks next itself: a page whose props were tampered with still lands on /hr/dashboard', async () => {
      const { page } = tab;
      const offSite = watchOffSite();
      let hostile = '';
      // The login page as the server renders it, with `next` in the island's props replaced, as a
      // cache or a rewriting proxy could serve it.
      await page.route('**/hrviewlogin', async (route) => {
        const res = await fetch(route.request().url(), { headers: { 'Accept-Encoding': 'identity' } });
        const html = (await res.text()).replace(/(id="island-hr-login-props">)([^<]*)</, (_m, open: string, json: string) => {
          const props = JSON.parse(json);
          return `${open}${JSON.stringify({ ...props, next: hostile }).replace(/</g, '\\u003c')}<`;
        });
        await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      });
      for (const next of HOSTILE) {
        hostile = next;
        await page.goto(`${s.baseUrl}/hrviewlogin`);
        await signIn(page);
        await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
        // With the cookie set, the island goes on by itself (location.replace): checked too.
        await page.goto(`${s.baseUrl}/hrviewlogin`);
        await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
        await signOutLocally(page);
      }
      expect(offSite).to.deep.equal([]);
    });

    it('takes /hr and /hr/ to the dashboard, through sign-in when signed out', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr`);
      expect(page.url()).to.equal(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr')}`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      expect(await page.locator('h1').innerText()).to.equal('HR Dashboard');
      for (const path of ['/hr', '/hr/', '/HR/']) {
        await page.goto(`${s.baseUrl}${path}`);
        expect(page.url(), path).to.equal(`${s.baseUrl}/hr/dashboard`);
      }
    });

    it('shows an unknown HR page as the 404 page with the HR header, nothing marked, and the dashboard offered', async () => {
      const { page } = tab;
      // Signed out, the sign-in page comes first and then leads to the page asked for: here the 404.
      await page.goto(`${s.baseUrl}/hr/nothing-here/42`);
      expect(page.url()).to.equal(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr/nothing-here/42')}`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/nothing-here/42`);
      dropExpectedStatus(tab, 404);
      expect(await page.title()).to.equal('404 — Page Not Found');
      expect(await page.locator('h1').innerText()).to.equal('404 — Page Not Found');
      const hrNav = page.getByRole('navigation', { name: 'HR', exact: true });
      // In view: four links; the rest behind the Reports and Settings groups (issue 30).
      expect(await hrNav.getByRole('link').allInnerTexts()).to.deep.equal(['Dashboard', 'Jobs', 'Applicants', 'Forms']);
      expect(await hrNav.locator('a').evaluateAll((as) => as.map((a) => a.textContent))).to.deep.equal([
        'Dashboard',
        'Jobs',
        'Applicants',
        'Forms',
        'Reports',
        'Sources',
        'Manage Jobs',
        'API Posts',
        'My calendar',
        'Users',
        'Emails',
        'Pay rules',
        'Careers site',
        'Status texts',
        'Import',
        'Offers',
      ]);
      expect(await hrNav.getByRole('button', { name: 'Logout' }).isVisible()).to.equal(true);
      expect(await page.locator('[aria-current]').count()).to.equal(0);
      const main = page.getByRole('main');
      expect(await main.getByRole('link').allInnerTexts()).to.deep.equal(['Go to Dashboard', 'Go to Careers']);
      expect(await main.getByRole('link', { name: 'Go to Careers' }).getAttribute('href')).to.equal('/careers');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-404${suffix}`);
      await main.getByRole('link', { name: 'Go to Dashboard' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      // Marked in the header and in the (closed) phone drawer.
      expect(await hrNav.locator('[aria-current="page"]').allInnerTexts()).to.deep.equal(['Dashboard']);
      expect(
        await page.locator('nav[aria-label="HR mobile"] [aria-current="page"]').evaluateAll((els) => els.map((e) => e.textContent)),
      ).to.deep.equal(['Dashboard']);
    });

    it('redirects a signed-in visitor away from the login page (server and client)', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr/jobs')}`);
      expect(page.url()).to.equal(`${s.baseUrl}/hr/jobs`);
      // The client-side check of the spec: serve the page as if the server had not seen the cookie.
      await page.route('**/hrviewlogin', async (route) => {
        const res = await fetch(route.request().url(), { headers: { 'Accept-Encoding': 'identity' } });
        expect(res.status).to.equal(200);
        await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: await res.text() });
      });
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
    });

    it('logs out from the HR header: token revoked, cookie and localStorage gone, back at /hrviewlogin', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      const { cookie } = await storedToken(page);
      const logout = page.locator('nav.nav-hr [data-logout]');
      expect(await logout.innerText()).to.equal('Logout');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-login-dashboard-with-logout${suffix}`);
      await logout.click();
      await page.waitForURL(`${s.baseUrl}/hrviewlogin`);
      expect(await storedToken(page)).to.deep.equal({ cookie: null, local: null });
      expect(
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(cookie!) })
          .first(),
      ).to.equal(undefined);
      expect(await page.locator('[data-logout]').count()).to.equal(0);
      await page.goto(`${s.baseUrl}/hr/dashboard`);
      expect(page.url()).to.equal(`${s.baseUrl}/hrviewlogin?next=%2Fhr%2Fdashboard`);
      await screenshot(page, `hr-login-after-logout${suffix}`);
    });

    it('logs out from the mobile menu too', async () => {
      await tab.context.close();
      tab = await openPage(browser, { width: 375, height: 740 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await screenshot(page, `hr-login-mobile${suffix}`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      await page.click('summary[aria-label=Menu]');
      await page.locator('.nav-drawer [data-logout]').waitFor({ state: 'visible' });
      await page.waitForTimeout(400); // let the drawer finish sliding in before the screenshot
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-login-mobile-menu${suffix}`);
      await page.locator('.nav-drawer [data-logout]').click();
      await page.waitForURL(`${s.baseUrl}/hrviewlogin`);
      expect(await storedToken(page)).to.deep.equal({ cookie: null, local: null });
    });

    it('hrFetch sends the Bearer header only with the cookie, and a 401 clears the token and goes to the login page with next', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      await signIn(page);
      await page.waitForURL(`${s.baseUrl}/hr/dashboard`);
      await page.goto(`${s.baseUrl}/hr/jobs/list?page=1`);
      const { cookie } = await storedToken(page);
      const seen: Array<string | undefined> = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/hr/dashboard/')) seen.push(r.headers().authorization);
      });
      await page.evaluate(sessionModule);
      const status = await page.evaluate(async () => (await (window as any).careersSession.hrFetch('/api/hr/dashboard/')).status);
      expect(status).to.equal(200);
      expect(seen).to.deep.equal([`Bearer ${cookie}`]);

      // The session ends on the server (for example revoked from the CLI): the next call is a 401.
      await s.ctx
        .db('hr_sessions')
        .where({ token_hash: hashToken(cookie!) })
        .delete();
      const navigated = page.waitForURL(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr/jobs/list?page=1')}`);
      await page.evaluate(() => void (window as any).careersSession.hrFetch('/api/hr/dashboard/'));
      await navigated;
      expect(await storedToken(page)).to.deep.equal({ cookie: null, local: null });
      expect(seen).to.have.length(2);

      // Without the cookie no header is sent, even with a token left in localStorage; outside /hr a
      // 401 clears the token but does not navigate.
      await page.goto(`${s.baseUrl}/careers`);
      await page.evaluate(sessionModule);
      await page.evaluate(() => localStorage.setItem('jwt', 'left-over'));
      const outside = await page.evaluate(async () => (await (window as any).careersSession.hrFetch('/api/hr/dashboard/')).status);
      expect(outside).to.equal(401);
      expect(seen[2]).to.equal(undefined);
      expect(page.url()).to.equal(`${s.baseUrl}/careers`);
      expect(await page.evaluate(() => localStorage.getItem('jwt'))).to.equal(null);
      dropExpectedStatus(tab, 401);
    });
  });
}

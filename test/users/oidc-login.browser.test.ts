/**
 * Company sign-in (issue 30) in Chromium against a real OpenID provider (oidc-provider on
 * 127.0.0.1): at 1280 px the button, the provider's login and consent, back to the page asked for
 * with the token in the cookie and localStorage (as a password sign-in leaves it); at 390 px a
 * refused sign-in (unknown email) says why on the login page, with the OIDC_ONLY note. Texts,
 * axe, screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { OIDC_CALLBACK_PATH, OIDC_ERROR_MESSAGES } from '../../src/users/lib/oidc.js';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { USER_MESSAGES } from '../../src/users/schema.js';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { freePort, startTestServer, type TestServer } from '../helpers/server.js';

const NAME = 'Acme SSO';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`company sign-in in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let op: TestProvider;
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;

    before(async () => {
      // PUBLIC_BASE_URL is the server's own address: chosen before it starts, for the provider's redirect URI.
      const port = await freePort();
      const PUBLIC = `http://127.0.0.1:${port}`;
      op = await startOidcProvider(
        [PUBLIC + OIDC_CALLBACK_PATH],
        [
          { sub: 'ada', email: 'ada@example.com', email_verified: true },
          { sub: 'stranger', email: 'stranger@example.com', email_verified: true },
        ],
      );
      s = await startTestServer(
        kind,
        {
          PUBLIC_BASE_URL: PUBLIC,
          OIDC_ISSUER: op.issuer,
          OIDC_CLIENT_ID: op.clientId,
          OIDC_CLIENT_SECRET: op.clientSecret,
          OIDC_PROVIDER_NAME: NAME,
        },
        {},
        { port },
      );
      const ada = await createHrUser(s.ctx.db, 'ada', { role: 'recruiter' });
      await s.ctx.db('hr_users').where({ id: ada }).update({ email: 'ada@example.com' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      await op?.close();
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    /** The provider's dev pages load a web font: none here (the tests run offline). */
    async function noWebFonts(page: Page) {
      await page.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
    }

    /** The provider's dev login (any password) and its consent screen. */
    async function atProvider(page: Page, login: string) {
      await page.waitForURL((u) => u.href.startsWith(op.issuer));
      await page.fill('input[name=login]', login);
      await page.fill('input[name=password]', 'any password');
      await page.click('button[type=submit]');
      await page.waitForSelector('button:has-text("Continue")');
      await page.click('button:has-text("Continue")');
    }

    it('at 1280 px: "Sign in with Acme SSO", the provider, then the page asked for, signed in like a password sign-in', async () => {
      tab = await openPage(browser, { width: 1280, height: 800 });
      const { page } = tab;
      await noWebFonts(page);
      await page.goto(`${s.baseUrl}/hrviewlogin?next=${encodeURIComponent('/hr/jobs/list')}`);
      const button = page.getByRole('link', { name: `Sign in with ${NAME}` });
      expect(await button.isVisible()).to.equal(true);
      expect(await page.locator('.login-divider').innerText()).to.equal('or with your username and password');
      // The password form stays below it.
      expect(await page.locator('#login-username').isVisible()).to.equal(true);
      const box = (await button.boundingBox())!;
      expect(box.height).to.be.at.least(44);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'oidc-login-1280');
      await button.click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      const cookie = (await page.context().cookies()).find((c) => c.name === 'jwt')!;
      expect(cookie.value).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(await page.evaluate(() => localStorage.getItem('jwt'))).to.equal(cookie.value);
      // The HR header's Logout works with it.
      expect(
        await page
          .getByRole('button', { name: 'Logout' })
          .or(page.getByRole('link', { name: 'Logout' }))
          .count(),
      ).to.be.greaterThan(0);
      await screenshot(page, 'oidc-signed-in-1280');
    });

    it('at 390 px: an unknown email lands back on the login page with why; OIDC_ONLY says password sign-in is for admins', async () => {
      s.ctx.config.oidc!.only = true;
      try {
        tab = await openPage(browser, { width: 390, height: 844 });
        const { page } = tab;
        await noWebFonts(page);
        await page.goto(`${s.baseUrl}/hrviewlogin`);
        expect(await page.locator('#oidc-only-note').innerText()).to.equal(
          `Sign in with ${NAME}. Password sign-in below is only for admins (when ${NAME} is unavailable).`,
        );
        await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
        await atProvider(page, 'stranger');
        await page.waitForURL((u) => u.pathname === '/hrviewlogin' && u.searchParams.get('oidc_error') === 'unknown');
        const alert = page.locator('#oidc-error');
        expect(await alert.innerText()).to.equal(OIDC_ERROR_MESSAGES.unknown(NAME));
        expect(await alert.getAttribute('role')).to.equal('alert');
        expect((await page.context().cookies()).some((c) => c.name === 'jwt')).to.equal(false);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
        const button = (await page.getByRole('link', { name: `Sign in with ${NAME}` }).boundingBox())!;
        expect(button.x).to.be.at.least(0);
        expect(button.x + button.width).to.be.at.most(390);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, 'oidc-refused-390');
      } finally {
        s.ctx.config.oidc!.only = false;
      }
    });

    for (const width of [1280, 390]) {
      it(`at ${width} px: an admin sees and changes users' email addresses on /hr/users`, async () => {
        await s.ctx.db('hr_users').where({ username: 'ada' }).update({ email: 'ada@example.com' });
        const admin = await createHrUser(s.ctx.db, `mail.admin.${width}`);
        const token = await liveToken(s.ctx.db, admin);
        tab = await openHrPage(browser, s.baseUrl, token, { width, height: width === 1280 ? 800 : 844 });
        const { page } = tab;
        await page.goto(`${s.baseUrl}/hr/users`);
        const row = page.locator('tr', { hasText: 'ada' }).first();
        expect(await row.locator('[data-label="Email"], td').filter({ hasText: 'ada@example.com' }).count()).to.equal(1);
        await page.getByRole('button', { name: 'Change email: ada' }).click();
        const field = page.getByLabel('Email (optional)');
        expect(await field.inputValue()).to.equal('ada@example.com');
        await field.fill('not an address');
        await page.getByRole('button', { name: 'Save email' }).click();
        expect(await page.locator('.users-dialog .field-error').innerText()).to.equal(USER_MESSAGES.email);
        // Chromium logs the expected 400 as a console error: drop exactly that one.
        const expected = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
        tab.errors.splice(tab.errors.indexOf(expected), tab.errors.includes(expected) ? 1 : 0);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `oidc-user-email-dialog-${width}`);
        await field.fill(`Ada.${width}@Example.com`);
        await page.getByRole('button', { name: 'Save email' }).click();
        await page.waitForSelector(`text=Email of ada is now ada.${width}@example.com.`);
        expect(await page.locator('tr', { hasText: `ada.${width}@example.com` }).count()).to.equal(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(width);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `oidc-user-emails-${width}`);
      });
    }
  });
}

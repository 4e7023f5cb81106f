/**
 * The team in real Chromium (issue 20), at 1280 px and 390 px, by keyboard: an admin adds a
 * recruiter with a one-time sign-in link on /hr/users; the recruiter opens the link, sets a
 * password, is signed in, sees no Users item and gets the 403 page at /hr/users; the used link
 * then says so. Then the admin makes the recruiter a hiring manager (Change role) and disables them. Axe-clean at every step; screenshots in
 * test/artifacts/hr-users-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { checkCredentials } from '../../src/users/lib/passport.js';
import { findUserByUsername } from '../../src/users/repo.js';
import { USER_MESSAGES } from '../../src/users/schema.js';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

/** The HR header's links a visitor can see at this width (the desktop nav, or the opened menu). */
async function visibleNavLinks(page: Page, narrow: boolean): Promise<string[]> {
  if (narrow) {
    await page.locator('details.nav-mobile summary').click();
    const links = await page.locator('nav[aria-label="HR mobile"] a').allInnerTexts();
    await page.locator('details.nav-mobile summary').click();
    return links;
  }
  // Wide: the links in view and, opened in turn, those of the Reports and Settings groups.
  const links = await page.locator('nav[aria-label=HR] > a').allInnerTexts();
  for (const group of await page.locator('nav[aria-label=HR] details[data-nav-group]').all()) {
    await group.locator('summary').click();
    links.push(...(await group.locator('a').allInnerTexts()));
    await group.locator('summary').click();
  }
  return links;
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`Users page and sign-in links in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(480_000);
    let s: TestServer;
    let browser: Browser;
    let adminToken: string;
    const tabs: PageWithErrors[] = [];

    before(async () => {
      s = await startTestServer(kind);
      ({ token: adminToken } = await hrSession(s.ctx.db, 'lead.admin'));
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
    });

    for (const w of WIDTHS) {
      const narrow = w.width < 720;
      const username = `rec.${w.name}`;

      it(`${w.name}: an admin adds a recruiter with a one-time link, who sets a password, is signed in and is kept out of Users`, async () => {
        const admin = await openHrPage(browser, s.baseUrl, adminToken, { width: w.width, height: w.height });
        tabs.push(admin);
        const page = admin.page;
        // Two browsers and a server on a shared machine: slow is not wrong here.
        page.setDefaultTimeout(90_000);
        await page.goto(`${s.baseUrl}/hr/users`);
        expect(await page.locator('h1').innerText()).to.equal('Users');
        expect(await visibleNavLinks(page, narrow)).to.include('Users');
        const add = page.getByRole('button', { name: 'Add user' });
        await add.waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `hr-users-list-${w.name}${suffix}`);

        // Keyboard only: open the dialog, type the name, keep Recruiter and the link, submit.
        await add.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Add user' });
        await dialog.waitFor();
        expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).to.equal('text');
        expect(await dialog.getByRole('radio', { name: /Recruiter/ }).isChecked()).to.equal(true);
        expect(await dialog.getByRole('radio', { name: /one-time sign-in link/ }).isChecked()).to.equal(true);
        // A bad name first: the server's message under the field, nothing created.
        await page.keyboard.type('<b>x</b>');
        await page.keyboard.press('Enter');
        await dialog.getByText(USER_MESSAGES.username, { exact: true }).waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        admin.errors.splice(0, admin.errors.length, ...admin.errors.filter((e) => !e.includes('status of 400')));
        await page.keyboard.press('Control+A');
        await page.keyboard.type(username);
        await page.keyboard.press('Enter');
        const shown = page.getByRole('dialog', { name: 'User created' });
        await shown.waitFor();
        const url = await shown.getByLabel('Sign-in link').inputValue();
        expect(url).to.match(new RegExp(`^${s.ctx.config.publicBaseUrl}/hrviewlogin/link/[A-Za-z0-9_-]{43}$`));
        expect(await shown.innerText()).to.include(`Send this link to ${username}`);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `hr-users-link-${w.name}${suffix}`);
        await shown.getByRole('button', { name: 'Done' }).click();
        await page.waitForLoadState('load');
        await page
          .getByRole('status')
          .filter({ hasText: `User ${username} created` })
          .waitFor();
        const row = page.locator('tr', { hasText: username });
        expect(await row.innerText())
          .to.include('Recruiter')
          .and.include('Invited');
        expect((await findUserByUsername(s.ctx.db, username))!.role).to.equal('recruiter');

        // The recruiter, signed out, in another browser.
        const rec = await openPage(browser, { width: w.width, height: w.height });
        tabs.push(rec);
        const rp = rec.page;
        rp.setDefaultTimeout(90_000);
        await rp.goto(url.replace(s.ctx.config.publicBaseUrl, s.baseUrl));
        expect(await rp.locator('h1').innerText()).to.equal('Set your password');
        await rp.getByLabel('New password').waitFor();
        expect(await rp.evaluate(() => document.activeElement?.id)).to.equal('link-password');
        expect(await axeViolations(rp)).to.deep.equal([]);
        await screenshot(rp, `hr-users-set-password-${w.name}${suffix}`);
        await rp.keyboard.type('recruiter secret 1');
        await rp.keyboard.press('Tab');
        await rp.keyboard.press('Tab');
        await rp.keyboard.type('recruiter secret 2');
        await rp.keyboard.press('Enter');
        await rp.getByText(USER_MESSAGES.passwordsDiffer).waitFor();
        expect(await axeViolations(rp)).to.deep.equal([]);
        await rp.getByLabel('Repeat password').fill('');
        await rp.getByLabel('Repeat password').focus();
        await rp.keyboard.type('recruiter secret 1');
        await rp.keyboard.press('Enter');
        await rp.waitForURL(`${s.baseUrl}/hr/dashboard`);
        expect(await rp.locator('h1').innerText()).to.equal('HR Dashboard');
        const links = await visibleNavLinks(rp, narrow);
        expect(links).to.include('Dashboard').and.not.include('Users');
        expect(await checkCredentials(s.ctx.db, username, 'recruiter secret 1')).to.not.equal(null);

        await rp.goto(`${s.baseUrl}/hr/users`);
        expect(await rp.locator('h1').innerText()).to.equal('403 — Access Denied');
        expect(await rp.locator('main').innerText()).to.include('Only admins can open this page.');
        expect(await rp.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).to.equal('/hr/dashboard');
        expect(await visibleNavLinks(rp, narrow)).to.not.include('Users');
        expect(await axeViolations(rp)).to.deep.equal([]);
        await screenshot(rp, `hr-users-403-${w.name}${suffix}`);

        // The link is used up.
        await rp.goto(url.replace(s.ctx.config.publicBaseUrl, s.baseUrl));
        expect(await rp.locator('main').innerText()).to.include(USER_MESSAGES.linkUsed);
        expect(await axeViolations(rp)).to.deep.equal([]);

        // The admin makes the recruiter a hiring manager: the dialog names the role now and offers the other three.
        await page.reload();
        await page.getByRole('button', { name: 'Add user' }).waitFor(); // the island is on
        await page.getByRole('button', { name: `Change role: ${username}` }).click();
        const roleDialog = page.getByRole('dialog', { name: `Change role: ${username}` });
        await roleDialog.waitFor();
        expect(await roleDialog.innerText()).to.include(`Change the role of ${username} (now Recruiter).`);
        expect(await roleDialog.getByRole('radio').count()).to.equal(4);
        await roleDialog.getByRole('radio', { name: /^Hiring manager/ }).check();
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `hr-users-change-role-${w.name}${suffix}`);
        await roleDialog.getByRole('button', { name: 'Change role' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `${username} is now hiring manager.` })
          .waitFor();
        expect(await page.locator('tr', { hasText: username }).innerText()).to.include('Hiring manager');
        expect((await findUserByUsername(s.ctx.db, username))!.role).to.equal('hiring_manager');

        // The admin disables the user from the table (keyboard), who is signed out at once.
        await page.getByRole('button', { name: 'Add user' }).waitFor();
        const disable = page.getByRole('button', { name: `Disable: ${username}` });
        await disable.focus();
        await page.keyboard.press('Enter');
        const confirm = page.getByRole('dialog', { name: `Disable: ${username}` });
        await confirm.waitFor();
        expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Cancel');
        expect(await axeViolations(page)).to.deep.equal([]);
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Enter');
        await page
          .getByRole('status')
          .filter({ hasText: `${username} disabled.` })
          .waitFor();
        expect(await page.locator('tr', { hasText: username }).innerText()).to.include('Disabled');
        // Focus back where it was after Escape on a dialog opened and closed without a change.
        await page.getByRole('button', { name: `Enable: ${username}` }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('dialog').waitFor();
        await page.keyboard.press('Escape');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal(`Enable: ${username}`);
        await rp.goto(`${s.baseUrl}/hr/dashboard`);
        expect(new URL(rp.url()).pathname).to.equal('/hrviewlogin');
      });
    }
  });
}

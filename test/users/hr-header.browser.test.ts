/**
 * The grouped HR header (issue 30) in Chromium at 1280 and 390 px: Dashboard, Jobs, Applicants and
 * Forms in view; Reports and Settings are disclosures that open by keyboard, close with Escape (focus
 * back on their button), on a click elsewhere and when focus leaves them, one open at a time; on a
 * phone every link is in the Menu drawer under the same group names. Axe clean, screenshots.
 */
import { expect } from 'chai';
import type { Browser, Locator } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Waits for a group's aria-expanded, which islands/site.ts sets on the toggle event (a moment after the key or click). */
const expanded = (summary: Locator, value: 'true' | 'false') =>
  summary.and(summary.page().locator(`[aria-expanded="${value}"]`)).waitFor({ timeout: 5000 });

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`grouped HR header in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let tab: PageWithErrors | undefined;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      expect(tab?.errors ?? [], 'console errors').to.deep.equal([]);
      await tab?.context.close();
    });

    it('at 1280 px: four links in view and two groups that work by keyboard', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs`);
      const nav = page.getByRole('navigation', { name: 'HR', exact: true });
      const visibleLinks = async () =>
        (await nav.getByRole('link').all()).length &&
        nav.getByRole('link').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.textContent));
      expect(await visibleLinks()).to.deep.equal(['Dashboard', 'Jobs', 'Applicants', 'Forms']);
      const settings = nav.locator('summary', { hasText: 'Settings' });
      const reports = nav.locator('summary', { hasText: 'Reports' });
      // Manage Jobs is in Settings: the group shows it holds the current page.
      expect(await nav.locator('details.has-current summary').innerText()).to.equal('Settings');
      await expanded(settings, 'false');
      await settings.focus();
      await page.keyboard.press('Enter');
      await expanded(settings, 'true');
      expect(await visibleLinks()).to.deep.equal([
        'Dashboard',
        'Jobs',
        'Applicants',
        'Forms',
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
      expect(await nav.getByRole('link', { name: 'Manage Jobs' }).getAttribute('aria-current')).to.equal('page');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'hr-header-settings-1280');
      // Escape closes it, focus back on its button.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Manage Jobs');
      await page.keyboard.press('Escape');
      await expanded(settings, 'false');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Settings');
      // One group open at a time.
      await reports.click();
      expect(await visibleLinks()).to.include('Sources');
      await settings.click();
      await expanded(reports, 'false');
      await expanded(settings, 'true');
      // Focus leaving the group closes it.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.waitForFunction(() => !document.querySelector('details[data-nav-group][open]'));
      // A click elsewhere closes it too.
      await settings.click();
      await page.locator('h1').click();
      await expanded(settings, 'false');
      // The link works: Sources, reached through Reports.
      await reports.click();
      await Promise.all([page.waitForURL(`${s.baseUrl}/hr/sources`), nav.getByRole('link', { name: 'Sources' }).click()]);
      expect(await nav.locator('details.has-current summary').innerText()).to.equal('Reports');
    });

    it('at 390 px: every link in the Menu drawer, under the group names', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/dashboard`);
      await page.getByRole('button', { name: 'Menu' }).or(page.locator('summary[aria-label="Menu"]')).first().click();
      const drawer = page.getByRole('navigation', { name: 'HR mobile' });
      expect(await drawer.getByRole('link').allInnerTexts()).to.deep.equal([
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
      expect(await drawer.locator('.nav-drawer-group').allInnerTexts()).to.deep.equal(['REPORTS', 'SETTINGS']);
      expect(await drawer.getByRole('list', { name: 'Settings' }).getByRole('link').allInnerTexts()).to.deep.equal([
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
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.be.at.most(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'hr-header-drawer-390');
      await page.keyboard.press('Escape');
      expect(await drawer.isVisible()).to.equal(false);
    });
  });
}

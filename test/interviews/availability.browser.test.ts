/**
 * Calendar and working hours, and Find a time, in real Chromium at 1280 and 390 px (issue 32): an
 * HR user reaches the page from the Settings menu, sees the defaults, saves their zone and days,
 * adds a calendar (shown only by its hint), finds the next free times with a colleague and sees
 * them in the candidate's zone too; back on the settings page the calendar shows when it was read,
 * and is removed. axe-core clean, nothing wider than the screen, no console errors; screenshots.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FEED = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:x@t\r\nDTSTART:20300101T090000Z\r\nDTEND:20300101T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`calendar settings and Find a time in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let feedServer: http.Server;
    let feedBase: string;
    const tokens: Record<string, string> = {};

    before(async () => {
      feedServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED));
      await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
      feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      for (const name of ['alice', 'rita'])
        tokens[name] = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, name, { role: 'recruiter' }));
      await createHrUser(s.ctx.db, 'bruno', { role: 'recruiter' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      await new Promise<void>((resolve) => feedServer.close(() => resolve()));
    });

    const noOverflow = async (page: Page) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(await page.evaluate(() => window.innerWidth));

    for (const [width, who] of [
      [1280, 'alice'],
      [390, 'rita'],
    ] as const) {
      it(`sets working hours and a calendar, then finds a time (${width})`, async () => {
        const t = await openHrPage(browser, s.baseUrl, tokens[who], {
          width,
          height: width > 500 ? 900 : 844,
          timezoneId: 'Europe/Berlin',
        });
        const { page } = t;
        page.on('dialog', (d) => void d.accept());
        try {
          await page.goto(`${s.baseUrl}/hr/dashboard`);
          if (width > 500) {
            const nav = page.getByRole('navigation', { name: 'HR', exact: true });
            await nav.locator('summary', { hasText: 'Settings' }).click();
            await nav.getByRole('link', { name: 'My calendar' }).click();
          } else {
            await page.locator('summary[aria-label="Menu"]').click();
            await page.getByRole('navigation', { name: 'HR mobile' }).getByRole('link', { name: 'My calendar' }).click();
          }
          await page.waitForURL(`${s.baseUrl}/hr/settings/calendar`);
          await page.getByRole('heading', { name: 'Calendar and working hours' }).waitFor();
          await page.getByText('You have not saved working hours yet: the defaults are shown.').waitFor();
          expect(await page.getByLabel('Time zone').inputValue()).to.equal('UTC');
          await page.getByLabel('Time zone').selectOption('Europe/Berlin');
          await page.getByLabel('Friday').uncheck();
          await page.getByLabel('Day starts at').fill('08:30');
          await page.getByLabel('Free before an interview (minutes)').fill('10');
          await page.getByRole('button', { name: 'Save working hours' }).click();
          await page.locator('#calendar-message', { hasText: 'Working hours saved.' }).waitFor();

          // A private address is refused by the server's rule only without WEBHOOK_ALLOW_PRIVATE; a bad scheme always.
          await page.getByLabel('Name').fill('Work');
          await page.getByLabel('Address').fill('ftp://example.com/cal.ics');
          await page.getByRole('button', { name: 'Add calendar' }).click();
          await page.getByText('Give the calendar address: an https:// (or webcal://) address.').waitFor();
          await page.getByLabel('Address').fill(`${feedBase}/private-${who}-token/basic.ics`);
          await page.getByRole('button', { name: 'Add calendar' }).click();
          await page.locator('#calendar-message', { hasText: 'Calendar added: Work' }).waitFor();
          const item = page.locator('.calendar-list li', { hasText: 'Work' });
          expect(await item.locator('code').innerText()).to.equal(`${feedBase}….ics`);
          expect(await page.content()).to.not.include(`private-${who}-token`);
          await noOverflow(page);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `availability-settings-${width}`);

          await page.getByRole('link', { name: 'Find a time' }).click();
          await page.getByRole('heading', { name: 'Find a time' }).waitFor();
          expect(await page.getByLabel(who).isChecked()).to.equal(true);
          await page.getByLabel('bruno').check();
          await page.getByLabel('Duration').selectOption('60');
          await page.getByLabel("Candidate's time zone").selectOption('America/New_York');
          await page.getByRole('button', { name: 'Find times' }).click();
          await page.getByRole('heading', { name: 'Next 10 free times' }).waitFor();
          expect(await page.locator('.slots li').count()).to.equal(10);
          const first = await page.locator('.slots li').first().innerText();
          expect(first).to.match(/GMT\+1|CET/);
          expect(first).to.include('Candidate:').and.include('America/New_York');
          await noOverflow(page);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `availability-find-time-${width}`);

          // The calendar was read for the search: its last read is shown; then it is removed.
          await page.goto(`${s.baseUrl}/hr/settings/calendar`);
          expect(await page.locator('.calendar-list li').innerText()).to.not.include('not yet');
          expect(await page.getByLabel('Time zone').inputValue()).to.equal('Europe/Berlin');
          await page.getByRole('button', { name: 'Remove calendar Work' }).click();
          await page.getByText('No calendars yet.').waitFor();
          // The refused address's 400 is the only console line.
          expect(
            t.errors.filter((e) => !/status of 400/.test(e)),
            'console errors',
          ).to.deep.equal([]);
        } finally {
          await t.context.close();
        }
      });
    }
  });
}

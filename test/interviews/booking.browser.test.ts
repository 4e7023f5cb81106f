/**
 * The candidate's booking page in real Chromium (issue 32): at 390 px with script on, the page asks
 * for itself in the browser's zone (Asia/Tokyo here), the candidate books a time, then moves it;
 * at 1280 px with script off, the times come in the interview's zone, the zone form changes them,
 * and a plain form books. HR sends a link from the applicant page's "Send a booking link" dialog at
 * both widths. Axe-clean (axe runs in the page: with script on); screenshots in
 * test/artifacts/booking-*.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { hr } from '../applicants/helpers.js';
import { BOOKING_MESSAGES as M } from '../../src/interviews/booking.schema.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`booking page in Chromium [${kind}]`, function () {
    this.timeout(180_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let userId: number;
    let apps: number[];
    const tabs: PageWithErrors[] = [];
    // 09:00 UTC on a day at least five days ahead: 18:00 in Tokyo, 10:00 in Berlin (winter).
    const base = new Date(Math.ceil((Date.now() + 5 * DAY) / DAY) * DAY + 9 * HOUR);
    const slots = [0, 1, 24].map((h) => new Date(base.getTime() + h * HOUR).toISOString());

    before(async () => {
      s = await startTestServer(kind, { COMPANY_NAME: 'Acme' });
      userId = await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' });
      await s.ctx.db('hr_users').where({ id: userId }).update({ email: 'rita@acme.example' });
      token = await liveToken(s.ctx.db, userId);
      const job = await makeJob(s.ctx.db, { title: 'Backend Engineer', public_id: 'backend-engineer' });
      await insertApplications(
        s.ctx.db,
        job.id,
        ['Aiko', 'Ben'].map((first_name) => ({
          first_name,
          last_name: 'Tester',
          email: `${first_name.toLowerCase()}@example.com`,
          phone: '+15550100',
        })),
        [],
      );
      apps = (await s.ctx.db('applications').orderBy('id').pluck('id')).map(Number);
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

    const link = async (appId: number) => {
      const r = await hr(s.baseUrl, token, `/api/hr/applications/${appId}/booking-links/`, {
        method: 'POST',
        body: { type: 'video', time_zone: 'Europe/Berlin', interviewers: [{ user_id: userId }], duration_minutes: 45, slots },
      });
      expect(r.status).to.equal(201);
      return s.baseUrl + new URL(r.body.url).pathname;
    };

    it('390 px, script on: the times in the browser zone, a time booked and then moved', async () => {
      const tab = await openPage(browser, { width: 390, height: 844, timezoneId: 'Asia/Tokyo' });
      tabs.push(tab);
      const { page } = tab;
      await page.goto(await link(apps[0]));
      await page.waitForURL(/tz=Asia%2FTokyo/);
      expect(await page.locator('h1').innerText()).to.equal('Choose a time for your interview');
      expect(await page.getByLabel('Times shown in').inputValue()).to.equal('Asia/Tokyo');
      const first = page.getByRole('button', { name: /^Book .*, 18:00$/ }).first();
      await first.waitFor();
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `booking-times-narrow${kind === 'mysql' ? '-mysql' : ''}`);
      await first.click();
      await page.getByRole('status').filter({ hasText: M.booked }).waitFor();
      expect(await page.locator('h1').innerText()).to.equal('Your interview');
      expect(await page.locator('.booked-time').innerText()).to.match(/18:00–18:45 \(Asia\/Tokyo\)$/);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `booking-booked-narrow${kind === 'mysql' ? '-mysql' : ''}`);
      await page.getByRole('button', { name: /^Move to .*, 19:00$/ }).click();
      await page.getByRole('status').filter({ hasText: M.rescheduled }).waitFor();
      expect(await page.locator('.booked-time').innerText()).to.match(/19:00–19:45 \(Asia\/Tokyo\)$/);
    });

    it('1280 px, script off: the interview zone first, the zone form, a plain form books', async () => {
      const tab = await openPage(browser, { width: 1280, height: 900, contextOptions: { javaScriptEnabled: false } });
      tabs.push(tab);
      const { page } = tab;
      await page.goto(await link(apps[1]));
      expect(new URL(page.url()).searchParams.has('tz')).to.equal(false);
      expect(await page.getByLabel('Times shown in').inputValue()).to.equal('Europe/Berlin');
      // The 10:00 slot was taken by the first test (19:00 Tokyo = 10:00 UTC): only 09:00 and the next day remain.
      const buttons = await page.locator('.slot-times button').allInnerTexts();
      expect(buttons).to.deep.equal(['10:00', '10:00']);
      await page.getByLabel('Times shown in').selectOption('UTC');
      await page.getByRole('button', { name: 'Show' }).click();
      expect(await page.locator('.slot-times button').allInnerTexts()).to.deep.equal(['09:00', '09:00']);
      await screenshot(page, `booking-times-wide${kind === 'mysql' ? '-mysql' : ''}`);
      await page.locator('.slot-times button').first().click();
      await page.getByText(M.booked).waitFor();
      expect(await page.locator('.booked-time').innerText()).to.match(/09:00–09:45 \(UTC\)$/);
      // Moving offers the other times, not the booked one.
      expect(await page.locator('.slot-times button').allInnerTexts()).to.deep.equal(['09:00']);
      await screenshot(page, `booking-booked-wide${kind === 'mysql' ? '-mysql' : ''}`);
    });

    for (const w of [
      { name: 'wide', width: 1280, height: 900 },
      { name: 'narrow', width: 390, height: 844 },
    ]) {
      it(`${w.name}: HR sends a booking link of times picked by hand from the applicant page`, async () => {
        const tab = await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height });
        tabs.push(tab);
        const { page } = tab;
        // The inserted applications have no stored resume: the page's resume view gets a 404, and only that.
        const missing: string[] = [];
        page.on('response', (r) => r.status() === 404 && missing.push(new URL(r.url()).pathname));
        await page.goto(`${s.baseUrl}/hr/applicants/${apps[1]}`);
        await page.getByRole('button', { name: 'Send a booking link' }).click();
        const dialog = page.getByRole('dialog', { name: 'Send a booking link' });
        await dialog.getByRole('checkbox', { name: 'rita' }).check();
        await dialog.getByRole('radio', { name: 'These times' }).check();
        await dialog.getByLabel('Day of time 1').fill(new Date(base.getTime() + 2 * DAY).toISOString().slice(0, 10));
        await dialog.getByLabel('Start of time 1').fill('11:30');
        await dialog.getByLabel('Time zone').fill('UTC');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `booking-send-${w.name}${kind === 'mysql' ? '-mysql' : ''}`);
        await dialog.getByRole('button', { name: 'Send the link' }).click();
        // The test server has no SMTP_URL: the link is made, and HR is told to send it.
        await page.getByRole('status').filter({ hasText: 'Booking link made (email is off: send it yourself).' }).waitFor();
        expect(await page.getByLabel(/^Link sent/).inputValue()).to.match(/\/book\/[A-Za-z0-9_-]{43}$/);
        expect(await page.locator('.interview-item', { hasText: 'Waiting for the candidate' }).first().innerText()).to.include(
          '1 time offered',
        );
        expect(await axeViolations(page)).to.deep.equal([]);
        expect(missing.filter((p) => p !== `/api/hr/applications/${apps[1]}/resume/`)).to.deep.equal([]);
        tab.errors.splice(0, tab.errors.length, ...tab.errors.filter((e) => !e.includes('status of 404')));
      });
    }
  });
}

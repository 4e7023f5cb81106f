/**
 * Issue 9's faults as an applicant meets them in real Chromium, on SQLite and (with
 * TEST_MYSQL_URL) MySQL, faults injected for real (test/helpers/db-faults.ts):
 * - a slow phone: the application is uploaded through a throttled uplink for longer than the
 *   server's headers timeout, and goes through (the server's deadlines scaled down tenfold, the
 *   uplink sped up as much: the 20 s headers timeout is met in 2 s, as the slow-client tests do);
 * - the connection drops during the application's COMMIT after it committed: the wizard says it
 *   could not confirm (not that it failed); sending again says the application exists;
 * - the database goes away: pages (public and HR) show the "temporarily unavailable" page with a
 *   503, the wizard's submit and the HR sign-in show the same advice, and once the database is
 *   back the same form goes through without reloading anything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startFaultyServer, type FaultyServer } from '../helpers/db-faults.js';
import { makeJob } from '../helpers/factories.js';
import { HR_PASSWORD, hrSession } from '../helpers/hr.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { listFiles, uploadsRoot } from '../fixtures/apply.js';
import { APPLY_MESSAGES } from '../../src/applicants/apply.service.js';
import { UNAVAILABLE_MESSAGES } from '../../src/http/error-handler.js';
import { HTTP_TIMEOUTS } from '../../src/http/listen.js';
import { fillBasic, heading, next, viewportShot } from './apply-helpers.js';

const FAILED_503 = 'Failed to load resource: the server responded with a status of 503 (Service Unavailable)';
const FAILED_400 = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';

/** Fills the four steps of a job without questions, up to Review. */
async function fillWizard(page: Page, base: string, publicId: string, email: string, resume: string): Promise<void> {
  await page.goto(`${base}/careers/${publicId}/apply`);
  await page.locator('.wizard-card').waitFor();
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('.wizard-card').waitFor();
  await fillBasic(page, { first: 'Meera', last: 'Iyer', email, phone: '9123456780', resume });
  await next(page, 'Experience');
  await next(page, 'Education & Skills');
  await next(page, 'Review');
}

/** The server's HTTP deadlines divided by this (test/helpers/server.ts). */
const TIME_SCALE = 10;

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Unable to Submit Application' });

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`faults as an applicant meets them, in Chromium [${kind}]`, function () {
    this.timeout(180_000);
    let f: FaultyServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let expectedErrors: string[] = [];
    let dir: string;
    let smallResume: string;
    let bigResume: string;
    let hrToken: string;
    const suffix = kind === 'mysql' ? '-mysql' : '';

    before(async () => {
      // No rate-limit rows for applications or the wizard's beacons: the faults aimed at the
      // application's statements (its COMMIT) must not land on a limiter's write instead. No
      // micro-cache of public pages: the outage shows on them at once.
      f = await startFaultyServer(
        kind,
        { APPLY_RATE_LIMIT: '0', FUNNEL_RATE_LIMIT: '0', PUBLIC_CACHE_SECONDS: '0' },
        { timeScale: TIME_SCALE },
      );
      await makeJob(f.s.ctx.db, { public_id: 'fault-job', title: 'Field Engineer' });
      ({ token: hrToken } = await hrSession(f.s.ctx.db, 'hr-faults'));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-fault-files-'));
      smallResume = path.join(dir, 'meera-resume.pdf');
      fs.writeFileSync(smallResume, pdfBytes(30_000));
      bigResume = path.join(dir, 'meera-long-resume.pdf');
      fs.writeFileSync(bigResume, pdfBytes(600 * 1024));
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await f?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      tab = await openPage(browser);
      expectedErrors = [];
    });
    afterEach(async () => {
      expect(
        tab.errors.filter((e) => !expectedErrors.includes(e)),
        'console errors',
      ).to.deep.equal([]);
      await tab.context.close();
    });

    it('a slow phone: the upload takes longer than the headers timeout and still goes through', async () => {
      const { page, context } = tab;
      await fillWizard(page, f.s.baseUrl, 'fault-job', 'slow.phone@example.com', bigResume);
      // About 25 KB/s up against the real 20 s deadline: the 600 KB resume takes about 25 s; here ten times both.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 30,
        downloadThroughput: 500 * 1024,
        uploadThroughput: 250 * 1024,
      });
      const started = Date.now();
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${f.s.baseUrl}/careers/fault-job/submitted`, { timeout: 120_000 });
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).to.be.greaterThan(HTTP_TIMEOUTS.headersTimeoutMs / 1000 / TIME_SCALE);
      expect(f.s.server.headersTimeout).to.equal(HTTP_TIMEOUTS.headersTimeoutMs / TIME_SCALE);
      expect(await page.locator('h1').innerText()).to.equal('Application Submitted');
      const row = await f.s.ctx.db('applications').where({ email: 'slow.phone@example.com' }).first();
      const file = await f.s.ctx.db('stored_files').where({ id: row.resume_file_id }).first();
      expect(Number(file.size)).to.equal(600 * 1024);
    });

    it('the connection drops after the COMMIT: "could not confirm", then sending again says the application exists', async () => {
      const { page } = tab;
      expectedErrors = [FAILED_503, FAILED_400];
      await fillWizard(page, f.s.baseUrl, 'fault-job', 'meera.iyer@example.com', smallResume);
      // The counters' buffered writes (the wizard's beacons, the page views) go now, so the COMMIT
      // that fails is the application's, not a flush's that happened to fall in between.
      await Promise.all([f.s.ctx.funnel.flush(), f.s.ctx.views.flush()]);
      const fault = f.failNext(/^\s*COMMIT\b/i, 'after');
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await fault;
      await dialog(page).waitFor();
      const text = await dialog(page).innerText();
      expect(text).to.include(APPLY_MESSAGES.unconfirmed);
      expect(text).not.to.match(/failed/i);
      expect(await axeViolations(page)).to.deep.equal([]);
      await viewportShot(page, `fault-commit-unconfirmed${suffix}`);
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await heading(page)).to.equal('Review');
      // The form is intact; the applicant sends it again as the message says.
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await dialog(page).waitFor();
      expect(await dialog(page).innerText()).to.include(APPLY_MESSAGES.duplicate);
      await viewportShot(page, `fault-commit-retry-duplicate${suffix}`);
      const rows = await f.s.ctx.db('applications').where({ email: 'meera.iyer@example.com' });
      expect(rows).to.have.length(1);
      const file = await f.s.ctx.db('stored_files').where({ id: rows[0].resume_file_id }).first();
      expect(listFiles(uploadsRoot(f.s.ctx))).to.include(file.storage_key);
    });

    it('the database goes away: a 503 page, the wizard says to try again, and the same form goes through once it is back', async () => {
      const { page, context } = tab;
      expectedErrors = [FAILED_503];
      await fillWizard(page, f.s.baseUrl, 'fault-job', 'outage@example.com', smallResume);
      await f.takeDatabaseAway();
      try {
        await page.getByRole('button', { name: 'Submit Application' }).click();
        await dialog(page).waitFor();
        expect(await dialog(page).innerText()).to.include(UNAVAILABLE_MESSAGES.detail);
        await viewportShot(page, `fault-outage-submit${suffix}`);

        // Another tab: the careers page and the job page.
        const other = await context.newPage();
        for (const url of ['/careers', '/careers/fault-job']) {
          const res = await other.goto(`${f.s.baseUrl}${url}`);
          expect(res!.status(), url).to.equal(503);
          expect(res!.headers()['retry-after']).to.equal('5');
          expect(await other.locator('h1').innerText()).to.equal(UNAVAILABLE_MESSAGES.title);
          expect(await other.locator('main').innerText()).to.include(UNAVAILABLE_MESSAGES.page);
        }
        expect(await axeViolations(other)).to.deep.equal([]);
        await screenshot(other, `fault-outage-page${suffix}`);
        // A signed-in HR page: the same 503 page, not a redirect to the sign-in page.
        await context.addCookies([{ name: 'jwt', value: hrToken, url: f.s.baseUrl }]);
        const hr = await other.goto(`${f.s.baseUrl}/hr/jobs`);
        expect(hr!.status()).to.equal(503);
        expect(other.url()).to.equal(`${f.s.baseUrl}/hr/jobs`);
        expect(await other.locator('h1').innerText()).to.equal(UNAVAILABLE_MESSAGES.title);
        // Signing in: the page itself needs no database; the answer says to try again, not that the password is wrong.
        await context.clearCookies();
        await other.goto(`${f.s.baseUrl}/hrviewlogin`);
        await other.fill('#login-username', 'hr-faults');
        await other.fill('#login-password', HR_PASSWORD);
        await other.getByRole('button', { name: 'Sign In' }).click();
        expect(await other.locator('#login-error').innerText()).to.equal(UNAVAILABLE_MESSAGES.detail);
        await screenshot(other, `fault-outage-hr-login${suffix}`);
        await other.close();
      } finally {
        await f.bringDatabaseBack();
      }
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${f.s.baseUrl}/careers/fault-job/submitted`, { timeout: 30_000 });
      expect(await f.s.ctx.db('applications').where({ email: 'outage@example.com' })).to.have.length(1);
      await page.goto(`${f.s.baseUrl}/careers`);
      expect(await page.locator('.job-card').count()).to.equal(1);
    });
  });
}

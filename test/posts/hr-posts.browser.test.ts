/**
 * API Post Requests (/hr/posts) in real Chromium: tabs, table, next attempt time, 'No records.',
 * paging, Export (download and failure text), Retry and a row's attempts; axe clean; screenshots.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fromDbDate } from '../../src/db/codecs.js';
import { createDelivery } from '../../src/posts/index.js';
import { seedPosts, silent, startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`API Post Requests in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let ok: Receiver;
    let failing: Receiver;
    let failedId: number;

    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      ok = await startReceiver(() => ({ status: 200 }));
      failing = await startReceiver(() => ({ status: 503, body: 'Service Unavailable: maintenance until 18:00' }));
      const good = await webhookJob(db, ok.url);
      const bad = await webhookJob(db, failing.url);
      await seedPosts(db, good, 30, new Date(), 'ok');
      [failedId] = await seedPosts(db, bad, 2, new Date(), 'bad');
      const delivery = createDelivery({ db, config: s.ctx.config, now: () => new Date(), log: silent });
      await delivery.worker.runDue();
      await delivery.close();
      // The second failed post has used up its attempts: no next attempt.
      await db('application_posts').where({ job_id: bad.id }).whereNot('id', failedId).update({ next_attempt_at: null, attempts: 8 });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      await ok?.close();
      await failing?.close();
    });
    beforeEach(async () => {
      tab = await openHrPage(browser, s.baseUrl, token);
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    it('opens on Successful: the table, its columns and paging', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/posts`);
      expect(await page.locator('h1').textContent()).to.equal('API Post Requests');
      expect(await page.locator('.post-tab[aria-current="page"]').textContent()).to.equal('Successful');
      expect(await page.locator('thead th').allTextContents()).to.deep.equal([
        'First Name',
        'Last Name',
        'Email',
        'Phone',
        'Job ID',
        'Status',
        'Code',
        'Time',
        'Actions',
      ]);
      expect(await page.locator('tbody tr').count()).to.equal(25);
      expect(await page.locator('.pager span').textContent()).to.equal('Page 1 of 2');
      await page.locator('button[data-export-posts]').waitFor({ state: 'visible' });
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-posts-success${suffix}`);
      await page.locator('a[rel="next"]').click();
      await page.waitForURL(/page=2/);
      expect(await page.locator('tbody tr').count()).to.equal(5);
    });

    it('Unsuccessful shows the code, the next attempt time or none left, Retry, and the attempts on demand', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/posts`);
      await page.locator('.post-tab', { hasText: 'Unsuccessful' }).click();
      await page.waitForURL(/status=FAILED/);
      expect(await page.locator('thead th').allTextContents()).to.include('Next Attempt');
      const rows = page.locator('tbody tr');
      expect(await rows.count()).to.equal(2);
      const retryable = rows.filter({ has: page.locator(`button[data-post-retry="${failedId}"]`) });
      expect(await retryable.locator('td').nth(6).textContent()).to.equal('503');
      expect(await retryable.locator('td').nth(8).locator('time').count()).to.equal(1);
      expect(await page.getByText('No more attempts').count()).to.equal(1);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-posts-failed${suffix}`);

      await page.locator(`button[data-post-attempts="${failedId}"]`).click();
      const dialog = page.locator('dialog.attempts-dialog');
      await dialog.locator('tbody tr').first().waitFor();
      expect(await dialog.locator('tbody td').nth(2).textContent()).to.equal('503');
      expect(await dialog.locator('tbody td').nth(4).textContent()).to.equal('Service Unavailable: maintenance until 18:00');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-posts-attempts${suffix}`);
      await dialog.getByRole('button', { name: 'Close' }).click();
      expect(await dialog.count()).to.equal(0);

      // The post is due now (no worker runs here), and the page reloads.
      const retried = page.waitForResponse((r) => r.url().endsWith(`/api/hr/application-posts/${failedId}/retry/`));
      const reloaded = page.waitForEvent('load');
      await page.locator(`button[data-post-retry="${failedId}"]`).click();
      expect((await retried).status()).to.equal(200);
      await reloaded;
      await page.locator(`button[data-post-retry="${failedId}"]`).waitFor({ state: 'visible' });
      const row = await s.ctx.db('application_posts').where('id', failedId).first();
      expect(fromDbDate(row.next_attempt_at)!.getTime()).to.be.at.most(Date.now());
    });

    it('Pending has its own tab; an empty tab says No records.', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/posts?status=PENDING`);
      expect(await page.locator('.post-tab[aria-current="page"]').textContent()).to.equal('Pending');
      expect(await page.locator('.empty-state').textContent()).to.equal('No records.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-posts-empty${suffix}`);
    });

    it('Export saves application_posts_{status}.xlsx; a failed export says so', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/posts?status=FAILED`);
      const button = page.locator('button[data-export-posts]');
      await button.waitFor({ state: 'visible' });
      const download = page.waitForEvent('download');
      await button.click();
      const file = await download;
      expect(file.suggestedFilename()).to.equal('application_posts_FAILED.xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
      expect(wb.worksheets[0].rowCount).to.equal(3);

      await page.route('**/application-posts/export/**', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"A server error occurred."}' }),
      );
      await button.click();
      const problem = page.locator('#posts-export-problem');
      await problem.waitFor({ state: 'visible' });
      expect(await problem.textContent()).to.equal('Export failed. Please try again.');
      await screenshot(page, `hr-posts-export-failed${suffix}`);
      tab.errors.splice(0); // the browser logs the 500 it was given
    });
  });
}

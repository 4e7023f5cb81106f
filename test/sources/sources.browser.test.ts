/**
 * Sources in Chromium (issue 21): HR creates a tracking link on /hr/sources; a visitor follows it,
 * applies through the wizard, and the application shows under the link's source on the Sources
 * page, on the applicants list and on the application. Both widths, axe clean, keyboard only for
 * creating the link.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fillBasic, next, resumeFiles } from '../applicants/apply-helpers.js';

describe('Sources in a browser', function () {
  this.timeout(180_000);
  let s: TestServer;
  let browser: Browser;
  let token: string;
  let files: ReturnType<typeof resumeFiles>;
  let jobId: number;

  before(async () => {
    s = await startTestServer('sqlite', { APPLY_RATE_LIMIT: '0' });
    token = (await hrSession(s.ctx.db, 'sources-browser')).token;
    jobId = (await makeJob(s.ctx.db, { public_id: 'office-manager', title: 'Office Manager', status: 'ACTIVE' })).id;
    files = resumeFiles();
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await s?.close();
    files?.cleanup();
  });

  for (const width of [390, 1280]) {
    it(`loads without moving (layout shift under 0.05) at ${width} px, the twins told apart, axe clean`, async () => {
      await makeJob(s.ctx.db, { public_id: `twin-${width}-a`, title: `Twin ${width}` });
      await makeJob(s.ctx.db, { public_id: `twin-${width}-b`, title: `Twin ${width}` });
      await s.ctx.db('jobs').where('public_id', 'like', `twin-${width}-%`).update({ views: 12 });
      const hr = await openHrPage(browser, s.baseUrl, token, { width, height: width === 390 ? 844 : 800 });
      const { page } = hr;
      await page.addInitScript(() => {
        (window as unknown as { cls: number }).cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!e.hadRecentInput) (window as unknown as { cls: number }).cls += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${s.baseUrl}/hr/sources`);
      await page.locator('.links-table, .sources .empty-state').first().waitFor();
      await page.getByRole('rowheader', { name: `Twin ${width} (twin-${width}-a)` }).waitFor();
      await page.waitForTimeout(300);
      const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
      expect(cls, 'cumulative layout shift').to.be.below(0.05);
      expect(await page.locator('#link-job_id option', { hasText: `Twin ${width}` }).allInnerTexts()).to.deep.equal([
        `Twin ${width} (twin-${width}-a)`,
        `Twin ${width} (twin-${width}-b)`,
      ]);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `sources-${width}`);
      await hr.context.close();
    });
  }

  it('a link made on /hr/sources brings an application that shows under its source', async () => {
    const hr = await openHrPage(browser, s.baseUrl, token);
    const { page } = hr;
    await page.goto(`${s.baseUrl}/hr/sources`);
    await page.getByRole('heading', { name: 'Tracking links' }).waitFor();
    // In the header's Reports group (closed), marked as the current page.
    expect(await page.locator('nav[aria-label="HR"] a[aria-current="page"]').textContent()).to.equal('Sources');
    // Keyboard only: fill the form and press Enter.
    await page.locator('#link-name').focus();
    await page.keyboard.type('Referral: Priya Sharma');
    await page.keyboard.press('Tab');
    await page.keyboard.type('referral');
    await page.locator('#link-job_id').selectOption({ label: 'Office Manager' });
    await page.locator('#link-name').press('Enter');
    await page.locator('#sources-message', { hasText: 'Tracking link created' }).waitFor();
    const url = await page.locator('.links-table code').first().innerText();
    expect(url).to.match(/\/go\/referral-priya-sharma$/);
    expect(await axeViolations(page)).to.deep.equal([]);

    // A visitor follows the link (its path on this server) and applies.
    const visitor = await openPage(browser, { width: 390 });
    await visitor.page.goto(`${s.baseUrl}/go/referral-priya-sharma`);
    expect(visitor.page.url()).to.equal(`${s.baseUrl}/careers/office-manager`);
    await visitor.page.getByRole('link', { name: /Apply/ }).first().click();
    await visitor.page.locator('.wizard-card').waitFor();
    await fillBasic(visitor.page, {
      first: 'Ravi',
      last: 'Kumar',
      email: 'ravi.kumar@example.com',
      phone: '9123456780',
      resume: files.pdf,
    });
    await next(visitor.page, 'Experience');
    await next(visitor.page, 'Education & Skills');
    await next(visitor.page, 'Review');
    await visitor.page.getByRole('button', { name: 'Submit Application' }).click();
    await visitor.page.waitForURL(`${s.baseUrl}/careers/office-manager/submitted`);
    await visitor.context.close();

    await page.reload();
    await page.getByRole('heading', { name: 'Applications by source' }).waitFor();
    await page.locator('table', { hasText: 'referral' }).first().waitFor();
    expect(await page.locator('section[aria-labelledby="by-source"] tbody').innerText()).to.match(/referral\s+1\s+100%/);
    expect(await page.locator('section[aria-labelledby="by-job"] tbody').innerText()).to.include('referral 1');
    expect(await page.locator('.links-table tbody tr').first().innerText()).to.match(
      /Referral: Priya Sharma[\s\S]*referral[\s\S]*Office Manager[\s\S]*1[\s\S]*1/,
    );
    await screenshot(page, 'sources-1280');

    await page.goto(`${s.baseUrl}/hr/applicants?source=referral`);
    expect(await page.locator('.applicants-table tbody tr').count()).to.equal(1);
    expect(await page.locator('.applicants-table tbody').innerText()).to.include('referral');
    await page.locator('.applicants-table tbody a', { hasText: 'View' }).click();
    expect(await page.locator('dl').first().innerText()).to.match(/Source\s+referral/);

    // The same visit in the job's apply funnel: viewed, Apply clicked, every step, submitted.
    await s.ctx.funnel.flush();
    await page.goto(`${s.baseUrl}/hr/jobs/${jobId}/insights`);
    const funnel = page.locator('.funnel-table').first();
    await funnel.waitFor();
    const count = async (key: string) => (await funnel.locator(`tr[data-key="${key}"] td[data-label="Count"]`).innerText()).trim();
    const rows = await funnel.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.key));
    expect(rows.length).to.be.greaterThan(3);
    expect(await count(rows[rows.length - 1]!)).to.equal('1');
    expect(await count(rows[0]!)).to.equal('1');
    expect(hr.errors).to.deep.equal([]);
    await hr.context.close();
  });

  it('is axe clean on a phone and keeps its tables readable', async () => {
    const { page, context, errors } = await openHrPage(browser, s.baseUrl, token, { width: 390 });
    await page.goto(`${s.baseUrl}/hr/sources`);
    await page.locator('.links-table').waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).to.equal(false);
    await screenshot(page, 'sources-390');
    expect(errors).to.deep.equal([]);
    await context.close();
  });
});

/**
 * Reports in Chromium (issue 31): /hr/reports at 390 and 1280 px loads without moving, axe clean,
 * in the header's Reports group; a job is chosen and the period changed by keyboard alone; a period
 * that ends before it starts is refused beside its field; the workbook downloads.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { toDbDate } from '../../src/db/codecs.js';
import path from 'node:path';
import { ARTIFACTS, axeViolations, releaseBrowser, screenshot, sharedBrowser } from '../helpers/browser.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('Reports in a browser', function () {
  this.timeout(180_000);
  let s: TestServer;
  let browser: Browser;
  let token: string;

  before(async () => {
    s = await startTestServer('sqlite', {});
    token = (await hrSession(s.ctx.db, 'reports-browser')).token;
    const job = await makeJob(s.ctx.db, { public_id: 'support-engineer', title: 'Support Engineer', status: 'ACTIVE' });
    await makeJob(s.ctx.db, { public_id: 'other-role', title: 'Other Role', status: 'ACTIVE' });
    const start = new Date(Date.now() - 20 * 86_400_000);
    await insertApplications(
      s.ctx.db,
      job.id,
      Array.from({ length: 6 }, (_, i) => ({
        first_name: `P${i}`,
        last_name: 'Q',
        email: `p${i}@example.com`,
        phone: '+15550000000',
        created_at: start,
      })),
      [],
    );
    const apps = (await s.ctx.db('applications').where('job_id', job.id).orderBy('id').select('id')).map((r) => Number(r.id));
    const stages = (await s.ctx.db('job_stages').where('job_id', job.id).orderBy('position').select('id')).map((r) => Number(r.id));
    const day = (d: number) => toDbDate(new Date(start.getTime() + d * 86_400_000));
    const rows: Record<string, unknown>[] = apps.map((id) => ({ application_id: id, job_id: job.id, to_stage_id: stages[0], at: day(0) }));
    for (const [i, id] of apps.slice(0, 4).entries())
      rows.push({ application_id: id, job_id: job.id, from_stage_id: stages[0], to_stage_id: stages[1], at: day(1 + i) });
    rows.push({ application_id: apps[0], job_id: job.id, from_stage_id: stages[1], to_stage_id: stages[4], at: day(9) });
    rows.push({
      application_id: apps[1],
      job_id: job.id,
      from_stage_id: stages[1],
      to_stage_id: stages[1],
      outcome: 'REJECTED',
      reason: 'Not a fit',
      at: day(6),
    });
    await s.ctx.db('stage_transitions').insert(rows);
    await s.ctx.db('applications').whereIn('id', apps.slice(2, 4)).update({ stage_id: stages[1] });
    await s.ctx.db('applications').where('id', apps[0]).update({ stage_id: stages[4], status: 'ARCHIVED', source: 'linkedin' });
    await s.ctx.db('applications').where('id', apps[1]).update({ stage_id: stages[1], outcome: 'REJECTED', outcome_reason: 'Not a fit' });
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await s?.close();
  });

  for (const width of [390, 1280]) {
    it(`loads without moving at ${width} px, axe clean`, async () => {
      const hr = await openHrPage(browser, s.baseUrl, token, { width, height: width === 390 ? 844 : 800 });
      const { page } = hr;
      await page.addInitScript(() => {
        (window as unknown as { cls: number }).cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!e.hadRecentInput) (window as unknown as { cls: number }).cls += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${s.baseUrl}/hr/reports`);
      await page.getByRole('heading', { name: /^All jobs, / }).waitFor();
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { cls: number }).cls), 'cumulative layout shift').to.be.below(0.05);
      expect(await page.locator('.reports-figures').innerText()).to.match(
        /Applications\s+6[\s\S]*Rejected\s+1[\s\S]*Hired\s+1[\s\S]*Offers made \/ accepted\s+0 \/ 0/,
      );
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `reports-${width}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `reports-${width}-top.png`) });
      expect(hr.errors).to.deep.equal([]);
      await hr.context.close();
    });
  }

  it('chooses a job and a period by keyboard, refuses a reversed period beside its field, and downloads the workbook', async () => {
    const hr = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
    const { page } = hr;
    await page.goto(`${s.baseUrl}/hr/reports`);
    await page.getByRole('heading', { name: /^All jobs, / }).waitFor();
    // In the header's Reports group, marked as the current page.
    expect(await page.locator('nav[aria-label="HR"] a[aria-current="page"]').textContent()).to.equal('Reports');
    await page.locator('#report-job_id').focus();
    await page.keyboard.press('ArrowDown'); // Other Role
    await page.keyboard.press('ArrowDown'); // Support Engineer
    expect(await page.locator('#report-job_id').inputValue()).to.not.equal('');
    // Tab on through the date fields (each has its day, month and year parts) to Show report.
    for (let i = 0; i < 12 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Show report'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Support Engineer, / }).waitFor();
    expect(await page.locator('section[aria-labelledby="pass-through"] tbody').innerText()).to.match(/Applied\s+6\s+4\s+66\.7%/);
    expect(await page.locator('section[aria-labelledby="time-in-stage"] tbody').innerText()).to.match(/Applied\s+4\s+2\.5 d\s+4 d/);
    expect(await page.locator('section[aria-labelledby="reasons"] tbody').innerText()).to.match(/Not a fit\s+1/);
    expect(page.url()).to.match(/job_id=\d+&from=\d{4}-\d{2}-\d{2}&to=/);

    // A reversed period: the start date's field says why, and the report shown stays.
    await page.locator('#report-from').fill('2026-03-10');
    await page.locator('#report-to').fill('2026-03-01');
    await page.locator('#report-to').press('Enter');
    await page.locator('#report-from-error', { hasText: 'The start date must be on or before the end date.' }).waitFor();
    expect(await page.locator('#report-from').getAttribute('aria-invalid')).to.equal('true');
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot(page, 'reports-invalid-1280');

    await page.reload();
    await page.getByRole('heading', { name: /^Support Engineer, / }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
    expect(download.suggestedFilename()).to.match(/^report-support-engineer-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(hr.errors).to.deep.equal([]);
    await hr.context.close();
  });
});

/** The job insights page in real Chromium: figures, charts, top answers, no-questions text, export download. */
import fs from 'node:fs';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications, realisticApplications } from '../helpers/applications.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR job insights in Chromium [${kind}]`, function () {
    /** Screenshots of the MySQL run get their own names, so both runs can be looked at. */
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let job: Job;
    let bare: Job;

    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      job = await makeJob(db, {
        title: 'Senior Platform Engineer',
        questions: [
          { text: '<p>Where are you <strong>based</strong>?</p>', answer_type: 'short_text', required: true },
          { text: '<p>Tell us about a project you are proud of</p>', answer_type: 'long_text', required: false },
          { text: 'Years of professional experience', answer_type: 'number', required: true },
          { text: 'Are you open to relocation?', answer_type: 'single_choice', options: ['Yes', 'No', 'Maybe later'], required: true },
          { text: 'Which stacks have you used?', answer_type: 'checkbox', options: ['Node.js', 'Go', 'Java', 'Rust'], required: false },
        ],
      });
      await insertApplications(db, job.id, realisticApplications(1234, job.questions, { seed: 11 }), job.questions);
      await db('jobs').where({ id: job.id }).update({ views: 12345 });
      bare = await makeJob(db, { title: 'Office Assistant' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    beforeEach(async () => {
      tab = await openHrPage(browser, s.baseUrl, token);
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    it('shows the figures and one chart per question with counts and percents', async () => {
      const { page } = tab;
      const analytics = await (
        await fetch(`${s.baseUrl}/api/hr/jobs/${job.id}/analytics/`, { headers: { Authorization: `Bearer ${token}` } })
      ).json();
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/insights`);
      await page.waitForSelector('.qa-card');
      expect(await page.locator('h1').innerText()).to.equal('Senior Platform Engineer');
      const tiles = await page.locator('.insights-tiles .tile').allInnerTexts();
      expect(tiles.map((t) => t.replace(/\s+/g, ' ').trim())).to.deep.equal([
        'Status Active',
        'Applicants 1,234',
        'Views 12,345',
        `Created ${new Date(job.created_at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}`,
      ]);
      expect(await page.locator('h2').allInnerTexts()).to.deep.equal(['Apply Funnel', 'Question Analytics']);
      expect(await page.locator('.qa-section > h2').innerText()).to.equal('Question Analytics');
      const cards = page.locator('.qa-card');
      expect(await cards.count()).to.equal(5);
      expect(await cards.nth(0).locator('h3').innerText()).to.equal('Where are you based?');

      // Text questions: the top answers with their counts.
      const top = analytics.questions[0].stats.top_answers;
      const rows = await cards.nth(0).locator('tbody tr').allInnerTexts();
      expect(rows).to.have.length(top.length);
      expect(rows[0].replace(/\s+/g, ' ').trim()).to.equal(`${top[0].value} ${top[0].count.toLocaleString('en-US')}`);

      // Distributions: a bar per option, labelled with count and percent, never wider than its track.
      for (const i of [2, 3, 4]) {
        const dist = analytics.questions[i].stats.distribution;
        const bars = cards.nth(i).locator('.qa-bar');
        expect(await bars.count()).to.equal(dist.length);
        for (const [j, d] of dist.entries()) {
          const text = (await bars.nth(j).innerText()).replace(/\s+/g, ' ');
          expect(text).to.include(d.option);
          expect(text).to.include(
            `${d.count.toLocaleString('en-US')} (${d.percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%)`,
          );
          const [fill, track] = await Promise.all([
            bars.nth(j).locator('.qa-bar-fill').boundingBox(),
            bars.nth(j).locator('.qa-bar-track').boundingBox(),
          ]);
          expect(fill!.width).to.be.at.most(track!.width + 0.5);
          expect(Math.abs(fill!.width - (track!.width * Math.min(100, d.percent)) / 100)).to.be.below(1.5);
        }
      }
      // The number question: its lowest, median and highest answer above the ranges, grouped as numbers are.
      const numbers = analytics.questions[2].stats.numbers;
      const fmt = (n: number) => n.toLocaleString('en-US');
      expect((await cards.nth(2).locator('.qa-numbers').innerText()).replace(/\s+/g, ' ').trim()).to.equal(
        `Min ${fmt(numbers.min)} · Median ${fmt(numbers.median)} · Max ${fmt(numbers.max)}`,
      );
      expect(await cards.nth(3).locator('.qa-numbers').count()).to.equal(0);
      // Checkbox shares add up to more than 100: several options per applicant.
      const checkboxSum = analytics.questions[4].stats.distribution.reduce((n: number, d: any) => n + d.percent, 0);
      expect(checkboxSum).to.be.above(100);
      expect(await page.locator('.qa-bar-track[aria-hidden="true"]').count()).to.equal(await page.locator('.qa-bar').count());
      expect(await page.locator('a:has-text("Back to Jobs")').getAttribute('href')).to.equal('/hr/jobs/list');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-insights-charts${suffix}`);
    });

    it('says so when the job has no questions', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/${bare.id}/insights`);
      await page.waitForSelector('.insights-tiles');
      expect(await page.locator('.qa-section').innerText()).to.include('No additional questions configured for this job.');
      expect(await page.locator('.qa-card').count()).to.equal(0);
      expect(await page.locator('.insights-tiles').innerText()).to.include('0');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-insights-no-questions${suffix}`);
    });

    it('exports: shows Preparing…, ignores clicks meanwhile, saves a workbook that opens', async () => {
      // A viewer in Kolkata: the workbook's dates are in that zone, named in the header row.
      await tab.context.close();
      tab = await openHrPage(browser, s.baseUrl, token, { timezoneId: 'Asia/Kolkata' });
      const { page } = tab;
      let requests = 0;
      // Hold the export back a moment so the busy state can be seen.
      await page.route(/\/export-basic\/\?tz=Asia%2F(Kolkata|Calcutta)$/, async (route) => {
        requests += 1;
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/insights`);
      const button = page.locator('button:has-text("Export Applicants (.xls)")');
      await button.waitFor();
      const download = page.waitForEvent('download');
      await button.click();
      const busy = page.locator('button:has-text("Preparing…")');
      await busy.waitFor();
      expect(await busy.getAttribute('aria-busy')).to.equal('true');
      // aria-disabled makes Playwright wait for the button to be enabled again; force clicks now.
      await busy.click({ force: true });
      await busy.click({ force: true });
      expect(await busy.count()).to.equal(1);
      await screenshot(page, `hr-insights-exporting${suffix}`);
      const file = await download;
      expect(file.suggestedFilename()).to.equal(`applicants_job_${job.id}.xlsx`);
      expect(requests).to.equal(1);
      await page.locator('button:has-text("Export Applicants (.xls)")').waitFor();
      expect(requests).to.equal(1);
      const saved = await file.path();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(fs.readFileSync(saved) as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0];
      expect(sheet.rowCount).to.equal(1235);
      expect((sheet.getRow(1).values as unknown[]).slice(1, 3)).to.deep.equal(['ID', 'First Name']);
      expect(sheet.getRow(1).cellCount).to.equal(15 + 5);
      expect(sheet.getRow(1).getCell(10).value).to.be.oneOf(['Applied At (Asia/Kolkata)', 'Applied At (Asia/Calcutta)']);
    });

    it('shows the export failure text when the export fails', async () => {
      const { page } = tab;
      await page.route('**/export-basic/', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"A server error occurred."}' }),
      );
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/insights`);
      await page.click('button:has-text("Export Applicants (.xls)")');
      const alert = page.locator('[role="alert"]');
      await alert.waitFor();
      expect(await alert.innerText()).to.equal('Export failed. Please try again.');
      expect(await page.locator('button:has-text("Export Applicants (.xls)")').count()).to.equal(1);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-insights-export-failed${suffix}`);
      // The browser logs the deliberate 500 itself; nothing else may appear.
      tab.errors.splice(
        0,
        tab.errors.length,
        ...tab.errors.filter((e) => !/Failed to load resource: the server responded with a status of 500/.test(e)),
      );
    });

    it('fits a phone screen', async () => {
      await tab.context.close();
      tab = await openHrPage(browser, s.baseUrl, token, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/insights`);
      await page.waitForSelector('.qa-card');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).to.be.at.most(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-insights-mobile${suffix}`);
    });
  });
}

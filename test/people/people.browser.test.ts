/**
 * Issue 35's one person across jobs in real Chromium, at 1280 px and 390 px: the applicant page's
 * "Other applications"; the review list of possible duplicates, where an admin merges a pair (asked
 * first), undoes the merge, and keeps another pair as two people; the applicants list links it.
 * Axe-clean, no sideways scrolling at 390 px; screenshots in test/artifacts/people-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import type { Job } from '../../src/jobs/index.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`one person across jobs in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let jobs: Job[];
    const tabs: PageWithErrors[] = [];

    const apply = async (job: Job, fields: Record<string, string>): Promise<number> => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, { method: 'POST', body: toFormData(validFields(fields)) });
      expect(res.status, await res.clone().text()).to.equal(201);
      return Number((await s.ctx.db('applications').where({ job_id: job.id, email: fields.email }).first('id')).id);
    };
    const open = async (w: (typeof WIDTHS)[number]): Promise<Page> => {
      const t = await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height });
      tabs.push(t);
      return t.page;
    };
    const noSidewaysScroll = async (page: Page, width: number) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(width);

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'people.admin'));
      jobs = [];
      for (const title of ['Data Analyst', 'Payroll Lead', 'Office Manager'])
        jobs.push(await makeJob(s.ctx.db, { title, status: 'ACTIVE' }));
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

    for (const [i, w] of WIDTHS.entries()) {
      it(`${w.name}: shows a person's other applications, merges a suggested pair, undoes it, and keeps another pair apart`, async () => {
        const phone = `+1415555${i}1${i}1`;
        const ann = `ann.${w.name}@example.com`;
        const first = await apply(jobs[0], { email: ann, phone, first_name: 'Ann', last_name: `Lee ${w.name}` });
        const second = await apply(jobs[1], { email: ann, phone, first_name: 'Ann', last_name: `Lee ${w.name}` });
        const other = `ann.lee.${w.name}@work.example`;
        await apply(jobs[2], { email: other, phone, first_name: 'Ann', last_name: `Lee ${w.name}` });
        // Same name, same resume file, another phone: a second pair, to keep apart.
        await apply(jobs[2], {
          email: `bo.${w.name}@example.com`,
          phone: `+1415555${i}2${i}2`,
          first_name: 'Bo',
          last_name: `Kim ${w.name}`,
        });
        await apply(jobs[0], {
          email: `bo.kim.${w.name}@example.org`,
          phone: `+1415555${i}3${i}3`,
          first_name: 'Bo',
          last_name: `Kim ${w.name}`,
        });

        const page = await open(w);
        await page.goto(`${s.baseUrl}/hr/applicants/${second}`);
        const section = page.locator('section.other-applications');
        expect(await section.locator('h2').innerText()).to.equal('Other applications');
        const link = section.getByRole('link', { name: 'Data Analyst' });
        expect(await link.getAttribute('href')).to.equal(`/hr/applicants/${first}`);
        expect(await section.locator('li').innerText()).to.match(/^Data Analyst · Applied · applied /);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `people-other-applications-${w.name}`);

        await page.goto(`${s.baseUrl}/hr/applicants`);
        await page.getByRole('link', { name: 'Possible duplicates' }).click();
        await page.waitForURL(/\/hr\/applicants\/duplicates$/);
        expect(await page.locator('h1').innerText()).to.equal('Possible duplicates');
        const pair = page.locator('li.duplicate', { hasText: other });
        await pair.waitFor();
        expect(await pair.locator('.duplicate-reason strong').innerText()).to.equal('Same phone number');
        expect(await pair.locator('.duplicate-person').nth(1).innerText()).to.include('Payroll Lead');
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `people-duplicates-${w.name}`);

        // Merge: asked first, focus on the question's button; Enter merges.
        await pair.getByRole('button', { name: /^Merge…/ }).click();
        const confirm = pair.getByRole('button', { name: 'Merge these people' });
        expect(await confirm.evaluate((b) => b === document.activeElement)).to.equal(true);
        expect(await pair.locator('.duplicate-confirm p').innerText()).to.include(
          `into Ann Lee ${w.name} (${ann})? Their application moves`,
        );
        await page.keyboard.press('Enter');
        const merged = `Merged: Ann Lee ${w.name} <${other}> and Ann Lee ${w.name} <${ann}> are one person now.`;
        await page.locator('.alert-success', { hasText: merged }).waitFor();
        await page.locator('li.duplicate', { hasText: other }).waitFor({ state: 'detached' });
        const merge = page.locator('li.merge', { hasText: other }).first();
        expect(await merge.innerText()).to.include(`Ann Lee ${w.name} <${other}> → Ann Lee ${w.name} <${ann}>`);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `people-merged-${w.name}`);
        // The applicant page now lists the merged application too.
        const check = await open(w);
        await check.goto(`${s.baseUrl}/hr/applicants/${second}`);
        expect(await check.locator('section.other-applications li').allInnerTexts()).to.have.length(2);

        await merge.getByRole('button', { name: /^Undo merge/ }).click();
        await page
          .locator('.alert-success', {
            hasText: `Merge undone: Ann Lee ${w.name} <${other}> and Ann Lee ${w.name} <${ann}> are two people again.`,
          })
          .waitFor();
        await page.locator('li.duplicate', { hasText: other }).waitFor();
        expect(await merge.innerText()).to.include('Undone');

        // The other pair: the same name and resume file; kept as two people.
        const bo = page.locator('li.duplicate', { hasText: `bo.kim.${w.name}@example.org` });
        expect(await bo.locator('.duplicate-reason strong').innerText()).to.equal('Same name and the same resume file');
        await bo.getByRole('button', { name: /^Not the same person/ }).click();
        await page.locator('.alert-success', { hasText: `Bo Kim ${w.name} and Bo Kim ${w.name} are kept as two people.` }).waitFor();
        await bo.waitFor({ state: 'detached' });
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `people-reviewed-${w.name}`);
      });
    }
  });
}

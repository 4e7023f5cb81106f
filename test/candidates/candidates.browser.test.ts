/**
 * Issue 35's candidate side in real Chromium, at 1280 px and 390 px: the status page from the
 * receipt's link (withdrawing by its plain form, the data download, asking for erasure), the
 * page asking for a new link, and HR's erasure requests (Erase now, asked first) and the admins'
 * status texts. Axe-clean, no sideways scrolling at 390 px; screenshots in test/artifacts/candidate-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { statusLink } from '../../src/people/index.js';
import type { Job } from '../../src/jobs/index.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`the candidate's status page in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let jobs: Job[];
    const tabs: PageWithErrors[] = [];

    const apply = async (job: Job, email: string, first: string): Promise<void> => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, first_name: first, last_name: 'Okafor' })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
    };
    /** The person's status page on this server (the link the receipt carries, made the same way). */
    const linkOf = async (email: string): Promise<string> => {
      const person = Number((await s.ctx.db('people').where({ email }).first('id')).id);
      const { url } = await statusLink(s.ctx, person, new Date());
      return url.slice(url.indexOf('/candidate/'));
    };
    const noSidewaysScroll = async (page: Page, width: number) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(width);
    const track = (t: PageWithErrors) => {
      tabs.push(t);
      return t.page;
    };

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', CANDIDATE_RATE_LIMIT: '0', COMPANY_NAME: 'Acme' });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'cand.admin'));
      jobs = [];
      for (const title of ['Data Analyst', 'Payroll Lead']) jobs.push(await makeJob(s.ctx.db, { title, status: 'ACTIVE' }));
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
      it(`${w.name}: reads the status in plain words, withdraws one application, downloads the data and asks for erasure`, async () => {
        const email = `ada.${w.name}@example.com`;
        await apply(jobs[0], email, 'Ada');
        await apply(jobs[1], email, 'Ada');
        const page = track(await openPage(browser, { width: w.width, height: w.height }));
        await page.goto(`${s.baseUrl}${await linkOf(email)}`);
        expect(await page.locator('h1').innerText()).to.equal('Your applications');
        const cards = page.locator('li.candidate-application');
        expect(await cards.count()).to.equal(2);
        expect(await cards.first().locator('.candidate-status-text').innerText()).to.match(/^We have your application\./);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `candidate-status-${w.name}`);

        const payroll = cards.filter({ hasText: 'Payroll Lead' });
        await payroll.locator('summary', { hasText: 'Withdraw this application' }).click();
        await payroll.getByLabel('Why (optional)').fill('I took another offer');
        await payroll.getByRole('button', { name: 'Withdraw my application for Payroll Lead' }).click();
        await page.locator('.alert-success', { hasText: 'Your application has been withdrawn. Thank you for letting us know.' }).waitFor();
        expect(await payroll.locator('.candidate-state').innerText()).to.equal('Withdrawn');
        expect(await payroll.locator('.candidate-status-text').innerText()).to.equal('You withdrew this application.');

        const download = page.waitForEvent('download');
        await page.getByRole('link', { name: 'Download my data (JSON)' }).click();
        expect((await download).suggestedFilename()).to.equal('my-applications.json');

        await page.getByRole('button', { name: 'Ask to erase my data' }).click();
        await page.locator('.alert-success', { hasText: 'We have your request.' }).waitFor();
        expect(await page.getByRole('button', { name: 'Ask to erase my data' }).count()).to.equal(0);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `candidate-withdrawn-${w.name}`);

        // HR erases the person in one click (asked first).
        const hr = track(await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height }));
        await hr.goto(`${s.baseUrl}/hr/applicants`);
        await hr.getByRole('link', { name: 'Erasure requests' }).click();
        const request = hr.locator('li.erasure-request', { hasText: email });
        await request.waitFor();
        expect(await request.innerText())
          .to.include('Ada Okafor')
          .and.include('2 applications');
        expect(await axeViolations(hr)).to.deep.equal([]);
        await screenshot(hr, `candidate-erasure-requests-${w.name}`);
        await request.getByRole('button', { name: /^Erase now/ }).click();
        expect(await request.getByRole('button', { name: 'Erase Ada Okafor' }).evaluate((b) => b === document.activeElement)).to.equal(
          true,
        );
        await hr.keyboard.press('Enter');
        await hr.locator('.alert-success', { hasText: 'Erased Ada Okafor: 2 applications, 0 form entries and 0 job alerts.' }).waitFor();
        await request.waitFor({ state: 'detached' });
        await page.reload();
        expect(await page.locator('.alert-error').innerText()).to.include('This link is not valid.');
      });
    }

    it('asks for a new link with the address applied with, and says the same whatever the address', async () => {
      const page = track(await openPage(browser, { width: 390, height: 844 }));
      await page.goto(`${s.baseUrl}/candidate`);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      expect(await page.locator('#candidate-email-error').innerText()).to.equal('Enter the email address you applied with.');
      expect(await page.locator('#candidate-email').getAttribute('aria-invalid')).to.equal('true');
      await page.getByLabel('Email address').fill('someone@example.com');
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page.locator('.alert-success', { hasText: 'If we have applications from this address, we have emailed it a link' }).waitFor();
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'candidate-new-link-narrow');
    });

    it('lets an admin write the text candidates read at a stage', async () => {
      const page = track(await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 }));
      await page.goto(`${s.baseUrl}/hr/settings/status-texts`);
      const screen = page.getByLabel('Screen', { exact: true });
      await screen.waitFor();
      await screen.fill('We call every shortlisted candidate within a week.');
      await page.getByRole('button', { name: 'Save texts' }).click();
      await page.locator('.alert-success', { hasText: 'Status texts saved.' }).waitFor();
      expect(await page.locator('#status-text-1-help').innerText()).to.match(/^Your text\./);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'candidate-status-texts-wide');
    });
  });
}

/**
 * The applicants pages in real Chromium: filtering by each control and together (the filters in
 * the URL), search by part of a name, email and phone, the detail page with previous/next, the
 * resume download compared byte for byte, the download failure message, status changes (one and
 * several) seen in the list and on the dashboard, reading without JavaScript, keyboard-only use,
 * axe-core, and screenshots under test/artifacts.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { seedPeople, type Seeded } from './helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`applicants pages in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let seeded: Seeded;
    let appliedId: number;
    const pdf = pdfBytes(6000);

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      token = (await hrSession(s.ctx.db)).token;
      seeded = await seedPeople(s.ctx.db);
      const fields = validFields({
        first_name: 'Élodie',
        last_name: 'Durand',
        email: 'elodie@durand.fr',
        phone: '+919988776655',
        resume: { data: pdf, filename: 'resume.html', type: 'text/html' },
      });
      const res = await fetch(`${s.baseUrl}/api/jobs/backend-1/apply/`, { method: 'POST', body: toFormData(fields) });
      expect(res.status, await res.clone().text()).to.equal(201);
      appliedId = Number((await s.ctx.db('applications').where({ email: 'elodie@durand.fr' }).first('id')).id);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    beforeEach(async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
    });
    afterEach(async () => {
      expect(
        tab.errors.filter((e) => !/status of 404/.test(e)),
        'console errors',
      ).to.deep.equal([]);
      await tab.context.close();
    });

    const names = () => tab.page.locator('table.applicants-table tbody tr td:nth-child(2)').allInnerTexts();
    const params = () => Object.fromEntries([...new URL(tab.page.url()).searchParams].filter(([, v]) => v));

    it('lists every applicant, rendered on the server, and filters by each control and together', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants`);
      expect(await page.locator('h1').innerText()).to.equal('Applicants');
      expect(await page.locator('#applicant-count').innerText()).to.equal('11 applicants');
      expect(await page.locator('thead th').allInnerTexts()).to.include.members([
        'Name',
        'Email',
        'Phone',
        'Status',
        'Applied',
        'Job',
        'Actions',
      ]);
      expect((await names())[0]).to.equal('Élodie Durand');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `applicants-list${suffix}`);

      await page.selectOption('#f-job', String(seeded.jobB.id));
      await page.click('button:has-text("Refresh")');
      expect(params()).to.deep.equal({ job_id: String(seeded.jobB.id) });
      expect(await page.locator('h1').innerText()).to.equal('Applicants: Data Analyst');
      expect(await names()).to.deep.equal(['Mia Rossi', 'Straße Weiß', 'Priya Patel', 'Rahul Sharma', 'Björn Ølsen']);
      expect(await page.locator('thead th').allInnerTexts()).to.not.include('Job');

      await page.selectOption('#f-status', 'NEW');
      await page.click('button:has-text("Refresh")');
      expect(await names()).to.deep.equal(['Priya Patel', 'Björn Ølsen']);

      // The days are behind "More filters".
      await page.click('button:has-text("More filters")');
      await page.fill('#f-from', '2026-01-12');
      await page.click('button:has-text("Refresh")');
      expect(params()).to.deep.equal({ job_id: String(seeded.jobB.id), status: 'NEW', date_from: '2026-01-12' });
      expect(await names()).to.deep.equal(['Priya Patel']);

      await page.goto(`${s.baseUrl}/hr/applicants?date_from=2026-01-05&date_to=2026-01-06`);
      expect(await page.locator('#f-from').inputValue()).to.equal('2026-01-05');
      expect(await names()).to.deep.equal(["Asha D'Souza", 'JOSEPHINE Baker', 'José Müller']);
      await page.goto(`${s.baseUrl}/hr/applicants?status=ARCHIVED`);
      expect(await names()).to.deep.equal(['Straße Weiß', 'Zoë Ångström']);

      await page.selectOption('#f-status', '');
      await page.click('button:has-text("More filters")');
      await page.fill('#f-to', '2026-01-01');
      await page.click('button:has-text("Refresh")');
      expect(await page.locator('.empty-state').innerText()).to.equal('No applicants found.');
      await screenshot(page, `applicants-empty${suffix}`);

      // Reversed dates: the form says what is wrong, with the filters as typed.
      await page.goto(`${s.baseUrl}/hr/applicants?date_from=2026-02-02&date_to=2026-02-01`);
      expect(await page.locator('#e-date_to').innerText()).to.equal('The to date must not be before the from date.');
      expect(await axeViolations(page)).to.deep.equal([]);
      // Going back returns to the previous filtered list.
      await page.goBack();
      expect(await page.locator('.empty-state').innerText()).to.equal('No applicants found.');
    });

    it('searches by part of a name, an email and a phone number, any case or accent', async () => {
      const { page } = tab;
      const search = async (q: string) => {
        await page.goto(`${s.baseUrl}/hr/applicants`);
        await page.fill('#f-q', q);
        await page.press('#f-q', 'Enter');
        expect(params().q).to.equal(q);
        return names();
      };
      expect(await search('elod')).to.deep.equal(['Élodie Durand']);
      expect(await search('MULL')).to.deep.equal(['José Müller']);
      expect(await search('patel.d')).to.deep.equal(['Priya Patel']);
      expect(await search('98765')).to.deep.equal(["Asha D'Souza"]);
      expect(await search('99887766')).to.deep.equal(['Élodie Durand']);
      expect(await search('jos')).to.deep.equal(['JOSEPHINE Baker', 'José Müller']);
      await screenshot(page, `applicants-search${suffix}`);
    });

    it('opens a detail, downloads the resume with its bytes, walks previous/next in the filtered list', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants?job_id=${seeded.jobA.id}`);
      // The list names the file as the download will: from the list too it is saved as a PDF.
      const listLink = page.locator('a[aria-label="Download the resume of Élodie Durand"]');
      expect(await listLink.getAttribute('title')).to.equal('Élodie-Durand-Backend-Engineer.pdf');
      const fromList = page.waitForEvent('download');
      await listLink.click();
      expect((await fromList).suggestedFilename()).to.equal('Élodie-Durand-Backend-Engineer.pdf');
      await page.click('a[aria-label="View the application of Élodie Durand"]');
      expect(await page.locator('h1').innerText()).to.equal(`Application #${appliedId}`);
      const text = await page.locator('main, body').first().innerText();
      for (const part of [
        'Élodie Durand',
        'Backend Engineer',
        'backend-1',
        'elodie@durand.fr',
        '+91 99887 76655',
        'NEW',
        'TypeScript',
        'Engineer, Initech',
        'B.Tech, Computer Science',
        'IIT Bombay',
      ]) {
        expect(text).to.include(part);
      }
      expect(await page.locator('.chips .chip').allInnerTexts()).to.deep.equal(['TypeScript', 'Node.js']);
      expect(await page.locator('a:has-text("Open PDF")').getAttribute('href')).to.equal(
        `/api/hr/applications/${appliedId}/resume/?disposition=inline`,
      );
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `applicant-detail${suffix}`);

      const download = page.waitForEvent('download');
      await page.click('a:has-text("Download resume")');
      const file = await download;
      // Sent as resume.html: saved under the person, the job and the type read from the bytes.
      expect(file.suggestedFilename()).to.equal('Élodie-Durand-Backend-Engineer.pdf');
      expect(await page.locator('.file-name').innerText()).to.equal('Élodie-Durand-Backend-Engineer.pdf');
      expect(fs.readFileSync((await file.path())!).equals(pdf)).to.equal(true);

      // Job A newest first: Élodie (now), Liam, Zoë, Asha, Josephine, José.
      expect(await page.locator('a[rel="prev"]').count()).to.equal(0);
      await page.click('a:has-text("Next applicant")');
      expect(await page.locator('#applicant-name').innerText()).to.equal('Liam Smith');
      expect(new URL(page.url()).search).to.equal(`?job_id=${seeded.jobA.id}`);
      await page.click('a:has-text("Next applicant")');
      expect(await page.locator('#applicant-name').innerText()).to.equal('Zoë Ångström');
      await page.click('a:has-text("Previous applicant")');
      expect(await page.locator('#applicant-name').innerText()).to.equal('Liam Smith');
      // The keys: j next, k previous (and the stage keys), listed on the page; typed in a field they are text.
      expect(await page.locator('[data-shortcut-hint]').innerText()).to.equal(
        'Keys: j next applicant, k previous applicant, n next stage, r reject (not while typing).',
      );
      await Promise.all([page.waitForURL(/\/hr\/applicants\/\d+/), page.waitForEvent('load'), page.keyboard.press('j')]);
      expect(await page.locator('#applicant-name').innerText()).to.equal('Zoë Ångström');
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('k')]);
      expect(await page.locator('#applicant-name').innerText()).to.equal('Liam Smith');
      const field = page.locator('textarea, input[type="text"], input:not([type])').first();
      await field.focus();
      await page.keyboard.type('jk');
      expect(await page.locator('#applicant-name').innerText()).to.equal('Liam Smith');
      expect(await field.inputValue()).to.include('jk');
      await page.click('nav.breadcrumb a');
      expect(params()).to.deep.equal({ job_id: String(seeded.jobA.id) });
    });

    it("shows the spec's message when a resume cannot be downloaded", async () => {
      const { page } = tab;
      // The seeded applications have file rows whose files were never written.
      await page.goto(`${s.baseUrl}/hr/applicants?q=rossi`);
      await page.click('a[aria-label="Download the resume of Mia Rossi"]');
      await page.waitForSelector('[role="alert"]');
      expect(await page.locator('[role="alert"]').innerText()).to.equal(
        'Unable to download resume. Please check your HR login or contact support.',
      );
      await screenshot(page, `applicants-download-failed${suffix}`);
    });

    it('changes a status on the detail page and for selected rows; the list and dashboard show it', async () => {
      const { page } = tab;
      const newCount = async () => {
        await page.goto(`${s.baseUrl}/hr/dashboard`);
        return page.locator('.stat-tile:has-text("New Applicants") .stat-value').innerText();
      };
      expect(await newCount()).to.equal('6');
      await page.goto(`${s.baseUrl}/hr/applicants/${appliedId}`);
      await page.selectOption('#status-select', 'REVIEWED');
      await page.click('button:has-text("Save status")');
      await page.waitForSelector('text=Status saved: REVIEWED.');
      expect(await page.locator('.applicant-summary [data-status]').innerText()).to.equal('REVIEWED');
      expect(await newCount()).to.equal('5');
      await page.goto(`${s.baseUrl}/hr/applicants?status=REVIEWED`);
      expect(await names()).to.include('Élodie Durand');

      await page.goto(`${s.baseUrl}/hr/applicants?status=NEW`);
      await page.check('input[aria-label="Select Priya Patel"]');
      await page.check('input[aria-label="Select Björn Ølsen"]');
      await page.selectOption('#bulk-status', 'ARCHIVED');
      await page.click('button:has-text("Apply to 2 selected")');
      await page.waitForSelector('text=Status set to ARCHIVED for 2 applicants.');
      expect(await page.locator('tr:has-text("Priya Patel") [data-status]').innerText()).to.equal('ARCHIVED');
      await screenshot(page, `applicants-bulk-status${suffix}`);
      await page.reload();
      expect(await names()).to.not.include('Priya Patel');
      expect(await newCount()).to.equal('3');
      expect(await page.locator(`a[href="/hr/applicants?job_id=${seeded.jobB.id}"]`).count()).to.equal(1);
    });

    it('reads the list and a detail without JavaScript, filters included', async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      await ctx.addCookies([{ name: 'jwt', value: token, url: s.baseUrl }]);
      const page = await ctx.newPage();
      await page.goto(`${s.baseUrl}/hr/applicants`);
      await page.fill('#f-q', 'sharma');
      await page.click('button:has-text("Refresh")');
      expect(await page.locator('table tbody tr').count()).to.equal(1);
      expect(await page.locator('[data-bulk]').isVisible()).to.equal(false);
      await page.click('a:has-text("View")');
      expect(await page.locator('#applicant-name').innerText()).to.equal('Rahul Sharma');
      expect(await page.locator('form[data-status-form]').isVisible()).to.equal(false);
      await ctx.close();
    });

    it('works with the keyboard alone: search, open, change the status', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants`);
      await page.focus('#f-q');
      await page.keyboard.type('liam');
      await page.keyboard.press('Enter');
      await page.waitForURL(/q=liam/);
      // Tab through the page to the row's View link, then open it.
      for (let i = 0; i < 100; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.textContent)) === 'View') break;
      }
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/hr\/applicants\/\d+/);
      expect(await page.locator('#applicant-name').innerText()).to.equal('Liam Smith');
      await page.focus('#status-select');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Save status');
      await page.keyboard.press('Enter');
      await page.waitForSelector('text=Status saved: REVIEWED.');
      const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(focusVisible).to.not.equal('none');
    });
  });
}

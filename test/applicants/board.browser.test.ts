/**
 * A job's board in real Chromium (issue 20): columns with counts, a card moved by keyboard (arrow
 * keys, the focus following it, the move announced), by drag and drop, a rejection with its
 * reason, "Show more", the filters, the stage editor, both widths, axe-core, screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`job board in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let job: Job;

    before(async () => {
      s = await startTestServer(kind);
      token = (await hrSession(s.ctx.db)).token;
      job = await makeJob(s.ctx.db, { title: 'Payroll Specialist', public_id: 'payroll-1' });
      const people = Array.from({ length: 28 }, (_, i) => ({
        first_name: ['Asha', 'Ben', 'Chloé', 'Dev'][i % 4],
        last_name: `Tester${i}`,
        email: `t${i}@board.example`,
        phone: `+9190000001${String(i).padStart(2, '0')}`,
        status: 'NEW' as const,
        created_at: new Date(Date.UTC(2026, 0, 1 + i)),
      }));
      await insertApplications(s.ctx.db, job.id, people, []);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    const count = (page: Page, column: string) => page.locator(`section[data-column="${column}"] [data-count]`).innerText();
    const card = (page: Page, name: string) => page.locator('.board-card', { has: page.locator(`a:text-is("${name}")`) });
    const live = (page: Page) => page.locator('.board-live');

    it('moves cards by keyboard and by drag, counts follow, the moves are announced and saved', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/list`);
      // Board is in the job row's More menu.
      await page.getByRole('button', { name: 'More actions for Payroll Specialist' }).click();
      await page.click(`a[aria-label="Board of Payroll Specialist"]`);
      await page.waitForURL(`**/hr/jobs/${job.id}/board`);
      expect(await page.locator('h1').innerText()).to.equal('Board: Payroll Specialist');
      expect(await page.locator('.board-column-title > span:first-child').allInnerTexts()).to.deep.equal([
        'Applied',
        'Screen',
        'Interview',
        'Offer',
        'Hired',
        'Rejected',
      ]);
      expect(await count(page, 'Applied')).to.equal('28');
      // Every column fits the width of a laptop screen.
      expect(await page.locator('section[data-column="Rejected"]').evaluate((el) => el.getBoundingClientRect().right)).to.be.at.most(1280);
      expect(await page.locator('section[data-column="Applied"] .board-card').count()).to.equal(25);
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);

      // Keyboard: focus the newest card, ArrowRight twice, the focus stays on it.
      const newest = card(page, 'Dev Tester27');
      await newest.focus();
      await page.keyboard.press('ArrowRight');
      await page.locator('section[data-column="Screen"] .board-card').first().waitFor();
      expect(await count(page, 'Applied')).to.equal('27');
      expect(await count(page, 'Screen')).to.equal('1');
      expect(await live(page).innerText()).to.contain('Dev Tester27 moved to Screen. Screen has 1 applicant');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Dev Tester27, Screen');
      await page.keyboard.press('ArrowRight');
      await page.locator('section[data-column="Interview"] .board-card').first().waitFor();
      expect(await count(page, 'Interview')).to.equal('1');
      await page.keyboard.press('ArrowLeft');
      await page.locator('section[data-column="Screen"] .board-card').first().waitFor();
      expect(await count(page, 'Interview')).to.equal('0');
      const moved = await s.ctx
        .db('applications as a')
        .join('job_stages as st', 'st.id', 'a.stage_id')
        .where('a.email', 't27@board.example')
        .first('st.name', 'a.status');
      expect(moved).to.deep.equal({ name: 'Screen', status: 'REVIEWED' });

      // Drag: a card onto the Offer column.
      await card(page, 'Chloé Tester26').dragTo(page.locator('section[data-column="Offer"]'));
      await page.locator('section[data-column="Offer"] .board-card').first().waitFor();
      expect(await count(page, 'Offer')).to.equal('1');
      expect(await count(page, 'Applied')).to.equal('26');
      expect(await live(page).innerText()).to.contain('Chloé Tester26 moved to Offer');

      // Reject from the keyboard: R, a reason, Reject.
      await card(page, 'Ben Tester25').focus();
      await page.keyboard.press('r');
      await page.locator('dialog[open] #reject-reason').waitFor();
      await page.selectOption('#reject-reason', 'Withdrew');
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
      await page.click('dialog[open] button[type="submit"]');
      await page.locator('section[data-column="Rejected"] .board-card').first().waitFor();
      expect(await count(page, 'Rejected')).to.equal('1');
      expect(await page.locator('section[data-column="Rejected"] .board-card').innerText()).to.contain('Reason: Withdrew');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Ben Tester25, Rejected');

      // Show more: 25 left in Applied, 22 of the first 25 loaded still shown, the other 3 on request.
      expect(await count(page, 'Applied')).to.equal('25');
      expect(await page.locator('section[data-column="Applied"] .board-card').count()).to.equal(22);
      await page.click('section[data-column="Applied"] .board-more');
      await page.waitForFunction(() => document.querySelectorAll('section[data-column="Applied"] .board-card').length === 25);
      expect(await page.locator('section[data-column="Applied"] .board-more').count()).to.equal(0);
      await screenshot(page, `job-board${suffix}`);

      // Reloaded, the board reads what was saved.
      await page.reload();
      expect(await count(page, 'Screen')).to.equal('1');
      expect(await count(page, 'Offer')).to.equal('1');
      expect(await count(page, 'Rejected')).to.equal('1');
    });

    it('filters the board and edits its stages; works at phone width with keys only', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/board`);
      await page.fill('#b-q', 'asha');
      await page.selectOption('#b-status', 'NEW');
      await page.press('#b-q', 'Enter');
      await page.waitForFunction(() => document.querySelector('section[data-column="Applied"] [data-count]')?.textContent === '7');
      expect(await page.locator('.board-card a').allInnerTexts()).to.satisfy((names: string[]) => names.every((n) => n.startsWith('Asha')));
      // The applicants list's filters too (issue 30): stage (the columns shown), source, dates.
      expect(await page.locator('.board-filters label').allInnerTexts()).to.deep.equal([
        'Search',
        'Status',
        'Stage',
        'Source',
        'Applied from',
        'Applied to',
      ]);
      expect(await page.locator('#b-source-options option').first().getAttribute('value')).to.equal('(direct)');
      await page.selectOption('#b-stage', 'Applied');
      await page.press('#b-q', 'Enter');
      await page.waitForFunction(() => document.querySelectorAll('section[data-column]').length === 1);
      expect(await page.locator('section[data-column]').getAttribute('data-column')).to.equal('Applied');
      await page.fill('#b-date_from', '2099-01-01');
      await page.press('#b-q', 'Enter');
      await page.waitForFunction(() => document.querySelector('section[data-column="Applied"] [data-count]')?.textContent === '0');
      await page.fill('#b-date_from', '');
      await page.selectOption('#b-stage', '');
      await page.press('#b-q', 'Enter');
      await page.waitForFunction(
        () =>
          document.querySelectorAll('section[data-column]').length > 1 &&
          document.querySelector('section[data-column="Applied"] [data-count]')?.textContent === '7',
      );
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
      // The columns scroll sideways inside the board; the page is never wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
      await screenshot(page, `job-board-phone${suffix}`);
      // Keys only: Tab reaches a card's move button and Enter presses it.
      const button = page.getByRole('button', { name: 'Screen →: move Asha Tester24 to Screen', exact: true });
      await button.focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('section[data-column="Applied"] [data-count]')?.textContent === '6');
      expect(await count(page, 'Screen')).to.equal('0');
      // With the NEW filter, the card (now REVIEWED) leaves the board and the move says so.
      expect(await live(page).innerText()).to.contain('outside the current filters');

      // The stage editor: rename Interview, add a stage, save.
      await page.click('summary:has-text("Stages")');
      await page.fill(
        'input[id="Stage-s-' + (await s.ctx.db('job_stages').where({ job_id: job.id, name: 'Interview' }).first('id')).id + '"]',
        'Onsite',
      );
      await page.click('button:has-text("Add stage")');
      await page.locator('.list-editor').first().locator('input').last().fill('Reference check');
      await page.click('button:has-text("Save stages")');
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.board-column-title > span:first-child')].map((e) => e.textContent).join(',') ===
          'Applied,Screen,Onsite,Offer,Hired,Reference check,Rejected',
      );
      // Removing a stage in use is refused with the server's message.
      const screenRow = page
        .locator('.list-editor')
        .first()
        .locator('li', { has: page.locator('input[value="Screen"]') });
      await screenRow.locator('button:has-text("Remove")').click();
      await page.click('button:has-text("Save stages")');
      await page.locator('.list-editor .alert-error').waitFor();
      expect(await page.locator('.list-editor .alert-error').innerText()).to.contain('"Screen" has 2 applicants');
      tab.errors.splice(0); // the refused PUT's 400, logged by the browser
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
    });
  });
}

/**
 * Fast review (issue 20) in real Chromium, at desktop and phone widths, by keyboard: the resume
 * beside the answers (a PDF in the browser's viewer, a DOCX's text), the stage keys (n moves to
 * the next stage, and does nothing inside the note field; r opens Reject, Escape closes it, a
 * reason rejects), and the applicants list sorted by a column header (desktop) or the Sort by
 * menu (phone). axe-core clean; screenshots under test/artifacts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { textDocxBytes, textPdfBytes } from '../fixtures/resumes.js';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`fast review in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    const ids: Record<string, number> = {};

    const apply = async (
      email: string,
      first_name: string,
      last_name: string,
      resume: { data: Buffer; filename: string; type: string },
    ) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/review-1/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, first_name, last_name, resume })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      ids[email] = Number((await s.ctx.db('applications').where({ email }).first('id')).id);
    };
    const docx = (lines: string[]) => ({
      data: textDocxBytes(lines),
      filename: 'cv.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      token = (await hrSession(s.ctx.db)).token;
      await makeJob(s.ctx.db, { title: 'Payroll Specialist', public_id: 'review-1' });
      await apply('priya@review.example', 'Priya', 'Sharma', {
        data: textPdfBytes(['Priya Sharma', 'Payroll compliance lead']),
        filename: 'cv.pdf',
        type: 'application/pdf',
      });
      for (const w of WIDTHS)
        await apply(
          `ben-${w.name}@review.example`,
          'Ben',
          `Okafor ${w.name === 'desktop' ? 'Adeyemi' : 'Zubair'}`,
          docx(['Ben Okafor', 'Strong on payroll compliance', 'Call back Monday']),
        );
      await apply('ada@review.example', 'Ada', 'Lovelace', docx(['Ada']));
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

    for (const w of WIDTHS) {
      describe(`at ${w.name} width`, () => {
        beforeEach(async () => {
          tab = await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height });
        });

        it('shows a PDF resume in the viewer beside the answers (below them on a phone)', async () => {
          const { page } = tab;
          await page.goto(`${s.baseUrl}/hr/applicants/${ids['priya@review.example']}`);
          if (w.name === 'phone') {
            // A phone shows a framed PDF as a blank box: the page offers to open it instead (issue 30).
            const open = page.getByRole('link', { name: 'Open the resume (PDF, opens in a new tab)' });
            expect(await open.isVisible()).to.equal(true);
            expect(await page.locator('iframe.resume-frame').count()).to.equal(0);
            const main = (await page.locator('.review-main').boundingBox())!;
            expect((await page.locator('.resume-panel').boundingBox())!.y, 'resume below the answers').to.be.greaterThan(
              main.y + main.height - 1,
            );
            expect(await axeViolations(page)).to.deep.equal([]);
            await screenshot(page, `review-pdf-${w.name}${suffix}`);
            return;
          }
          const frame = page.locator('iframe.resume-frame');
          await frame.waitFor();
          expect(await frame.getAttribute('title')).to.equal('Resume of Priya Sharma (PDF)');
          expect(await frame.getAttribute('src')).to.match(/^blob:/);
          const main = (await page.locator('.review-main').boundingBox())!;
          const panel = (await page.locator('.resume-panel').boundingBox())!;
          if (w.name === 'desktop') {
            expect(panel.x, 'resume on the right').to.be.greaterThan(main.x + main.width - 1);
            expect(panel.y).to.be.lessThan(main.y + 50);
          } else {
            expect(panel.y, 'resume below the answers').to.be.greaterThan(main.y + main.height - 1);
            expect(panel.width).to.be.greaterThan(300);
          }
          // The viewer has opened the PDF (Chromium's viewer is a frame of its own).
          await page.waitForFunction(() => document.querySelector('iframe.resume-frame') !== null);
          await page.waitForTimeout(1500);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `review-pdf-${w.name}${suffix}`);
          expect(await page.locator('.resume-panel [data-resume-download]').textContent()).to.equal('Download the resume');
        });

        it('shows a DOCX as text, moves it by keys (never from the note field) and rejects it with a reason', async () => {
          const { page } = tab;
          await page.goto(`${s.baseUrl}/hr/applicants/${ids[`ben-${w.name}@review.example`]}`);
          const text = page.locator('.resume-text');
          await text.waitFor();
          expect(await text.innerText()).to.equal('Ben Okafor\n\nStrong on payroll compliance\n\nCall back Monday');
          expect(await page.locator('[data-shortcut-hint]').innerText()).to.equal(
            'Keys: j next applicant, k previous applicant, n next stage, r reject (not while typing).',
          );
          const stage = page.locator('[data-stage-text]');
          expect(await stage.innerText()).to.equal('Applied');

          // Keyboard only: n moves to the next stage, with a message read out.
          await page.locator('h1').click();
          await page.keyboard.press('n');
          await page.locator('.applicant-summary [data-stage-text]:text-is("Screen")').waitFor();
          expect(await page.locator('.alert-success').innerText()).to.equal('Moved to the next stage: Screen.');
          expect(await page.locator('.alert-success').getAttribute('role')).to.equal('status');
          expect(await page.locator('.applicant-summary [data-status]').innerText()).to.equal('REVIEWED');
          expect(await page.locator('#stage-select').inputValue()).to.equal(
            String(
              (
                await s.ctx
                  .db('applications')
                  .where({ id: ids[`ben-${w.name}@review.example`] })
                  .first('stage_id')
              ).stage_id,
            ),
          );

          // Inside the note field n and r are letters of the note.
          const note = page.locator('#note-new');
          await note.waitFor();
          await note.focus();
          await page.keyboard.type('n r n');
          expect(await note.inputValue()).to.equal('n r n');
          await page.waitForTimeout(300);
          expect(await stage.innerText()).to.equal('Screen');
          expect(await page.locator('dialog[data-reject-dialog]').evaluate((d: HTMLDialogElement) => d.open)).to.equal(false);
          // A modifier key is never a shortcut.
          await page.locator('h1').click();
          await page.keyboard.press('Control+n').catch(() => undefined);
          expect(await stage.innerText()).to.equal('Screen');

          // r opens Reject with the focus on its reason; Escape closes it and gives the focus back.
          await page.keyboard.press('r');
          const dialog = page.locator('dialog[data-reject-dialog]');
          await dialog.waitFor();
          expect(await page.evaluate(() => document.activeElement?.id)).to.equal('reject-reason');
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `review-reject-dialog-${w.name}${suffix}`);
          await page.keyboard.press('Escape');
          expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).to.equal(false);
          // The dialog's close event (a task after Escape) gives the focus back to Reject.
          await page.waitForFunction(() => document.activeElement?.hasAttribute('data-open-reject'), null, { timeout: 5000 });
          expect(await stage.innerText()).to.equal('Screen');

          // Reject with a reason chosen by keys.
          await page.locator('h1').click();
          await page.keyboard.press('r');
          await page.keyboard.press('ArrowDown'); // Not a fit -> Withdrew
          await page.keyboard.press('Tab');
          expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Reject');
          await page.keyboard.press('Enter');
          const done = page.locator('.alert-success', { hasText: 'Rejected: Withdrew.' });
          await done.waitFor();
          expect(await done.getAttribute('role')).to.equal('status');
          expect(await stage.innerText()).to.equal('Screen · Rejected (Withdrew)');
          expect(await page.locator('.applicant-summary [data-status]').innerText()).to.equal('ARCHIVED');
          const row = await s.ctx
            .db('applications')
            .where({ id: ids[`ben-${w.name}@review.example`] })
            .first('outcome', 'outcome_reason', 'status');
          expect(row).to.deep.include({ outcome: 'REJECTED', outcome_reason: 'Withdrew', status: 'ARCHIVED' });
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `review-docx-${w.name}${suffix}`);
        });

        it('sorts the list by a column, the order kept in the URL', async () => {
          const { page } = tab;
          await page.goto(`${s.baseUrl}/hr/applicants`);
          const names = () => page.locator('table.applicants-table tbody tr td:nth-child(2)').allInnerTexts();
          expect(await page.locator('th[aria-sort]').allInnerTexts()).to.deep.equal(['Applied']);
          expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).to.equal('descending');
          if (w.name === 'desktop') {
            await page.locator('th button:text-is("Name")').focus();
            await Promise.all([page.waitForURL(/ordering=name/), page.keyboard.press('Enter')]);
            expect(await page.locator('th[aria-sort]').innerText()).to.equal('Name');
            expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).to.equal('ascending');
            expect(await names()).to.deep.equal(['Ada Lovelace', 'Ben Okafor Adeyemi', 'Ben Okafor Zubair', 'Priya Sharma']);
            await page.locator('th button:text-is("Name")').focus();
            await Promise.all([page.waitForURL(/ordering=-name/), page.keyboard.press('Enter')]);
            expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).to.equal('descending');
            expect(await names()).to.deep.equal(['Priya Sharma', 'Ben Okafor Zubair', 'Ben Okafor Adeyemi', 'Ada Lovelace']);
          } else {
            await page.locator('button:text-is("More filters")').click();
            await page.locator('#f-ordering').focus();
            await page.selectOption('#f-ordering', 'name');
            await page.locator('button:text-is("Refresh")').focus();
            await Promise.all([page.waitForURL(/ordering=name/), page.keyboard.press('Enter')]);
            expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).to.equal('ascending');
            expect(await names()).to.deep.equal(['Ada Lovelace', 'Ben Okafor Adeyemi', 'Ben Okafor Zubair', 'Priya Sharma']);
          }
          // The detail page keeps the order for j/k, and the Export follows it.
          expect(await page.locator('[data-export-download]').getAttribute('href')).to.contain('ordering=');
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `review-sorted-list-${w.name}${suffix}`);
        });
      });
    }
  });
}

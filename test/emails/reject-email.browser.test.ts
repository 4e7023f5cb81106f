/**
 * Issue 30 in Chromium at 1280 and 390 px: Reject from the board (the R key) and from the
 * applicant page (the r key) with the rejection email, scheduled ("In 2 days", or a date and
 * time in the viewer's zone), its preview; the applicant page's Scheduled emails with Cancel; the
 * History says Scheduled. Axe-clean, screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { ARTIFACTS, axeViolations, releaseBrowser, sharedBrowser, screenshot } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedPeople, type Seeded } from '../applicants/helpers.js';
import { fromDbDate } from '../../src/db/codecs.js';

const DAY = 86_400_000;

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`reject with email, now or later, from the board and the applicant page [${kind}]`, function () {
    this.timeout(90_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let seeded: Seeded;

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <careers@acme.example>',
        COMPANY_NAME: 'Acme Test Corp',
      });
      seeded = await seedPeople(s.ctx.db);
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      await smtp?.close();
    });

    async function open(width: number, height: number): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
      const t = await openHrPage(browser, s.baseUrl, token, {
        width,
        height,
        timezoneId: 'Europe/Berlin',
        contextOptions: { locale: 'en-GB' },
      });
      return { page: t.page, errors: t.errors, close: () => t.context.close() };
    }
    const emailRow = (appId: number) => s.ctx.db('email_posts').where({ application_id: appId }).orderBy('id', 'desc').first();

    for (const [width, height, label, boardEmail, pageEmail] of [
      [1280, 800, 'desktop', 'asha@dsouza.in', 'liam.smith@example.com'],
      [390, 844, 'phone', 'priya@patel.dev', 'mia.rossi@example.it'],
    ] as const) {
      it(`board: R opens Reject with the email, scheduled in 2 days, with its preview (${label})`, async () => {
        const { page, errors, close } = await open(width, height);
        try {
          const id = seeded.ids.get(boardEmail)!;
          const jobId = (await s.ctx.db('applications').where({ id }).first()).job_id;
          await page.goto(`${s.baseUrl}/hr/jobs/${jobId}/board`);
          const card = page.locator(`[data-card="${id}"]`);
          await card.waitFor();
          await card.focus();
          await page.keyboard.press('r');
          const dialog = page.locator('dialog.board-dialog');
          await dialog.waitFor();
          // The email is on once the dialog has the templates (fetched when the page loads).
          const send = dialog.getByLabel('Send the rejection email');
          await send.and(page.locator(':checked')).waitFor();
          expect(await dialog.getByLabel('Email', { exact: true }).locator('option:checked').innerText()).to.equal('Rejection');
          await dialog.getByLabel('Send', { exact: true }).selectOption({ label: 'In 2 days' });
          await dialog.locator('details.email-preview summary').click();
          const preview = await dialog.locator('details.email-preview').innerText();
          expect(preview).to.include(boardEmail).and.include('Your application for').and.include('at Acme Test Corp');
          const confirm = dialog.getByRole('button', { name: 'Reject and schedule email' });
          await confirm.waitFor();
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `reject-email-board-${label}`);
          const before = Date.now();
          await confirm.click();
          await page.waitForFunction(() => /email scheduled for/.test(document.body.textContent ?? ''));
          const said = await page.locator('.board [role="status"], [aria-live="polite"]').allInnerTexts();
          expect(await page.locator('.alert-success').innerText()).to.match(/: 1 email scheduled for .+: it can be cancelled until then\./);
          expect(said.join(' ')).to.match(
            /moved to Rejected \(.+\)\..*1 email scheduled for .+ GMT\+[12]: it can be cancelled until then\./,
          );
          const app = await s.ctx.db('applications').where({ id }).first();
          expect(app.outcome).to.equal('REJECTED');
          const row = await emailRow(id);
          expect(row.status).to.equal('PENDING');
          const at = fromDbDate(row.send_after)!.getTime();
          expect(at).to.be.within(before + 2 * DAY - 5000, Date.now() + 2 * DAY + 5000);
          expect(smtp.mails.filter((m) => m.to.includes(boardEmail))).to.have.length(0);
          await screenshot(page, `reject-email-board-done-${label}`);
          expect(errors).to.deep.equal([]);
        } finally {
          await close();
        }
      });

      it(`applicants list: the bulk rejection's preview counts the already rejected and emails them again only when ticked (${label})`, async () => {
        const { page, errors, close } = await open(width, height);
        try {
          // The board's test above rejected boardEmail; the other one is new.
          const rejected = seeded.ids.get(boardEmail)!;
          const other = seeded.ids.get(label === 'desktop' ? 'jose.muller@example.com' : 'bjorn@example.no')!;
          const jobId = (await s.ctx.db('applications').where({ id: rejected }).first()).job_id;
          await page.goto(`${s.baseUrl}/hr/applicants?job_id=${jobId}`);
          const section = page.locator('section.bulk-email');
          // The card shows on the dense list once rows are selected.
          await section.waitFor({ state: 'attached' });
          for (const id of [rejected, other]) await page.locator(`input[data-select][value="${id}"]`).check();
          await section.getByRole('button', { name: 'Reject and email 2 selected…' }).click();
          const preview = section.locator('.email-preview');
          await preview.waitFor();
          expect(await preview.locator('.alert-warning').innerText()).to.include(
            '1 of the 2 selected is already rejected: it gets no second email unless you tick below.',
          );
          await section.getByRole('button', { name: 'Reject 2 and send 1 email' }).waitFor();
          await preview.getByLabel('Email them again').check();
          await section.getByRole('button', { name: 'Reject 2 and send 2 emails' }).waitFor();
          await preview.getByLabel('Email them again').uncheck();
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `reject-email-bulk-already-${label}`);
          await section.screenshot({ path: path.join(ARTIFACTS, `reject-email-bulk-section-${label}.png`) });
          await section.getByRole('button', { name: 'Reject 2 and send 1 email' }).click();
          await page.waitForFunction(() =>
            /already rejected got no second email/.test(document.querySelector('section.bulk-email [role="status"]')?.textContent ?? ''),
          );
          expect(await section.locator('[role="status"]').innerText()).to.equal(
            '2 applicants rejected (Not a fit). 1 email queued. 1 already rejected got no second email.',
          );
          expect(await s.ctx.db('email_posts').where({ application_id: other })).to.have.length(1);
          expect(errors).to.deep.equal([]);
        } finally {
          await close();
        }
      });

      it(`applicant page: r opens Reject; a date and time in the viewer's zone; Scheduled emails and History; Cancel (${label})`, async () => {
        const { page, errors, close } = await open(width, height);
        try {
          const id = seeded.ids.get(pageEmail)!;
          await page.goto(`${s.baseUrl}/hr/applicants/${id}`);
          await page.locator('form[data-stage-form]:not([hidden])').waitFor();
          await page.locator('dialog[data-reject-dialog] .reject-email').waitFor({ state: 'attached' });
          await page.locator('body').click({ position: { x: 1, y: 1 } });
          await page.keyboard.press('r');
          const dialog = page.locator('dialog[data-reject-dialog]');
          await dialog.waitFor();
          await dialog.getByLabel('Reason').selectOption('Position filled');
          await dialog.getByLabel('Send', { exact: true }).selectOption({ label: 'At a date and time…' });
          const when = dialog.getByLabel('Date and time (Europe/Berlin)');
          // A time in the past is refused where it is typed.
          await when.fill('2020-01-01T09:00');
          expect(await dialog.locator('.field-error').innerText()).to.equal('The time to send must be in the future.');
          const target = new Date(Date.now() + 3 * DAY);
          const local = `${target.toISOString().slice(0, 10)}T09:30`;
          await when.fill(local);
          expect(await dialog.locator('.field-error').count()).to.equal(0);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `reject-email-applicant-dialog-${label}`);
          await dialog.getByRole('button', { name: 'Reject' }).click();
          const scheduled = page.locator('section.scheduled-emails');
          await scheduled.locator('li').first().waitFor();
          const item = await scheduled.locator('li').first().innerText();
          expect(item).to.include('Your application for').and.include('Scheduled for').and.include('9:30 AM').and.include('by alice');
          expect(await scheduled.locator('[role="status"]').innerText()).to.match(
            /^1 email scheduled for .+, 9:30 AM GMT\+[12]: it can be cancelled until then\.$/,
          );
          const row = await emailRow(id);
          // 09:30 in Berlin (CET in winter, CEST in summer) is 07:30 or 08:30 UTC.
          expect(fromDbDate(row.send_after)!.toISOString()).to.match(new RegExp(`^${local.slice(0, 10)}T0[78]:30:00.000Z$`));
          expect(await s.ctx.db('applications').where({ id }).first()).to.include({
            outcome: 'REJECTED',
            outcome_reason: 'Position filled',
          });
          await page.waitForFunction(() =>
            /Scheduled for/.test(
              document.querySelector('.timeline, [data-timeline], #history, section[aria-labelledby*="history" i]')?.textContent ??
                document.body.textContent ??
                '',
            ),
          );
          await scheduled.scrollIntoViewIfNeeded();
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `reject-email-applicant-scheduled-${label}`);

          await scheduled.getByRole('button', { name: /^Cancel email/ }).click();
          await page.waitForFunction(() =>
            /Email cancelled: it will not be sent\./.test(
              document.querySelector('section.scheduled-emails [role="status"]')?.textContent ?? '',
            ),
          );
          expect(await scheduled.locator('li').count()).to.equal(0);
          expect((await emailRow(id)).status).to.equal('CANCELLED');
          await screenshot(page, `reject-email-applicant-cancelled-${label}`);
          expect(await axeViolations(page)).to.deep.equal([]);
          // The seeded resumes are rows without files: the resume panel's fetch of one is a 404 the browser logs.
          expect(errors.filter((e) => !/status of 404/.test(e))).to.deep.equal([]);
        } finally {
          await close();
        }
      });
    }
  });
}

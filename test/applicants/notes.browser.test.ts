/**
 * Notes and history on the applicant detail page in real Chromium, by keyboard alone, at desktop
 * and phone widths: add a note (HTML in it shown as text), edit it, see it and a status change
 * on the history, delete it; another user's note has no Edit or Delete; a blank note is refused
 * where it was typed; times in the viewer's time zone with the zone named; axe-core clean; screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople } from './helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`notes and history in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let appId: number;

    before(async () => {
      s = await startTestServer(kind);
      const seeded = await seedPeople(s.ctx.db);
      appId = seeded.ids.get('priya@patel.dev')!;
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
      const bob = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'bob'));
      expect(
        (await hr(s.baseUrl, bob, `/api/hr/applications/${appId}/notes/`, { method: 'POST', body: { text: 'Bob was here first.' } }))
          .status,
      ).to.equal(201);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    /** A signed-in tab in New York's time zone (EST in November), collecting console errors. */
    async function open(width: number, height: number): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
      const { context, page, errors } = await openHrPage(browser, s.baseUrl, token, {
        width,
        height,
        timezoneId: 'America/New_York',
        contextOptions: { locale: 'en-US' },
      });
      return { page, errors, close: () => context.close() };
    }

    const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || '');
    const history = (page: Page) => page.locator('.timeline .timeline-text').allInnerTexts();

    for (const [width, height, label] of [
      [1280, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      it(`adds, edits and deletes a note by keyboard and shows it with a status change on the history (${label})`, async () => {
        const { page, errors, close } = await open(width, height);
        try {
          await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          await page.locator('#notes-heading').waitFor();
          await page.locator('.timeline-entry').first().waitFor();
          expect(await page.locator('.history-zone').innerText()).to.equal('Newest first. Times in America/New_York.');
          // Bob's note: readable, but not editable by Alice.
          const bobs = page.locator('.note', { hasText: 'Bob was here first.' });
          expect(await bobs.locator('.note-meta strong').innerText()).to.equal('bob');
          expect(await bobs.locator('button').count()).to.equal(0);

          // A blank note is refused where it was typed.
          await page.focus('#note-new');
          await page.keyboard.type('   ');
          await page.keyboard.press('Tab'); // to Add note
          await page.keyboard.press('Enter');
          expect(await page.locator('#note-new-error').innerText()).to.equal('This field may not be blank.');
          expect(await page.locator('#note-new').getAttribute('aria-invalid')).to.equal('true');
          expect(await focused(page)).to.equal('note-new');

          // Add, with HTML in it: shown as the text it is.
          const text = `Strong on payroll compliance <b>${label}</b>\nCall back Monday.`;
          await page.keyboard.press('Control+A');
          await page.keyboard.type(`Strong on payroll compliance <b>${label}</b>`);
          await page.keyboard.press('Enter'); // a line break, in a text area
          await page.keyboard.type('Call back Monday.');
          await page.keyboard.press('Tab');
          await page.keyboard.press('Enter');
          await page.locator('.notes-notice', { hasText: 'Note added.' }).waitFor();
          const mine = page.locator('.note').first();
          expect(await mine.locator('.note-text').innerText()).to.equal(text);
          expect(await mine.locator('.note-text b').count()).to.equal(0);
          expect(await mine.locator('.note-meta').innerText()).to.match(/^alice \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d (AM|PM) EST$/);
          expect(await page.locator('#note-new').inputValue()).to.equal('');
          await page.waitForFunction(() => document.querySelector('.timeline .timeline-text')?.textContent?.startsWith('Note added'));

          // Edit: the editor takes the focus; Save brings it back to Edit.
          const edit = mine.locator('button', { hasText: 'Edit' });
          await edit.focus();
          await page.keyboard.press('Enter');
          expect(await focused(page)).to.match(/^note-text-\d+$/);
          await page.keyboard.press('Control+End');
          await page.keyboard.type(' Edited.');
          await page.keyboard.press('Tab'); // Save note
          await page.keyboard.press('Enter');
          await page.locator('.notes-notice', { hasText: 'Note saved.' }).waitFor();
          expect(await mine.locator('.note-text').innerText()).to.equal(`${text} Edited.`);
          expect(await mine.locator('.note-meta').innerText()).to.include('(edited');
          expect(await focused(page)).to.match(/^note-edit-\d+$/);
          // Escape leaves an editor without saving.
          await page.keyboard.press('Enter');
          await page.keyboard.type(' never saved');
          await page.keyboard.press('Escape');
          expect(await mine.locator('.note-text').innerText()).to.not.include('never saved');
          expect(await focused(page)).to.match(/^note-edit-\d+$/);

          // A status change through the page's status form reaches the history at once.
          const target = label === 'desktop' ? 'REVIEWED' : 'ARCHIVED';
          await page.focus('#status-select');
          await page.selectOption('#status-select', target);
          await page.keyboard.press('Tab');
          await page.keyboard.press('Enter');
          await page.waitForFunction((t) => document.querySelector('.timeline .timeline-text')?.textContent?.includes(`to ${t}`), target);
          const lines = await history(page);
          expect(lines[0]).to.match(new RegExp(`^Status changed from \\w+ to ${target}$`));
          expect(lines).to.include(`Note edited: ${text.replace('\n', ' ')} Edited.`);
          expect(lines.at(-1)).to.equal('Applied for Data Analyst');
          const first = page.locator('.timeline-entry').first();
          expect(await first.locator('.timeline-meta').innerText()).to.match(/EST · alice$/);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `applicant-notes-${label}${suffix}`);

          // Delete: asked first, then gone; focus back on the new note's field.
          await mine.locator('button', { hasText: 'Delete' }).focus();
          await page.keyboard.press('Enter');
          expect(await focused(page)).to.equal('Delete note');
          expect(await axeViolations(page)).to.deep.equal([]);
          await page.keyboard.press('Enter');
          await page.locator('.notes-notice', { hasText: 'Note deleted.' }).waitFor();
          expect(await page.locator('.note-text').allInnerTexts()).to.deep.equal(['Bob was here first.']);
          expect(await focused(page)).to.equal('note-new');
          await page.waitForFunction(() => document.querySelector('.timeline .timeline-text')?.textContent === 'Note deleted');
          expect(await history(page)).to.include('Note added (since deleted)');
          // seedPeople's resumes are rows without files: the resume panel's fetch of one is a 404 the browser logs.
          expect(errors.filter((e) => !/status of 404/.test(e))).to.deep.equal([]);
        } finally {
          await close();
        }
      });
    }
  });
}

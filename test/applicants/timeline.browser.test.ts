/**
 * The applicant page's history in real Chromium, by keyboard, at desktop and phone widths (issue
 * 33): an application with 120 entries shows its newest 50 and "Show older"; each press loads the
 * next 50 below them, moves focus to the first entry loaded and says what came on a status line
 * (an HR notification among them counted as hidden), until the application itself is shown and the
 * button goes; a change made afterwards comes in on top with the older entries kept; no entry
 * twice; nothing wider than the screen; axe-core clean; screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { toDbDate } from '../../src/db/codecs.js';
import path from 'node:path';
import { ARTIFACTS, axeViolations, releaseBrowser, screenshot, sharedBrowser } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople } from './helpers.js';

/** Status changes a minute apart, after the application; the HR notification among the ones on the second page. */
const START = Date.parse('2026-03-01T10:00:00.000Z');
const CHANGES = 118;
const HR_EMAIL_AFTER = 40; // between the changes at minutes 40 and 41: the 79th newest entry, on the second page

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`the history's "Show older" in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let userId: number;
    /** An application of its own for each screen width (the test changes its status). */
    const apps = new Map<string, number>();

    before(async () => {
      s = await startTestServer(kind);
      const seeded = await seedPeople(s.ctx.db);
      userId = await createHrUser(s.ctx.db, 'alice');
      token = await liveToken(s.ctx.db, userId);
      apps.set('desktop', seeded.ids.get('priya@patel.dev')!);
      apps.set('phone', seeded.ids.get('mia.rossi@example.it')!);
      for (const appId of apps.values()) await writeHistory(appId);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    async function writeHistory(appId: number): Promise<void> {
      const rows = Array.from({ length: CHANGES }, (_, i) => ({
        user_id: userId,
        action: 'stage',
        entity: 'application',
        entity_id: appId,
        details: JSON.stringify({ from: `Step ${i}`, to: `Step ${i + 1}` }),
        created_at: toDbDate(new Date(START + (i + 1) * 60_000)),
      }));
      for (let i = 0; i < rows.length; i += 50) await s.ctx.db('audit_log').insert(rows.slice(i, i + 50));
      const at = toDbDate(new Date(START + HR_EMAIL_AFTER * 60_000 + 30_000));
      await s.ctx.db('email_posts').insert({
        application_id: appId,
        template: 'hr_notification',
        payload: JSON.stringify({ to: 'hr@acme.example', subject: 'New application' }),
        status: 'SUCCESS',
        attempts: 1,
        delivered_at: at,
        created_at: at,
        updated_at: at,
      });
    }

    const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
    const lines = (page: Page) => page.locator('.timeline .timeline-text').allInnerTexts();
    const status = (page: Page) => page.locator('.history-section [role="status"]').innerText();
    const older = (page: Page) => page.locator('#history-older');
    /** The line of the nth newest status change (0: the newest). */
    const change = (n: number) => `Stage changed from Step ${CHANGES - 1 - n} to Step ${CHANGES - n}`;

    for (const [width, height, label] of [
      [1280, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      it(`loads the history 50 entries at a time with "Show older", by keyboard (${label})`, async () => {
        const appId = apps.get(label)!;
        const { context, page, errors } = await openHrPage(browser, s.baseUrl, token, {
          width,
          height,
          timezoneId: 'America/New_York',
          contextOptions: { locale: 'en-US' },
        });
        try {
          await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          await page.locator('.timeline-entry').first().waitFor();
          // The newest 50, and the button to the rest.
          expect(await lines(page)).to.deep.equal(Array.from({ length: 50 }, (_, i) => change(i)));
          expect(await older(page).evaluate((b) => b.textContent)).to.equal('Show older history');
          expect(await page.getByRole('button', { name: 'Show older history', exact: true }).count()).to.equal(1);
          expect(await status(page)).to.equal('');
          await older(page).scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(ARTIFACTS, `applicant-history-button-${label}${suffix}.png`) });

          // By keyboard: the next 50 come below, focus on the first of them, the status line says what came.
          await older(page).focus();
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => document.querySelectorAll('.timeline-entry').length > 50);
          expect(await status(page)).to.equal('Loaded 49 older entries and 1 HR notification, hidden.');
          const second = await lines(page);
          expect(second).to.have.length(99);
          expect(second.slice(50)).to.deep.equal(Array.from({ length: 49 }, (_, i) => change(50 + i)));
          expect(await focusedId(page)).to.match(/^history-audit-\d+$/);
          expect(await page.evaluate(() => document.activeElement?.textContent)).to.include(change(50));
          // HR's notification, loaded with them, is one tick away.
          expect(await page.locator('.history-toggle').innerText()).to.equal('Show HR notifications (1)');
          // What the screen shows there: the first entry loaded, with the focus ring.
          await page.screenshot({ path: path.join(ARTIFACTS, `applicant-history-loaded-${label}${suffix}.png`) });
          expect(await axeViolations(page)).to.deep.equal([]);

          // From there, Tab reaches the button again; the last page ends with the application and the button goes.
          await page.keyboard.press('Tab');
          expect(await focusedId(page)).to.equal('history-older');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => !document.querySelector('#history-older'));
          expect(await status(page)).to.equal('Loaded 20 older entries. This is the start of the history.');
          const all = await lines(page);
          expect(all).to.have.length(119);
          expect(new Set(all).size).to.equal(119);
          expect(all.at(-1)).to.equal('Applied for Data Analyst');
          expect(all.slice(0, -1)).to.deep.equal(Array.from({ length: CHANGES }, (_, i) => change(i)));
          expect(await page.evaluate(() => document.activeElement?.textContent)).to.include(change(99));
          // Nothing wider than the screen.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(width);
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `applicant-history-older-${label}${suffix}`);

          // A change made now comes in on top; the older entries stay below.
          const r = await hr(s.baseUrl, token, `/api/hr/applications/${appId}/`, { method: 'PATCH', body: { status: 'ARCHIVED' } });
          expect(r.status, JSON.stringify(r.body)).to.equal(200);
          await page.evaluate(() => document.dispatchEvent(new Event('applicant:changed')));
          await page.waitForFunction(() => document.querySelector('.timeline .timeline-text')?.textContent?.startsWith('Status changed'));
          const after = await lines(page);
          expect(after).to.have.length(120);
          expect(after.at(-1)).to.equal('Applied for Data Analyst');
          expect(new Set(after).size).to.equal(120);
          await page.keyboard.press('Tab'); // focus was not taken by the refresh
          expect(errors.filter((e) => !/status of 404/.test(e))).to.deep.equal([]);
        } finally {
          await context.close();
        }
      });
    }
  });
}

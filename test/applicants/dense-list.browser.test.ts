/**
 * The dense applicants list (issue 30) in real Chromium at 1280×800 and 390×844: at least 15 rows
 * on the first screen with the first row above the fold; the filters in one row with a "More
 * filters" disclosure (aria-expanded) and a removable chip per applied filter, by keyboard; no
 * cell's text wrapping (one line, cut with an ellipsis, the whole value in the title and on focus);
 * a column chooser remembered per user across a reload; on a phone the first card in the first
 * screen and every card at most 160 px tall. axe-core clean; screenshots under test/artifacts.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { insertApplications, type SeedApplication } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedPeople, type Seeded } from './helpers.js';

/** Twenty more applicants, some with long names and addresses, to fill more than a screen. */
function morePeople(): SeedApplication[] {
  return Array.from({ length: 20 }, (_, i) => ({
    first_name: i % 3 === 0 ? 'Maximiliane-Alexandrine' : `Person${i}`,
    last_name: i % 4 === 0 ? 'Vandenberghe-Oppenheimer' : `Tester${i}`,
    email: i % 2 === 0 ? `maximiliane.alexandrine.vandenberghe.${i}@very-long-company-domain.example.com` : `p${i}@ex.io`,
    phone: '+919876543210',
    status: (['NEW', 'REVIEWED', 'ARCHIVED'] as const)[i % 3],
    created_at: new Date(Date.UTC(2026, 2, 1 + i, 9, 30)),
  }));
}

/** Rows of the table whose box is wholly inside the viewport, the first row's top, and a cell whose text runs over more than one line. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('table.applicants-table tbody tr')];
    const h = window.innerHeight;
    const boxes = rows.map((r) => r.getBoundingClientRect());
    const wrapped: string[] = [];
    // Every text of a visible cell on one line: its boxes all start at the same height (a wrapped text has a box per line).
    for (const td of document.querySelectorAll<HTMLElement>('table.applicants-table td')) {
      if (td.offsetParent === null) continue;
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || (node.parentElement && node.parentElement.offsetParent === null)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (tops.length && Math.max(...tops) - Math.min(...tops) > 4) wrapped.push(`${td.dataset.label}: ${node.textContent}`);
      }
    }
    return {
      visible: boxes.filter((b) => b.top >= 0 && b.bottom <= h).length,
      firstTop: boxes[0]?.top ?? -1,
      firstBottom: boxes[0]?.bottom ?? -1,
      heights: boxes.map((b) => Math.round(b.height)),
      wrapped,
    };
  });
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`dense applicants list in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let otherToken: string;
    let seeded: Seeded;

    before(async () => {
      s = await startTestServer(kind);
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'hr'));
      otherToken = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'other'));
      seeded = await seedPeople(s.ctx.db);
      await insertApplications(s.ctx.db, seeded.jobB.id, morePeople(), []);
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

    it('shows at least 15 one-line rows on a 1280×800 screen, the first above the fold, long values cut and shown whole on focus', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants`);
      await page.waitForSelector('table.applicants-table.is-selectable');
      await screenshot(page, `applicants-dense-1280${suffix}`);
      await page.screenshot({ path: `test/artifacts/applicants-dense-1280-screen${suffix}.png` });
      const m = await measure(page);
      expect(m.firstBottom, 'first row above the fold').to.be.greaterThan(0).and.lessThan(800);
      expect(m.visible, 'rows on the first screen').to.be.at.least(15);
      expect(m.wrapped, 'cells whose text wraps').to.deep.equal([]);

      // A long email is cut: its whole value in the title, focusable, named whole, shown on focus.
      const email = page.locator('td.col-email .cell-text.is-cut').first();
      const full = (await email.getAttribute('title'))!;
      expect(full).to.match(/^maximiliane\.alexandrine\.vandenberghe\.\d+@very-long-company-domain\.example\.com$/);
      expect(await email.evaluate((el) => el.scrollWidth > el.clientWidth)).to.equal(true);
      expect(await email.getAttribute('tabindex')).to.equal('0');
      expect(await email.getAttribute('aria-label')).to.equal(full);
      await email.focus();
      expect(await email.evaluate((el) => getComputedStyle(el, '::after').content)).to.equal(JSON.stringify(full));
      // Short values are not cut, nor focusable.
      expect(await page.locator('td.col-email .cell-text:not(.is-cut)').first().getAttribute('tabindex')).to.equal(null);
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
    });

    it('keeps the filters in one row: More filters opens by keyboard, each applied filter is a chip removed by keyboard', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants?status=NEW&date_from=2026-01-01&q=jos`);
      const toggle = page.locator('button[data-more-filters]');
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
      expect(await page.locator('#f-from').isVisible()).to.equal(false);
      // One row of filters: search, job, status and the buttons side by side.
      const tops = await Promise.all(
        ['#f-q', '#f-job', '#f-status', 'button[data-more-filters]'].map(async (sel) =>
          Math.round((await page.locator(sel).boundingBox())!.y),
        ),
      );
      expect(Math.max(...tops) - Math.min(...tops)).to.be.lessThan(12);
      expect(await page.locator('.filter-chip .chip-label').allInnerTexts()).to.deep.equal([
        'Search: jos',
        'Status: NEW',
        'From: 2026-01-01',
      ]);
      await screenshot(page, `applicants-chips${suffix}`);

      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
      expect(await page.locator('#f-from').isVisible()).to.equal(true);
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('f-stage');
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
      await screenshot(page, `applicants-more-filters${suffix}`);
      await toggle.focus();
      await page.keyboard.press('Space');
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');

      // A chip by keyboard: Tab to it, Enter removes that filter and keeps the others.
      const chip = page.locator('.filter-chip', { hasText: 'Status: NEW' });
      expect(await page.getByRole('link', { name: 'Remove the filter Status: NEW', exact: true }).count()).to.equal(1);
      await chip.focus();
      await Promise.all([page.waitForURL((u) => !u.searchParams.has('status')), page.keyboard.press('Enter')]);
      const params = Object.fromEntries(new URL(page.url()).searchParams);
      expect(params).to.deep.equal({ q: 'jos', date_from: '2026-01-01' });
      expect(await page.locator('.filter-chip .chip-label').allInnerTexts()).to.deep.equal(['Search: jos', 'From: 2026-01-01']);
      // A filter with a bad value opens the panel to show its message.
      await page.goto(`${s.baseUrl}/hr/applicants?date_from=2026-02-02&date_to=2026-02-01`);
      expect(await page.locator('button[data-more-filters]').getAttribute('aria-expanded')).to.equal('true');
      expect(await page.locator('#e-date_to').isVisible()).to.equal(true);
    });

    it('without JavaScript shows every filter (no disclosure button) and the chips', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800, contextOptions: { javaScriptEnabled: false } });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants?stage=Applied`);
      expect(await page.locator('#f-from').isVisible()).to.equal(true);
      expect(await page.locator('button[data-more-filters]').isVisible()).to.equal(false);
      expect(await page.locator('[data-column-chooser]').isVisible()).to.equal(false);
      expect(await page.locator('.filter-chip .chip-label').allInnerTexts()).to.deep.equal(['Stage: Applied']);
      await Promise.all([page.waitForURL(`${s.baseUrl}/hr/applicants`), page.click('.filter-chip')]);
    });

    it('remembers the columns each user chose across a reload', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants`);
      const heads = () => page.locator('thead th:visible').allInnerTexts();
      expect(await heads()).to.include.members(['Email', 'Phone', 'Source']);
      const button = page.locator('button[data-columns-toggle]');
      await button.focus();
      await page.keyboard.press('Enter');
      expect(await button.getAttribute('aria-expanded')).to.equal('true');
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
      await page.keyboard.press('Space'); // the first choice (Email) has the focus
      await page.locator('#column-choices label', { hasText: 'Source' }).click();
      await screenshot(page, `applicants-columns${suffix}`);
      await page.keyboard.press('Escape');
      expect(await button.getAttribute('aria-expanded')).to.equal('false');
      expect(await heads()).to.not.include.members(['Email']);
      expect(await heads()).to.not.include('Source');
      await page.reload();
      await page.waitForSelector('table.applicants-table.hide-email');
      expect(await heads()).to.not.include('Email');
      expect(await heads()).to.not.include('Source');
      expect(await page.locator('#column-choices input[value="email"]').isChecked()).to.equal(false);
      // Another user in the same browser has their own choice.
      await tab.context.addCookies([{ name: 'jwt', value: otherToken, url: s.baseUrl }]);
      await page.reload();
      await page.waitForSelector('table.applicants-table.is-selectable');
      expect(await heads()).to.include.members(['Email', 'Source']);
    });

    it('shows short cards on a phone, the first in the first screen', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants`);
      await page.waitForSelector('table.applicants-table.is-selectable');
      await screenshot(page, `applicants-dense-390${suffix}`);
      await page.screenshot({ path: `test/artifacts/applicants-dense-390-screen${suffix}.png` });
      const m = await measure(page);
      expect(m.firstTop).to.be.greaterThan(0);
      expect(m.firstBottom, 'first card in the first screen').to.be.lessThan(844);
      expect(Math.max(...m.heights), 'card height').to.be.at.most(160);
      expect(m.wrapped, 'cells whose text wraps').to.deep.equal([]);
      // Name, job, stage and applied day on each card; the rest on the applicant's page.
      const card = page.locator('table.applicants-table tbody tr').first();
      expect(await card.locator('td.col-name').isVisible()).to.equal(true);
      expect(await card.locator('td.col-job').isVisible()).to.equal(true);
      expect(await card.locator('td.col-stage').isVisible()).to.equal(true);
      expect(await card.locator('td.col-applied').isVisible()).to.equal(true);
      expect(await card.locator('td.col-email').isVisible()).to.equal(false);
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
    });
  });
}

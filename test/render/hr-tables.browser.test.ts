/**
 * The one HR table (views/partials/data-table.ejs, table.data in site.css) on every page that has
 * one, in Chromium: at 1280 px every cell, button and link lies inside the table's box (the posts
 * table's Attempts button was cut at the edge); at 390 px rows are cards of labelled values and
 * nothing scrolls sideways (the applicants table wrapped emails a letter per line). Long values on
 * purpose: a 60-character email, a long title, a long receiver error.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { releaseBrowser, sharedBrowser, screenshot } from '../helpers/browser.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createDelivery } from '../../src/posts/index.js';
import { seedPosts, silent, startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';

const LONG_TITLE = 'Senior Platform Reliability Engineer, Payments and Compliance Infrastructure';

/** What overflows: elements of the table whose right edge passes the table's visible box, and the page's sideways scroll. */
async function overflow(page: Page): Promise<{ pageScrolls: boolean; cut: string[]; broken: string[] }> {
  return page.evaluate(() => {
    const cut: string[] = [];
    // Buttons, statuses and codes on more than one line ('Attempt|s', 'FAIL|ED').
    const broken: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('table.data tbody :is(.btn, .status, code)')) {
      if (el.hidden || el.getClientRects().length === 0) continue;
      const text = document.createRange();
      text.selectNodeContents(el);
      // A public id made from a title ('senior-platform-...') may break after its hyphens.
      const mayBreak = el.tagName === 'CODE' && (el.textContent ?? '').includes('-');
      if (!mayBreak && new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size > 1)
        broken.push((el.textContent ?? '').trim());
    }
    for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
      const box = wrap.getBoundingClientRect();
      for (const el of wrap.querySelectorAll<HTMLElement>('td, th, a, button')) {
        if (el.hidden || el.getClientRects().length === 0) continue;
        // The header of the cards layout is kept for screen readers only, clipped to nothing.
        const head = el.closest('thead');
        if (head && getComputedStyle(head).position === 'absolute') continue;
        const r = el.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1) cut.push(`${el.tagName} ${(el.textContent ?? '').trim().slice(0, 30)}`);
      }
    }
    return { pageScrolls: document.documentElement.scrollWidth > window.innerWidth, cut, broken };
  });
}

describe('HR tables at 390 and 1280 px [sqlite]', function () {
  this.timeout(180_000);
  let s: TestServer;
  let browser: Browser;
  let token: string;
  let failing: Receiver;
  const pages: string[] = [];

  before(async () => {
    s = await startTestServer('sqlite', { WEBHOOK_ALLOW_PRIVATE: 'true' });
    const db = s.ctx.db;
    token = (await hrSession(db)).token;
    failing = await startReceiver(() => ({ status: 503, body: `Service Unavailable: ${'maintenance window '.repeat(12)}` }));
    const job = await webhookJob(db, failing.url, 's3cret', { title: LONG_TITLE });
    await seedPosts(db, job, 3, new Date(), 'a-very-long-mailbox-name-for-wrapping-checks');
    const delivery = createDelivery({ db, config: s.ctx.config, now: () => new Date(), log: silent });
    await delivery.worker.runDue();
    await delivery.close();
    const form = await fetch(`${s.baseUrl}/api/hr/forms/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        public_id: 'tables',
        title: LONG_TITLE,
        status: 'ACTIVE',
        api_enabled: true,
        api_url: failing.url,
        api_mapping: { who: 'email' },
        sections: [
          {
            title: 'One',
            order: 0,
            fields: [
              { name: 'email', label: 'Email', field_type: 'email', order: 0, required: true },
              { name: 'note', label: 'Note', field_type: 'long_text', order: 1 },
            ],
          },
        ],
      }),
    }).then((r) => r.json());
    const values = { email: 'a-very-long-mailbox-name-for-wrapping-checks@example.com', note: 'x'.repeat(300) };
    const body = new FormData();
    body.set('values', JSON.stringify(values));
    expect((await fetch(`${s.baseUrl}/api/forms/tables/submit/`, { method: 'POST', body })).status).to.equal(201);
    const forms = createDelivery({ db, config: s.ctx.config, now: () => new Date(), log: silent });
    await forms.worker.runDue();
    await forms.close();
    pages.push(
      '/hr/dashboard',
      '/hr/jobs',
      '/hr/jobs/list',
      '/hr/applicants',
      '/hr/posts?status=FAILED',
      '/hr/forms',
      `/hr/forms/${form.id}/entries`,
      `/hr/forms/${form.id}/posts?status=FAILED`,
    );
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await s?.close();
    await failing?.close();
  });

  for (const width of [1280, 390]) {
    it(`every table fits at ${width} px, nothing cut and no sideways scroll`, async () => {
      const tab = await openHrPage(browser, s.baseUrl, token, { width, height: 900 });
      try {
        for (const path of pages) {
          await tab.page.goto(s.baseUrl + path);
          expect(await tab.page.locator('table.data tbody tr').count(), path).to.be.greaterThan(0);
          // The islands show their buttons (Attempts, Retry, Remove) once they run.
          await tab.page.waitForLoadState('networkidle');
          expect(await overflow(tab.page), `${path} at ${width} px`).to.deep.equal({ pageScrolls: false, cut: [], broken: [] });
          if (width === 390) {
            // Cards: the header is hidden and every cell shows its column's label.
            expect(await tab.page.locator('table.data thead').evaluate((h) => getComputedStyle(h).position), path).to.equal('absolute');
            // The applicants list's cards are short (issue 30): name, job, stage and applied day, without labels.
            const label = await tab.page
              .locator('table.data tbody td[data-label]')
              .first()
              .evaluate((td) => getComputedStyle(td, '::before').content);
            if (path.startsWith('/hr/applicants')) expect(label, path).to.equal('none');
            else expect(label, path).to.not.equal('none');
          }
          await screenshot(tab.page, `hr-table-${path.split('?')[0].replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${width}`);
        }
      } finally {
        await tab.context.close();
      }
    });
  }

  it('the Attempts button of a failed post is wholly visible at 1280 px', async () => {
    const tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
    try {
      await tab.page.goto(`${s.baseUrl}/hr/posts?status=FAILED`);
      const button = tab.page.locator('button[data-post-attempts]').first();
      await button.waitFor({ state: 'visible' });
      const [b, wrap] = await Promise.all([button.boundingBox(), tab.page.locator('.table-wrap').boundingBox()]);
      expect(b!.x + b!.width).to.be.at.most(wrap!.x + wrap!.width);
      await button.click();
      await tab.page.getByRole('dialog').waitFor();
    } finally {
      await tab.context.close();
    }
  });
});

/** The HR header in Chromium: an admin's nine items stay on one line at every desktop width. */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { releaseBrowser, sharedBrowser, screenshot } from '../helpers/browser.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('HR header in Chromium [sqlite]', function () {
  this.timeout(120_000);
  let s: TestServer;
  let browser: Browser;
  let token: string;
  before(async () => {
    s = await startTestServer('sqlite');
    ({ token } = await hrSession(s.ctx.db));
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await s?.close();
  });

  it('keeps the desktop items (Users and Emails included) on one line from 768 to 1280 px', async () => {
    for (const width of [768, 800, 900, 960, 1280]) {
      const tab = await openHrPage(browser, s.baseUrl, token, { width });
      try {
        await tab.page.goto(`${s.baseUrl}/hr/dashboard`);
        const nav = tab.page.locator('nav.nav-hr');
        const items = await nav.locator('a, button').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
        expect(items.length, `${width} px`).to.equal(10);
        // One line: their tops differ by less than a line (the current item and the button sit a little lower).
        expect(Math.max(...items) - Math.min(...items), `${width} px: items on more than one line`).to.be.below(16);
        if (width === 768) await screenshot(tab.page, 'hr-header-768');
      } finally {
        await tab.context.close();
      }
    }
  });
});

/**
 * An embed as a site would use it (issue 21), in Chromium: a host page on another origin loads
 * /embed.js, which frames the job list under the script; the frame takes the height of its content
 * (and follows it when the frame's width changes), the job links carry the host page's campaign
 * parameters, and a host that is not in EMBED_ORIGINS gets no list. The framed list is axe clean
 * at both widths.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

function hostServer(page: (req: http.IncomingMessage) => string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(page(req));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

describe('embeds in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let careers: TestServer;
  let host: Awaited<ReturnType<typeof hostServer>>;
  let stranger: Awaited<ReturnType<typeof hostServer>>;
  const hostPage = (filters = '') => `<!doctype html><html lang="en"><head><title>Partner site</title></head><body>
<h1>Partner site</h1><p>Work with our friends:</p>
<script src="${careers.baseUrl}/embed.js" async ${filters}></script>
<p id="after">After the jobs</p></body></html>`;

  before(async () => {
    let careersUrl = '';
    host = await hostServer((req) => (req.url?.includes('filtered') ? hostPage('data-work-mode="REMOTE"') : hostPage()));
    stranger = await hostServer(() => hostPage());
    careers = await startTestServer('sqlite', { EMBED_ORIGINS: host.url });
    careersUrl = careers.baseUrl;
    for (let i = 1; i <= 12; i++)
      await makeJob(careers.ctx.db, {
        title: `Role number ${i}`,
        location: i % 2 ? 'Austin, TX, United States' : 'Remote',
        work_mode: i % 2 ? 'ONSITE' : 'REMOTE',
        public_id: `role-${i}`,
      });
    expect(careersUrl).to.not.equal('');
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await careers?.close();
    await host?.close();
    await stranger?.close();
  });

  for (const width of [390, 1280]) {
    it(`frames the list at its own height and keeps the campaign parameters (${width} px)`, async () => {
      const { context, page, errors } = await openPage(browser, { width });
      try {
        await page.goto(`${host.url}/?utm_source=partner&utm_campaign=spring`);
        const frameElement = page.locator('iframe[title="Open positions"]');
        await frameElement.waitFor();
        const frame = page.frameLocator('iframe[title="Open positions"]');
        await expect(await frame.getByRole('heading', { name: /Open positions at/ }).textContent()).to.match(/Open positions at/);
        // The frame grows to its content: every job shows without a scrollbar, 'After the jobs' below it.
        await page.waitForFunction(
          () => {
            const f = document.querySelector('iframe') as HTMLIFrameElement;
            const doc = f.contentDocument;
            return !doc && f.getBoundingClientRect().height > 600;
          },
          undefined,
          { timeout: 15_000 },
        );
        const frameBox = (await frameElement.boundingBox())!;
        const afterBox = (await page.locator('#after').boundingBox())!;
        expect(afterBox.y).to.be.greaterThan(frameBox.y + frameBox.height - 1);
        const inner = await frame.locator('html').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
        expect(inner.scroll).to.be.at.most(inner.client + 1);
        const hrefs = await frame.locator('.embed-job-title').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
        expect(hrefs).to.have.length(12);
        for (const href of hrefs) expect(href).to.match(/\/careers\/role-\d+\?utm_source=partner&utm_medium=embed&utm_campaign=spring$/);
        await screenshot(page, `embed-host-${width}`);
        expect(errors).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  }

  it('passes the script tag filters on', async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${host.url}/filtered`);
      const frame = page.frameLocator('iframe[title="Open positions"]');
      await frame.locator('.embed-job-title').first().waitFor();
      expect(await frame.locator('.embed-job-title').count()).to.equal(6);
      expect(await frame.locator('.embed-job-meta').allTextContents()).to.satisfy((m: string[]) => m.every((t) => t.includes('Remote')));
    } finally {
      await context.close();
    }
  });

  it('a site not in EMBED_ORIGINS cannot frame the list', async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(stranger.url);
      await page.locator('iframe').waitFor();
      await page.waitForTimeout(1000);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await frame.locator('.embed-job-title').count()).to.equal(0);
    } finally {
      await context.close();
    }
  });

  for (const width of [390, 1280]) {
    it(`the framed list is axe clean (${width} px)`, async () => {
      const { context, page, errors } = await openPage(browser, { width });
      try {
        await page.goto(`${careers.baseUrl}/embed/jobs`);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `embed-list-${width}`);
        expect(errors).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  }
});

/**
 * Issue 35 in real Chromium, at 1280 px and 390 px:
 * - /hr/settings/site: an admin sets the company name, accent colour, hero, About us, empty-site
 *   message and a footer link, uploads a real PNG and then a hostile SVG (served cleaned), and is
 *   refused a low-contrast colour with its ratio named beside the field and a GIF with the
 *   type message; a recruiter gets the 403 page;
 * - the careers list, a job page, the apply wizard and the embedded list show the brand (logo in the header, the
 *   accent on buttons, hero texts, About us, the footer link), axe-clean, no sideways scrolling.
 * Screenshots in test/artifacts/branding-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { openPage } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="80" viewBox="0 0 300 80" onload="alert('svg')">
  <script>alert('x')</script>
  <rect width="300" height="80" rx="12" fill="#134e4a"/>
  <circle cx="40" cy="40" r="22" fill="#5eead4" onmouseover="alert(1)"/>
  <text x="76" y="52" font-family="Arial" font-size="30" font-weight="bold" fill="#ffffff">Globex</text>
  <image href="https://evil.example/x.png" width="1" height="1"/>
</svg>`;

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, 'page width').to.be.at.most(width);
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`site settings and the branded careers site in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    const token = { admin: '', recruiter: '' };
    const tabs: PageWithErrors[] = [];
    let expectedErrors: RegExp | null = null;
    let png: Buffer;
    let gif: Buffer;

    before(async () => {
      s = await startTestServer(kind, { EMBED_ORIGINS: 'https://www.partner.example' });
      token.admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'site.admin'));
      token.recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'site.recruiter', { role: 'recruiter' }));
      // A real logo: a teal badge with a white bar, 1200 x 300, as a designer would export it.
      png = await sharp({ create: { width: 1200, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .composite([
          {
            input: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="300" height="300" rx="60" fill="#0f766e"/><rect x="360" y="100" width="780" height="100" rx="20" fill="#134e4a"/></svg>',
            ),
          },
        ])
        .png()
        .toBuffer();
      gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      await makeJob(s.ctx.db, { title: 'Brand Designer', status: 'ACTIVE' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        const errors = expectedErrors ? t.errors.filter((e) => !expectedErrors!.test(e)) : t.errors;
        expect(errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
      expectedErrors = null;
    });
    const openHr = async (who: keyof typeof token, w: (typeof WIDTHS)[number]) => {
      const t = await openHrPage(browser, s.baseUrl, token[who], { width: w.width, height: w.height });
      tabs.push(t);
      return t.page;
    };
    const openPublic = async (w: (typeof WIDTHS)[number]) => {
      const t = await openPage(browser, { width: w.width, height: w.height });
      tabs.push(t);
      return t.page;
    };

    for (const w of WIDTHS) {
      it(`${w.name}: an admin brands the site: texts, colour, PNG and SVG logos; low contrast and a GIF refused`, async () => {
        // The GIF is answered 400, the recruiter's page 403: on purpose.
        expectedErrors = /status of (400|403)/;
        const page = await openHr('admin', w);
        await page.goto(`${s.baseUrl}/hr/settings/site`);
        await page.getByRole('button', { name: 'Save settings' }).waitFor();
        expect(await page.locator('h1').innerText()).to.equal('Site settings');
        expect(await axeViolations(page)).to.deep.equal([]);

        await page.getByLabel('Company name').fill('Globex Industries');
        await page.getByLabel('Banner title').fill(`Build the future at Globex (${w.name})`);
        await page.getByLabel('Banner text').fill('Small teams, real ownership.');
        await page.getByLabel('Message when no job is open').fill('We are not hiring right now. Check back in spring!');
        const editor = page.locator('.ProseMirror').first();
        await editor.click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Delete');
        await page.keyboard.type('Globex makes widgets for the whole world.');
        if (!(await page.getByLabel('Label 1').count())) await page.getByRole('button', { name: 'Add a link' }).click();
        await page.getByLabel('Label 1').fill('Engineering blog');
        await page.getByLabel('Address 1').fill('https://blog.example.com/');

        // A low-contrast colour: refused beside the field with its ratio, nothing saved.
        const accent = page.getByRole('textbox', { name: 'Accent colour', exact: true });
        await accent.fill('#ffff00');
        await page.getByRole('button', { name: 'Save settings' }).click();
        const refusal = page.locator('.field-error', { hasText: 'contrast ratio' });
        await refusal.waitFor();
        expect(await refusal.innerText())
          .to.contain('1.02:1')
          .and.contain('WCAG AA needs at least 4.5:1');
        expect(await accent.getAttribute('aria-invalid')).to.equal('true');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id)).to.match(
          /accent_color/,
        );
        await screenshot(page, `branding-settings-contrast-${w.name}`);
        expect(await axeViolations(page)).to.deep.equal([]);

        await accent.fill('#0f766e');
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByRole('status').filter({ hasText: 'Site settings saved.' }).waitFor();

        // A GIF: refused with the type message.
        const file = page.getByLabel(/Logo file|Replace the logo/);
        await file.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: gif });
        await page.getByRole('button', { name: 'Upload logo' }).click();
        await page.locator('.field-error', { hasText: 'The logo must be a PNG, WebP or SVG image.' }).waitFor();

        // The hostile SVG: taken, cleaned.
        await file.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(HOSTILE_SVG) });
        await page.getByRole('button', { name: 'Upload logo' }).click();
        await page.getByRole('status').filter({ hasText: 'Logo uploaded.' }).waitFor();
        const svgUrl = await page.locator('.logo-preview img').getAttribute('src');
        expect(svgUrl).to.match(/^\/brand\/logo-[0-9a-f]{24}\.svg$/);
        const svg = await (await page.request.get(s.baseUrl + svgUrl)).text();
        for (const bad of ['script', 'onload', 'onmouseover', 'evil.example', '<image']) expect(svg, bad).not.to.contain(bad);
        expect(svg).to.contain('Globex');

        // The real PNG: taken, resized, shown.
        await page.getByLabel('Replace the logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
        await page.getByRole('button', { name: 'Upload logo' }).click();
        await page.locator('.logo-preview img[src$=".png"]').waitFor();
        const preview = page.locator('.logo-preview img');
        expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).to.equal(800);
        await noSidewaysScroll(page, w.width);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `branding-settings-${w.name}`);

        const recruiter = await openHr('recruiter', w);
        const res = await recruiter.goto(`${s.baseUrl}/hr/settings/site`);
        expect(res?.status()).to.equal(403);
      });

      it(`${w.name}: the careers list, a job page, the apply wizard and the embed show the brand, axe-clean`, async () => {
        const page = await openPublic(w);
        await page.goto(`${s.baseUrl}/careers`);
        expect(await page.title()).to.equal('Careers at Globex Industries');
        const logo = page.locator('header .brand-logo');
        expect(await logo.getAttribute('alt')).to.equal('Globex Industries');
        expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).to.equal(true);
        const box = (await logo.boundingBox())!;
        expect(box.height).to.equal(40);
        expect(await page.locator('.hero h1').innerText()).to.match(/^Build the future at Globex/);
        expect(await page.locator('.hero .hero-text').innerText()).to.equal('Small teams, real ownership.');
        expect(await page.locator('.about-us').innerText()).to.contain('Globex makes widgets for the whole world.');
        expect(await page.locator('footer').getByRole('link', { name: 'Engineering blog' }).getAttribute('href')).to.equal(
          'https://blog.example.com/',
        );
        expect(await page.locator('footer').innerText()).to.contain('Globex Industries. All rights reserved.');
        // The accent: the Filter button's background and the hero's gradient.
        expect(await page.locator('.filter-actions .btn-primary').evaluate((b) => getComputedStyle(b).backgroundColor)).to.equal(
          'rgb(15, 118, 110)',
        );
        expect(await page.locator('.hero').evaluate((h) => getComputedStyle(h).backgroundImage)).to.contain('rgb(15, 118, 110)');
        expect(await page.locator('.brand-mark').count()).to.equal(0);
        await noSidewaysScroll(page, w.width);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `branding-careers-${w.name}`);

        await page.getByRole('link', { name: 'Brand Designer' }).first().click();
        await page.waitForURL(/\/careers\/[^/?]+$/);
        expect(await page.title()).to.equal('Brand Designer — Globex Industries Careers');
        expect(await page.locator('header .brand-logo').count()).to.equal(1);
        await noSidewaysScroll(page, w.width);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `branding-job-${w.name}`);

        await page.goto(`${page.url()}/apply`);
        await page.locator('form').first().waitFor();
        expect(await page.locator('header .brand-logo').count()).to.equal(1);
        await noSidewaysScroll(page, w.width);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `branding-apply-${w.name}`);

        // The embedded job list takes the accent too.
        await page.goto(`${s.baseUrl}/embed/jobs`);
        expect(await page.locator('h1').innerText()).to.equal('Open positions at Globex Industries');
        expect(
          await page
            .locator('.embed-job-title')
            .first()
            .evaluate((a) => getComputedStyle(a).color),
        ).to.equal('rgb(15, 118, 110)');
        expect(await axeViolations(page)).to.deep.equal([]);
      });
    }
  });
}

/**
 * The public careers pages in real Chromium: list, filter, reset, detail states, legal, 404, mobile
 * menu; on SQLite (browser tests: test/helpers/db.ts).
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { seedDemoJobs } from '../../src/jobs/seed.service.js';
import {
  axeViolations,
  releaseBrowser,
  sharedBrowser,
  listItemBoxes,
  openPage,
  screenshot,
  type PageWithErrors,
} from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`public site in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    const suffix = kind === 'mysql' ? '-mysql' : '';

    before(async () => {
      s = await startTestServer(kind);
      await seedDemoJobs(s.ctx.db);
      await makeJob(s.ctx.db, { public_id: 'gone-job', title: 'Gone Job', status: 'REMOVED' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    beforeEach(async () => {
      tab = await openPage(browser);
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    it('lists active jobs as cards in a two-column grid', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers`);
      expect(await page.locator('h1').innerText()).to.match(/Join/);
      expect(await page.locator('.hero-text').innerText()).to.equal('See our open positions and apply online.');
      const cards = page.locator('.job-card');
      expect(await cards.count()).to.equal(10);
      const first = cards.filter({ hasText: 'Senior Backend Engineer' });
      const text = await first.innerText();
      for (const part of ['HYBRID', 'Bengaluru, India', 'FULL TIME', '₹30,00,000', '5+ years', 'View details'])
        expect(text).to.include(part.replace('₹30,00,000', '3,000,000'));
      // The demo jobs have departments: a grid under each department's heading.
      expect(await page.locator('h2.job-group-heading').allInnerTexts()).to.deep.equal([
        'Customer Support',
        'Data',
        'Design',
        'Engineering',
        'Marketing',
        'People',
      ]);
      const columns = await page
        .locator('.job-grid')
        .first()
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
      expect(columns).to.equal(2);
      expect(await page.locator('text=Office Coordinator').count(), 'inactive job not listed').to.equal(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-careers-list${suffix}`);
    });

    it('filters through the GET form and resets', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers`);
      await page.selectOption('#f-type', 'INTERNSHIP');
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/job_type=INTERNSHIP/);
      expect(await page.locator('.job-card').count()).to.equal(2);
      await page.fill('#f-title', 'marketing');
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/title=marketing/);
      expect(await page.locator('.job-card').count()).to.equal(1);
      expect(await page.inputValue('#f-title')).to.equal('marketing');
      await page.selectOption('#f-mode', 'REMOTE');
      await page.click('button:has-text("Filter")');
      expect(await page.locator('.empty-state').innerText()).to.equal('No jobs match the current filters');
      await screenshot(page, `public-careers-empty${suffix}`);
      await page.click('text=Reset');
      await page.waitForURL(`${s.baseUrl}/careers`);
      expect(await page.locator('.job-card').count()).to.equal(10);
      expect(await page.inputValue('#f-title')).to.equal('');
      await page.selectOption('#f-location', 'Berlin, Germany');
      await page.click('button:has-text("Filter")');
      expect(await page.locator('.job-card').count()).to.equal(1);
    });

    it('shows an active job with tiles, sections and both apply buttons', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers`);
      await page.click('.job-card:has-text("Data Analyst") >> text=View details');
      await page.waitForURL(/\/careers\/data-analyst-contract$/);
      expect(await page.locator('h1').innerText()).to.equal('Data Analyst');
      expect(await page.locator('a:has-text("Apply Now")').getAttribute('href')).to.equal('/careers/data-analyst-contract/apply');
      const tiles = await page.locator('.info-tiles').innerText();
      for (const label of ['Location', 'Job Type', 'Work Mode', 'Experience', 'Compensation', 'Duration', '6 months', 'CONTRACT', 'REMOTE'])
        expect(tiles).to.include(label);
      const headings = await page.locator('.job-section h2').allInnerTexts();
      expect(headings).to.deep.equal(['Job Description', 'Responsibilities', 'Requirements']);
      expect(await page.locator('a:has-text("Apply for this role")').count()).to.equal(1);
      const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
      expect(jsonLd['@type']).to.equal('JobPosting');
      expect(jsonLd.jobLocationType).to.equal('TELECOMMUTE');
      // 'Austin, TX, United States', CONTRACT: Google's vocabulary.
      expect(jsonLd.employmentType).to.equal('CONTRACTOR');
      expect(jsonLd.applicantLocationRequirements).to.deep.equal({ '@type': 'Country', name: 'United States' });
      expect(await page.locator('meta[property="og:image"]').getAttribute('content')).to.equal(
        `${s.ctx.config.publicBaseUrl}/og/careers-1200x630.png`,
      );
      const image = await page.request.get(`${s.baseUrl}/og/careers-1200x630.png`);
      expect(image.status()).to.equal(200);
      expect(image.headers()['content-type']).to.equal('image/png');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-job-detail${suffix}`);
    });

    it('spaces list items alike whether the editor wrote them (<li><p>) or they were seeded (<li>)', async () => {
      const { page } = tab;
      const editorList =
        '<ul><li><p>Editor one</p></li><li><p>Editor two, long enough to wrap onto a second line on a narrow phone screen</p></li><li><p>Editor three</p></li></ul>';
      const seededList =
        '<ul><li>Seeded one</li><li>Seeded two, long enough to wrap onto a second line on a narrow phone screen</li><li>Seeded three</li></ul>';
      await makeJob(s.ctx.db, {
        public_id: 'lists-1',
        title: 'List Writer',
        description: `<p>Intro</p>${seededList}<p>Middle</p>`,
        requirements: editorList,
        responsibilities: seededList.replace('<ul>', '<ol>').replace('</ul>', '</ol>'),
        perks_benefits: editorList.replace('<ul>', '<ol>').replace('</ul>', '</ol>'),
      });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${s.baseUrl}/careers/lists-1`);
        const [seededUl, editorUl, seededOl, editorOl] = await Promise.all([
          listItemBoxes(page, '.job-section:has(h2:text("Job Description")) .rich-text ul'),
          listItemBoxes(page, '.job-section:has(h2:text("Requirements")) .rich-text ul'),
          listItemBoxes(page, '.job-section:has(h2:text("Responsibilities")) .rich-text ol'),
          listItemBoxes(page, '.job-section:has(h2:text("Perks")) .rich-text ol'),
        ]);
        expect(editorUl, `${width}: bullets`).to.deep.equal(seededUl);
        expect(editorOl, `${width}: numbers`).to.deep.equal(seededOl);
        // No paragraph margins inside the items: they sit one against the next.
        expect(
          seededUl.map((b) => b.gap),
          `${width}`,
        ).to.deep.equal([0, 0, 0]);
        // The paragraph in an editor item adds nothing around its text.
        const pInLi = await page
          .locator('.job-section:has(h2:text("Requirements")) li > p')
          .first()
          .evaluate((p) => [getComputedStyle(p).marginTop, getComputedStyle(p).marginBottom]);
        expect(pInLi).to.deep.equal(['0px', '0px']);
        await screenshot(page, `public-job-lists-${width}${suffix}`);
      }
    });

    it('shows the closed chip for an inactive job and the unavailable page for a removed one', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers/office-coordinator`);
      expect(await page.locator('.chip-closed').innerText()).to.equal('This job post has stopped taking application');
      expect(await page.locator('text=Apply Now').count()).to.equal(0);
      expect(await page.locator('text=Apply for this role').count()).to.equal(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-job-inactive${suffix}`);

      const res = await page.goto(`${s.baseUrl}/careers/gone-job`);
      expect(res!.status()).to.equal(404);
      expect(await page.locator('h1').innerText()).to.equal('Job post unavailable');
      expect(await page.locator('main').innerText()).to.include('This job post has been removed or never existed.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-job-removed${suffix}`);
      await page.click('text=Back to Careers');
      await page.waitForURL(`${s.baseUrl}/careers`);
    });

    it('shows the legal pages and the 404 page', async () => {
      const { page } = tab;
      for (const [path, title] of [
        ['/privacy', 'Privacy Policy'],
        ['/terms', 'Terms of Use'],
      ]) {
        await page.goto(s.baseUrl + path);
        expect(await page.locator('h1').innerText()).to.equal(title);
        const body = await page.locator('main').innerText();
        expect(body).to.include('Effective 1 October 2025').and.include('careers@example.com');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `public-legal${path.replace('/', '-')}${suffix}`);
      }
      const res = await page.goto(`${s.baseUrl}/definitely/not/here`);
      expect(res!.status()).to.equal(404);
      expect(await page.locator('h1').innerText()).to.equal('404 — Page Not Found');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-404${suffix}`);
      await page.click('main a[href="/careers"]');
      await page.waitForURL(`${s.baseUrl}/careers`);
      // Footer links.
      const footer = await page.locator('footer').innerText();
      expect(footer).to.include('Privacy').and.include('Terms').and.include('LinkedIn').and.include(`© ${new Date().getUTCFullYear()}`);
    });

    it('opens and closes the slide-in menu by keyboard at 375 px, with a sticky apply button', async () => {
      await tab.context.close();
      tab = await openPage(browser, { width: 375, height: 740 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers`);
      expect(await page.locator('.nav-desktop').isVisible()).to.equal(false);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no horizontal scroll').to.be.at.most(0);
      await screenshot(page, `public-mobile-list${suffix}`);
      // Keyboard: Tab from the skip link to the brand, then to the menu button.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('SUMMARY');
      await page.keyboard.press('Enter');
      await page.locator('.nav-drawer').waitFor({ state: 'visible' });
      // The details element's toggle event (which sets aria-expanded) comes a moment after it opens.
      await page.locator('summary[aria-expanded="true"]').waitFor();
      expect(await page.locator('.nav-drawer a').allInnerTexts()).to.deep.equal(['Careers', 'About', 'Privacy', 'Terms']);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-mobile-menu-open${suffix}`);
      await page.keyboard.press('Escape');
      await page.locator('.nav-drawer').waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('SUMMARY');
      // Following a menu link by keyboard.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${s.baseUrl}/privacy`);

      await page.goto(`${s.baseUrl}/careers/senior-backend-engineer`);
      expect(await page.locator('.apply-bar').evaluate((el) => getComputedStyle(el).position)).to.equal('sticky');
      const bar = await page.locator('.apply-bar').boundingBox();
      expect(bar!.y + bar!.height).to.be.at.most(740 + 1);
      await screenshot(page, `public-mobile-detail${suffix}`);
    });

    it('works without JavaScript', async () => {
      await tab.context.close();
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${s.baseUrl}/careers`);
      await page.selectOption('#f-mode', 'HYBRID');
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/work_mode=HYBRID/);
      expect(await page.locator('.job-card').count()).to.be.greaterThan(0);
      await page.click('.job-card >> nth=0 >> text=View details');
      expect(await page.locator('h1').innerText()).to.have.length.greaterThan(0);
      tab = { context, page, errors: [] };
    });
  });
}

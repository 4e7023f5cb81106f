/**
 * The apply funnel as applicants and HR meet it (issue 21), in Chromium on SQLite (browser tests: test/helpers/db.ts): a phone applicant goes from the job page through every wizard step to
 * the confirmation, a desktop one gives up on Experience; the job's insights page then shows views,
 * Apply clicks, each step reached and completed, submitted and the drops, per device, at both
 * widths, axe clean. A browser that asks not to be tracked (DNT, GPC) sends no beacon and nothing
 * of its visit is counted.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually } from '../fixtures/apply.js';
import { fillBasic, fid, heading, next, resumeFiles } from '../applicants/apply-helpers.js';
import type { Job } from '../../src/jobs/types.js';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

type Totals = Record<string, number>;

/** The job's stored counts as `step.event.device` -> count, after this process's counter is flushed. */
async function stored(s: TestServer, jobId: number): Promise<Totals> {
  await s.ctx.funnel.flush();
  const rows = await s.ctx.db('job_funnel_counts').where('job_id', jobId).select('step', 'event', 'device', 'count');
  return Object.fromEntries(rows.map((r) => [`${r.step}.${r.event}.${r.device}`, Number(r.count)]));
}

/** The funnel table's lines as [stage, count, drop, drop %]. */
async function funnelLines(page: Page): Promise<string[][]> {
  return page
    .locator('.funnel-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td.num')].map((c) => (c as HTMLElement).innerText.trim())));
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply funnel in Chromium [${kind}]`, function () {
    this.timeout(180_000);
    let s: TestServer;
    let browser: Browser;
    let job: Job;
    let files: ReturnType<typeof resumeFiles>;
    let token: string;
    const tabs: PageWithErrors[] = [];
    const open = async (opts: Parameters<typeof openPage>[1]) => {
      const tab = await openPage(browser, opts);
      tabs.push(tab);
      return tab;
    };
    /** Beacon requests a tab sent. */
    const beaconsOf = (page: Page) => {
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/funnel/')) sent.push(r.postData() ?? '');
      });
      return sent;
    };
    const suffix = kind === 'mysql' ? '-mysql' : '';

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      job = await makeJob(s.ctx, {
        public_id: 'funnel-job',
        title: 'Funnel Designer',
        questions: [{ text: 'Why us?', answer_type: 'short_text', required: false }],
      });
      token = (await hrSession(s.ctx.db)).token;
      files = resumeFiles();
      browser = await sharedBrowser();
    });
    after(async () => {
      for (const t of tabs) expect(t.errors, 'console errors').to.deep.equal([]);
      await releaseBrowser();
      await s?.close();
      files?.cleanup();
    });

    it('counts a phone applicant from the job page through every step to the confirmation', async () => {
      const { page } = await open({ width: 390, height: 844, contextOptions: { userAgent: PHONE_UA, isMobile: true, hasTouch: true } });
      const sent = beaconsOf(page);
      await page.goto(`${s.baseUrl}/careers/funnel-job`);
      await page.getByRole('link', { name: 'Apply Now' }).click();
      await page.locator('.wizard-card').waitFor();
      await fillBasic(page, { first: 'Mina', last: 'Park', email: 'mina@example.com', phone: '9876543210', resume: files.pdf });
      await next(page, 'Experience');
      await next(page, 'Education & Skills');
      await next(page, 'Questions');
      await page.fill(fid(`answers.${job.questions[0].id}`), 'The mission');
      // Back and forth: a step is counted once per page load.
      await page.getByRole('button', { name: 'Back' }).click();
      await page.locator('.wizard-step:not([hidden]) h2', { hasText: 'Education & Skills' }).waitFor();
      await next(page, 'Questions');
      await next(page, 'Review');
      expect(await heading(page)).to.equal('Review');
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${s.baseUrl}/careers/funnel-job/submitted`);
      // One beacon carries every step's events, sent with the application.
      await eventually(() => {
        expect(sent).to.have.length(1);
      }, 5000);
      expect(JSON.parse(sent[0])).to.deep.equal({
        events: [
          { step: 'basic', event: 'reached' },
          { step: 'basic', event: 'completed' },
          { step: 'experience', event: 'reached' },
          { step: 'experience', event: 'completed' },
          { step: 'education_skills', event: 'reached' },
          { step: 'education_skills', event: 'completed' },
          { step: 'questions', event: 'reached' },
          { step: 'questions', event: 'completed' },
          { step: 'review', event: 'reached' },
          { step: 'review', event: 'completed' },
        ],
      });
      await eventually(async () => {
        expect(await stored(s, job.id)).to.deep.equal({
          'view.reached.phone': 1,
          'apply.reached.phone': 1,
          'basic.reached.phone': 1,
          'basic.completed.phone': 1,
          'experience.reached.phone': 1,
          'experience.completed.phone': 1,
          'education_skills.reached.phone': 1,
          'education_skills.completed.phone': 1,
          'questions.reached.phone': 1,
          'questions.completed.phone': 1,
          'review.reached.phone': 1,
          'review.completed.phone': 1,
          'submitted.reached.phone': 1,
        });
      });
    });

    it('counts a desktop visitor who stops on Experience: the page hidden, then the tab closed', async () => {
      const { page } = await open({ width: 1280 });
      const sent = beaconsOf(page);
      await page.goto(`${s.baseUrl}/careers/funnel-job`);
      await page.goto(`${s.baseUrl}/careers/funnel-job`);
      await page.getByRole('link', { name: 'Apply Now' }).click();
      await page.locator('.wizard-card').waitFor();
      await fillBasic(page, { first: 'Omar', last: 'Haddad', email: 'omar@example.com', phone: '9876543211', resume: files.pdf });
      await next(page, 'Experience');
      await new Promise((r) => setTimeout(r, 300));
      expect(sent, 'nothing sent while the page is in view').to.deep.equal([]);
      // Switching to another tab hides the page: what is queued leaves then.
      const hide = (state: 'hidden' | 'visible') =>
        page.evaluate((v) => {
          Object.defineProperty(document, 'visibilityState', { value: v, configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
        }, state);
      await hide('hidden');
      await eventually(() => {
        expect(sent).to.have.length(1);
      });
      expect(JSON.parse(sent[0])).to.deep.equal({
        events: [
          { step: 'basic', event: 'reached' },
          { step: 'basic', event: 'completed' },
          { step: 'experience', event: 'reached' },
        ],
      });
      await hide('visible');
      await next(page, 'Education & Skills');
      // Closing the tab (pagehide) sends the rest.
      await page.close();
      await eventually(async () => {
        expect(await stored(s, job.id)).to.include({
          'view.reached.desktop': 2,
          'apply.reached.desktop': 1,
          'basic.reached.desktop': 1,
          'basic.completed.desktop': 1,
          'experience.reached.desktop': 1,
          'experience.completed.desktop': 1,
          'education_skills.reached.desktop': 1,
        });
      });
      expect(await stored(s, job.id)).not.to.have.property('education_skills.completed.desktop');
    });

    it('counts nothing for a browser that sends Do Not Track or Global Privacy Control', async () => {
      const before = await stored(s, job.id);
      await s.ctx.views.flush();
      const viewsBefore = Number((await s.ctx.db('jobs').where('id', job.id).first('views')).views);
      const dnt = await open({ width: 1280, contextOptions: { extraHTTPHeaders: { DNT: '1' } } });
      // A string: tsx's helpers do not exist in the page.
      await dnt.context.addInitScript({ content: "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });" });
      const gpc = await open({ width: 390, contextOptions: { userAgent: PHONE_UA, extraHTTPHeaders: { 'Sec-GPC': '1' } } });
      await gpc.context.addInitScript({
        content: "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });",
      });
      for (const [{ page }, who] of [
        [dnt, 'dnt'],
        [gpc, 'gpc'],
      ] as const) {
        const sent = beaconsOf(page);
        await page.goto(`${s.baseUrl}/careers/funnel-job`);
        await page.getByRole('link', { name: 'Apply Now' }).click();
        await page.locator('.wizard-card').waitFor();
        await fillBasic(page, { first: 'Private', last: 'Person', email: `${who}@example.com`, phone: '9876543212', resume: files.pdf });
        await next(page, 'Experience');
        await next(page, 'Education & Skills');
        await next(page, 'Questions');
        await next(page, 'Review');
        await page.getByRole('button', { name: 'Submit Application' }).click();
        await page.waitForURL(`${s.baseUrl}/careers/funnel-job/submitted`);
        expect(sent, `${who}: beacons sent`).to.deep.equal([]);
      }
      await new Promise((r) => setTimeout(r, 500));
      await s.ctx.views.flush();
      expect(await stored(s, job.id)).to.deep.equal(before);
      // The applications went in, and jobs.views (the spec's figure) counted the pages.
      expect(
        await s.ctx
          .db('applications')
          .where('job_id', job.id)
          .whereIn('email', ['dnt@example.com', 'gpc@example.com'])
          .count({ n: '*' })
          .first(),
      ).to.satisfy((r: { n: unknown }) => Number(r.n) === 2);
      expect(Number((await s.ctx.db('jobs').where('id', job.id).first('views')).views)).to.equal(viewsBefore + 2);
    });

    for (const width of [1280, 390]) {
      it(`shows the funnel on the job's insights page at ${width} px, by device, axe clean`, async () => {
        const tab = await openHrPage(browser, s.baseUrl, token, { width, height: 900 });
        tabs.push(tab);
        const { page } = tab;
        await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/insights`);
        await page.locator('.funnel-table').waitFor();
        expect(await page.locator('#funnel-heading').innerText()).to.equal('Apply Funnel');
        expect(await page.locator('.funnel-caption').innerText()).to.match(/^All devices, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\)$/);
        expect(await funnelLines(page)).to.deep.equal([
          ['Job page views', '3', '–', '–'],
          ['Apply clicks', '2', '1', '33.3%'],
          ['Basic Info: reached', '2', '0', '0%'],
          ['Basic Info: completed', '2', '0', '0%'],
          ['Experience: reached', '2', '0', '0%'],
          ['Experience: completed', '2', '0', '0%'],
          ['Education & Skills: reached', '2', '0', '0%'],
          ['Education & Skills: completed', '1', '1', '50%'],
          ['Questions: reached', '1', '0', '0%'],
          ['Questions: completed', '1', '0', '0%'],
          ['Review: reached', '1', '0', '0%'],
          ['Review: completed', '1', '0', '0%'],
          ['Submitted', '1', '0', '0%'],
        ]);
        // Only the wizard's applications are in the funnel; the others are counted apart (none here).
        expect(await page.getByTestId('funnel-direct').innerText()).to.equal(
          "Applications without the wizard (the API, other sites' forms), not in the funnel: 0",
        );
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `funnel-insights-${width}${suffix}`);
        // The device switch, by keyboard.
        await page.getByRole('radio', { name: 'All devices' }).focus();
        await page.keyboard.press('ArrowRight');
        expect(await page.getByRole('radio', { name: 'Phone' }).isChecked()).to.equal(true);
        expect(await page.locator('.funnel-caption').innerText()).to.match(/^Phone, /);
        const phone = await funnelLines(page);
        expect(phone[0]).to.deep.equal(['Job page views', '1', '–', '–']);
        expect(phone.at(-1)).to.deep.equal(['Submitted', '1', '0', '0%']);
        await page.getByRole('radio', { name: 'Desktop' }).check();
        const desktop = await funnelLines(page);
        expect(desktop.slice(0, 3)).to.deep.equal([
          ['Job page views', '2', '–', '–'],
          ['Apply clicks', '1', '1', '50%'],
          ['Basic Info: reached', '1', '0', '0%'],
        ]);
        expect(desktop.slice(5, 8)).to.deep.equal([
          ['Experience: completed', '1', '0', '0%'],
          ['Education & Skills: reached', '1', '0', '0%'],
          ['Education & Skills: completed', '0', '1', '100%'],
        ]);
        expect(desktop.at(-1)).to.deep.equal(['Submitted', '0', '0', '–']);
        expect(await axeViolations(page)).to.deep.equal([]);
        // Another period reads the API again.
        await page.getByLabel('Period').selectOption('7');
        await page.locator('.funnel-caption', { hasText: 'Desktop' }).waitFor();
        expect((await funnelLines(page))[0]).to.deep.equal(['Job page views', '2', '–', '–']);
        await screenshot(page, `funnel-insights-desktop-${width}${suffix}`);
      });
    }
  });
}

/**
 * The application wizard's pages and moving through it, in real Chromium on the real app, on SQLite
 * (browser tests: test/helpers/db.ts): removed, closed and loading pages, the place kept while the script
 * loads, focus on every step change, list spacing in questions, keyboard-only completion, 375 px
 * layout with axe on every step. Shared jobs and steps: apply-helpers.ts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, listItemBoxes, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import {
  addEducation,
  addExperience,
  fid,
  fillBasic,
  focusedId,
  heading,
  next,
  resumeFiles,
  scrollsSideways,
  seedWizardJobs,
  shot,
  STATUS_400,
  typeSkill,
  viewportShot,
  wizardSteps,
} from './apply-helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply wizard pages and steps in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let expectedErrors: string[] = [];
    let files: ReturnType<typeof resumeFiles>;
    let qJob: Job;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      qJob = await seedWizardJobs(s.ctx.db);
      files = resumeFiles();
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      files?.cleanup();
    });
    beforeEach(async () => {
      tab = await openPage(browser);
      expectedErrors = [];
    });
    afterEach(async () => {
      expect(
        tab.errors.filter((e) => !expectedErrors.includes(e)),
        'console errors',
      ).to.deep.equal([]);
      await tab.context.close();
    });

    const suffix = kind === 'mysql' ? '-mysql' : '';
    const { open, walkTo } = wizardSteps(() => ({ baseUrl: s.baseUrl, resume: files.pdf }));

    it('says the job is removed, closed, or loading', async () => {
      const { page } = tab;
      for (const id of ['removed-job', 'no-such-job']) {
        const res = await page.goto(`${s.baseUrl}/careers/${id}/apply`);
        expect(res!.status()).to.equal(404);
        expect(await page.locator('h1').innerText()).to.equal('Job post unavailable');
        expect(await page.locator('main').innerText()).to.include('This job post has been removed.');
        expect(await page.getByRole('link', { name: 'Back to Careers' }).getAttribute('href')).to.equal('/careers');
      }
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-removed${suffix}`);

      const closed = await page.goto(`${s.baseUrl}/careers/closed-job/apply`);
      expect(closed!.status()).to.equal(200);
      expect(await page.locator('h1').innerText()).to.equal('Applications Closed');
      expect(await page.locator('main').innerText()).to.include('This job post has stopped taking application.');
      expect(await page.getByRole('link', { name: 'View Job Details' }).getAttribute('href')).to.equal('/careers/closed-job');
      expect(await page.locator('.apply-wizard').count()).to.equal(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-closed${suffix}`);

      const gone = await page.goto(`${s.baseUrl}/careers/no-such-job/submitted`);
      expect(gone!.status()).to.equal(404);
      expect(await page.locator('h1').innerText()).to.equal('Job post unavailable');

      // Until the bundle runs the page says 'Loading...'; with JavaScript off it never will, so
      // only the warning shows (no empty space kept for a wizard that will not come).
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      const p2 = await noJs.newPage();
      await p2.goto(`${s.baseUrl}/careers/fe-questions/apply`);
      expect(await p2.locator('.wizard-loading').textContent()).to.equal('Loading...');
      expect(await p2.locator('.wizard-loading').isVisible()).to.equal(false);
      expect(await p2.locator('main .alert-warning').innerText()).to.equal(
        'The application form needs JavaScript. Please turn it on and reload this page.',
      );
      expect(await p2.locator('#island-apply-wizard-props').count()).to.equal(1);
      const props = JSON.parse((await p2.locator('#island-apply-wizard-props').textContent())!);
      expect(props.job.questions).to.have.length(5);
      expect(props.job).to.not.have.property('webhook_url');
      expect(props.job).to.not.have.property('description');
      await noJs.close();
    });

    it("keeps the wizard's place while its script loads (no layout shift, phone and desktop) and starts focus on the step heading", async () => {
      for (const [width, height] of [
        [390, 844],
        [1280, 900],
      ]) {
        const t = await openPage(browser, { width, height });
        const { page } = t;
        // Layout shifts as the browser scores them (CLS: shifts without recent input, summed).
        await page.addInitScript(() => {
          const w = window as unknown as { cls: number };
          w.cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!e.hadRecentInput) w.cls += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        // A slow network: the wizard's script arrives only after the page has been shown.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        await page.route(/\/assets\/apply-wizard-[^/]+\.js$/, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(`${s.baseUrl}/careers/plain-job/apply`, { waitUntil: 'commit' });
        await page.locator('.wizard-loading').waitFor();
        const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await frames();
        const island = page.locator('#island-apply-wizard');
        const reserved = (await island.boundingBox())!.height;
        await viewportShot(page, `apply-loading-${width}${suffix}`);
        release();
        await page.locator('.wizard-card').waitFor();
        await frames();
        await viewportShot(page, `apply-loaded-${width}${suffix}`);
        const mounted = (await island.boundingBox())!.height;
        const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
        expect(cls, `${width}px: layout shift`).to.be.below(0.02);
        // The space kept is the first step's (apply-wizard.css): update it when that step changes.
        expect(Math.abs(reserved - mounted) / mounted, `${width}px: reserved ${reserved}, mounted ${mounted}`).to.be.below(0.1);
        // Focus is on the first step's heading, shown without a ring and without scrolling.
        expect(await page.evaluate(() => document.activeElement?.id)).to.equal('step-basic-title');
        expect(
          await page.locator('#step-basic-title').evaluate((h) => [h.getAttribute('tabindex'), getComputedStyle(h).outlineStyle]),
        ).to.deep.equal(['-1', 'none']);
        expect(await page.evaluate(() => window.scrollY)).to.equal(0);
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
    });

    it('moves focus to the heading on every step change, forwards and back', async () => {
      const { page } = tab;
      await open(page);
      expect(await focusedId(page)).to.equal('step-basic-title');
      await fillBasic(page, { first: 'Asha', last: 'Rao', email: 'asha.focus@example.com', phone: '9876543210', resume: files.pdf });
      for (const [h, id] of [
        ['Experience', 'step-experience-title'],
        ['Education & Skills', 'step-education_skills-title'],
        ['Questions', 'step-questions-title'],
      ]) {
        await next(page, h);
        expect(await focusedId(page)).to.equal(id);
      }
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await heading(page)).to.equal('Education & Skills');
      expect(await focusedId(page)).to.equal('step-education_skills-title');
    });

    it('spaces list items in question texts alike whether written by the editor (<li><p>) or seeded (<li>)', async () => {
      const { page } = tab;
      const lists = '<ul><li>Seeded one</li><li>Seeded two</li></ul><ul><li><p>Editor one</p></li><li><p>Editor two</p></li></ul>';
      await makeJob(s.ctx.db, {
        public_id: 'list-questions',
        title: 'List Reader',
        questions: [{ text: `<p>Which apply?</p>${lists}`, help_text: lists, answer_type: 'short_text', required: false }],
      });
      await open(page, 'list-questions');
      await walkTo(page, 'Questions');
      for (const where of ['.question-label .rich-text', '.question .help-text']) {
        const seeded = await listItemBoxes(page, `.wizard-step:not([hidden]) ${where} > ul`, 0);
        const editor = await listItemBoxes(page, `.wizard-step:not([hidden]) ${where} > ul`, 1);
        expect(seeded, where).to.have.length(2);
        expect(editor, where).to.deep.equal(seeded);
      }
      await shot(page, `apply-question-lists${suffix}`);
    });

    it('can be completed with the keyboard alone', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers/fe-questions/apply`);
      await page.locator('.wizard-card').waitFor();
      const key = (k: string) => page.keyboard.press(k);
      const active = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el ? `${el.tagName.toLowerCase()}#${el.id}|${el.textContent?.trim().slice(0, 40) ?? ''}` : '';
        });
      /** Tab (or Shift+Tab) until the focused element matches; fails after 80 presses. */
      const tabTo = async (match: RegExp | string, back = false) => {
        for (let i = 0; i < 80; i++) {
          const a = await active();
          if (typeof match === 'string' ? a.startsWith(match) : match.test(a)) return;
          await key(back ? 'Shift+Tab' : 'Tab');
        }
        throw new Error(`never reached ${match} by keyboard; last ${await active()}`);
      };
      const type = (text: string) => page.keyboard.type(text);

      await tabTo('input#f-first_name');
      await type('Kiran');
      await key('Tab');
      await type('Mehta');
      await key('Tab');
      await type('kiran@example.com');
      await key('Tab');
      expect(await active()).to.match(/^select#f-phone_code/);
      await key('Tab');
      await type('9988776655');
      await key('Tab');
      expect(await active()).to.match(/^input#f-resume/);
      // Space on the focused file input opens the chooser. On a loaded machine Chromium has been
      // seen to drop the first press (no chooser within 30 s), so it is pressed again, at most 3 times.
      let chooser = null;
      for (let press = 0; press < 3 && !chooser; press++) {
        const opened = page.waitForEvent('filechooser', { timeout: 10_000 }).catch(() => null);
        await key('Space');
        chooser = await opened;
      }
      expect(chooser, 'the file chooser opened by keyboard').to.not.equal(null);
      await chooser!.setFiles(files.pdf);
      // Enter in a text field goes to the next step, like Next.
      await tabTo('input#f-email', true);
      await key('Enter');
      expect(await heading(page)).to.equal('Experience');
      expect(await active()).to.match(/^h2#step-experience-title/);

      await tabTo(/^button#\|.*Add experience/);
      await key('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'f-professional_experiences-0-company');
      await type('Initech');
      await key('Tab');
      await type('Analyst');
      await key('Tab');
      expect(await active()).to.match(/^select#f-professional_experiences-0-start-month/);
      await key('ArrowDown');
      await key('ArrowDown');
      await key('Tab');
      await type('2020');
      expect(await page.inputValue('#f-professional_experiences-0-start-month')).to.equal('02');
      expect(await page.inputValue('#f-professional_experiences-0-start-year')).to.equal('2020');
      await tabTo(/^button#\|Next/);
      await key('Enter');
      expect(await heading(page)).to.equal('Education & Skills');

      await tabTo('input#f-skills');
      await type('sql');
      await key('ArrowDown');
      await key('Enter');
      await type('Kanban');
      await key('Enter');
      expect(await page.locator('.wizard-step:not([hidden]) .skill-chip > span').allInnerTexts()).to.deep.equal(['SQL', 'Kanban']);
      await tabTo(/^button#\|Next/);
      await key('Enter');
      expect(await heading(page)).to.equal('Questions');

      const [longText, shortText, , single, checkbox] = qJob.questions;
      await tabTo(`textarea#f-answers-${longText.id}`);
      await type('Keyboard only, all the way.');
      await tabTo(`input#f-answers-${shortText.id}`);
      await key('Tab');
      await type('4');
      await key('Tab');
      expect(await active()).to.match(new RegExp(`^input#f-answers-${single.id}-0`));
      await key('ArrowDown');
      expect(await page.isChecked(`#f-answers-${single.id}-1`)).to.equal(true);
      await key('Tab');
      expect(await active()).to.match(new RegExp(`^input#f-answers-${checkbox.id}-0`));
      await key('Space');
      await key('Tab');
      await key('Tab');
      await key('Space');
      await tabTo(/^button#\|Next/);
      await key('Enter');
      expect(await heading(page)).to.equal('Review');
      expect(await page.locator('.review').innerText()).to.include('React, Svelte');

      await tabTo(/^button#\|Submit Application/);
      await key('Enter');
      await page.waitForURL(`${s.baseUrl}/careers/fe-questions/submitted`);
      const app = await s.ctx.db('applications').where({ email: 'kiran@example.com' }).first();
      expect(app).to.include({ first_name: 'Kiran', last_name: 'Mehta', phone: '+919988776655' });
      const answers = await s.ctx.db('application_answers').where({ application_id: app.id });
      expect(answers.map((a) => JSON.parse(a.answer))).to.have.deep.members([
        'Keyboard only, all the way.',
        4,
        'Hybrid',
        ['React', 'Svelte'],
      ]);
    });

    it('fits 375 px on every step and state, with no axe violations', async () => {
      await tab.context.close();
      tab = await openPage(browser, { width: 375, height: 800 });
      const { page } = tab;
      await open(page);
      expect(await scrollsSideways(page)).to.equal(false);
      await shot(page, `apply-mobile-basic${suffix}`);
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await scrollsSideways(page)).to.equal(false);
      await shot(page, `apply-mobile-basic-errors${suffix}`);
      // A renamed executable: the server refuses it at the end, which shows the dialog at 375 px.
      await fillBasic(page, { first: 'Asha', last: 'Rao', email: 'asha.mobile@example.com', phone: '9876543210', resume: files.disguised });
      await page.selectOption(fid('phone_code'), 'AE');
      expect(await scrollsSideways(page)).to.equal(false);
      await next(page, 'Experience');
      await addExperience(page, 0, {
        company: 'Initech',
        role: 'Engineer',
        start: ['2019', '04'],
        end: ['2022', '08'],
        description: 'Line one\nLine two',
      });
      await page.getByRole('button', { name: 'Add another experience' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await scrollsSideways(page)).to.equal(false);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-mobile-experience-errors${suffix}`);
      await page.getByRole('button', { name: 'Remove experience 2' }).click();
      await next(page, 'Education & Skills');
      await addEducation(page, 0, { school: 'Delhi University', degree: 'B.Com', start: ['2012', '07'], end: ['2015', '05'] });
      await typeSkill(page, 'Excel');
      await page.fill('#f-skills', 'se');
      await page.locator('#skills-suggestions').waitFor();
      expect(await scrollsSideways(page)).to.equal(false);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.locator('#skills-suggestions').evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await viewportShot(page, `apply-mobile-skills-suggestions${suffix}`);
      await page.press('#f-skills', 'Escape');
      await page.fill('#f-skills', '');
      await shot(page, `apply-mobile-education${suffix}`);
      await next(page, 'Questions');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await scrollsSideways(page)).to.equal(false);
      await shot(page, `apply-mobile-questions-errors${suffix}`);
      const [longText, , num, single, checkbox] = qJob.questions;
      await page.fill(fid(`answers.${longText.id}`), 'Mobile answer.');
      await page.fill(fid(`answers.${num.id}`), '1');
      await page.check(`${fid(`answers.${single.id}`)} input[value="Remote"]`);
      await page.check(`${fid(`answers.${checkbox.id}`)} input[value="Vue"]`);
      await next(page, 'Review');
      expect(await scrollsSideways(page)).to.equal(false);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-mobile-review${suffix}`);
      expectedErrors = [STATUS_400];
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.getByRole('dialog').waitFor();
      expect(await scrollsSideways(page)).to.equal(false);
      expect(await axeViolations(page)).to.deep.equal([]);
      await viewportShot(page, `apply-mobile-error-modal${suffix}`);
      await page.keyboard.press('Escape');
      await page.goto(`${s.baseUrl}/careers/plain-job/submitted`);
      expect(await scrollsSideways(page)).to.equal(false);
      await shot(page, `apply-mobile-submitted${suffix}`);
    });
  });
}

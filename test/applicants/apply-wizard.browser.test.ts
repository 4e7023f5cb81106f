/**
 * The application wizard's states, messages and accessibility in real Chromium on the real app, on
 * SQLite and (with TEST_MYSQL_URL) MySQL: page states, every validation message of every step,
 * resume checks, submit failures (server rule, rate limit, network, proxy page), keyboard-only
 * completion, the saved draft, 375 px layout and axe on every step.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, listItemBoxes, openPage, type PageWithErrors } from '../helpers/browser.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import {
  addEducation,
  addExperience,
  banner,
  chipTexts,
  chooseDate,
  fid,
  fieldError,
  fillBasic,
  heading,
  makeQuestionJob,
  next,
  resumeFiles,
  scrollsSideways,
  shot,
  typeSkill,
  viewportShot,
} from './apply-helpers.js';

const STATUS_400 = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';

for (const kind of databaseKinds()) {
  describe(`apply wizard in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    let expectedErrors: string[] = [];
    let files: ReturnType<typeof resumeFiles>;
    let qJob: Job;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      qJob = await makeQuestionJob(s.ctx.db, { public_id: 'fe-questions' });
      await makeJob(s.ctx.db, { public_id: 'plain-job', title: 'Office Manager' });
      await makeJob(s.ctx.db, { public_id: 'closed-job', title: 'Closed Role', status: 'INACTIVE' });
      await makeJob(s.ctx.db, { public_id: 'removed-job', title: 'Removed Role', status: 'REMOVED' });
      files = resumeFiles();
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await s?.close();
      files?.cleanup();
    });
    beforeEach(async () => {
      tab = await openPage(browser);
      expectedErrors = [];
    });
    afterEach(async () => {
      expect(tab.errors.filter((e) => !expectedErrors.includes(e)), 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    const suffix = kind === 'mysql' ? '-mysql' : '';

    async function open(page: Page, publicId = 'fe-questions'): Promise<void> {
      await page.goto(`${s.baseUrl}/careers/${publicId}/apply`);
      await page.locator('.wizard-card').waitFor();
    }

    const live = (page: Page) => page.locator('.apply-wizard > [role=status]').innerText();
    const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

    /** Fills Basic Info validly and walks to `step` (by heading). */
    async function walkTo(page: Page, headingText: string): Promise<void> {
      await fillBasic(page, { first: 'Asha', last: 'Rao', email: 'asha@example.com', phone: '9876543210', resume: files.pdf });
      for (const h of ['Experience', 'Education & Skills', 'Questions', 'Review']) {
        if ((await heading(page)) === headingText) return;
        await next(page, h);
      }
    }

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
      expect(await p2.locator('main .alert-warning').innerText()).to.equal('The application form needs JavaScript. Please turn it on and reload this page.');
      expect(await p2.locator('#island-apply-wizard-props').count()).to.equal(1);
      const props = JSON.parse((await p2.locator('#island-apply-wizard-props').textContent())!);
      expect(props.job.questions).to.have.length(5);
      expect(props.job).to.not.have.property('webhook_url');
      expect(props.job).to.not.have.property('description');
      await noJs.close();
    });

    it('keeps the wizard\'s place while its script loads (no layout shift, phone and desktop) and starts focus on the step heading', async () => {
      for (const [width, height] of [[390, 844], [1280, 900]]) {
        const t = await openPage(browser, { width, height });
        const { page } = t;
        // Layout shifts as the browser scores them (CLS: shifts without recent input, summed).
        await page.addInitScript(() => {
          const w = window as unknown as { cls: number };
          w.cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.cls += e.value;
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
        expect(await page.locator('#step-basic-title').evaluate((h) => [h.getAttribute('tabindex'), getComputedStyle(h).outlineStyle])).to.deep.equal(['-1', 'none']);
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
      for (const [h, id] of [['Experience', 'step-experience-title'], ['Education & Skills', 'step-education_skills-title'], ['Questions', 'step-questions-title']]) {
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
        public_id: 'list-questions', title: 'List Reader',
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

    it('shows every Basic Info message, only after a failed Next, with aria wiring and focus', async () => {
      const { page } = tab;
      await open(page);
      await page.fill(fid('email'), 'not-an-email');
      expect(await page.locator('.field-error').count(), 'no errors before a Next').to.equal(0);
      await page.fill(fid('email'), '');

      await page.getByRole('button', { name: 'Next' }).click();
      expect(await banner(page)).to.equal('Please fix the highlighted fields.');
      expect(await live(page)).to.include('Please fix the highlighted fields.');
      expect(await fieldError(page, 'first_name')).to.equal("First name can't be empty");
      expect(await fieldError(page, 'last_name')).to.equal('');
      expect(await fieldError(page, 'email')).to.equal("Email can't be empty");
      expect(await fieldError(page, 'phone')).to.equal("Phone number can't be empty");
      expect(await fieldError(page, 'resume')).to.equal('Please upload your resume (PDF/DOC/DOCX, under 10 MB).');
      expect(await focusedId(page)).to.equal('f-first_name');
      expect(await page.getAttribute(fid('first_name'), 'aria-invalid')).to.equal('true');
      expect(await page.getAttribute(fid('first_name'), 'aria-describedby')).to.equal('f-first_name-error');
      expect(await page.getAttribute(fid('phone'), 'aria-describedby')).to.equal('f-phone-help f-phone-error');
      expect(await page.getAttribute(fid('last_name'), 'aria-invalid')).to.equal(null);
      expect(await heading(page)).to.equal('Basic Info');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-basic-required${suffix}`);

      await page.fill(fid('first_name'), 'R2D2');
      await page.fill(fid('last_name'), 'Smith 3rd');
      await page.fill(fid('email'), 'asha@example');
      await page.fill(fid('phone'), '12345');
      await page.setInputFiles(fid('resume'), files.txt);
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await fieldError(page, 'first_name')).to.equal('Please use only letters, spaces, apostrophes, and hyphens.');
      expect(await fieldError(page, 'last_name')).to.equal('Please use only letters, spaces, apostrophes, and hyphens.');
      expect(await fieldError(page, 'email')).to.equal("Provided email isn't valid.");
      expect(await fieldError(page, 'phone')).to.equal('Provided phone number is not valid (10 digits).');
      expect(await fieldError(page, 'resume')).to.equal('Only PDF, DOC, or DOCX files are allowed');
      await shot(page, `apply-basic-invalid${suffix}`);
      await page.setInputFiles(fid('resume'), files.exe);
      expect(await fieldError(page, 'resume')).to.equal('Only PDF, DOC, or DOCX files are allowed');
      await page.setInputFiles(fid('resume'), files.tooLarge);
      expect(await fieldError(page, 'resume')).to.equal("File uploaded can't be more than 10 MB");
      expect(await page.locator('.resume-field .help-text').innerText()).to.include('huge-resume.pdf (11.0 MB)');
      await shot(page, `apply-basic-too-large${suffix}`);

      // After a failed Next, messages follow the fields as they are fixed.
      await page.fill(fid('first_name'), 'Asha');
      expect(await fieldError(page, 'first_name')).to.equal('');
      await page.fill(fid('last_name'), '');
      await page.fill(fid('email'), 'asha@example.com');
      await page.fill(fid('phone'), '98765 43210 99');
      expect(await page.inputValue(fid('phone'))).to.equal('9876543210');
      await page.setInputFiles(fid('resume'), files.pdf);
      expect(await banner(page)).to.equal('');
      await next(page, 'Experience');
    });

    it('shows the Experience, Education and Questions messages', async () => {
      const { page } = tab;
      await open(page);
      await walkTo(page, 'Experience');
      expect(await page.locator('.entry-empty').first().innerText()).to.include('No experience added');
      await page.getByRole('button', { name: 'Add experience' }).click();
      await page.waitForFunction(() => document.activeElement?.id === 'f-professional_experiences-0-company');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await banner(page)).to.equal('Please complete required fields in experience.');
      for (const f of ['company', 'role', 'start']) expect(await fieldError(page, `professional_experiences.0.${f}`), f).to.equal('Required');
      expect(await fieldError(page, 'professional_experiences.0.end')).to.equal('');
      expect(await fieldError(page, 'professional_experiences.0.salary')).to.equal('');
      expect(await focusedId(page)).to.equal('f-professional_experiences-0-company');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-experience-required${suffix}`);
      await page.fill(fid('professional_experiences.0.company'), 'Initech');
      await page.fill(fid('professional_experiences.0.role'), 'Engineer');
      await chooseDate(page, 'professional_experiences.0.start', '2022', '05');
      await chooseDate(page, 'professional_experiences.0.end', '2021', '01');
      expect(await fieldError(page, 'professional_experiences.0.end')).to.equal('End date cannot be before start date');
      expect(await page.getAttribute(`${fid('professional_experiences.0.end')}-month`, 'aria-invalid')).to.equal('true');
      await shot(page, `apply-experience-end-before-start${suffix}`);
      // Half an end date asks for the other half.
      await page.selectOption(`${fid('professional_experiences.0.end')}-year`, '');
      expect(await fieldError(page, 'professional_experiences.0.end')).to.equal('Required');
      await page.selectOption(`${fid('professional_experiences.0.end')}-month`, '');
      expect(await fieldError(page, 'professional_experiences.0.end')).to.equal('');
      // A second entry, removed again: focus returns to the add button.
      await page.getByRole('button', { name: 'Add another experience' }).click();
      expect(await page.locator('.entry-card').count()).to.equal(2);
      await page.getByRole('button', { name: 'Remove experience 2' }).click();
      expect(await page.locator('.wizard-step:not([hidden]) .entry-card').count()).to.equal(1);
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.include('Add another experience');
      await next(page, 'Education & Skills');

      // Back keeps what was entered and focuses the heading.
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await heading(page)).to.equal('Experience');
      expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('H2');
      expect(await page.inputValue(fid('professional_experiences.0.company'))).to.equal('Initech');
      await next(page, 'Education & Skills');

      await page.getByRole('button', { name: 'Add education' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await banner(page)).to.equal('Please complete required fields in education.');
      for (const f of ['school', 'degree', 'start']) expect(await fieldError(page, `education.0.${f}`), f).to.equal('Required');
      expect(await fieldError(page, 'education.0.field')).to.equal('');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-education-required${suffix}`);
      await page.fill(fid('education.0.school'), 'IIT Bombay');
      await page.fill(fid('education.0.degree'), 'B.Tech');
      await chooseDate(page, 'education.0.start', '2015', '07');
      await chooseDate(page, 'education.0.end', '2015', '06');
      expect(await fieldError(page, 'education.0.end')).to.equal('End date cannot be before start date');
      await chooseDate(page, 'education.0.end', '2019', '05');
      // Skills: blanks and case-insensitive duplicates ignored; chips can be removed.
      await typeSkill(page, 'Go');
      await typeSkill(page, 'GO');
      await typeSkill(page, 'Rust');
      await page.getByRole('button', { name: 'Remove skill Go' }).click();
      expect(await page.locator('.wizard-step:not([hidden]) .skill-chip > span').allInnerTexts()).to.deep.equal(['Rust']);
      expect(await focusedId(page)).to.equal('');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Remove skill Rust');
      // At most 8 suggestions; Escape closes them.
      await page.fill('#f-skills', 'an');
      expect(await page.locator('#skills-suggestions [role=option]').count()).to.equal(8);
      await page.press('#f-skills', 'Escape');
      expect(await page.locator('#skills-suggestions').isVisible()).to.equal(false);
      await page.fill('#f-skills', '');
      await next(page, 'Questions');

      await page.getByRole('button', { name: 'Next' }).click();
      expect(await banner(page)).to.equal('Please answer all required questions.');
      const [longText, shortText, num, single, checkbox] = qJob.questions;
      for (const q of [longText, num, single, checkbox]) expect(await fieldError(page, `answers.${q.id}`), q.answer_type).to.equal('Required');
      expect(await fieldError(page, `answers.${shortText.id}`)).to.equal('');
      expect(await focusedId(page)).to.equal(`f-answers-${longText.id}`);
      expect(await page.getAttribute(fid(`answers.${checkbox.id}`), 'aria-invalid')).to.equal('true');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-questions-required${suffix}`);
      // Ticking then unticking leaves an empty list: still required.
      await page.fill(fid(`answers.${longText.id}`), 'Because.');
      await page.fill(fid(`answers.${num.id}`), '3');
      await page.check(`${fid(`answers.${single.id}`)} input[value="Remote"]`);
      await page.check(`${fid(`answers.${checkbox.id}`)} input[value="Vue"]`);
      await page.uncheck(`${fid(`answers.${checkbox.id}`)} input[value="Vue"]`);
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await fieldError(page, `answers.${checkbox.id}`)).to.equal('Required');
      expect(await focusedId(page)).to.equal(`f-answers-${checkbox.id}-0`);
      await page.keyboard.press('Space');
      await next(page, 'Review');
      expect(await page.locator('.review').innerText()).to.include('React');

      // Edit jumps to a step; its data is still there.
      await page.getByRole('button', { name: 'Edit Basic Info' }).click();
      expect(await heading(page)).to.equal('Basic Info');
      expect(await page.inputValue(fid('email'))).to.equal('asha@example.com');
    });

    it('submit failures: a server-only file rule, the rate limit, a network failure and a proxy error page', async () => {
      const { page } = tab;
      await open(page);
      expectedErrors = [STATUS_400, 'Failed to load resource: the server responded with a status of 502 (Bad Gateway)', 'Failed to load resource: net::ERR_FAILED'];
      await fillBasic(page, { first: 'Asha', last: 'Rao', email: 'asha.files@example.com', phone: '9876543210', resume: files.disguised });
      await next(page, 'Experience');
      await next(page, 'Education & Skills');
      await next(page, 'Questions');
      const [longText, , num, single, checkbox] = qJob.questions;
      await page.fill(fid(`answers.${longText.id}`), 'Why not.');
      await page.fill(fid(`answers.${num.id}`), '2');
      await page.check(`${fid(`answers.${single.id}`)} input[value="Onsite"]`);
      await page.check(`${fid(`answers.${checkbox.id}`)} input[value="Vue"]`);
      await next(page, 'Review');

      // A .pdf that is really an executable: only the server can tell, by its bytes.
      const submit = page.getByRole('button', { name: 'Submit Application' });
      await submit.click();
      const dialog = page.getByRole('dialog', { name: 'Unable to Submit Application' });
      await dialog.waitFor();
      expect(await dialog.locator('.modal-body').innerText()).to.equal('Only PDF, DOC, or DOCX files are allowed');
      await page.keyboard.press('Escape');
      expect(await dialog.count()).to.equal(0);
      expect(await heading(page)).to.equal('Basic Info');
      expect(await fieldError(page, 'resume')).to.equal('Only PDF, DOC, or DOCX files are allowed');
      expect(await focusedId(page)).to.equal('f-resume');
      expect(await banner(page)).to.equal('We could not submit your application. Please review the highlighted fields and try again.');
      await shot(page, `apply-server-resume-type${suffix}`);
      await page.setInputFiles(fid('resume'), files.pdf);
      expect(await fieldError(page, 'resume')).to.equal('');

      const toReview = async () => {
        for (const h of ['Experience', 'Education & Skills', 'Questions', 'Review']) await next(page, h);
      };
      await toReview();

      // The network fails: a message saying so, Submit usable again.
      await page.route('**/api/jobs/*/apply/', (route) => route.abort('failed'));
      await submit.click();
      await dialog.waitFor();
      expect(await dialog.locator('.modal-body').innerText()).to.equal('We could not reach the server. Please check your connection and try again.');
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await heading(page)).to.equal('Review');
      expect(await focusedId(page)).to.equal('');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Submit Application');
      expect(await banner(page)).to.equal('We could not reach the server. Please check your connection and try again.');
      expect(await submit.isEnabled()).to.equal(true);
      await page.unroute('**/api/jobs/*/apply/');

      // A proxy's HTML error page cannot be flattened: 'Failed to submit application.'
      await page.route('**/api/jobs/*/apply/', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }));
      await submit.click();
      await dialog.waitFor();
      expect(await dialog.locator('.modal-body').innerText()).to.equal('Failed to submit application.');
      await page.getByRole('button', { name: 'Close' }).click();
      await page.unroute('**/api/jobs/*/apply/');

      // While the request is pending: disabled, 'Submitting…'. Then the real server accepts it.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/jobs/*/apply/', async (route) => {
        await held;
        await route.continue();
      });
      await submit.click();
      await page.getByRole('button', { name: 'Submitting…' }).waitFor();
      expect(await page.getByRole('button', { name: 'Submitting…' }).isDisabled()).to.equal(true);
      await shot(page, `apply-submitting${suffix}`);
      release();
      await page.waitForURL(`${s.baseUrl}/careers/fe-questions/submitted`);
      expect(await s.ctx.db('applications').where({ email: 'asha.files@example.com' }).count({ n: '*' }).first()).to.satisfy((r: any) => Number(r.n) === 1);
    });

    it('answers 429 from the per-IP rate limit with its message', async () => {
      const limited = await startTestServer(kind, { APPLY_RATE_LIMIT: '1', APPLY_RATE_WINDOW_SECONDS: '600' });
      try {
        await makeJob(limited.ctx.db, { public_id: 'plain-job', title: 'Office Manager' });
        const { page } = tab;
        expectedErrors = ['Failed to load resource: the server responded with a status of 429 (Too Many Requests)'];
        for (const email of ['one@example.com', 'two@example.com']) {
          await page.goto(`${limited.baseUrl}/careers/plain-job/apply`);
          await page.locator('.wizard-card').waitFor();
          await fillBasic(page, { first: 'Asha', last: '', email, phone: '9876543210', resume: files.pdf });
          for (const h of ['Experience', 'Education & Skills', 'Review']) await next(page, h);
          await page.getByRole('button', { name: 'Submit Application' }).click();
          if (email === 'one@example.com') await page.waitForURL(/\/submitted$/);
        }
        const dialog = page.getByRole('dialog', { name: 'Unable to Submit Application' });
        await dialog.waitFor();
        const message = await dialog.locator('.modal-body').innerText();
        expect(message).to.match(/Too many applications/i);
        await page.getByRole('button', { name: 'Close' }).click();
        expect(await banner(page)).to.equal(message);
        expect(await heading(page)).to.equal('Review');
      } finally {
        await limited.close();
      }
    });

    it('can be completed with the keyboard alone', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers/fe-questions/apply`);
      await page.locator('.wizard-card').waitFor();
      const key = (k: string) => page.keyboard.press(k);
      const active = () => page.evaluate(() => {
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
      expect(answers.map((a) => JSON.parse(a.answer))).to.have.deep.members(['Keyboard only, all the way.', 4, 'Hybrid', ['React', 'Svelte']]);
    });

    it('restores the saved draft (not the file) after a reload, and can start over', async () => {
      const { page } = tab;
      await open(page, 'plain-job');
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.locator('.wizard-card').waitFor();
      expect(await page.locator('.draft-notice').count()).to.equal(0);
      await fillBasic(page, { first: 'Meera', last: 'Nair', email: 'meera@example.com', phone: '9000000001', resume: files.pdf });
      await page.selectOption(fid('phone_code'), 'AE');
      await next(page, 'Experience');
      await addExperience(page, 0, { company: 'Hooli', role: 'PM', start: ['2018', '03'] });
      await next(page, 'Education & Skills');
      await typeSkill(page, 'Roadmapping');

      await page.reload();
      await page.locator('.wizard-card').waitFor();
      expect(await page.locator('.draft-notice').innerText()).to.include('please choose your resume again');
      expect(await heading(page)).to.equal('Basic Info');
      expect(await page.inputValue(fid('first_name'))).to.equal('Meera');
      expect(await page.inputValue(fid('email'))).to.equal('meera@example.com');
      expect(await page.inputValue(fid('phone_code'))).to.equal('AE');
      expect(await page.inputValue(fid('phone'))).to.equal('9000000001');
      expect(await page.locator('.resume-field .help-text').innerText()).to.include('choose your resume again');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-draft-restored${suffix}`);
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await fieldError(page, 'resume')).to.equal('Please upload your resume (PDF/DOC/DOCX, under 10 MB).');
      await page.setInputFiles(fid('resume'), files.pdf);
      await next(page, 'Experience');
      expect(await page.inputValue(fid('professional_experiences.0.company'))).to.equal('Hooli');
      expect(await page.inputValue(`${fid('professional_experiences.0.start')}-year`)).to.equal('2018');
      await next(page, 'Education & Skills');
      expect(await page.locator('.wizard-step:not([hidden]) .skill-chip > span').allInnerTexts()).to.deep.equal(['Roadmapping']);

      // A tampered draft is read defensively.
      await page.evaluate(() => localStorage.setItem('careers:apply:plain-job', JSON.stringify({ v: 1, form: { first_name: 42, phone_country: 'XX', experiences: 'nope', skills: [1, 'Ok'] } })));
      await page.reload();
      await page.locator('.wizard-card').waitFor();
      expect(await page.inputValue(fid('first_name'))).to.equal('');
      expect(await page.inputValue(fid('phone_code'))).to.equal('IN');

      await page.getByRole('button', { name: 'Start over' }).click();
      expect(await page.locator('.draft-notice').count()).to.equal(0);
      expect(await page.evaluate(() => localStorage.getItem('careers:apply:plain-job'))).to.equal(null);
    });

    it('the submit failure banner belongs to that attempt: it goes once its field messages are dealt with, or on Next', async () => {
      const { page } = tab;
      await open(page, 'plain-job');
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.locator('.wizard-card').waitFor();
      expectedErrors = [STATUS_400, 'Failed to load resource: net::ERR_FAILED'];
      const FALLBACK = 'We could not submit your application. Please review the highlighted fields and try again.';
      const dialog = page.getByRole('dialog', { name: 'Unable to Submit Application' });
      const submit = page.getByRole('button', { name: 'Submit Application' });
      // The server refuses two Basic Info fields (field keys as the apply API words them).
      await page.route('**/api/jobs/*/apply/', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ email: ['You have already applied for this job with this email.'], phone: ['This phone number is blocked.'] }) }),
      );
      await fillBasic(page, { first: 'Nila', last: '', email: 'nila@example.com', phone: '9876501234', resume: files.pdf });
      const toReviewAndSubmit = async () => {
        for (const h of ['Experience', 'Education & Skills', 'Review']) await next(page, h);
        await submit.click();
        await dialog.waitFor();
      };
      await toReviewAndSubmit();
      // The dialog is as before: title, the server's message, Close.
      expect(await dialog.locator('.modal-body').innerText()).to.include('You have already applied for this job with this email.');
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await dialog.count()).to.equal(0);
      expect(await heading(page)).to.equal('Basic Info');
      expect(await banner(page)).to.equal(FALLBACK);
      expect(await fieldError(page, 'email')).to.equal('You have already applied for this job with this email.');
      expect(await fieldError(page, 'phone')).to.equal('This phone number is blocked.');
      // One of its two fields edited: the banner still has something to point at.
      await page.fill(fid('email'), 'nila.k@example.com');
      expect(await fieldError(page, 'email')).to.equal('');
      expect(await banner(page)).to.equal(FALLBACK);
      await shot(page, `apply-banner-one-field-left${suffix}`);
      // Both edited: the banner is gone, and stays gone on the following steps.
      await page.fill(fid('phone'), '9876501235');
      expect(await fieldError(page, 'phone')).to.equal('');
      expect(await banner(page)).to.equal('');
      await shot(page, `apply-banner-cleared-by-fix${suffix}`);
      await next(page, 'Experience');
      expect(await banner(page)).to.equal('');
      await next(page, 'Education & Skills');
      expect(await banner(page)).to.equal('');

      // A second failed attempt shows the banner again; moving on with Next (fields untouched) ends it.
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await heading(page)).to.equal('Basic Info');
      await toReviewAndSubmit();
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await heading(page)).to.equal('Basic Info');
      expect(await banner(page)).to.equal(FALLBACK);
      await next(page, 'Experience');
      expect(await banner(page)).to.equal('');
      await shot(page, `apply-banner-cleared-by-next${suffix}`);
      // The field messages themselves stay until their fields are edited; the banner does not come back.
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await heading(page)).to.equal('Basic Info');
      expect(await fieldError(page, 'email')).to.equal('You have already applied for this job with this email.');
      expect(await banner(page)).to.equal('');

      // A failure with no field to fix (the network): its message stays on Review until the applicant moves on with Next.
      await page.unroute('**/api/jobs/*/apply/');
      await page.route('**/api/jobs/*/apply/', (route) => route.abort('failed'));
      await toReviewAndSubmit();
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await heading(page)).to.equal('Review');
      expect(await banner(page)).to.equal('We could not reach the server. Please check your connection and try again.');
      await page.getByRole('button', { name: 'Back' }).click();
      await next(page, 'Review');
      expect(await banner(page)).to.equal('');
      await page.unroute('**/api/jobs/*/apply/');

      // A failed Next still shows its own step message.
      await page.getByRole('button', { name: 'Edit Basic Info' }).click();
      await page.fill(fid('first_name'), '');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await banner(page)).to.equal('Please fix the highlighted fields.');
    });

    it('adds a skill typed but not added when the applicant moves on with Next', async () => {
      const { page } = tab;
      await open(page, 'plain-job');
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.locator('.wizard-card').waitFor();
      await fillBasic(page, { first: 'Tara', last: 'Iyer', email: 'tara.skills@example.com', phone: '9876512345', resume: files.pdf });
      await next(page, 'Experience');
      await next(page, 'Education & Skills');
      const reviewSkills = () => page.locator('.review ul[aria-label="Skills"] li').allInnerTexts();
      await typeSkill(page, 'Go');
      // Typed, no Enter, no Add: Next adds it, and Review shows it.
      await page.fill('#f-skills', '  Terraform ');
      await next(page, 'Review');
      expect(await reviewSkills()).to.deep.equal(['Go', 'Terraform']);
      await shot(page, `apply-pending-skill-review${suffix}`);
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await heading(page)).to.equal('Education & Skills');
      expect(await chipTexts(page)).to.deep.equal(['Go', 'Terraform']);
      expect(await page.inputValue('#f-skills')).to.equal('');
      // Same rules as Enter: a case-insensitive duplicate and a blank are ignored.
      await page.fill('#f-skills', 'terraform');
      await next(page, 'Review');
      expect(await reviewSkills()).to.deep.equal(['Go', 'Terraform']);
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await page.inputValue('#f-skills')).to.equal('');
      await page.fill('#f-skills', '   ');
      await next(page, 'Review');
      expect(await reviewSkills()).to.deep.equal(['Go', 'Terraform']);
      // A Next that fails (an unfinished education entry) leaves the text where it is, still to be added.
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'Add education' }).click();
      await page.fill('#f-skills', 'Kotlin');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await heading(page)).to.equal('Education & Skills');
      expect(await banner(page)).to.equal('Please complete required fields in education.');
      expect(await page.inputValue('#f-skills')).to.equal('Kotlin');
      expect(await chipTexts(page)).to.deep.equal(['Go', 'Terraform']);
      await page.getByRole('button', { name: 'Remove education 1' }).click();
      await next(page, 'Review');
      expect(await reviewSkills()).to.deep.equal(['Go', 'Terraform', 'Kotlin']);
      // The saved draft has it too.
      const draft = await page.evaluate(() => JSON.parse(localStorage.getItem('careers:apply:plain-job') ?? 'null'));
      expect(draft?.form?.skills).to.deep.equal(['Go', 'Terraform', 'Kotlin']);

      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${s.baseUrl}/careers/plain-job/submitted`);
      const app = await s.ctx.db('applications').where({ email: 'tara.skills@example.com' }).first();
      const skills = await s.ctx.db('application_skills').where({ application_id: app.id }).orderBy('position');
      expect(skills.map((r) => r.name)).to.deep.equal(['Go', 'Terraform', 'Kotlin']);
    });

    it('says "Enter a number." when the browser cannot read a number answer, and blocks Next', async () => {
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'numbers-job',
        title: 'Data Analyst',
        questions: [
          { text: 'Notice period in weeks', help_text: '', placeholder: 'e.g. 4', required: false, answer_type: 'number' },
          { text: 'Years of SQL', help_text: '', placeholder: 'e.g. 3', required: true, answer_type: 'number' },
        ],
      });
      const [optional, required] = job.questions;
      const optionalKey = `answers.${optional.id}`;
      const requiredKey = `answers.${required.id}`;
      await open(page, 'numbers-job');
      await fillBasic(page, { first: 'Omar', last: 'Khan', email: 'omar.numbers@example.com', phone: '9876523456', resume: files.pdf });
      for (const h of ['Experience', 'Education & Skills', 'Questions']) await next(page, h);

      // '-' alone is no number: the input's value is '', but this is not an unanswered question.
      await page.locator(fid(optionalKey)).pressSequentially('-');
      expect(await page.inputValue(fid(optionalKey))).to.equal('');
      expect(await page.locator(fid(optionalKey)).evaluate((el: HTMLInputElement) => el.validity.badInput)).to.equal(true);
      await page.fill(fid(requiredKey), '3');
      expect(await fieldError(page, optionalKey), 'no message before a Next').to.equal('');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await heading(page)).to.equal('Questions');
      expect(await banner(page)).to.equal('Please answer all required questions.');
      expect(await fieldError(page, optionalKey)).to.equal('Enter a number.');
      expect(await page.getAttribute(fid(optionalKey), 'aria-invalid')).to.equal('true');
      expect(await page.getAttribute(fid(optionalKey), 'aria-describedby')).to.include(`f-answers-${optional.id}-error`);
      expect(await focusedId(page)).to.equal(`f-answers-${optional.id}`);
      expect(await fieldError(page, requiredKey)).to.equal('');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-number-bad-input${suffix}`);

      // A required one: 'Enter a number.', not 'Required'; '5e' counts too (its value is '' as well).
      await page.fill(fid(requiredKey), '');
      expect(await fieldError(page, requiredKey)).to.equal('Required');
      await page.locator(fid(requiredKey)).pressSequentially('e');
      expect(await fieldError(page, requiredKey)).to.equal('Enter a number.');
      await page.locator(fid(requiredKey)).press('Backspace');
      expect(await fieldError(page, requiredKey)).to.equal('Required');
      await page.locator(fid(requiredKey)).pressSequentially('5e');
      expect(await page.inputValue(fid(requiredKey))).to.equal('');
      expect(await fieldError(page, requiredKey)).to.equal('Enter a number.');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await heading(page)).to.equal('Questions');
      await shot(page, `apply-number-bad-input-required${suffix}`);

      // Fixed: the optional one emptied, the required one a number; Next goes on and only that is sent.
      await page.locator(fid(optionalKey)).press('Backspace');
      expect(await fieldError(page, optionalKey)).to.equal('');
      await page.locator(fid(requiredKey)).press('Backspace');
      await page.locator(fid(requiredKey)).pressSequentially('0');
      expect(await page.inputValue(fid(requiredKey))).to.equal('50');
      expect(await fieldError(page, requiredKey)).to.equal('');
      expect(await banner(page)).to.equal('');
      await next(page, 'Review');
      const answers = await page.locator('.review-answers dd').allInnerTexts();
      expect(answers).to.deep.equal(['Not answered', '50']);
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${s.baseUrl}/careers/numbers-job/submitted`);
      const app = await s.ctx.db('applications').where({ email: 'omar.numbers@example.com' }).first();
      const rows = await s.ctx.db('application_answers').where({ application_id: app.id });
      expect(rows.map((a) => [a.question_id, JSON.parse(a.answer)])).to.deep.equal([[required.id, 50]]);
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
      await addExperience(page, 0, { company: 'Initech', role: 'Engineer', start: ['2019', '04'], end: ['2022', '08'], description: 'Line one\nLine two' });
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

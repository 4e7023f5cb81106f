/**
 * Submitting the application wizard, and its saved draft, in real Chromium on the real app, on SQLite
 * (browser tests: test/helpers/db.ts): submit failures (server rule, network, proxy page), the per-IP rate
 * limit, the failure banner of an attempt, the draft restored after a reload.
 * Shared jobs and steps: apply-helpers.ts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import {
  addExperience,
  banner,
  fid,
  fieldError,
  fillBasic,
  focusedId,
  heading,
  next,
  resumeFiles,
  seedWizardJobs,
  shot,
  STATUS_400,
  typeSkill,
  wizardSteps,
} from './apply-helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply wizard submit and draft in Chromium [${kind}]`, function () {
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
    const { open } = wizardSteps(() => ({ baseUrl: s.baseUrl, resume: files.pdf }));

    it('submit failures: a server-only file rule, the rate limit, a network failure and a proxy error page', async () => {
      const { page } = tab;
      await open(page);
      expectedErrors = [
        STATUS_400,
        'Failed to load resource: the server responded with a status of 502 (Bad Gateway)',
        'Failed to load resource: net::ERR_FAILED',
      ];
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
      expect(await dialog.locator('.modal-body').innerText()).to.equal(
        'We could not reach the server. Please check your connection and try again.',
      );
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await heading(page)).to.equal('Review');
      expect(await focusedId(page)).to.equal('');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Submit Application');
      expect(await banner(page)).to.equal('We could not reach the server. Please check your connection and try again.');
      expect(await submit.isEnabled()).to.equal(true);
      await page.unroute('**/api/jobs/*/apply/');

      // A proxy's HTML error page cannot be flattened: 'Failed to submit application.'
      await page.route('**/api/jobs/*/apply/', (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
      );
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
      expect(await s.ctx.db('applications').where({ email: 'asha.files@example.com' }).count({ n: '*' }).first()).to.satisfy(
        (r: any) => Number(r.n) === 1,
      );
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
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            email: ['You have already applied for this job with this email.'],
            phone: ['This phone number is blocked.'],
          }),
        }),
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
      await page.evaluate(() =>
        localStorage.setItem(
          'careers:apply:plain-job',
          JSON.stringify({ v: 1, form: { first_name: 42, phone_country: 'XX', experiences: 'nope', skills: [1, 'Ok'] } }),
        ),
      );
      await page.reload();
      await page.locator('.wizard-card').waitFor();
      expect(await page.inputValue(fid('first_name'))).to.equal('');
      expect(await page.inputValue(fid('phone_code'))).to.equal('IN');

      await page.getByRole('button', { name: 'Start over' }).click();
      expect(await page.locator('.draft-notice').count()).to.equal(0);
      expect(await page.evaluate(() => localStorage.getItem('careers:apply:plain-job'))).to.equal(null);
    });
  });
}

/**
 * The application wizard's validation in real Chromium on the real app, on SQLite (browser tests: test/helpers/db.ts): every message of every step with its aria wiring and focus, a skill typed
 * but not added, number answers the browser cannot read. Shared jobs and steps: apply-helpers.ts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import {
  banner,
  chipTexts,
  chooseDate,
  fid,
  fieldError,
  fillBasic,
  focusedId,
  heading,
  live,
  next,
  resumeFiles,
  seedWizardJobs,
  shot,
  typeSkill,
  wizardSteps,
} from './apply-helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply wizard validation in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
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
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    const suffix = kind === 'mysql' ? '-mysql' : '';
    const { open, walkTo } = wizardSteps(() => ({ baseUrl: s.baseUrl, resume: files.pdf }));

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
      for (const f of ['company', 'role', 'start'])
        expect(await fieldError(page, `professional_experiences.0.${f}`), f).to.equal('Required');
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
      // The keyboard moves to the next chip's remove button one frame after the removal.
      await page.getByRole('button', { name: 'Remove skill Rust' }).and(page.locator(':focus')).waitFor();
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
      for (const q of [longText, num, single, checkbox])
        expect(await fieldError(page, `answers.${q.id}`), q.answer_type).to.equal('Required');
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
  });
}

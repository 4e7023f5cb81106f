/**
 * The apply flow end to end in real Chromium on the real app, on SQLite (browser tests:
 * test/helpers/db.ts): a job with all five answer types, a job without questions (4 steps), the server-error
 * dialog, and the confirmation page. Rows are checked in the database afterwards.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import {
  addEducation,
  addExperience,
  banner,
  chipTexts,
  fid,
  fieldError,
  fillBasic,
  heading,
  makeQuestionJob,
  next,
  resumeFiles,
  shot,
  typeSkill,
  viewportShot,
} from './apply-helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply flow in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tab: PageWithErrors;
    /** Console lines a test expects: Chromium logs every non-2xx fetch, e.g. the refused repeat. */
    let expectedErrors: string[] = [];
    let files: ReturnType<typeof resumeFiles>;
    let qJob: Job;
    let plainJob: Job;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      qJob = await makeQuestionJob(s.ctx.db, { public_id: 'fe-questions' });
      plainJob = await makeJob(s.ctx.db, { public_id: 'plain-job', title: 'Office Manager' });
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

    it('applies to a job with all five answer types through every step', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers/fe-questions/apply`);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).to.equal('noindex');
      await page.locator('.wizard-card').waitFor();
      expect(await page.locator('.progress-label').allInnerTexts()).to.deep.equal([
        'Basic Info',
        'Experience',
        'Education & Skills',
        'Questions',
        'Review',
      ]);
      expect(await page.locator('.progress-step[aria-current="step"] .progress-label').innerText()).to.equal('Basic Info');
      expect(await page.locator(fid('phone_code')).inputValue()).to.equal('IN');
      expect(await page.locator(`${fid('phone_code')} option:checked`).innerText()).to.equal('India (+91)');
      expect(await page.locator(`label[for="f-resume"]`).innerText()).to.include('Resume (PDF/DOC/DOCX, under 10 MB)');
      expect(await page.locator('a:has-text("Cancel")').getAttribute('href')).to.equal('/careers/fe-questions');

      await fillBasic(page, {
        first: 'Asha <b>',
        last: "D'Souza-Rao",
        email: '  asha.rao@example.com ',
        phone: '98765-43210',
        resume: files.pdf,
      });
      // Input shaping as typed: angle brackets stripped, email trimmed, phone digits only.
      expect(await page.inputValue(fid('first_name'))).to.equal('Asha b');
      await page.fill(fid('first_name'), 'Asha');
      expect(await page.inputValue(fid('email'))).to.equal('asha.rao@example.com');
      expect(await page.inputValue(fid('phone'))).to.equal('9876543210');
      expect(await page.locator('.resume-field .help-text').innerText()).to.include('asha-resume.pdf');
      expect(await axeViolations(page)).to.deep.equal([]);
      await next(page, 'Experience');
      expect(await page.locator('.progress-step[aria-current="step"] .progress-label').innerText()).to.equal('Experience');

      await addExperience(page, 0, {
        company: 'Initech',
        role: 'Frontend Developer',
        start: ['2019', '04'],
        end: ['2022', '08'],
        notice: '30 days',
        salary: '20 LPA',
        description: 'Built the design system.',
      });
      await addExperience(page, 1, { company: 'Globex', role: 'Senior Engineer', start: ['2022', '09'] });
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-step-experience${suffix}`);
      await next(page, 'Education & Skills');

      await addEducation(page, 0, {
        school: 'IIT Bombay',
        degree: 'B.Tech',
        field: 'Computer Science',
        start: ['2015', '07'],
        end: ['2019', '05'],
      });
      // Suggestions after two characters; arrow keys + Enter pick one; the mouse picks another.
      await page.fill('#f-skills', 't');
      expect(await page.locator('#skills-suggestions').isVisible()).to.equal(false);
      await page.fill('#f-skills', 'ty');
      await page.locator('#skills-suggestions').waitFor();
      expect(await page.locator('#f-skills').getAttribute('aria-expanded')).to.equal('true');
      await page.press('#f-skills', 'ArrowDown');
      expect(await page.locator('#f-skills').getAttribute('aria-activedescendant')).to.equal('skill-option-0');
      expect(await page.locator('#skill-option-0').getAttribute('aria-selected')).to.equal('true');
      const first = await page.locator('#skill-option-0').innerText();
      await page.press('#f-skills', 'Enter');
      await page.fill('#f-skills', 'reac');
      await page.locator('#skills-suggestions li', { hasText: 'React Native' }).click();
      await typeSkill(page, 'Storybook');
      await typeSkill(page, 'storybook ');
      await typeSkill(page, '   ');
      expect(await chipTexts(page)).to.deep.equal([first, 'React Native', 'Storybook']);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-step-education${suffix}`);
      await next(page, 'Questions');

      // One input per answer type, rich text rendered, placeholders shown.
      const q = qJob.questions;
      expect(await page.locator('.question-label strong').innerText()).to.equal('this');
      expect(await page.locator(`${fid(`answers.${q[0].id}`)}-help a`).getAttribute('href')).to.equal('https://example.com/values');
      expect(await page.locator(`textarea${fid(`answers.${q[0].id}`)}`).getAttribute('placeholder')).to.equal('Your motivation');
      expect(await page.locator(`input${fid(`answers.${q[1].id}`)}`).getAttribute('placeholder')).to.equal('@you');
      expect(await page.locator(`input${fid(`answers.${q[2].id}`)}`).getAttribute('type')).to.equal('number');
      expect(await page.locator(`${fid(`answers.${q[3].id}`)} input[type=radio]`).count()).to.equal(3);
      expect(await page.locator(`${fid(`answers.${q[4].id}`)} input[type=checkbox]`).count()).to.equal(3);
      expect(await page.locator(`${fid(`answers.${q[4].id}`)} input[type=checkbox][required]`).count()).to.equal(0);
      expect(await page.locator(`${fid(`answers.${q[4].id}`)} .choice-hint`).innerText()).to.equal('Tick all that apply');
      await page.fill(fid(`answers.${q[0].id}`), 'I love building accessible interfaces.');
      await page.fill(fid(`answers.${q[1].id}`), '@asha');
      await page.fill(fid(`answers.${q[2].id}`), '6.5');
      await page.check(`${fid(`answers.${q[3].id}`)} input[value="Hybrid"]`);
      await page.check(`${fid(`answers.${q[4].id}`)} input[value="Svelte"]`);
      await page.check(`${fid(`answers.${q[4].id}`)} input[value="React"]`);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-step-questions${suffix}`);
      await next(page, 'Review');

      const review = await page.locator('.review').innerText();
      for (const part of [
        'Asha',
        "D'Souza-Rao",
        'asha.rao@example.com',
        '+919876543210',
        'asha-resume.pdf',
        'Frontend Developer at Initech',
        'April 2019 – August 2022',
        '30 days',
        '20 LPA',
        'Built the design system.',
        'Senior Engineer at Globex',
        'September 2022 – Present',
        'B.Tech, Computer Science — IIT Bombay',
        'July 2015 – May 2019',
        'React Native',
        'Storybook',
        'I love building accessible interfaces.',
        '@asha',
        '6.5',
        'Hybrid',
        'React, Svelte',
      ]) {
        expect(review, part).to.include(part);
      }
      expect(await page.locator('button:has-text("Next")').count()).to.equal(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-step-review${suffix}`);

      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(`${s.baseUrl}/careers/fe-questions/submitted`);
      expect(await page.locator('h1').innerText()).to.equal('Application Submitted');
      expect(await page.evaluate(() => localStorage.getItem('careers:apply:fe-questions'))).to.equal(null);
      // Back from the confirmation: a fresh wizard, not the sent one stuck on 'Submitting…'.
      await page.goBack();
      await page.locator('.wizard-card').waitFor();
      expect(await heading(page)).to.equal('Basic Info');
      expect(await page.inputValue(fid('first_name'))).to.equal('');
      expect(await page.locator('.draft-notice').count()).to.equal(0);
      expect(await page.getByRole('button', { name: 'Submitting…' }).count()).to.equal(0);

      const db = s.ctx.db;
      const app = await db('applications').where({ job_id: qJob.id }).first();
      expect(app).to.include({
        first_name: 'Asha',
        last_name: "D'Souza-Rao",
        email: 'asha.rao@example.com',
        phone: '+919876543210',
        status: 'NEW',
      });
      const file = await db('stored_files').where({ id: app.resume_file_id }).first();
      expect(file.original_name).to.equal('asha-resume.pdf');
      expect(Number(file.size)).to.equal(20_000);
      const exps = await db('application_experiences').where({ application_id: app.id }).orderBy('position');
      expect(exps.map((e) => [e.company, e.role, e.start, e.end || ''])).to.deep.equal([
        ['Initech', 'Frontend Developer', '2019-04', '2022-08'],
        ['Globex', 'Senior Engineer', '2022-09', ''],
      ]);
      expect(exps[0]).to.include({ notice_period: '30 days', salary: '20 LPA', description: 'Built the design system.' });
      const edu = await db('application_education').where({ application_id: app.id });
      expect(edu.map((e) => [e.school, e.degree, e.field, e.start, e.end])).to.deep.equal([
        ['IIT Bombay', 'B.Tech', 'Computer Science', '2015-07', '2019-05'],
      ]);
      const skills = await db('application_skills').where({ application_id: app.id }).orderBy('position');
      expect(skills.map((r) => r.name)).to.deep.equal([first, 'React Native', 'Storybook']);
      const answers = await db('application_answers').where({ application_id: app.id });
      const byQ = new Map(answers.map((a) => [a.question_id, JSON.parse(a.answer)]));
      expect(byQ.get(q[0].id)).to.equal('I love building accessible interfaces.');
      expect(byQ.get(q[1].id)).to.equal('@asha');
      expect(byQ.get(q[2].id)).to.equal(6.5);
      expect(byQ.get(q[3].id)).to.equal('Hybrid');
      expect(byQ.get(q[4].id)).to.deep.equal(['React', 'Svelte']);
      const choices = await db('application_answer_choices').where({ question_id: q[4].id }).orderBy('choice');
      expect(choices.map((c) => c.choice)).to.deep.equal(['React', 'Svelte']);
    });

    it('applies to a job without questions in four steps, then refuses a repeat with the server-error dialog', async () => {
      const { page } = tab;
      const applyOnce = async () => {
        await page.goto(`${s.baseUrl}/careers/plain-job/apply`);
        await page.locator('.wizard-card').waitFor();
        await page.evaluate(() => localStorage.clear());
        await page.reload();
        await page.locator('.wizard-card').waitFor();
        expect(await page.locator('.progress-label').allInnerTexts()).to.deep.equal([
          'Basic Info',
          'Experience',
          'Education & Skills',
          'Review',
        ]);
        expect(await page.locator('.step-count').first().innerText()).to.match(/Step 1 of 4/i);
        await fillBasic(page, { first: 'Ravi', last: '', email: 'ravi@example.com', phone: '9123456780', resume: files.pdf });
        await page.selectOption(fid('phone_code'), 'GB');
        await next(page, 'Experience');
        await next(page, 'Education & Skills');
        await next(page, 'Review');
        expect(await page.locator('.review').innerText()).to.include('+449123456780');
        expect(await page.locator('.review').innerText()).to.include('No experience added.');
        await page.getByRole('button', { name: 'Submit Application' }).click();
      };

      await applyOnce();
      await page.waitForURL(`${s.baseUrl}/careers/plain-job/submitted`);
      // Arriving from the wizard, focus starts on the confirmation's heading.
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Application Submitted');
      const row = await s.ctx.db('applications').where({ job_id: plainJob.id, email: 'ravi@example.com' }).first();
      expect(row).to.include({ first_name: 'Ravi', last_name: '', phone: '+449123456780' });
      expect(await s.ctx.db('application_answers').where({ application_id: row.id }).count({ n: '*' }).first()).to.satisfy(
        (r: any) => Number(r.n) === 0,
      );

      // The same email again: the server refuses it; its message lands in the dialog and next to the field.
      expectedErrors = ['Failed to load resource: the server responded with a status of 400 (Bad Request)'];
      await applyOnce();
      const dialog = page.getByRole('dialog', { name: 'Unable to Submit Application' });
      await dialog.waitFor();
      expect(await dialog.innerText()).to.include('You have already applied for this job with this email.');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Close');
      // Tab stays inside the dialog.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[role=dialog]') !== null)).to.equal(true);
      expect(await axeViolations(page)).to.deep.equal([]);
      await viewportShot(page, `apply-server-error-modal${suffix}`);
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await dialog.count()).to.equal(0);
      // Back on Basic Info with the message next to the email field, focus on it, and the banner.
      expect(await heading(page)).to.equal('Basic Info');
      expect(await fieldError(page, 'email')).to.equal('You have already applied for this job with this email.');
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('f-email');
      expect(await banner(page)).to.equal('We could not submit your application. Please review the highlighted fields and try again.');
      expect(await page.getByRole('button', { name: 'Submit Application' }).count()).to.equal(0);
      await shot(page, `apply-server-error-banner${suffix}`);
      const count = await s.ctx.db('applications').where({ job_id: plainJob.id }).count({ n: '*' }).first();
      expect(Number((count as any).n)).to.equal(1);
      // Editing the field clears the server's message, and with it the failed attempt's banner.
      await page.fill(fid('email'), 'ravi.k@example.com');
      expect(await fieldError(page, 'email')).to.equal('');
      expect(await banner(page)).to.equal('');
      await shot(page, `apply-server-error-fixed${suffix}`);
    });

    it('shows the confirmation page with its texts and links (no JavaScript needed)', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/careers/plain-job/submitted`);
      expect(await page.locator('h1').innerText()).to.equal('Application Submitted');
      // Focus starts on the heading (through the site script: the page has no inline script), with
      // no focus ring and no scrolling; the next Tab goes on to the links.
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      expect(await page.locator('h1').evaluate((h) => [h.getAttribute('tabindex'), getComputedStyle(h).outlineStyle])).to.deep.equal([
        '-1',
        'none',
      ]);
      expect(await page.locator('script:not([src]):not([type="application/json"]):not([type="application/ld+json"])').count()).to.equal(0);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Browse More Jobs');
      // Without JavaScript the page is the same, focus left to the browser.
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      const plain = await noJs.newPage();
      await plain.goto(`${s.baseUrl}/careers/plain-job/submitted`);
      expect(await plain.locator('h1').innerText()).to.equal('Application Submitted');
      await noJs.close();
      const text = await page.locator('main').innerText();
      expect(text).to.include('Office Manager');
      expect(text).to.match(/review your application/);
      expect(text).to.match(/keep checking your email/);
      expect(await page.getByRole('link', { name: 'Browse More Jobs' }).getAttribute('href')).to.equal('/careers');
      expect(await page.getByRole('link', { name: 'View Job Details' }).getAttribute('href')).to.equal('/careers/plain-job');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).to.equal('noindex');
      expect(await page.locator('script[src*="apply-wizard"]').count()).to.equal(0);
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `apply-submitted${suffix}`);
      await page.getByRole('link', { name: 'View Job Details' }).click();
      await page.waitForURL(`${s.baseUrl}/careers/plain-job`);
      await page.goBack();
      await page.getByRole('link', { name: 'Browse More Jobs' }).click();
      await page.waitForURL(`${s.baseUrl}/careers`);
    });
  });
}

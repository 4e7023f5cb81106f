/**
 * HR dashboard and job management in real Chromium: dashboard, Manage Jobs, All Job Posts, the job
 * editor creating a job (TipTap rich text, questions of every type, webhook) and editing one, list
 * spacing in the editor, the rich-text fields' stand-ins while TipTap loads, Remove with its
 * confirmation and the public list afterwards, 390 px.
 * Screenshots in test/artifacts/hr-jobs-*. Saving's failures and prompts: hr-jobs-saving.browser.test.ts.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, listItemBoxes, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addApplications, editor, tool } from './hr-jobs.helpers.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { findJobById } from '../../src/jobs/repo.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR dashboard and jobs in Chromium [${kind}]`, function () {
    /** Screenshots of the MySQL run get their own names, so both runs can be looked at. */
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(180_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let tab: PageWithErrors;
    /** Console errors a test provoked on purpose (failed saves log their 4xx/5xx). */
    let expectedErrors: RegExp | null;

    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      const db = s.ctx.db;
      const t0 = Date.parse('2026-01-10T09:00:00Z');
      const a = await makeJob(db, { public_id: 'backend-1', title: 'Backend Engineer', status: 'ACTIVE' }, new Date(t0));
      const b = await makeJob(db, { public_id: 'design-1', title: 'Product Designer', status: 'INACTIVE' }, new Date(t0 + 60_000));
      await makeJob(db, { public_id: 'old-1', title: 'Old Role', status: 'REMOVED' }, new Date(t0 + 120_000));
      await addApplications(db, a.id, 1234, 'NEW');
      await addApplications(db, a.id, 16, 'REVIEWED');
      await addApplications(db, b.id, 3, 'NEW');
      await db('jobs').where({ id: a.id }).update({ views: 5678 });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    const hrTab = (width?: number) => openHrPage(browser, s.baseUrl, token, { width });
    beforeEach(async () => {
      expectedErrors = null;
      tab = await hrTab();
    });
    afterEach(async () => {
      const errors = expectedErrors ? tab.errors.filter((e) => !expectedErrors!.test(e)) : tab.errors;
      expect(errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    const texts = (page: Page, selector: string) => page.locator(selector).allInnerTexts();

    it('shows the dashboard: buttons, four tiles with grouped numbers, the Job Statistics table', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/dashboard`);
      expect(await page.locator('h1').innerText()).to.equal('HR Dashboard');
      for (const [name, href] of [
        ['Jobs', '/hr/jobs/list'],
        ['Manage Jobs', '/hr/jobs'],
        ['View Applicants', '/hr/applicants'],
      ]) {
        expect(await page.locator('main .page-actions').getByRole('link', { name, exact: true }).getAttribute('href')).to.equal(href);
      }
      expect(await texts(page, '.stat-label')).to.deep.equal(['Total Jobs', 'Active Jobs', 'New Applicants', 'Total Applicants']);
      expect(await texts(page, '.stat-value')).to.deep.equal(['2', '1', '1,237', '1,253']);
      expect(await page.locator('h2#job-stats-heading').innerText()).to.equal('Job Statistics');
      expect(await texts(page, 'table.data th')).to.deep.equal(['Public ID', 'Title', 'Status', 'Applicants']);
      expect(await texts(page, 'table.data tbody tr')).to.deep.equal([
        'design-1\tProduct Designer\tInactive\t3',
        'backend-1\tBackend Engineer\tActive\t1,250',
      ]);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-dashboard${suffix}`);
    });

    it('lists every job on Manage Jobs and All Job Posts with their actions', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs`);
      expect(await page.locator('h1').innerText()).to.equal('Manage Jobs');
      expect(await page.getByRole('link', { name: 'New Job' }).getAttribute('href')).to.equal('/hr/jobs/new');
      expect(await texts(page, 'table.data th')).to.deep.equal(['Public ID', 'Title', 'Status', 'Applicants', 'Views', 'Actions']);
      const row = page.locator('tr', { hasText: 'Backend Engineer' });
      // The title links to the job; Edit and Insights are the row's two buttons, the rest is in its menu.
      expect(await row.getByRole('link', { name: 'Backend Engineer', exact: true }).getAttribute('href')).to.match(
        /^\/hr\/jobs\/\d+\/edit$/,
      );
      expect(await row.getByRole('link', { name: 'Edit Backend Engineer' }).getAttribute('href')).to.match(/^\/hr\/jobs\/\d+\/edit$/);
      expect(await row.getByRole('link', { name: 'Insights for Backend Engineer' }).getAttribute('href')).to.match(
        /^\/hr\/jobs\/\d+\/insights$/,
      );
      const more = row.getByRole('button', { name: 'More actions for Backend Engineer' });
      await more.waitFor();
      expect(await row.locator('.row-actions > .btn').allInnerTexts()).to.deep.equal(['Edit', 'Insights']);
      expect(await row.getByRole('button').allInnerTexts()).to.deep.equal(['More']);
      expect(await more.getAttribute('aria-expanded')).to.equal('false');
      // By keyboard: Enter opens the menu on its first item, arrows move, Escape closes it back on the button.
      await more.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      expect(await more.getAttribute('aria-expanded')).to.equal('true');
      expect(await menu.getByRole('menuitem').allInnerTexts()).to.deep.equal(['Applicants', 'Board', 'View', 'Duplicate', 'Remove…']);
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Applicants');
      await page.keyboard.press('ArrowUp');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Remove…');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Board');
      const view = menu.getByRole('menuitem', { name: /View Backend Engineer/ });
      expect(await view.getAttribute('href')).to.equal('/careers/backend-1');
      expect(await view.getAttribute('target')).to.equal('_blank');
      expect(await view.getAttribute('rel')).to.equal('noopener');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-manage-menu${suffix}`);
      await page.keyboard.press('Escape');
      expect(await more.getAttribute('aria-expanded')).to.equal('false');
      expect(await menu.count()).to.equal(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('More actions for Backend Engineer');
      // A removed job is restored, not removed.
      const old = page.locator('tr', { hasText: 'Old Role' });
      await old.getByRole('button', { name: 'More actions for Old Role' }).click();
      expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).to.deep.equal([
        'Applicants',
        'Board',
        'View',
        'Duplicate',
        'Restore…',
      ]);
      // A click elsewhere closes it.
      await page.locator('h1').click();
      expect(await page.getByRole('menu').count()).to.equal(0);
      expect(await old.innerText()).to.include('Removed');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-manage${suffix}`);
      const manageRows = await texts(page, 'table.data tbody tr');

      await page.goto(`${s.baseUrl}/hr/jobs/list`);
      expect(await page.locator('h1').innerText()).to.equal('All Job Posts');
      expect(await texts(page, 'table.data th')).to.deep.equal(['Public ID', 'Title', 'Status', 'Applicants', 'Views', 'Actions']);
      // One job list: the same rows as Manage Jobs.
      await page.getByRole('button', { name: 'More actions for Backend Engineer' }).waitFor();
      expect(await texts(page, 'table.data tbody tr')).to.deep.equal(manageRows);
      const listRow = page.locator('tr', { hasText: 'Backend Engineer' });
      expect(await listRow.innerText())
        .to.include('1,250')
        .and.include('5,678');
      expect(await listRow.getByRole('link', { name: 'Insights for Backend Engineer' }).getAttribute('href')).to.match(
        /^\/hr\/jobs\/\d+\/insights$/,
      );
      expect(await page.getByRole('main').getByRole('link', { name: 'Manage Jobs', exact: true }).getAttribute('href')).to.equal(
        '/hr/jobs',
      );
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-all-posts${suffix}`);
    });

    it('creates a job with rich text and questions of every type, then lands on All Job Posts', async () => {
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/jobs/new`);
      expect(await page.locator('h1').innerText()).to.equal('Create Job');
      expect(await page.getByRole('tab').allInnerTexts()).to.deep.equal([
        'Basics',
        'Compensation',
        'Description',
        'Questions',
        'Notifications',
        'Team',
      ]);
      expect(await page.getByRole('tab', { name: 'Basics' }).getAttribute('aria-selected')).to.equal('true');
      // Status: Active, Inactive, Removed; INACTIVE by default.
      expect(await page.locator('#job-status option').allInnerTexts()).to.deep.equal(['Active', 'Inactive', 'Removed']);
      expect(await page.locator('#job-status').inputValue()).to.equal('INACTIVE');
      for (const id of ['job-title', 'job-location', 'job-job_type', 'job-work_mode']) {
        expect(await page.locator(`#${id}`).getAttribute('aria-required'), id).to.equal('true');
        expect(await page.locator(`label[for="${id}"] .required-mark`).count(), id).to.equal(1);
      }
      expect(await page.locator('#job-public_id-hint').innerText()).to.equal(
        'Optional. Left blank, it is made from the title (-2, -3 … when taken).',
      );
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.fill('#job-title', 'Site Reliability Engineer');
      await page.fill('#job-location', 'Lisbon, Portugal');
      await page.selectOption('#job-job_type', 'CONTRACT');
      await page.selectOption('#job-work_mode', 'REMOTE');
      await page.selectOption('#job-status', 'ACTIVE');
      await screenshot(page, `hr-jobs-editor-basics${suffix}`);

      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.getByRole('tab', { name: 'Compensation' }).getAttribute('aria-selected')).to.equal('true');
      expect(await page.locator('#job-currency').inputValue()).to.equal('USD');
      await page.selectOption('#job-currency', 'EUR');
      await page.fill('#job-min_salary', '60000');
      // Portugal is in the EU: an active job there gives its pay range (issue 34).
      await page.fill('#job-max_salary', '75000');
      await page.fill('#job-experience_required', '4+ years');
      await page.fill('#job-duration', '12 months');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-compensation${suffix}`);

      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.locator('#panel-desc .help-text').allInnerTexts()).to.deep.equal(
        Array(4).fill('Supports bold, italics, lists, and links.'),
      );
      const desc = editor(page, 'job-description');
      await desc.click();
      await page.keyboard.type('We keep systems ');
      await tool(page, 'job-description', 'Bold').click();
      expect(await tool(page, 'job-description', 'Bold').getAttribute('aria-pressed')).to.equal('true');
      await page.keyboard.type('fast');
      await tool(page, 'job-description', 'Bold').click();
      expect(await tool(page, 'job-description', 'Bold').getAttribute('aria-pressed')).to.equal('false');
      await page.keyboard.type(' and ');
      await tool(page, 'job-description', 'Italic').click();
      await page.keyboard.type('calm');
      await tool(page, 'job-description', 'Italic').click();
      await page.keyboard.press('Enter');
      await tool(page, 'job-description', 'Bullet list').click();
      expect(await tool(page, 'job-description', 'Bullet list').getAttribute('aria-pressed')).to.equal('true');
      await page.keyboard.type('On-call one week in six');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Meet the team');
      for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
      await tool(page, 'job-description', 'Link').click();
      const dialog = page.getByRole('dialog', { name: 'Add link' });
      await dialog.waitFor();
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-link-dialog${suffix}`);
      await dialog.getByLabel('Link address').fill('javascript:alert(1)');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      expect(await dialog.locator('.field-error').innerText()).to.match(/http:\/\/, https:\/\/ or mailto:/);
      await dialog.getByLabel('Link address').fill('example.com/team');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await desc.locator('a').getAttribute('href')).to.equal('https://example.com/team');
      // Responsibilities: an ordered list, underline, then "clean" removes the formatting again.
      await editor(page, 'job-responsibilities').click();
      await tool(page, 'job-responsibilities', 'Ordered list').click();
      await page.keyboard.type('Keep the lights on');
      await editor(page, 'job-requirements').click();
      await tool(page, 'job-requirements', 'Underline').click();
      await page.keyboard.type('Linux');
      await page.keyboard.press('Control+A');
      await tool(page, 'job-requirements', 'Clear formatting').click();
      expect(await editor(page, 'job-requirements').innerHTML()).to.equal('<p>Linux</p>');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-description${suffix}`);

      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.getByRole('tab', { name: 'Questions' }).getAttribute('aria-selected')).to.equal('true');
      const types = ['short_text', 'long_text', 'number', 'single_choice', 'checkbox'];
      for (const [i, type] of types.entries()) {
        await page.getByRole('button', { name: 'Add question' }).click();
        const card = page.locator('.question-card').nth(i);
        await card.locator('.rte-content').first().click();
        await page.keyboard.type(`Question about ${type}`);
        await card.locator('select[id$="-answer_type"]').selectOption(type);
        await card.locator('input[id$="-placeholder"]').fill(`Placeholder ${i}`);
        if (i % 2 === 0) await card.getByLabel('Required', { exact: true }).check();
      }
      // Options only for the choice types; a blank option is dropped on save.
      expect(await page.locator('.question-card').nth(0).locator('fieldset.options').count()).to.equal(0);
      const choice = page.locator('.question-card').nth(3);
      await choice.getByLabel('Option 1', { exact: true }).fill('Lisbon');
      await choice.getByRole('button', { name: 'Add option' }).click();
      await choice.getByLabel('Option 2', { exact: true }).fill('   ');
      await choice.getByRole('button', { name: 'Add option' }).click();
      await choice.getByLabel('Option 3', { exact: true }).fill('Porto');
      const checkbox = page.locator('.question-card').nth(4);
      await checkbox.getByLabel('Option 1', { exact: true }).fill('Go');
      await checkbox.getByRole('button', { name: 'Add option' }).click();
      await checkbox.getByLabel('Option 2', { exact: true }).fill('Rust');
      await checkbox.getByRole('button', { name: 'Add option' }).click();
      await checkbox.getByLabel('Option 3', { exact: true }).fill('Perl');
      await checkbox.getByRole('button', { name: 'Remove option 3' }).click();
      // Help text is rich text too.
      await page.locator('.question-card').nth(0).locator('.rte-content').nth(1).click();
      await tool(
        page,
        (await page.locator('.question-card').nth(0).locator('.rte-content').nth(1).getAttribute('id')) as string,
        'Bold',
      ).click();
      await page.keyboard.type('One line is enough');
      // Reorder: the long-text question moves to the top; remove the number question.
      await page.getByRole('button', { name: 'Move question 2 up' }).click();
      await page.getByRole('button', { name: 'Remove question 3' }).click();
      expect(await texts(page, '.question-card h2')).to.deep.equal(['Question 1', 'Question 2', 'Question 3', 'Question 4']);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-questions${suffix}`);

      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Send each application to a webhook').check();
      await page.fill('#job-webhook_url', 'https://hooks.example.com/careers');
      await page.fill('#job-webhook_secret', 'hush-hush-hush-hush');
      const sample = JSON.parse(await page.locator('pre.code-sample').innerText());
      expect(Object.keys(sample)).to.deep.equal(['job_public_id', 'email', 'first_name', 'second_name', 'phone', 'secret_key']);
      expect(sample.secret_key).to.equal('hush-hush-hush-hush');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-notifications${suffix}`);
      // The last tab, Team (issue 31): a new job gets its team once saved.
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Save the job first; then choose its hiring team here.').waitFor();
      expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);

      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(await page.locator('tr', { hasText: 'Site Reliability Engineer' }).innerText()).to.include('Active');

      const row = await s.ctx.db('jobs').where({ title: 'Site Reliability Engineer' }).first();
      const job = (await findJobById(s.ctx.db, Number(row.id)))!;
      expect(job).to.include({
        location: 'Lisbon, Portugal',
        job_type: 'CONTRACT',
        work_mode: 'REMOTE',
        status: 'ACTIVE',
        currency: 'EUR',
        min_salary: 60000,
        max_salary: 75000,
        duration: '12 months',
        webhook_enabled: true,
        webhook_secret: 'hush-hush-hush-hush',
      });
      expect(job.public_id, 'made from the title').to.equal('site-reliability-engineer');
      expect(job.description).to.equal(
        '<p>We keep systems <strong>fast</strong> and <em>calm</em></p><ul><li><p>On-call one week in six</p></li><li><p>Meet the <a href="https://example.com/team" target="_blank" rel="noopener noreferrer">team</a></p></li></ul>',
      );
      expect(job.responsibilities).to.equal('<ol><li><p>Keep the lights on</p></li></ol>');
      expect(job.requirements).to.equal('<p>Linux</p>');
      expect(job.questions.map((q) => [q.answer_type, q.order, q.required, q.options])).to.deep.equal([
        ['long_text', 0, false, []],
        ['short_text', 1, true, []],
        ['single_choice', 2, false, ['Lisbon', 'Porto']],
        ['checkbox', 3, true, ['Go', 'Rust']],
      ]);
      expect(job.questions[1].help_text).to.equal('<p><strong>One line is enough</strong></p>');
      expect(job.questions[1].placeholder).to.equal('Placeholder 0');

      // The public page shows what was written, sanitised.
      await page.goto(`${s.baseUrl}/careers/${job.public_id}`);
      expect(await page.locator('main').innerText()).to.include('We keep systems fast and calm');
    });

    it('edits a job: public id read-only, Saving… while the call runs, question ids kept', async () => {
      const { page } = tab;
      const created = await makeJob(s.ctx.db, {
        public_id: 'edit-me',
        title: 'Data Analyst',
        status: 'INACTIVE',
        questions: [{ text: '<p>SQL level?</p>', answer_type: 'single_choice', options: ['Basic', 'Expert'] }],
      });
      await page.goto(`${s.baseUrl}/hr/jobs`);
      await page.locator('tr', { hasText: 'Data Analyst' }).getByRole('link', { name: 'Edit Data Analyst' }).click();
      await page.waitForURL(/\/hr\/jobs\/\d+\/edit$/);
      await page.locator('#job-title').waitFor();
      expect(await page.locator('h1').innerText()).to.equal('Edit Job: Data Analyst');
      expect(await page.locator('#job-public_id').inputValue()).to.equal('edit-me');
      expect(await page.locator('#job-public_id').getAttribute('readonly')).to.not.equal(null);
      // Tabs follow the ARIA pattern: arrow keys move between them.
      await page.getByRole('tab', { name: 'Basics' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Compensation' }).getAttribute('aria-selected')).to.equal('true');
      await page.keyboard.press('End');
      expect(await page.getByRole('tab', { name: 'Team' }).getAttribute('aria-selected')).to.equal('true');
      await page.keyboard.press('Home');
      await page.fill('#job-title', 'Senior Data Analyst');

      // Hold the PUT to see the pending state.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/hr/jobs/*/', async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const saving = page.getByRole('button', { name: 'Saving…' });
      await saving.waitFor();
      expect(await saving.isDisabled()).to.equal(true);
      release();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await page.locator('h1').innerText()).to.equal('Edit Job: Senior Data Analyst');
      expect(await page.getByRole('button', { name: 'Save Changes' }).isEnabled()).to.equal(true);
      await screenshot(page, `hr-jobs-editor-saved${suffix}`);
      const after = (await findJobById(s.ctx.db, created.id))!;
      expect(after.title).to.equal('Senior Data Analyst');
      expect(after.questions.map((q) => q.id)).to.deep.equal(created.questions.map((q) => q.id));
      // A second save still keeps the same question ids.
      await page.getByRole('tab', { name: 'Questions' }).click();
      await page.locator('.question-card').first().getByLabel('Required', { exact: true }).check();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      const again = (await findJobById(s.ctx.db, created.id))!;
      expect(again.questions.map((q) => [q.id, q.required])).to.deep.equal([[created.questions[0].id, true]]);
    });

    it('spaces list items in the editor as on the job page, for seeded lists and typed ones', async () => {
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'lists-edit',
        title: 'List Editor',
        description: '<ul><li>Seeded one</li><li>Seeded two</li></ul>',
        responsibilities: '',
      });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.getByRole('tab', { name: 'Description' }).click();
      await editor(page, 'job-responsibilities').click();
      await tool(page, 'job-responsibilities', 'Bullet list').click();
      await page.keyboard.type('Typed one');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Typed two');
      const seeded = await listItemBoxes(page, '#job-description > ul');
      const typed = await listItemBoxes(page, '#job-responsibilities > ul');
      expect(seeded).to.have.length(2);
      expect(typed).to.deep.equal(seeded);
      expect(seeded.map((b) => b.gap)).to.deep.equal([0, 0]);
      // The same height as an item on the job page, where the seeded form has no paragraph.
      const lineHeight = seeded[0].height;
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      await page.goto(`${s.baseUrl}/careers/lists-edit`);
      const onPage = await listItemBoxes(page, '.job-section:has(h2:text("Responsibilities")) .rich-text > ul');
      expect(onPage).to.deep.equal([
        { height: lineHeight, gap: 0 },
        { height: lineHeight, gap: 0 },
      ]);
    });

    it('removes a job after the confirmation; it leaves the public list', async () => {
      const { page } = tab;
      await makeJob(s.ctx.db, { public_id: 'remove-me', title: 'Removable Writer', status: 'ACTIVE' });
      await page.goto(`${s.baseUrl}/careers`);
      expect(await page.locator('main').innerText()).to.include('Removable Writer');
      await page.goto(`${s.baseUrl}/hr/jobs`);
      // The red Remove is only in the confirmation: the row's menu holds a plain "Remove…".
      const more = page.getByRole('button', { name: 'More actions for Removable Writer' });
      const remove = page.getByRole('menuitem', { name: 'Remove Removable Writer' });
      await more.click();
      await remove.click();
      const dialog = page.getByRole('dialog', { name: 'Remove job' });
      await dialog.waitFor();
      expect(await dialog.locator('p').first().innerText()).to.equal('Remove this job? This sets status to REMOVED.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-remove-confirm${suffix}`);
      // Cancel (and Escape) leave it alone and return focus to the button.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('More actions for Removable Writer');
      await more.click();
      await remove.click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await s.ctx.db('jobs').where({ public_id: 'remove-me' }).first()).status).to.equal('ACTIVE');

      await more.click();
      await remove.click();
      await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Remove', exact: true }).click()]);
      const row = page.locator('tr', { hasText: 'Removable Writer' });
      expect(await row.innerText()).to.include('Removed');
      // The page says what was done. Read first: the message's arrival can scroll the page, and a scroll closes an open menu.
      await page.locator('#jobs-message .alert-success').waitFor();
      expect(await page.locator('#jobs-message').innerText()).to.equal('Job removed.');
      // A removed job can be restored or copied, not removed again.
      await row.getByRole('button', { name: 'More actions for Removable Writer' }).click();
      expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).to.deep.equal([
        'Applicants',
        'Board',
        'View',
        'Duplicate',
        'Restore…',
      ]);
      await page.keyboard.press('Escape');
      expect((await s.ctx.db('jobs').where({ public_id: 'remove-me' }).first()).status).to.equal('REMOVED');
      await page.goto(`${s.baseUrl}/careers`);
      expect(await page.locator('main').innerText()).not.to.include('Removable Writer');
    });

    it('filters Manage Jobs by status, restores a removed job as Inactive and duplicates a job, saying what was done', async () => {
      const { page } = tab;
      const db = s.ctx.db;
      const gone = await makeJob(db, { public_id: 'restore-me', title: 'Restorable Analyst', status: 'REMOVED' });
      const source = await makeJob(db, {
        public_id: 'copy-me',
        title: 'Copyable Engineer',
        status: 'ACTIVE',
        questions: [
          { text: '<p>Years?</p>', answer_type: 'number', required: true },
          { text: '<p>Pick</p>', answer_type: 'single_choice', options: ['A', 'B'] },
        ],
      });

      // The filter: only the removed jobs, the choice kept in the pager's links and the select.
      await page.goto(`${s.baseUrl}/hr/jobs`);
      await page.getByLabel('Status').selectOption('REMOVED');
      await Promise.all([page.waitForURL(/status=REMOVED/), page.getByRole('button', { name: 'Filter' }).click()]);
      const statuses = await page.locator('tbody td[data-label="Status"]').allInnerTexts();
      expect(statuses.length).to.be.greaterThan(0);
      expect(new Set(statuses.map((t) => t.trim()))).to.deep.equal(new Set(['Removed']));
      expect(await page.getByLabel('Status').inputValue()).to.equal('REMOVED');
      expect(await axeViolations(page)).to.deep.equal([]);
      // An unknown status is named, with a 400.
      const bad = await page.goto(`${s.baseUrl}/hr/jobs?status=ARCHIVED`);
      expect(bad!.status()).to.equal(400);
      expect(await page.locator('#e-status').innerText()).to.include('ARCHIVED');

      // Restore asks first, then brings the job back as Inactive (not published).
      await page.goto(`${s.baseUrl}/hr/jobs?status=REMOVED`);
      await page.getByRole('button', { name: 'More actions for Restorable Analyst' }).click();
      await page.getByRole('menuitem', { name: 'Restore Restorable Analyst' }).click();
      const dialog = page.getByRole('dialog', { name: 'Restore job' });
      await dialog.waitFor();
      expect(await dialog.locator('p').first().innerText()).to.equal(
        'Restore this job? It comes back as Inactive: make it Active in the editor to publish it again.',
      );
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-restore-confirm${suffix}`);
      await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Restore', exact: true }).click()]);
      await page.locator('#jobs-message .alert-success').waitFor();
      expect(await page.locator('#jobs-message').innerText()).to.equal('Job restored as Inactive.');
      expect((await findJobById(db, gone.id))!.status).to.equal('INACTIVE');

      // Duplicate: a copy with the same texts and questions, Inactive, a public id of its own, first in the whole list.
      await page.goto(`${s.baseUrl}/hr/jobs?status=ACTIVE`);
      await page.getByRole('button', { name: 'More actions for Copyable Engineer' }).click();
      await Promise.all([
        page.waitForURL(`${s.baseUrl}/hr/jobs`),
        page.getByRole('menuitem', { name: 'Duplicate Copyable Engineer' }).click(),
      ]);
      await page.locator('#jobs-message .alert-success').waitFor();
      expect(await page.locator('#jobs-message').innerText()).to.equal('Job duplicated: the copy is the first row, saved as Inactive.');
      const first = page.locator('tbody tr').first();
      expect(await first.locator('td[data-label="Title"] a').innerText()).to.equal('Copy of Copyable Engineer');
      expect(await first.locator('td[data-label="Status"]').innerText()).to.equal('Inactive');
      const copy = (await db('jobs').where({ title: 'Copy of Copyable Engineer' }).first())!;
      const [original, copied] = [await findJobById(db, source.id), await findJobById(db, Number(copy.id))];
      expect(copied!.public_id).to.equal('copy-of-copyable-engineer');
      expect(copied!.status).to.equal('INACTIVE');
      expect(copied!.description).to.equal(original!.description);
      expect(copied!.questions.map((q) => [q.text, q.answer_type, q.options, q.required])).to.deep.equal(
        original!.questions.map((q) => [q.text, q.answer_type, q.options, q.required]),
      );
      expect(copied!.questions.map((q) => q.id)).not.to.include.members(original!.questions.map((q) => q.id));
      expect((await findJobById(db, source.id))!.status).to.equal('ACTIVE');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-duplicated${suffix}`);
      // Renamed in the editor and saved: the copy's public id comes from its new title.
      await first.getByRole('link', { name: 'Copy of Copyable Engineer', exact: true }).click();
      await page.locator('#job-title').waitFor();
      await page.fill('#job-title', 'Staff Engineer');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect((await findJobById(db, Number(copy.id)))!.public_id).to.equal('staff-engineer');
    });

    it('renders the editor before TipTap comes, with stand-ins the size of the rich-text fields; says so if it never comes', async () => {
      await tab.context.close();
      tab = await hrTab(390);
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'standin-1',
        title: 'Stand-in',
        description:
          '<p>We build <strong>widgets</strong> and <em>gadgets</em> for <a href="https://example.com">everyone</a>, with a long sentence that wraps over a few lines on a phone.</p>',
        responsibilities: '<ul>\n  <li><p>Design   things</p></li>\n  <li>Ship <em>them</em><ul><li><p>nested</p></li></ul></li>\n</ul>',
        requirements: '<p>First line<br>Second line<br></p><p>After</p>',
        perks_benefits: '',
      });
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      await page.route('**/rich-text-tiptap-*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.locator('#job-title').waitFor();
      await page.getByRole('tab', { name: 'Description' }).click();
      const stood = page.locator('.rte-pending');
      await stood.nth(3).waitFor();
      expect(await page.locator('.ProseMirror').count()).to.equal(0);
      expect(await page.locator('#panel-desc .rte-field .label').allInnerTexts()).to.deep.equal([
        'Description',
        'Responsibilities',
        'Requirements',
        'Perks & benefits',
      ]);
      expect(await page.locator('#job-description-hint').innerText()).to.equal('Supports bold, italics, lists, and links.');
      const standingTexts = await stood.allInnerTexts();
      expect(standingTexts[1]).to.match(/^Design things\n+Ship them\n+nested$/);
      expect(await axeViolations(page)).to.deep.equal([]);
      /** Each rich-text field's parts, where they sit on the page. */
      const layout = () =>
        page.locator('#panel-desc').evaluate((panel) =>
          [...panel.querySelectorAll('.rte-field, .rte-field .label, .rte-toolbar, .rte-body, .rte-field .help-text')].map((e) => {
            const r = e.getBoundingClientRect();
            return `${e.className} ${r.x},${r.y + window.scrollY} ${r.width}x${r.height}`;
          }),
        );
      const standing = await layout();
      release();
      await page.locator('.ProseMirror').nth(3).waitFor();
      expect(await page.locator('.rte-pending').count()).to.equal(0);
      // The empty editor's text is its trailing line break.
      expect((await page.locator('.ProseMirror').allInnerTexts()).map((t) => t.trimEnd())).to.deep.equal(standingTexts);
      expect(await layout()).to.deep.equal(standing);
      expect(await editor(page, 'job-description').getAttribute('aria-describedby')).to.equal('job-description-hint');

      // A chunk that does not come: the fields stay as they are, saying what to do.
      const other = await hrTab(390);
      try {
        await other.page.route('**/rich-text-tiptap-*.js', (route) => route.abort());
        await other.page.goto(`${s.baseUrl}/hr/jobs/new`);
        await other.page.getByRole('tab', { name: 'Description' }).click();
        const notice = other.page.locator('#panel-desc .field-error');
        await notice.nth(3).waitFor();
        expect(await notice.first().innerText()).to.equal('The text editor could not be loaded. Reload the page to try again.');
        expect(other.errors.filter((e) => !/^Failed to load resource/.test(e))).to.deep.equal([]);
      } finally {
        await other.context.close();
      }
    });

    it('fits the editor and its tabs on a 390 px screen', async () => {
      await tab.context.close();
      tab = await hrTab(390);
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'mobile-1',
        title: 'Mobile Developer',
        questions: [{ text: '<p>Pick one</p>', answer_type: 'single_choice', options: ['A', 'B'] }],
      });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.locator('#job-title').waitFor();
      // Every tab in view at once, none past the screen's edge.
      const tabBoxes = await page
        .getByRole('tab')
        .evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
      expect(tabBoxes).to.have.length(6);
      for (const box of tabBoxes) {
        expect(box.left).to.be.at.least(0);
        expect(box.right).to.be.at.most(390);
      }
      for (const name of ['Basics', 'Description', 'Questions']) {
        await page.getByRole('tab', { name }).click();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} overflows`).to.be.at.most(0);
        await screenshot(page, `hr-jobs-mobile-${name.toLowerCase()}${suffix}`);
      }
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.goto(`${s.baseUrl}/hr/dashboard`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.be.at.most(0);
      await screenshot(page, `hr-jobs-mobile-dashboard${suffix}`);
    });
  });
}

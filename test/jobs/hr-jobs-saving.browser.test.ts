/**
 * Saving in the HR job editor, in real Chromium: save failures as the spec words them with their
 * fields marked, the 'Failed to save job.' banner going as its fields are edited, the prompts before
 * unsaved changes are lost, a job that cannot be loaded. Screenshots in test/artifacts/hr-jobs-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { editor } from './hr-jobs.helpers.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { findJobById } from '../../src/jobs/repo.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR job editor saving in Chromium [${kind}]`, function () {
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

    it('shows save failures as the spec says and marks the fields', async () => {
      const { page } = tab;
      expectedErrors = /status of (400|500|502)/;
      const job = await makeJob(s.ctx.db, { public_id: 'fail-me', title: 'QA Engineer', min_salary: null, max_salary: null });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.locator('#job-title').waitFor();
      await page.getByRole('tab', { name: 'Compensation' }).click();
      await page.fill('#job-min_salary', '90000');
      await page.fill('#job-max_salary', '50000');
      await page.getByRole('tab', { name: 'Basics' }).click();
      await page.fill('#job-location', '');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      const lines = (await alert.innerText()).split('\n');
      expect(lines[0]).to.equal('Failed to save job.');
      expect(lines).to.include('location: This field is required.');
      expect(lines).to.include('max_salary: Maximum salary must be greater than or equal to minimum salary.');
      // The first error's tab is shown and its field focused, with the message beside it.
      expect(await page.getByRole('tab', { selected: true }).innerText()).to.match(/^Basics/);
      expect(await page.locator('#job-location-error').innerText()).to.equal('This field is required.');
      expect(await page.locator('#job-location').getAttribute('aria-invalid')).to.equal('true');
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('job-location');
      expect(await page.getByRole('tab', { name: /Compensation/ }).innerText()).to.include('(has errors)');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-jobs-editor-save-failed${suffix}`);
      await page.getByRole('tab', { name: /Compensation/ }).click();
      expect(await page.locator('#job-max_salary-error').innerText()).to.equal(
        'Maximum salary must be greater than or equal to minimum salary.',
      );

      // Other error bodies: a plain string, a list, nothing at all, nested objects.
      const bodies: [string | null, string[], string][] = [
        ['Service temporarily unavailable', ['Service temporarily unavailable'], 'text/plain'],
        [JSON.stringify(['First problem', 'Second problem']), ['First problem', 'Second problem'], 'application/json'],
        [null, ['Unknown error.'], 'text/plain'],
        [
          JSON.stringify({ questions: [{ text: ['Too short.'] }], webhook: { url: ['Bad.'] } }),
          ['questions.0.text: Too short.', 'webhook.url: Bad.'],
          'application/json',
        ],
      ];
      for (const [body, expected, type] of bodies) {
        await page.unroute('**/api/hr/jobs/*/');
        await page.route('**/api/hr/jobs/*/', (route) =>
          route.request().method() === 'PUT'
            ? route.fulfill({ status: body === null ? 502 : 500, contentType: type, body: body ?? '' })
            : route.continue(),
        );
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.getByRole('alert').filter({ hasText: expected[0] }).waitFor();
        expect((await page.getByRole('alert').innerText()).split('\n').filter(Boolean)).to.deep.equal(['Failed to save job.', ...expected]);
      }
    });

    it('shows a refused webhook secret under its field on the Notifications tab, and saves a valid one', async () => {
      const { page } = tab;
      expectedErrors = /status of 400/;
      const job = await makeJob(s.ctx.db, { public_id: 'secret-me', title: 'Secret Keeper' });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.locator('#job-title').waitFor();
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await page.fill('#job-webhook_secret', 'short');
      await page.getByRole('tab', { name: 'Basics' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('tab', { selected: true }).innerText()).to.match(/^Notifications/);
      expect(await page.locator('#job-webhook_secret-error').innerText()).to.equal(
        'Use at least 16 characters, or whsec_ followed by the base64 of 24 to 64 bytes.',
      );
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('job-webhook_secret');
      await screenshot(page, `hr-jobs-editor-secret-refused${suffix}`);
      await page.fill('#job-webhook_secret', `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await page.locator('#job-webhook_secret-error').count()).to.equal(0);
      expect((await s.ctx.db('jobs').where({ id: job.id }).first()).webhook_secret).to.equal(
        `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      );
    });

    /**
     * Records every dialog (type and message) and answers it with the next decision queued, or
     * fails the test through `unexpected` when none was expected.
     */
    function dialogs(page: Page) {
      const seen: string[] = [];
      const answers: boolean[] = [];
      page.on('dialog', async (d) => {
        seen.push(`${d.type()}: ${d.message()}`);
        const accept = answers.shift();
        if (accept === undefined) seen.push('unexpected');
        await (accept ? d.accept() : d.dismiss());
      });
      /** Waits (at most 10 s) until `n` dialogs have been seen. */
      const count = async (n: number) => {
        for (let i = 0; i < 200 && seen.length < n; i++) await page.waitForTimeout(50);
      };
      return { seen, answer: (...a: boolean[]) => answers.push(...a), count };
    }
    const CONFIRM = 'confirm: You have unsaved changes to this job. Leave this page and lose them?';

    it('asks before unsaved changes are lost (links, Logout, reload, back), never when there are none or after saving', async () => {
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'dirty-1',
        title: 'Support Lead',
        description: '<ul><li>Seeded item</li></ul>',
        questions: [{ text: '<p>Shift pattern?</p>', answer_type: 'short_text' }],
      });
      const edit = `${s.baseUrl}/hr/jobs/${job.id}/edit`;
      const d = dialogs(page);
      await page.goto(edit);
      await page.locator('#job-title').waitFor();
      // Nothing changed (the rich text and questions as loaded): leave freely, reload freely.
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      await page.goto(edit);
      await page.locator('#job-title').waitFor();
      await page.getByRole('tab', { name: 'Description' }).click(); // a click in the page, as a user would
      await page.reload();
      await page.locator('#job-title').waitFor();
      expect(d.seen).to.deep.equal([]);

      // A changed title: Cancel asks; saying no keeps the page and what was typed.
      await page.fill('#job-title', 'Support Lead (EMEA)');
      d.answer(false);
      await page.getByRole('link', { name: 'Cancel' }).click();
      expect(d.seen).to.deep.equal([CONFIRM]);
      expect(page.url()).to.equal(edit);
      expect(await page.locator('#job-title').inputValue()).to.equal('Support Lead (EMEA)');
      // The header's links and its brand link ask too.
      d.answer(false, false);
      await page.getByRole('navigation', { name: 'HR', exact: true }).getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.locator('a.brand').click();
      expect(d.seen.slice(1)).to.deep.equal([CONFIRM, CONFIRM]);
      expect(page.url()).to.equal(edit);
      // Logout asks before it ends the session; no means the session is still there.
      d.answer(false);
      await page.getByRole('navigation', { name: 'HR', exact: true }).getByRole('button', { name: 'Logout' }).click();
      expect(d.seen.slice(3)).to.deep.equal([CONFIRM]);
      expect(page.url()).to.equal(edit);
      expect(await page.evaluate(async () => (await fetch('/api/auth/me/')).status)).to.equal(200);

      // A reload, a typed address or Back: the browser's own prompt; staying keeps the work.
      d.answer(false);
      await page.evaluate(() => location.reload());
      await page.waitForFunction(() => document.readyState === 'complete');
      await d.count(5);
      expect(d.seen.slice(4)).to.deep.equal(['beforeunload: ']);
      expect(await page.locator('#job-title').inputValue()).to.equal('Support Lead (EMEA)');
      // Typing the old title back: nothing left to save, nothing asked.
      await page.fill('#job-title', 'Support Lead');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(d.seen).to.have.length(5);
      await page.goBack();
      await page.locator('#job-title').waitFor();

      // Rich text and question edits count; leaving on purpose asks once (no second prompt).
      await editor(page, 'job-description')
        .isVisible()
        .then((v) => (v ? null : page.getByRole('tab', { name: 'Description' }).click()));
      await editor(page, 'job-description').click();
      await page.keyboard.press('End');
      await page.keyboard.type(' and more');
      d.answer(true);
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(d.seen.slice(5)).to.deep.equal([CONFIRM]);
      await page.goto(edit);
      await page.getByRole('tab', { name: 'Questions' }).click();
      await page.locator('.question-card').first().getByLabel('Required', { exact: true }).check();
      d.answer(true);
      await page.goBack();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(d.seen.slice(6)).to.deep.equal(['beforeunload: ']);
      expect((await findJobById(s.ctx.db, job.id))!.title).to.equal('Support Lead');

      // After a save nothing is asked, until the next change.
      await page.goto(edit);
      await page.fill('#job-title', 'Support Lead (EMEA)');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      await page.reload();
      await page.locator('#job-title').waitFor();
      expect(await page.locator('#job-title').inputValue()).to.equal('Support Lead (EMEA)');
      await page.fill('#job-location', 'Dublin, Ireland');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      await page.getByRole('link', { name: 'Back to all job posts' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(d.seen).to.have.length(7);

      // Creating: an empty form leaves freely; a filled one asks; a saved one lands on the list.
      await page.goto(`${s.baseUrl}/hr/jobs/new`);
      await page.locator('#job-title').waitFor();
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      await page.goto(`${s.baseUrl}/hr/jobs/new`);
      await page.fill('#job-title', 'Night Operator');
      d.answer(false);
      await page.getByRole('link', { name: 'Cancel' }).click();
      expect(d.seen.slice(7)).to.deep.equal([CONFIRM]);
      await page.fill('#job-location', 'Porto, Portugal');
      await page.selectOption('#job-job_type', 'FULL_TIME');
      await page.selectOption('#job-work_mode', 'ONSITE');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(d.seen).to.have.length(8);
      expect(d.seen).not.to.include('unexpected');
    });

    it("takes the 'Failed to save job.' banner away once every field it names has been edited, as the wizard does", async () => {
      const { page } = tab;
      expectedErrors = /status of (400|500)/;
      const job = await makeJob(s.ctx.db, { public_id: 'banner-1', title: 'Field Engineer', min_salary: null, max_salary: null });
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await page.locator('#job-title').waitFor();
      const alert = page.getByRole('alert').filter({ hasText: 'Failed to save job.' });
      const save = async () => {
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await alert.waitFor();
      };

      // Three fields named: location, and the salary pair (one rule over both fields).
      await page.fill('#job-location', '');
      await page.getByRole('tab', { name: 'Compensation' }).click();
      await page.fill('#job-min_salary', '90000');
      await page.fill('#job-max_salary', '50000');
      await save();
      expect((await alert.innerText()).split('\n'))
        .to.include('location: This field is required.')
        .and.include('max_salary: Maximum salary must be greater than or equal to minimum salary.');
      // Editing the location takes its message away; the banner stays for the salaries.
      await page.getByRole('tab', { name: /Basics/ }).click();
      await page.fill('#job-location', 'Oslo, Norway');
      expect(await page.locator('#job-location-error').count()).to.equal(0);
      expect(await page.locator('#job-location').getAttribute('aria-invalid')).to.equal(null);
      expect(await alert.count()).to.equal(1);
      // Fixing the minimum fixes the pair: both messages go, and the banner with them.
      await page.getByRole('tab', { name: /Compensation/ }).click();
      expect(await page.locator('#job-max_salary-error').innerText()).to.equal(
        'Maximum salary must be greater than or equal to minimum salary.',
      );
      await page.fill('#job-min_salary', '40000');
      await alert.waitFor({ state: 'detached' });
      expect(await page.locator('.field-error').count()).to.equal(0);
      expect(await page.getByRole('tab', { name: /has errors/ }).count()).to.equal(0);
      // The fixed job saves.
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();

      // Question messages: a blank text and a choice without options. Editing the text leaves the
      // options message (and the banner); adding an option takes the last one away.
      await page.getByRole('tab', { name: 'Questions' }).click();
      await page.getByRole('button', { name: 'Add question' }).click();
      const card = page.locator('.question-card').first();
      await card.locator('select[id$="-answer_type"]').selectOption('single_choice');
      await save();
      const lines = (await alert.innerText()).split('\n');
      expect(lines.filter((l) => l.startsWith('questions.0.'))).to.have.length(2);
      await card.locator('.rte-content').first().click();
      await page.keyboard.type('Which shift?');
      expect(await card.locator('.field-error').count()).to.equal(1);
      expect(await alert.count()).to.equal(1);
      await card.getByLabel('Option 1', { exact: true }).fill('Early');
      await alert.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect((await findJobById(s.ctx.db, job.id))!.questions.map((q) => q.options)).to.deep.equal([['Early']]);

      // Removing a question takes its messages away too (they no longer line up with the list).
      await page.getByRole('button', { name: 'Add question' }).click();
      await save();
      await page.getByRole('button', { name: 'Remove question 2' }).click();
      await alert.waitFor({ state: 'detached' });

      // A banner that names no field (a server failure) stays through edits, until the next save.
      await page.route('**/api/hr/jobs/*/', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'Database unavailable' })
          : route.continue(),
      );
      await page.getByRole('tab', { name: 'Basics' }).click();
      await page.fill('#job-title', 'Field Engineer II');
      await save();
      await page.fill('#job-title', 'Field Engineer III');
      expect((await alert.innerText()).split('\n').filter(Boolean)).to.deep.equal(['Failed to save job.', 'Database unavailable']);
      await page.unroute('**/api/hr/jobs/*/');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await alert.count()).to.equal(0);
    });

    it('sends the user to the login page when the job cannot be loaded', async () => {
      const { page } = tab;
      expectedErrors = /status of 500|Failed to load resource/;
      const job = await makeJob(s.ctx.db, { public_id: 'no-load', title: 'Unloadable' });
      await page.route(`**/api/hr/jobs/${job.id}/`, (route) => route.fulfill({ status: 500, body: '' }));
      // The login page itself may move a signed-in user on to the dashboard: the request is what counts.
      const toLogin = page.waitForRequest((req) => new URL(req.url()).pathname === '/hrviewlogin');
      await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
      await toLogin;
      // An unknown id is a 404 page straight from the server.
      const res = await page.goto(`${s.baseUrl}/hr/jobs/999999/edit`);
      expect(res!.status()).to.equal(404);
    });
  });
}

/**
 * Issue 34 in real Chromium, at 1280 px and 390 px:
 * - /hr/settings/pay-rules: an admin adds, edits and deletes a rule (a refused duplicate shown under
 *   its field); a recruiter gets the 403 page; the Settings menu links it for admins only;
 * - the job editor's "Before publishing" checklist: blocks (pay range, a salary-history question)
 *   and warnings with their reasons; a recruiter's activation refused with the reasons on the
 *   fields; an admin's override with a note, after which the checklist shows it; a warning-only
 *   job goes active;
 * - with JOB_APPROVAL=on, a hiring manager rejects and approves a recruiter's job from its editor.
 * Axe-clean at each step, no sideways scrolling at 390 px; screenshots in test/artifacts/publishing-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { toDbDate } from '../../src/db/codecs.js';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, 'page width').to.be.at.most(width);
}

const RANGE = 'California requires a pay range in the posting: give both a minimum and a maximum salary.';
const QUESTION =
  'Question 1 asks for current or past pay (“current salary”), which the EU and several US states forbid: remove it, or ask for the expected pay instead.';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`pay rules and the publishing checklist in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    const token = { admin: '', recruiter: '' };
    const tabs: PageWithErrors[] = [];
    let expectedErrors: RegExp | null = null;

    before(async () => {
      s = await startTestServer(kind);
      token.admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pub.admin'));
      token.recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pub.recruiter', { role: 'recruiter' }));
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
    const open = async (who: keyof typeof token, w: (typeof WIDTHS)[number]) => {
      const t = await openHrPage(browser, s.baseUrl, token[who], { width: w.width, height: w.height });
      tabs.push(t);
      return t.page;
    };

    for (const w of WIDTHS) {
      it(`${w.name}: an admin keeps the pay rules; a recruiter is refused the page`, async () => {
        // The duplicate is answered 400, the recruiter's page 403: on purpose.
        expectedErrors = /status of (400|403)/;
        const country = w.name === 'wide' ? ['NO', 'Norway'] : ['IS', 'Iceland'];
        const page = await open('admin', w);
        await page.goto(`${s.baseUrl}/hr/settings/pay-rules`);
        await page.getByRole('table', { name: 'Pay rules' }).waitFor();
        expect(await page.locator('h1').innerText()).to.equal('Pay rules');
        const rows = page.locator('table.pay-rule-table tbody tr');
        const before = await rows.count();
        expect(before).to.be.at.least(40);
        const ontario = rows.filter({ hasText: 'Ontario' });
        expect(await ontario.innerText()).to.contain('CA-ON');
        expect(await ontario.innerText()).to.contain("50,000 in the job's currency per year");
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `publishing-pay-rules-${w.name}`);

        // A duplicate place is refused beside its field.
        await page.getByRole('button', { name: 'New rule' }).click();
        const form = page.getByRole('form', { name: 'New pay rule' });
        await form.getByLabel('Name', { exact: true }).fill('Germany again');
        await form.getByLabel('Country code').fill('de');
        await form.getByRole('button', { name: 'Save rule' }).click();
        await form.getByText('A rule for this place already exists: edit that one instead.').waitFor();
        expect(await form.getByLabel('Country code').getAttribute('aria-invalid')).to.equal('true');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `publishing-pay-rule-refused-${w.name}`);

        // A new rule by percentage.
        await form.getByLabel('Name', { exact: true }).fill(country[1]);
        await form.getByLabel('Country code').fill(country[0].toLowerCase());
        await form.getByLabel('Largest width').fill('20');
        await form.getByLabel('Width is').selectOption('PERCENT');
        await form.getByLabel('Note').fill('Our own rule.');
        await form.getByRole('button', { name: 'Save rule' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Pay rule “${country[1]}” added.` })
          .waitFor();
        const row = rows.filter({ hasText: country[1] });
        expect(await row.innerText()).to.contain('Maximum at most 20% above the minimum');
        expect(await rows.count()).to.equal(before + 1);

        // Edited, then deleted.
        await row.getByRole('button', { name: `Edit the rule of ${country[1]}` }).click();
        const edit = page.getByRole('form', { name: `Edit “${country[1]}”` });
        await edit.getByLabel('Largest width').fill('30');
        await edit.getByRole('button', { name: 'Save rule' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Pay rule “${country[1]}” saved.` })
          .waitFor();
        expect(await row.innerText()).to.contain('at most 30% above');
        await row.getByRole('button', { name: `Delete the rule of ${country[1]}` }).click();
        expect(await axeViolations(page)).to.deep.equal([]);
        await row.getByRole('button', { name: 'Delete', exact: true }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Pay rule “${country[1]}” deleted.` })
          .waitFor();
        expect(await rows.count()).to.equal(before);
        await noSidewaysScroll(page, w.width);

        // The Settings menu links the page for admins, not for recruiters, who get the 403 page.
        expect(await page.locator('a[href="/hr/settings/pay-rules"]').count()).to.be.at.least(1);
        const rp = await open('recruiter', w);
        const res = await rp.goto(`${s.baseUrl}/hr/settings/pay-rules`);
        expect(res?.status()).to.equal(403);
        expect(await rp.locator('main').innerText()).to.contain('Only admins can open this page.');
        expect(await rp.locator('a[href="/hr/settings/pay-rules"]').count()).to.equal(0);
        expect(await axeViolations(rp)).to.deep.equal([]);
      });

      it(`${w.name}: the checklist blocks, the recruiter is refused, an admin overrides with a note; a warning-only job goes active`, async () => {
        expectedErrors = /status of 400/;
        const job = await makeJob(s.ctx, {
          title: `Data Engineer ${w.name}`,
          location: 'San Francisco, CA',
          status: 'INACTIVE',
          min_salary: null,
          max_salary: null,
          questions: [{ text: '<p>What is your current salary?</p>', answer_type: 'number', required: true }],
        });
        const page = await open('recruiter', w);
        await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
        const panel = page.getByRole('region', { name: 'Before publishing' });
        await panel.getByText('This job cannot be active yet').waitFor();
        const item = (key: string) => panel.locator(`[data-check="${key}"]`);
        expect(await item('pay_rule').locator('.check-label').innerText()).to.equal('Pay range');
        expect(await item('pay_rule').locator('.check-badge').innerText()).to.equal('Blocks');
        expect(await item('pay_rule').locator('.check-reason').innerText()).to.equal(RANGE);
        expect(await item('salary_history').locator('.check-label').innerText()).to.equal('No questions about current or past pay');
        expect(await item('salary_history').locator('.check-reason').innerText()).to.equal(QUESTION);
        expect(await item('closing_date').locator('.check-badge').innerText()).to.equal('Warning');
        expect(await item('consent').locator('.check-badge').innerText()).to.equal('Pass');
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `publishing-checklist-blocked-${w.name}`);

        // Activating: refused with the reasons on their fields; no override for a recruiter.
        await page.locator('#job-status').selectOption('ACTIVE');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        const alert = page.getByRole('alert');
        await alert.waitFor();
        const lines = (await alert.innerText()).split('\n');
        expect(lines[0]).to.equal('Failed to save job.');
        expect(lines).to.include(
          'status: This job cannot be active until the problems named here are fixed; an admin may override them with a note (override_checks).',
        );
        expect(lines).to.include(`min_salary: ${RANGE}`);
        expect(lines).to.include(`questions.0.text: ${QUESTION}`);
        expect(await page.locator('#job-status-error').innerText()).to.contain('This job cannot be active until');
        expect(await page.getByRole('group', { name: 'Override the checks' }).count()).to.equal(0);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `publishing-activation-refused-${w.name}`);

        // An admin: the same refusal, then "Save with override" with a note.
        const admin = await open('admin', w);
        await admin.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
        await admin.getByRole('region', { name: 'Before publishing' }).getByText('This job cannot be active yet').waitFor();
        await admin.locator('#job-status').selectOption('ACTIVE');
        await admin.getByRole('button', { name: 'Save Changes' }).click();
        const offer = admin.getByRole('group', { name: 'Override the checks' });
        await offer.waitFor();
        await offer.getByRole('button', { name: 'Save with override' }).click();
        expect(await offer.locator('#override-note-err').innerText()).to.equal('Write why the checks may be overridden.');
        await offer.getByLabel('Why the job may be active anyway').fill('Internal transfer: the range is in the offer letter.');
        expect(await axeViolations(admin)).to.deep.equal([]);
        await screenshot(admin, `publishing-override-offer-${w.name}`);
        await offer.getByRole('button', { name: 'Save with override' }).click();
        await admin.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
        const adminPanel = admin.getByRole('region', { name: 'Before publishing' });
        await adminPanel.getByText('Blocks overridden by an admin: this job may be active.').waitFor();
        expect(await adminPanel.locator('[data-check="pay_rule"] .check-badge').innerText()).to.equal('Overridden');
        expect(await adminPanel.locator('.check-override').innerText()).to.contain('Last override by pub.admin on');
        expect(await adminPanel.locator('.check-override').innerText()).to.contain('Internal transfer: the range is in the offer letter.');
        expect(await s.ctx.db('jobs').where({ id: job.id }).first('status')).to.deep.equal({ status: 'ACTIVE' });
        expect(await axeViolations(admin)).to.deep.equal([]);
        await noSidewaysScroll(admin, w.width);
        await screenshot(admin, `publishing-overridden-${w.name}`);

        // Warnings only: the job goes active.
        const warned = await makeJob(s.ctx, { title: `Support ${w.name}`, location: 'Singapore', status: 'INACTIVE' });
        await page.goto(`${s.baseUrl}/hr/jobs/${warned.id}/edit`);
        const warnPanel = page.getByRole('region', { name: 'Before publishing' });
        await warnPanel.getByText('Nothing blocks this job from being active.').waitFor();
        expect(await warnPanel.locator('.check-warn').count()).to.be.at.least(2);
        await page.locator('#job-status').selectOption('ACTIVE');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
        // The checklist is read again after the save: a closing date set now passes.
        await page.locator('#job-closes_at').fill('2099-06-30T17:00');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await warnPanel.locator('[data-check="closing_date"] .check-badge', { hasText: 'Pass' }).waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `publishing-checklist-warnings-${w.name}`);
      });
    }
  });

  describe(`job approval in the editor, in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    const tabs: PageWithErrors[] = [];
    let managerToken = '';
    let recruiterId = 0;
    let managerId = 0;

    before(async () => {
      s = await startTestServer(kind, { JOB_APPROVAL: 'on' });
      recruiterId = await createHrUser(s.ctx.db, 'apr.recruiter', { role: 'recruiter' });
      managerId = await createHrUser(s.ctx.db, 'apr.manager', { role: 'hiring_manager' });
      managerToken = await liveToken(s.ctx.db, managerId);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        // The Reject without a comment is answered 400 on purpose.
        expect(
          t.errors.filter((e) => !/status of 400/.test(e)),
          'console errors',
        ).to.deep.equal([]);
        await t.context.close();
      }
    });

    for (const w of WIDTHS) {
      it(`${w.name}: the hiring manager rejects with a comment, then approves, and the job goes active`, async () => {
        const recruiterToken = await liveToken(s.ctx.db, recruiterId);
        const made = await fetch(`${s.baseUrl}/api/hr/jobs/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${recruiterToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            title: `Approval ${w.name}`,
            location: 'Singapore',
            job_type: 'FULL_TIME',
            work_mode: 'ONSITE',
            description: '<p>x</p>',
            status: 'ACTIVE',
          }),
        }).then((r) => r.json() as Promise<any>);
        expect(made.status).to.equal('INACTIVE');
        await s.ctx
          .db('job_team_members')
          .insert({ job_id: made.id, user_id: managerId, role: 'hiring_manager', created_at: toDbDate(new Date()) });
        const t = await openHrPage(browser, s.baseUrl, managerToken, { width: w.width, height: w.height });
        tabs.push(t);
        const { page } = t;
        await page.goto(`${s.baseUrl}/hr/jobs/${made.id}/edit`);
        const panel = page.getByRole('region', { name: 'Before publishing' });
        await panel.getByText('Waiting for approval').waitFor();
        expect(await panel.locator('.approval').innerText()).to.contain('Asked by apr.recruiter on');
        const decide = panel.getByRole('group', { name: 'Your decision' });
        await decide.getByRole('button', { name: 'Reject' }).click();
        await decide
          .getByRole('alert')
          .getByText('comment: Write why the job is rejected, so its recruiter knows what to change.')
          .waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `publishing-approval-pending-${w.name}`);
        await decide.getByLabel('Comment (required to reject)').fill('Add the team to the title, please.');
        await decide.getByRole('button', { name: 'Reject' }).click();
        await panel.locator('.approval-title').getByText('Rejected').waitFor();
        expect(await panel.locator('.approval').innerText()).to.contain('Add the team to the title, please.');

        // Sent again by the recruiter, then approved here: the job is active, the form shows it.
        await fetch(`${s.baseUrl}/api/hr/jobs/${made.id}/`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${recruiterToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...made, title: `Approval ${w.name}, Support`, status: 'ACTIVE' }),
        });
        await page.reload();
        await panel.getByText('Waiting for approval').waitFor();
        await decide.getByLabel('Comment (required to reject)').fill('Thanks.');
        await decide.getByRole('button', { name: 'Approve' }).click();
        await panel.locator('.approval-title').getByText('Approved').waitFor();
        await page.waitForFunction(() => (document.getElementById('job-status') as HTMLSelectElement | null)?.value === 'ACTIVE');
        expect(await s.ctx.db('jobs').where({ id: made.id }).first('status')).to.deep.equal({ status: 'ACTIVE' });
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `publishing-approval-approved-${w.name}`);
      });
    }
  });
}

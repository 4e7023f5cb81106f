/**
 * Everyday polish of the HR screens (issue 20) in Chromium, on SQLite (browser tests:
 * test/helpers/db.ts), as a viewer in India (UTC+5:30) would see them:
 * - times in the viewer's zone with the zone named, in one format, on the applicants list and
 *   detail, posts and their attempts, users, form entries and form posts, the board and insights;
 * - job titles linking to the job's HR page (dashboard, All Job Posts, posts, applicant detail);
 * - a message in a status region after every action that changes something and leaves the page:
 *   job created, post retried, form created, deactivated, activated and removed, user created.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createDelivery } from '../../src/posts/index.js';
import type { Job } from '../../src/jobs/types.js';
import { seedPosts, silent, startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';

const ZONE = 'Asia/Kolkata';
/** "Mar 16, 2026, 3:35 AM GMT+5:30": the one format, the zone named. */
const LOCAL_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}(:\d{2})? [AP]M GMT\+5:30$/;
const LOCAL_DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

/** Every time on the page: its text and title, once site.ts or the island has written it. */
async function times(page: Page): Promise<{ text: string; title: string; kind: string }[]> {
  await page.waitForFunction(() => [...document.querySelectorAll('time[data-local]')].every((t) => !(t.textContent ?? '').endsWith('UTC')));
  return page.locator('time').evaluateAll((els) =>
    els.map((e) => ({
      text: (e.textContent ?? '').trim(),
      title: e.getAttribute('title') ?? '',
      kind: e.getAttribute('data-local') ?? '',
    })),
  );
}

function expectLocal(found: { text: string; title: string; kind: string }[], where: string, min = 1) {
  expect(found.length, `${where}: times`).to.be.at.least(min);
  for (const t of found) {
    expect(t.text, `${where}: ${t.text}`).to.match(t.kind === 'date' ? LOCAL_DATE : LOCAL_TIME);
    expect(t.title, where).to.be.oneOf(['Asia/Calcutta', 'Asia/Kolkata']);
  }
}

/** Runs an action that reloads the page, and waits for the new page (the old one still shows the last message). */
async function reloadAfter(page: Page, act: () => Promise<void>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), act()]);
}

/** The message of the page's status region, once written. */
async function message(page: Page): Promise<string> {
  const region = page
    .locator('[data-page-message], #page-message')
    .filter({ has: page.locator('.alert-success') })
    .first();
  await region.waitFor();
  expect(await region.getAttribute('role')).to.equal('status');
  return (await region.innerText()).trim();
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR polish: times, job links and messages in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let failing: Receiver;
    let job: Job;
    let formId: number;
    let tabs: PageWithErrors[] = [];
    const suffix = kind === 'mysql' ? '-mysql' : '';

    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      failing = await startReceiver(() => ({ status: 503, body: 'down' }));
      job = await webhookJob(db, failing.url, 's3cret', { title: 'Payroll Specialist' });
      await seedPosts(db, job, 2, new Date(), 'polish');
      const delivery = createDelivery({ db, config: s.ctx.config, now: () => new Date(), log: silent });
      await delivery.worker.runDue();
      await delivery.close();
      const form = await fetch(`${s.baseUrl}/api/hr/forms/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          public_id: 'polish-form',
          title: 'Referral',
          status: 'ACTIVE',
          api_enabled: true,
          api_url: failing.url,
          api_mapping: { who: 'email' },
          sections: [
            { title: 'One', order: 0, fields: [{ name: 'email', label: 'Email', field_type: 'email', order: 0, required: true }] },
          ],
        }),
      }).then((r) => r.json());
      formId = form.id;
      const body = new FormData();
      body.set('values', JSON.stringify({ email: 'ref@example.com' }));
      expect((await fetch(`${s.baseUrl}/api/forms/polish-form/submit/`, { method: 'POST', body })).status).to.equal(201);
      const forms = createDelivery({ db, config: s.ctx.config, now: () => new Date(), log: silent });
      await forms.worker.runDue();
      await forms.close();
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await failing?.close();
      await s?.close();
    });
    afterEach(async () => {
      for (const t of tabs) {
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
      tabs = [];
    });
    const hrTab = async (width = 1280) => {
      const t = await openHrPage(browser, s.baseUrl, token, { timezoneId: ZONE, width, height: width < 500 ? 844 : 900 });
      tabs.push(t);
      return t.page;
    };

    it('shows every time in the viewer zone, zone named, on each HR screen, at both widths', async () => {
      const appId = Number((await s.ctx.db('applications').where({ job_id: job.id }).first('id')).id);
      const entryId = Number((await s.ctx.db('form_entries').where({ form_id: formId }).first('id')).id);
      const screens: [string, string][] = [
        ['/hr/applicants', 'applicants'],
        [`/hr/applicants/${appId}`, 'applicant'],
        ['/hr/posts?status=FAILED', 'posts'],
        ['/hr/users', 'users'],
        [`/hr/forms/${formId}/entries`, 'form-entries'],
        [`/hr/forms/${formId}/entries/${entryId}`, 'form-entry'],
        [`/hr/forms/${formId}/posts?status=FAILED`, 'form-posts'],
        [`/hr/jobs/${job.id}/board`, 'board'],
        [`/hr/jobs/${job.id}/insights`, 'insights'],
      ];
      for (const width of [1280, 390]) {
        const page = await hrTab(width);
        for (const [path, name] of screens) {
          await page.goto(`${s.baseUrl}${path}`);
          if (name === 'board') await page.locator('.board-card time').first().waitFor();
          if (name === 'insights') await page.locator('.job-insights time, #island-job-insights time').first().waitFor();
          expectLocal(await times(page), `${name} at ${width}`);
          expect(await axeViolations(page), `${name} at ${width}`).to.deep.equal([]);
          if (['applicants', 'posts', 'users'].includes(name)) await screenshot(page, `polish-${name}-${width}${suffix}`);
        }
        // A post's attempts, with seconds.
        await page.goto(`${s.baseUrl}/hr/posts?status=FAILED`);
        await page.locator('button[data-post-attempts]').first().click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('time').first().waitFor();
        for (const text of await dialog.locator('time').allInnerTexts())
          expect(text).to.match(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M GMT\+5:30$/);
        await page.keyboard.press('Escape');
      }
    });

    it('links job titles to the job editor on the dashboard, both job lists, the applicants list, posts and the applicant page', async () => {
      const page = await hrTab();
      const edit = `/hr/jobs/${job.id}/edit`;
      await page.goto(`${s.baseUrl}/hr/dashboard`);
      expect(await page.getByRole('link', { name: 'Payroll Specialist', exact: true }).getAttribute('href')).to.equal(edit);
      await page.goto(`${s.baseUrl}/hr/jobs/list`);
      expect(await page.getByRole('link', { name: 'Payroll Specialist', exact: true }).getAttribute('href')).to.equal(edit);
      await page.goto(`${s.baseUrl}/hr/jobs`);
      expect(await page.getByRole('link', { name: 'Payroll Specialist', exact: true }).getAttribute('href')).to.equal(edit);
      // The applicants list's job column (issue 30).
      await page.goto(`${s.baseUrl}/hr/applicants`);
      expect(
        await page
          .locator('td[data-label="Job"]')
          .getByRole('link', { name: 'Payroll Specialist', exact: true })
          .first()
          .getAttribute('href'),
      ).to.equal(edit);
      await page.goto(`${s.baseUrl}/hr/posts?status=FAILED`);
      const postLinks = page.locator(`a[href="${edit}"]`);
      expect(await postLinks.first().evaluate((a) => (a.textContent ?? '').replace(/\s+/g, ' '))).to.equal(
        `${job.public_id}: Payroll Specialist`,
      );
      expect(await postLinks.count()).to.equal(2);
      expect(await postLinks.first().getAttribute('href')).to.equal(edit);
      const appId = Number((await s.ctx.db('applications').where({ job_id: job.id }).first('id')).id);
      await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
      expect(await page.locator('.facts').getByRole('link', { name: 'Payroll Specialist', exact: true }).getAttribute('href')).to.equal(
        edit,
      );
      // Keyboard: the title link is reachable and opens the editor.
      await page.locator('.facts').getByRole('link', { name: 'Payroll Specialist', exact: true }).focus();
      await Promise.all([page.waitForURL(`${s.baseUrl}${edit}`), page.keyboard.press('Enter')]);
      await page.locator('#job-title').waitFor();
    });

    it('says what changed after each action that reloads or leaves the page, in a status region', async () => {
      const page = await hrTab();
      page.on('dialog', (d) => void d.accept());

      // Post retried.
      await page.goto(`${s.baseUrl}/hr/posts?status=FAILED`);
      const retry = page.locator('button[data-post-retry]').first();
      const postId = await retry.getAttribute('data-post-retry');
      await reloadAfter(page, () => retry.click());
      expect(await message(page)).to.equal(`Post ${postId} queued to be sent again.`);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `polish-post-retried${suffix}`);
      // Once: the next load says nothing.
      await page.reload();
      await page.locator('h1').waitFor();
      await page.waitForTimeout(300);
      expect(await page.locator('#page-message').innerText()).to.equal('');

      // Forms: deactivated, activated, removed.
      await page.goto(`${s.baseUrl}/hr/forms`);
      await reloadAfter(page, () => page.getByRole('button', { name: 'Deactivate Referral' }).click());
      expect(await message(page)).to.equal('Form deactivated: it takes no submissions.');
      await reloadAfter(page, () => page.getByRole('button', { name: 'Activate Referral' }).click());
      expect(await message(page)).to.equal('Form activated: it takes submissions.');
      await reloadAfter(page, () => page.getByRole('button', { name: 'Remove Referral' }).click());
      expect(await message(page)).to.equal('Form removed.');

      // Form created: the builder goes to the new form's edit page, which says so.
      await page.goto(`${s.baseUrl}/hr/forms/new`);
      await page.fill('#fb-title', 'Open application');
      await page.getByRole('tab', { name: 'Sections & Fields' }).click();
      await page.fill('#fb-s0-f0-name', 'who');
      await page.fill('#fb-s0-f0-label', 'Who are you?');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/\/hr\/forms\/\d+\/edit$/);
      expect(await message(page)).to.equal('Form created.');

      // Job created: the list it lands on says so.
      await page.goto(`${s.baseUrl}/hr/jobs/new`);
      await page.fill('#job-title', 'Night Operator');
      await page.fill('#job-location', 'Porto, Portugal');
      await page.selectOption('#job-job_type', 'FULL_TIME');
      await page.selectOption('#job-work_mode', 'ONSITE');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.waitForURL(`${s.baseUrl}/hr/jobs/list`);
      expect(await message(page)).to.equal('Job created.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `polish-job-created${suffix}`);
    });
  });
}

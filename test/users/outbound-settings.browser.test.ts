/**
 * Issue 28 (12b) in Chromium: a recruiter sees a job's webhook and a form's API post settings
 * read-only with a note saying only an admin changes them, and still saves the job and the form
 * (the editors send the settings back unchanged); an admin's fields can be edited. SQLite only:
 * the rule itself is tested over HTTP on both databases (outbound-settings-roles.test.ts).
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot } from '../helpers/browser.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { hr } from '../applicants/helpers.js';
import { everyFieldForm } from '../forms/helpers.js';

const SECRET = 'a-long-enough-signing-secret-1234';

describe('webhook and form API settings read-only for recruiters in Chromium [sqlite]', function () {
  this.timeout(120_000);
  let s: TestServer;
  let browser: Browser;
  let admin: string;
  let recruiter: string;

  before(async () => {
    s = await startTestServer('sqlite');
    admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
    recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' }));
    browser = await sharedBrowser();
  });
  after(async () => {
    await releaseBrowser();
    await s?.close();
  });

  it('the job editor shows a recruiter the webhook read-only with a note, and saves the job as edited elsewhere', async () => {
    const job = await makeJob(s.ctx.db, {
      title: 'Webhook Role',
      webhook_enabled: true,
      webhook_url: 'https://hooks.example.com/careers',
      webhook_secret: SECRET,
    });
    const tab = await openHrPage(browser, s.baseUrl, recruiter);
    const { page } = tab;
    await page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
    await page.locator('#job-title').waitFor();
    await page.fill('#job-title', 'Webhook Role, renamed');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.locator('#job-webhook_url').waitFor();
    expect(await page.locator('.webhook-locked').innerText()).to.equal(
      'Only an admin can change these settings: each application goes to this address.',
    );
    expect(await page.locator('#job-webhook_url').inputValue()).to.equal('https://hooks.example.com/careers');
    expect(await page.locator('#job-webhook_url').getAttribute('readonly')).to.not.equal(null);
    expect(await page.locator('#job-webhook_secret').getAttribute('readonly')).to.not.equal(null);
    expect(await page.locator('#job-webhook_enabled').isDisabled()).to.equal(true);
    expect(await page.locator('#job-webhook_include_source').isDisabled()).to.equal(true);
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot(page, 'webhook-read-only-recruiter');
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/hr/jobs/${job.id}/`) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    expect((await saved).status()).to.equal(200);
    const row = await s.ctx.db('jobs').where({ id: job.id }).first();
    expect(row).to.include({ title: 'Webhook Role, renamed', webhook_url: 'https://hooks.example.com/careers', webhook_secret: SECRET });
    expect(tab.errors).to.deep.equal([]);
    await tab.context.close();

    // An admin's editor has no note and editable fields.
    const adminTab = await openHrPage(browser, s.baseUrl, admin);
    await adminTab.page.goto(`${s.baseUrl}/hr/jobs/${job.id}/edit`);
    await adminTab.page.locator('#job-title').waitFor();
    await adminTab.page.getByRole('tab', { name: 'Notifications' }).click();
    await adminTab.page.locator('#job-webhook_url').waitFor();
    expect(await adminTab.page.locator('.webhook-locked').count()).to.equal(0);
    expect(await adminTab.page.locator('#job-webhook_url').getAttribute('readonly')).to.equal(null);
    expect(await adminTab.page.locator('#job-webhook_enabled').isDisabled()).to.equal(false);
    await adminTab.context.close();
  });

  it('the form builder shows a recruiter the API post settings read-only with a note, and saves the form', async () => {
    const created = await hr(s.baseUrl, admin, '/api/hr/forms/', {
      method: 'POST',
      body: everyFieldForm({ public_id: 'api-form', api_enabled: true, api_url: 'https://api.example.com/entries', api_secret: SECRET }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const tab = await openHrPage(browser, s.baseUrl, recruiter);
    const { page } = tab;
    await page.goto(`${s.baseUrl}/hr/forms/${created.body.id}/edit`);
    await page.getByRole('tab', { name: 'API Post' }).click();
    await page.locator('#fb-api_url').waitFor();
    expect(await page.locator('.api-locked').innerText()).to.equal(
      'Only an admin can change these settings: each entry goes to this address.',
    );
    expect(await page.locator('#fb-api_url').getAttribute('readonly')).to.not.equal(null);
    expect(await page.locator('#fb-api_secret').getAttribute('readonly')).to.not.equal(null);
    expect(await page.locator('#fb-api_enabled').isDisabled()).to.equal(true);
    expect(await axeViolations(page)).to.deep.equal([]);
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/hr/forms/${created.body.id}/`) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saved).status()).to.equal(200);
    expect(await s.ctx.db('forms').where({ id: created.body.id }).first()).to.include({
      api_url: 'https://api.example.com/entries',
      api_secret: SECRET,
    });
    expect(tab.errors).to.deep.equal([]);
    await tab.context.close();
  });
});

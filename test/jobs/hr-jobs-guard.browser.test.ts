/**
 * Issue 9 items 4 and 5 in real Chromium, on SQLite (browser tests: test/helpers/db.ts): the job editor shows the webhook
 * address guard's message beside the field for hosts outside global unicast and saves a public one;
 * nested lists typed with every mark save (Tab stops at seven lists) and the public page shows them
 * as stored; rich text pasted deeper than 20 is refused beside its field; a job stored before the
 * limit is removed through Manage Jobs. Screenshots in test/artifacts/hr-guard-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { findJobById } from '../../src/jobs/repo.js';
import { richTextDepth, sanitizeRichText } from '../../src/shared/sanitize.js';

const PRIVATE = 'Webhook URL must not point to a private or local address.';
const TOO_DEEP = 'Rich text is nested too deeply.';

// The functions passed to evaluate() are plain loops: named inner functions would be compiled with
// a helper (__name) that does not exist in the page.

/** Deepest element nesting inside `selector` (the element itself not counted), as the browser parsed it. */
const domDepth = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((root) => {
      let max = 0;
      for (const el of root.querySelectorAll('*')) {
        let d = 0;
        for (let e: Element | null = el; e && e !== root; e = e.parentElement) d++;
        max = Math.max(max, d);
      }
      return max;
    });
/** How many lists deep the deepest list sits inside `selector`. */
const listDepth = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((root) => {
      let max = 0;
      for (const li of root.querySelectorAll('li')) {
        let n = 0;
        for (let e: Element | null = li; e && e !== root; e = e.parentElement) if (e.tagName === 'UL' || e.tagName === 'OL') n++;
        max = Math.max(max, n);
      }
      return max;
    });

/** Pastes HTML into a rich-text field as the clipboard would. */
async function pasteHtml(page: Page, selector: string, html: string): Promise<void> {
  await page.locator(selector).click();
  await page.locator(selector).evaluate((el, data) => {
    const dt = new DataTransfer();
    dt.setData('text/html', data);
    dt.setData('text/plain', 'pasted');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, html);
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`HR job editor: webhook address guard and rich text nesting in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(180_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let tab: PageWithErrors;
    /** Console errors a test provoked on purpose (refused saves log their 400). */
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
    beforeEach(async () => {
      expectedErrors = null;
      tab = await openHrPage(browser, s.baseUrl, token);
    });
    afterEach(async () => {
      const errors = expectedErrors ? tab.errors.filter((e) => !expectedErrors!.test(e)) : tab.errors;
      expect(errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    const tool = (page: Page, id: string, label: string) =>
      page.locator(`[role="toolbar"][aria-controls="${id}"] button[aria-label="${label}"]`);
    async function openEditor(page: Page, jobId: number, tabName: string): Promise<void> {
      await page.goto(`${s.baseUrl}/hr/jobs/${jobId}/edit`);
      await page.locator('#job-title').waitFor();
      await page.getByRole('tab', { name: tabName }).click();
    }
    /** Clicks Save Changes and waits for the PUT's answer. */
    async function save(page: Page): Promise<number> {
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/hr\/jobs\/\d+\/$/.test(r.url())),
        page.getByRole('button', { name: 'Save Changes' }).click(),
      ]);
      return res.status();
    }

    it('refuses webhook hosts outside global unicast beside the field, then saves a public one', async () => {
      const { page } = tab;
      expectedErrors = /status of 400/;
      const job = await makeJob(s.ctx.db, { public_id: 'hook-guard', title: 'Hook Guard' });
      await openEditor(page, job.id, 'Notifications');
      await page.getByLabel('Send each application to a webhook').check();
      for (const url of [
        'http://[2002:7f00:1::]/hook',
        'http://3221225985/hook',
        'http://[64:ff9b:1::a00:1]/hook',
        'http://[::ffff:0:a9fe:a9fe]/hook',
        'http://192.88.99.1/hook',
        'http://ｌｏｃａｌｈｏｓｔ/hook',
      ]) {
        await page.fill('#job-webhook_url', url);
        expect(await save(page), url).to.equal(400);
        const alert = page.getByRole('alert');
        expect((await alert.innerText()).split('\n').filter(Boolean), url).to.deep.equal([
          'Failed to save job.',
          `webhook_url: ${PRIVATE}`,
        ]);
        expect(await page.locator('#job-webhook_url-error').innerText(), url).to.equal(PRIVATE);
        expect(await page.locator('#job-webhook_url').getAttribute('aria-invalid'), url).to.equal('true');
      }
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-guard-webhook-refused${suffix}`);
      expect((await findJobById(s.ctx.db, job.id))!.webhook_url).to.equal(null);

      await page.fill('#job-webhook_url', 'https://hooks.example.com/careers');
      expect(await save(page)).to.equal(200);
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await page.locator('#job-webhook_url-error').count()).to.equal(0);
      expect((await findJobById(s.ctx.db, job.id))!).to.include({
        webhook_enabled: true,
        webhook_url: 'https://hooks.example.com/careers',
      });
    });

    it('saves nested lists typed with every mark (Tab stops at seven lists); the public page shows them as stored', async () => {
      const { page } = tab;
      const job = await makeJob(s.ctx.db, { public_id: 'nested-lists', title: 'Nested Lists', status: 'ACTIVE', description: '' });
      await openEditor(page, job.id, 'Description');
      const id = 'job-description';
      await page.locator(`#${id}`).click();
      await tool(page, id, 'Bullet list').click();
      await page.keyboard.type('Level 1');
      for (let level = 2; level <= 9; level++) {
        await page.keyboard.press('Enter');
        await page.keyboard.press('Tab');
        await page.keyboard.type(`Level ${level}`);
      }
      expect(await listDepth(page, `#${id}`)).to.equal(7);
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal(id); // a refused Tab keeps the focus
      // The last item in a link, bold, italic and underline.
      await page.keyboard.press('Shift+Home');
      for (const mark of ['Bold', 'Italic', 'Underline']) await tool(page, id, mark).click();
      await tool(page, id, 'Link').click();
      const dialog = page.getByRole('dialog', { name: 'Add link' });
      await dialog.getByLabel('Link address').fill('example.com/team');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached' });
      await screenshot(page, `hr-guard-nested-lists-editor${suffix}`);
      expect(await save(page)).to.equal(200);
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();

      const stored = (await findJobById(s.ctx.db, job.id))!.description;
      expect(richTextDepth(stored)).to.equal(19);
      expect(sanitizeRichText(stored)).to.equal(stored);
      expect(stored).to.include(
        '<a href="https://example.com/team" target="_blank" rel="noopener noreferrer"><strong><em><u>Level 9</u></em></strong></a>',
      );

      await page.goto(`${s.baseUrl}/careers/nested-lists`);
      const section = page.locator('.job-section', { hasText: 'Job Description' }).locator('.rich-text');
      expect(await section.innerHTML()).to.equal(stored);
      expect(await domDepth(page, '.job-section .rich-text')).to.equal(19);
      expect(await listDepth(page, '.job-section .rich-text')).to.equal(7);
      expect(await section.innerText())
        .to.include('Level 1')
        .and.include('Level 9');
      await screenshot(page, `hr-guard-nested-lists-public${suffix}`);
    });

    it('refuses pasted rich text nested deeper than 20 beside its field, on the description and the questions tabs', async () => {
      const { page } = tab;
      expectedErrors = /status of 400/;
      const job = await makeJob(s.ctx.db, {
        public_id: 'paste-deep',
        title: 'Paste Deep',
        requirements: '<p>Before</p>',
        questions: [{ text: '<p>Question before</p>', answer_type: 'short_text' }],
      });
      // Fourteen nested lists from another document.
      let deep = '';
      for (let level = 14; level >= 1; level--) deep = `<ul><li><p>Level ${level}</p>${deep}</li></ul>`;
      await openEditor(page, job.id, 'Description');
      await pasteHtml(page, '#job-requirements', deep);
      expect(await listDepth(page, '#job-requirements')).to.be.above(10); // more than 20 elements deep
      await page.getByRole('tab', { name: 'Questions' }).click();
      await pasteHtml(page, '.question-card .rte-content >> nth=0', deep);
      expect(await save(page)).to.equal(400);
      const alert = page.getByRole('alert');
      const [first, ...lines] = (await alert.innerText()).split('\n').filter(Boolean);
      expect(first).to.equal('Failed to save job.');
      expect(lines.sort()).to.deep.equal([`questions.0.text: ${TOO_DEEP}`, `requirements: ${TOO_DEEP}`]);
      // The first error's tab is shown, its message beside the field.
      expect(await page.getByRole('tab', { selected: true }).innerText()).to.match(/^Description/);
      expect(await page.locator('#job-requirements-error').innerText()).to.equal(TOO_DEEP);
      expect(await page.locator('#job-requirements').getAttribute('aria-invalid')).to.equal('true');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `hr-guard-too-deep${suffix}`);
      await page.getByRole('tab', { name: /Questions/ }).click();
      expect(await page.locator('.question-card').first().locator('.field-error').allInnerTexts()).to.deep.equal([TOO_DEEP]);
      const after = (await findJobById(s.ctx.db, job.id))!;
      expect([after.requirements, after.questions[0].text]).to.deep.equal(['<p>Before</p>', '<p>Question before</p>']);
    });

    it('removes a job whose texts were stored deeper than the limit, through Manage Jobs', async () => {
      const { page } = tab;
      const job = await makeJob(s.ctx.db, {
        public_id: 'legacy-deep',
        title: 'Legacy Deep',
        status: 'ACTIVE',
        questions: [{ text: '<p>Q</p>', answer_type: 'short_text' }],
      });
      const deep = sanitizeRichText('<b>x'.repeat(3000));
      await s.ctx.db('jobs').where({ id: job.id }).update({ description: deep });
      await s.ctx.db('job_questions').where({ id: job.questions[0].id }).update({ text: deep });
      await page.goto(`${s.baseUrl}/hr/jobs`);
      await page.getByRole('button', { name: 'More actions for Legacy Deep' }).click();
      await page.getByRole('menuitem', { name: 'Remove Legacy Deep' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove job' });
      await dialog.waitFor();
      await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Remove', exact: true }).click()]);
      expect(await page.locator('tr', { hasText: 'Legacy Deep' }).innerText()).to.include('Removed');
      const after = (await findJobById(s.ctx.db, job.id))!;
      expect([after.status, after.description, after.questions[0].text]).to.deep.equal(['REMOVED', deep, deep]);
    });
  });
}

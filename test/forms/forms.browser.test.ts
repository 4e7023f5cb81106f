/**
 * Forms in real Chromium, on SQLite (browser tests: test/helpers/db.ts): HR builds a form in the builder (its rules and
 * messages, create goes to the edit page, saving), a visitor fills in a form with every field type
 * in two sections (every message of spec 02 section 5, files), HR reads the entry, opens its file,
 * exports the entries, deactivates and removes the form; the entry's API post reaches a local
 * receiver, signed. axe-core on each screen, screenshots under test/artifacts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createDelivery } from '../../src/posts/index.js';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { exeBytes, pdfBytes } from '../fixtures/resumes.js';
import { hr } from '../applicants/helpers.js';
import { silent, startReceiver, verifyStandardWebhook, type Receiver } from '../posts/helpers.js';
import { everyFieldForm } from './helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`forms in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let receiver: Receiver;
    let formId: number;
    let tab: PageWithErrors;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-form-files-'));
    const file = (name: string, data: Buffer) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, data);
      return p;
    };

    before(async () => {
      receiver = await startReceiver();
      s = await startTestServer(kind, { FORM_RATE_LIMIT: '0', WEBHOOK_ALLOW_PRIVATE: 'true' });
      ({ token } = await hrSession(s.ctx.db));
      const created = await hr(s.baseUrl, token, '/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({
          public_id: 'volunteer',
          api_enabled: true,
          api_url: receiver.url,
          api_secret: 'form-secret-0123456789',
          api_mapping: { contact: 'email', resume: 'cv' },
        }),
      });
      formId = created.body.id;
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      await receiver?.close();
    });
    afterEach(async () => {
      await tab?.context.close();
    });

    it('builds a form: the rules and their messages, create goes to the edit page, save says so', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/forms/new`);
      expect(await page.locator('h1').innerText()).to.equal('Create Form');
      expect(await page.getByRole('tab').allInnerTexts()).to.deep.equal(['Details', 'Sections & Fields', 'API Post']);
      await page.fill('#fb-title', 'Open Day RSVP');
      await page.getByRole('tab', { name: 'Sections & Fields' }).click();
      // The name is made from the label until changed; typed capitals and spaces are lowered and
      // become underscores, and what cannot be kept is named beside it, never dropped silently.
      await page.fill('#fb-s0-f0-label', 'Referrer Name');
      expect(await page.inputValue('#fb-s0-f0-name')).to.equal('referrer_name');
      await page.fill('#fb-s0-f0-label', '');
      expect(await page.inputValue('#fb-s0-f0-name')).to.equal('');
      await page.locator('#fb-s0-f0-name').pressSequentially('Full Name!');
      expect(await page.inputValue('#fb-s0-f0-name')).to.equal('full_name');
      expect(await page.locator('#fb-s0-f0-name-hint').innerText()).to.equal('Lowercase letters, digits and underscores: left out !');
      await page.fill('#fb-s0-f0-name', 'guest');
      await page.getByRole('button', { name: 'Add Field' }).click();
      await page.fill('#fb-s0-f1-name', 'guest');
      await page.getByRole('button', { name: 'Add Field' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('alert').innerText()).to.equal('Please fix highlighted fields before saving.');
      expect(await page.locator('#fb-s0-f0-label-error').innerText()).to.equal('Field Label is required.');
      expect(await page.locator('#fb-s0-f1-name-error').innerText()).to.equal('Duplicate field name in this section.');
      expect(await page.locator('#fb-s0-f2-name-error').innerText()).to.equal('Field Name is required.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `form-builder-errors${suffix}`);
      await page.fill('#fb-s0-f0-label', 'Your name');
      await page.fill('#fb-s0-f1-name', 'seats');
      await page.fill('#fb-s0-f1-label', 'Seats');
      await page.selectOption('#fb-s0-f1-type', 'number');
      await page.getByRole('button', { name: 'Delete Field' }).nth(2).click();
      await page.getByRole('button', { name: 'Add Section' }).click();
      await page.fill('#fb-s1-title', 'Talks');
      await page.fill('#fb-s1-f0-name', 'talk');
      await page.fill('#fb-s1-f0-label', 'Talk');
      await page.selectOption('#fb-s1-f0-type', 'dropdown');
      await page.fill('#fb-s1-f0-options', 'Keynote\nWorkshop');
      // A name used in section 1 again in section 2: the server's answer, as the spec words it.
      await page.fill('#fb-s1-f0-name', 'guest');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('alert').filter({ hasText: 'Duplicate field names detected' }).waitFor();
      expect(await page.getByRole('alert').innerText()).to.equal('Duplicate field names detected — Section 2: guest');
      await page.fill('#fb-s1-f0-name', 'talk');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/hr\/forms\/\d+\/edit$/);
      const id = Number(/\/hr\/forms\/(\d+)\/edit$/.exec(page.url())![1]);
      await page.locator('#fb-title').waitFor();
      expect(await page.inputValue('#fb-public_id')).to.equal('open-day-rsvp');
      await page.fill('#fb-description', 'Join us.');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Form saved.' }).waitFor();
      const saved = (await hr(s.baseUrl, token, `/api/hr/forms/${id}/`)).body;
      expect(saved).to.include({ title: 'Open Day RSVP', description: 'Join us.', status: 'INACTIVE', sections_count: 2 });
      expect(saved.sections[1].fields[0])
        .to.include({ name: 'talk', field_type: 'dropdown' })
        .and.deep.include({ options: ['Keynote', 'Workshop'] });
      await screenshot(page, `form-builder-saved${suffix}`);
    });

    it('shows the title and description where the form puts them while it loads; nothing moves when it mounts', async () => {
      for (const [width, height] of [
        [390, 844],
        [1280, 900],
      ]) {
        // The page as it is before the island mounts: its script held back.
        tab = await openPage(browser, { width, height });
        await tab.page.route(/\/assets\/public-form-[^/]*\.js$/, (r) => r.abort());
        await tab.page.goto(`${s.baseUrl}/form/volunteer`);
        expect(await tab.page.getByRole('status').innerText()).to.equal('Loading the form…');
        const intro = async () => ({
          h1: await tab.page.locator('.form-intro h1').boundingBox(),
          text: await tab.page.locator('.form-intro').innerText(),
        });
        const loading = await intro();
        expect((await tab.page.locator('.site-footer').boundingBox())!.y, 'footer below the screen').to.be.at.least(height);
        await tab.context.close();

        // The real load: layout shifts summed as Lighthouse counts them (none after input here).
        tab = await openPage(browser, { width, height });
        await tab.page.addInitScript(() => {
          (window as unknown as { shift: number }).shift = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!e.hadRecentInput) (window as unknown as { shift: number }).shift += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await tab.page.goto(`${s.baseUrl}/form/volunteer`);
        await tab.page.locator('.section-count').waitFor();
        expect(await intro(), `${width} px`).to.deep.equal(loading);
        expect(loading.text).to.equal('Volunteer Sign-up\n\nTell us about you.\nWe answer within a week.');
        expect(await tab.page.evaluate(() => (window as unknown as { shift: number }).shift), `layout shift at ${width} px`).to.equal(0);
        await tab.context.close();
      }
    });

    it("takes a visitor through both sections with the spec's messages, files judged, and says Thanks!", async () => {
      tab = await openPage(browser, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/form/volunteer`);
      expect(await page.locator('h1').innerText()).to.equal('Volunteer Sign-up');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).to.include('noindex');
      // 'n / total', with 'Section' before it for screen readers only.
      expect(await page.locator('.section-count').innerText()).to.match(/^Section\s+1 \/ 2$/);
      expect(await page.locator('.section-count .visually-hidden').innerText()).to.equal('Section');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.locator('#pf-full_name-error').innerText()).to.equal('This field is required.');
      expect(await page.locator('#pf-email-error').innerText()).to.equal('This field is required.');
      await page.fill('#pf-full_name', 'Asha Rao');
      await page.fill('#pf-email', 'not-an-email');
      await page.fill('#pf-age', 'thirty');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.locator('#pf-email-error').innerText()).to.equal('Enter a valid email.');
      expect(await page.locator('#pf-age-error').innerText()).to.equal('Enter a number.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-form-errors${suffix}`);
      await page.fill('#pf-email', 'asha@example.com');
      await page.fill('#pf-age', '31');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.locator('.section-count').innerText()).to.include('2 / 2');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await page.locator('#pf-shift-error').innerText()).to.equal('This field is required.');
      expect(await page.locator('#pf-cv-error').innerText()).to.equal('File is required.');
      await page.getByLabel('Evening').check();
      await page.getByLabel('Mon').check();
      await page.selectOption('#pf-city', 'Lyon');
      await page.setInputFiles('#pf-cv', file('photo.png', Buffer.from('not really')));
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await page.locator('#pf-cv-error').innerText()).to.equal('File type not allowed.');
      await page.setInputFiles('#pf-cv', file('big.pdf', pdfBytes(1024 * 1024 + 1)));
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await page.locator('#pf-cv-error').innerText()).to.equal('File too large.');
      // Named .pdf, but the bytes are a program: the server refuses it with the field's message.
      await page.setInputFiles('#pf-cv', file('cv.pdf', exeBytes()));
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please fix the highlighted fields and try again.' }).waitFor();
      expect(await page.locator('#pf-cv-error').innerText()).to.equal('File type not allowed.');
      await page.getByRole('button', { name: 'Previous' }).click();
      expect(await page.inputValue('#pf-full_name')).to.equal('Asha Rao');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.setInputFiles('#pf-cv', file('my cv.pdf', pdfBytes(5000)));
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('heading', { name: 'Thanks!' }).waitFor();
      expect(await page.locator('.form-done p').innerText()).to.equal('Thank you, we will be in touch.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `public-form-thanks${suffix}`);
      expect(tab.errors.filter((e) => !/status of 400/.test(e))).to.deep.equal([]);
    });

    it('shows HR the entry and its file, exports the entries, and the API post reached the receiver, signed', async () => {
      const delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: silent });
      await delivery.worker.runDue();
      await delivery.close();
      expect(receiver.received).to.have.length(1);
      expect(JSON.parse(receiver.received[0].body)).to.deep.equal({
        contact: 'asha@example.com',
        resume: { name: 'my-cv.pdf', size: 5000, content_type: 'application/pdf' },
      });
      expect(verifyStandardWebhook('form-secret-0123456789', receiver.received[0].headers, receiver.received[0].body)).to.equal(true);

      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/forms`);
      expect(await page.locator('h1').innerText()).to.equal('Manage Forms');
      const row = page.locator('tr', { hasText: 'volunteer' });
      expect(await row.locator('td').nth(3).innerText()).to.equal('2');
      for (const action of ['Edit', 'API Posts', 'View Entries', 'Open Link', 'Deactivate', 'Remove'])
        expect(await row.getByText(action, { exact: true }).count(), action).to.equal(1);
      expect(await row.getByText('Activate', { exact: true }).count()).to.equal(0);
      expect(await row.getByText('Open Link').getAttribute('target')).to.equal('_blank');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `forms-list${suffix}`);
      await row.getByText('View Entries').click();
      expect(await page.locator('#entry-count').innerText()).to.equal('1 entry');
      const exported = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export XLS' }).click();
      expect((await exported).suggestedFilename()).to.equal(`form_${formId}_entries.xlsx`);
      await screenshot(page, `form-entries${suffix}`);
      await page.getByText('View Details').click();
      expect(await page.locator('h1').innerText()).to.match(/^Entry #\d+$/);
      const values = await page.locator('.entry-values').innerText();
      for (const part of ['Asha Rao', 'asha@example.com', '31', 'Evening', 'Mon', 'Lyon']) expect(values).to.include(part);
      const saved = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Open my-cv.pdf' }).click();
      const got = await saved;
      expect(got.suggestedFilename()).to.equal('my-cv.pdf');
      expect(
        fs
          .readFileSync((await got.path())!)
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `form-entry${suffix}`);
      await page.goto(`${s.baseUrl}/hr/forms/${formId}/posts`);
      expect(await page.locator('tbody tr').count()).to.equal(1);
      expect(await page.locator('tbody td').nth(1).innerText()).to.equal('SUCCESS');
      await page.getByRole('link', { name: 'Failed' }).click();
      expect(await page.locator('.empty-state').innerText()).to.equal('No records.');
      await screenshot(page, `form-posts${suffix}`);
    });

    it('deactivates (the public form shows its notice) and removes (the public form is gone, entries kept)', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/forms`);
      await page.getByRole('button', { name: 'Deactivate Volunteer Sign-up' }).click();
      await page.getByRole('button', { name: 'Activate Volunteer Sign-up', exact: true }).waitFor();
      const visitor = await browser.newContext();
      const pub = await visitor.newPage();
      await pub.goto(`${s.baseUrl}/form/volunteer`);
      expect(await pub.getByRole('status').innerText()).to.equal('This form is not accepting submissions.');
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Remove Volunteer Sign-up' }).click();
      // The page reloads with the form's new status.
      await page.locator('tr', { hasText: 'volunteer' }).locator('.status', { hasText: 'Removed' }).waitFor();
      expect(await page.getByRole('button', { name: 'Remove Volunteer Sign-up' }).count()).to.equal(0);
      const gone = await pub.goto(`${s.baseUrl}/form/volunteer`);
      expect(gone!.status()).to.equal(404);
      expect(await pub.locator('h1').innerText()).to.equal('Form not found or unavailable.');
      await visitor.close();
      expect((await hr(s.baseUrl, token, `/api/hr/forms/${formId}/entries/`)).body.count).to.equal(1);
    });
  });
}

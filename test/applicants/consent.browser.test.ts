/**
 * Consent in the apply wizard (APPLY_CONSENT_TEXT) in real Chromium, on SQLite (browser tests: test/helpers/db.ts): the review step's required box with the text and the privacy link, at
 * phone and desktop widths, axe clean; Submit refused in the page until it is ticked (focus on
 * the box, its message, the live region), ticked and sent by keyboard only; HR then sees the
 * consent on the applicant page, its time in the viewer's zone with the zone named.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { banner, fieldError, focusedId, heading, live, next, resumeFiles, scrollsSideways, shot, wizardSteps } from './apply-helpers.js';

const CONSENT = 'I agree that Acme Corporation may keep my application and share it with the hiring team for 12 months.';
const REQUIRED = 'Please tick the box to agree before you submit your application.';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply wizard consent in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tabs: PageWithErrors[] = [];
    let files: ReturnType<typeof resumeFiles>;
    let token: string;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', APPLY_CONSENT_TEXT: CONSENT });
      await makeJob(s.ctx.db, { public_id: 'plain-job', title: 'Office Manager' });
      ({ token } = await hrSession(s.ctx.db));
      files = resumeFiles();
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      files?.cleanup();
    });
    afterEach(async () => {
      for (const t of tabs) {
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
      tabs = [];
    });
    const tab = async (opts: Parameters<typeof openPage>[1] = {}) => {
      const t = await openPage(browser, opts);
      tabs.push(t);
      return t.page;
    };

    const suffix = kind === 'mysql' ? '-mysql' : '';
    const { open } = wizardSteps(() => ({ baseUrl: s.baseUrl, resume: files.pdf }));

    async function toReview(page: import('playwright-core').Page, email: string) {
      await open(page, 'plain-job');
      await page.fill('#f-first_name', 'Asha');
      await page.fill('#f-last_name', 'Rao');
      await page.fill('#f-email', email);
      await page.fill('#f-phone', '9876543210');
      await page.setInputFiles('#f-resume', files.pdf);
      await next(page, 'Experience');
      await next(page, 'Education & Skills');
      await next(page, 'Review');
    }

    it('shows the required box with the text and the privacy link; Submit is refused until it is ticked; sent by keyboard', async () => {
      const page = await tab();
      await toReview(page, 'consent.desktop@example.com');
      const box = page.getByRole('checkbox', { name: `${CONSENT} (required)` });
      expect(await box.isChecked()).to.equal(false);
      expect(await box.getAttribute('aria-required')).to.equal('true');
      const privacy = page.getByRole('link', { name: 'Privacy Policy (opens in a new tab)' });
      expect(await privacy.getAttribute('href')).to.equal('/privacy');
      expect(await page.locator('.consent-field .help-text').textContent()).to.equal(
        'How we use your data: Privacy Policy (opens in a new tab).',
      );
      expect(await axeViolations(page)).to.deep.equal([]);

      // Submit without the box: refused in the page, nothing sent.
      let sent = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/apply/')) sent++;
      });
      await page.getByRole('button', { name: 'Submit Application' }).click();
      expect(await fieldError(page, 'consent')).to.equal(REQUIRED);
      expect(await banner(page)).to.equal(REQUIRED);
      expect(await focusedId(page)).to.equal('f-consent');
      expect(await box.getAttribute('aria-invalid')).to.equal('true');
      expect(await box.getAttribute('aria-describedby')).to.equal('f-consent-help f-consent-error');
      expect((await live(page)).trim()).to.equal(REQUIRED);
      expect(sent).to.equal(0);
      expect(await heading(page)).to.equal('Review');
      expect(await axeViolations(page)).to.deep.equal([]);
      await shot(page, `consent-refused-desktop${suffix}`);

      // Keyboard only: Space ticks the focused box, the message goes; Tab reaches Submit; Enter sends.
      await page.keyboard.press('Space');
      expect(await box.isChecked()).to.equal(true);
      expect(await fieldError(page, 'consent')).to.equal('');
      for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Submit Application'; i++)
        await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Submit Application');
      await Promise.all([page.waitForURL(/\/careers\/plain-job\/submitted$/), page.keyboard.press('Enter')]);
      expect(sent).to.equal(1);

      const row = await s.ctx.db('applications').where({ email: 'consent.desktop@example.com' }).first('id', 'consent_text', 'consent_at');
      expect(row.consent_text).to.equal(CONSENT);
      expect(row.consent_at).to.not.equal(null);

      // HR sees it, the time in the viewer's zone (India: UTC+5:30, named) and the text.
      const hr = await openHrPage(browser, s.baseUrl, token, { timezoneId: 'Asia/Kolkata' });
      tabs.push(hr);
      await hr.page.goto(`${s.baseUrl}/hr/applicants/${row.id}`);
      const fact = hr.page.locator('.consent-fact dd');
      // Chromium names the zone by ICU's older name.
      await fact.locator('time[title="Asia/Calcutta"], time[title="Asia/Kolkata"]').waitFor();
      const text = ((await fact.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      expect(text).to.match(/^Consent given [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+5:30 — /);
      expect(text).to.include(CONSENT);
      expect(await axeViolations(hr.page)).to.deep.equal([]);
      await shot(hr.page, `consent-hr-detail${suffix}`);
    });

    it('fits a phone: the box and its text wrap without sideways scrolling, axe clean, and a tick by tap is sent', async () => {
      const page = await tab({ width: 390, height: 844 });
      await toReview(page, 'consent.phone@example.com');
      const box = page.getByRole('checkbox', { name: `${CONSENT} (required)` });
      await page.getByRole('button', { name: 'Submit Application' }).click();
      expect(await fieldError(page, 'consent')).to.equal(REQUIRED);
      expect(await scrollsSideways(page)).to.equal(false);
      expect(await axeViolations(page)).to.deep.equal([]);
      const size = await box.boundingBox();
      expect(size!.width).to.be.at.least(20);
      await shot(page, `consent-refused-phone${suffix}`);
      // The label is the box's target too.
      await page.locator('label[for="f-consent"]').click();
      expect(await box.isChecked()).to.equal(true);
      await Promise.all([page.waitForURL(/\/submitted$/), page.getByRole('button', { name: 'Submit Application' }).click()]);
      const row = await s.ctx.db('applications').where({ email: 'consent.phone@example.com' }).first('consent_text');
      expect(row.consent_text).to.equal(CONSENT);
    });
  });
}

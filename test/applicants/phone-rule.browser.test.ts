/**
 * PHONE_RULE=international in the wizard (issue 30), at 1280 and 390 px on SQLite: the help says
 * what is asked, a number that is not valid for the chosen country is refused in the page with the
 * server's message, a valid national number (its leading 0 too) is sent and stored in E.164. Axe
 * clean, screenshots.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fieldError, heading, next, resumeFiles, scrollsSideways, shot, wizardSteps } from './apply-helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`apply wizard with PHONE_RULE=international in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let tabs: PageWithErrors[] = [];
    let files: ReturnType<typeof resumeFiles>;
    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', PHONE_RULE: 'international' });
      await makeJob(s.ctx.db, { public_id: 'intl-job', title: 'Support Agent' });
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
        expect(
          t.errors.filter((e) => !/status of 400/.test(e)),
          'console errors',
        ).to.deep.equal([]);
        await t.context.close();
      }
      tabs = [];
    });
    const { open } = wizardSteps(() => ({ baseUrl: s.baseUrl, resume: files.pdf }));

    for (const width of [1280, 390]) {
      it(`takes a UK number typed as dialled there and stores it in E.164, at ${width} px`, async () => {
        const t = await openPage(browser, { width });
        tabs.push(t);
        const { page } = t;
        const email = `intl-${width}@example.com`;
        await open(page, 'intl-job');
        await page.fill('#f-first_name', 'Amelia');
        await page.fill('#f-email', email);
        await page.selectOption('#f-phone_code', 'GB');
        expect(await page.locator('#f-phone-help').innerText()).to.equal('Your number as you would dial it in that country.');
        await page.fill('#f-phone', '12345');
        await page.setInputFiles('#f-resume', files.pdf);
        await page.getByRole('button', { name: 'Next' }).click();
        expect(await fieldError(page, 'phone')).to.equal('Provided phone number is not valid for the chosen country.');
        expect(await heading(page)).to.equal('Basic Info');
        expect(await axeViolations(page)).to.deep.equal([]);
        await shot(page, `phone-rule-invalid-${width}`);
        await page.fill('#f-phone', '020 7946 0958');
        expect(await page.inputValue('#f-phone')).to.equal('02079460958');
        await next(page, 'Experience');
        await next(page, 'Education & Skills');
        await next(page, 'Review');
        expect(await scrollsSideways(page)).to.equal(false);
        await Promise.all([
          page.waitForURL(`${s.baseUrl}/careers/intl-job/submitted`),
          page.getByRole('button', { name: 'Submit Application' }).click(),
        ]);
        expect((await s.ctx.db('applications').where({ email }).first('phone')).phone).to.equal('+442079460958');
      });
    }
  });
}

/**
 * The import page (/hr/settings/import, issue 35) in real Chromium at 1280 and 390 px: an admin
 * checks a CSV file (nothing written, the refused row with why), then imports the rows that pass;
 * the report links the merged application. Axe-clean; screenshots in test/artifacts/import-*.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`importing candidates in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    const tabs: PageWithErrors[] = [];

    before(async () => {
      s = await startTestServer(kind, { PHONE_RULE: 'international' });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'import.admin'));
      await makeJob(s.ctx.db, { title: 'Data Analyst', status: 'ACTIVE' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
    });

    for (const w of WIDTHS) {
      it(`${w.name}: checks a file, then imports the rows that pass`, async () => {
        const t = await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height });
        tabs.push(t);
        const page = t.page;
        await page.goto(`${s.baseUrl}/hr/settings/import`);
        expect(await page.locator('h1').innerText()).to.equal('Import candidates');
        const csv = [
          'First Name,Last Name,Email,Phone,Job,Current Stage',
          `Ana,Lima,ana.${w.name}@example.com,+14155550140,Data Analyst,Screen`,
          `Bo,Kim,not-an-email,+14155550141,Data Analyst,Screen`,
        ].join('\n');
        await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await page.getByRole('button', { name: 'Check the file' }).click();
        const report = page.locator('.import-report');
        await report
          .locator('.alert', { hasText: 'Checked 2 rows (nothing written): 1 would be imported, 0 merged, 1 refused.' })
          .waitFor();
        expect(await report.locator('li').allInnerTexts()).to.deep.equal(["Line 3 (not-an-email): email: Provided email isn't valid."]);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `import-checked-${w.name}`);

        await page.getByLabel('Check only (write nothing)').uncheck();
        await page.getByLabel('Import the rows that pass even if others are refused').check();
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await report
          .locator('.alert', { hasText: 'Imported 1 of 2 rows as new applications; 0 merged into existing ones; 1 refused.' })
          .waitFor();
        expect(await s.ctx.db('applications').where('email', `ana.${w.name}@example.com`).first('first_name')).to.deep.equal({
          first_name: 'Ana',
        });
        expect(await axeViolations(page)).to.deep.equal([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(w.width);
        await screenshot(page, `import-done-${w.name}`);
      });
    }
  });
}

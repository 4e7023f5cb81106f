/**
 * The form builder's max file size in real Chromium (spec 02: "Max file size is entered in MB
 * (step 0.1)"), on SQLite and MySQL: the input steps by 0.1 MB, takes 2.5 as valid, the arrow key
 * moves it by 0.1, and the saved field holds the MB as bytes, rounded.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { releaseBrowser, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr } from '../applicants/helpers.js';
import { everyFieldForm } from './helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`form builder max file size in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    let formId: number;
    let tab: PageWithErrors | undefined;

    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      formId = (await hr(s.baseUrl, token, '/api/hr/forms/', { method: 'POST', body: everyFieldForm({ public_id: 'sizes' }) })).body.id;
      browser = await sharedBrowser();
    });
    after(async () => {
      await tab?.context.close();
      await releaseBrowser();
      await s?.close();
    });

    it('steps by 0.1 MB, takes 2.5 as valid, and saves the MB as bytes', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 900 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/forms/${formId}/edit`);
      await page.getByRole('tab', { name: 'Sections & Fields' }).click();
      // The CV field (section 2, field 4) was saved with 1 MB.
      const size = page.locator('#fb-s1-f3-maxmb');
      expect(await size.inputValue()).to.equal('1');
      expect(await size.getAttribute('step')).to.equal('0.1');
      await size.fill('2.5');
      expect(await size.evaluate((el: HTMLInputElement) => el.validity.valid)).to.equal(true);
      await size.press('ArrowUp');
      expect(await size.inputValue()).to.equal('2.6');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Form saved.' }).waitFor();
      const saved = (await hr(s.baseUrl, token, `/api/hr/forms/${formId}/`)).body;
      expect(saved.sections[1].fields[3]).to.include({ name: 'cv', max_file_size: Math.round(2.6 * 1024 * 1024) });
      expect(tab.errors).to.deep.equal([]);
    });
  });
}

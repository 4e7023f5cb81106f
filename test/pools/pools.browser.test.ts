/**
 * Talent pools (issue 35) in real Chromium at 1280 and 390 px: an admin makes a pool, adds an
 * applicant from their page, the candidate agrees on their status page, and the new job's board
 * offers them with why; "Invite to apply". Axe-clean; screenshots in test/artifacts/pools-*.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { statusLink } from '../../src/people/index.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`talent pools in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;
    const tabs: PageWithErrors[] = [];
    const track = (t: PageWithErrors) => {
      tabs.push(t);
      return t.page;
    };

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', CANDIDATE_RATE_LIMIT: '0', SMTP_URL: 'smtp://127.0.0.1:9' });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pools.admin'));
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
      it(`${w.name}: makes a pool, adds an applicant, and offers them on a matching job once they agree`, async () => {
        const area = w.name === 'wide' ? 'Payroll' : 'Treasury';
        const first = await makeJob(s.ctx.db, { title: `${area} Specialist`, department: `Finance ${w.name}`, status: 'ACTIVE' });
        const email = `nia.${w.name}@example.com`;
        // Each width's own title words, so one run's candidate is not offered for the other's job.
        const res = await fetch(`${s.baseUrl}/api/jobs/${first.public_id}/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, first_name: 'Nia', last_name: 'Okoro' })),
        });
        expect(res.status).to.equal(201);
        const app = await s.ctx.db('applications').where({ email }).first('id', 'person_id');

        const hr = track(await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height }));
        await hr.goto(`${s.baseUrl}/hr/pools`);
        await hr.getByLabel('New pool').fill(`Finance shortlist ${w.name}`);
        await hr.getByRole('button', { name: 'Create pool' }).click();
        await hr.locator('.alert-success', { hasText: `Pool “Finance shortlist ${w.name}” created.` }).waitFor();

        await hr.goto(`${s.baseUrl}/hr/applicants/${app.id}`);
        const section = hr.locator('section.applicant-pools');
        await section.getByLabel('Pool').selectOption({ label: `Finance shortlist ${w.name}` });
        await section.getByRole('button', { name: 'Add to pool' }).click();
        await section.locator('.alert-success', { hasText: `Added to the pool “Finance shortlist ${w.name}”.` }).waitFor();
        expect(await section.innerText()).to.include('They have not agreed to be kept for other jobs yet');
        expect(await axeViolations(hr)).to.deep.equal([]);
        await screenshot(hr, `pools-applicant-${w.name}`);

        // The candidate agrees on their status page.
        const { url } = await statusLink(s.ctx, Number(app.person_id), new Date());
        const candidate = track(await openPage(browser, { width: w.width, height: w.height }));
        await candidate.goto(`${s.baseUrl}${url.slice(url.indexOf('/candidate/'))}`);
        await candidate.getByRole('button', { name: 'I agree: keep my details' }).click();
        await candidate.locator('.alert-success', { hasText: 'Thank you: we will tell you about other jobs that fit you.' }).waitFor();
        expect(await axeViolations(candidate)).to.deep.equal([]);

        const lead = await makeJob(s.ctx.db, { title: `${area} Lead`, department: `Finance ${w.name}`, status: 'ACTIVE' });
        await hr.goto(`${s.baseUrl}/hr/jobs/${lead.id}/board`);
        const matches = hr.locator('section.pool-matches');
        await matches.getByRole('link', { name: 'Nia Okoro' }).waitFor();
        expect(await matches.innerText())
          .to.include('Nia Okoro')
          .and.include(`Same department (Finance ${w.name})`)
          .and.include(`Got to Applied (${area} Specialist)`);
        await matches.getByRole('button', { name: /^Invite to apply/ }).click();
        await matches.locator('.alert-success', { hasText: 'Nia Okoro is invited to apply: the email is on its way.' }).waitFor();
        await matches.getByText(/^Invited /).waitFor();
        expect(await axeViolations(hr)).to.deep.equal([]);
        expect(await hr.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(w.width);
        await screenshot(hr, `pools-board-${w.name}`);
      });
    }
  });
}

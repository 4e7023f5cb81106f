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

      it(`${w.name}: adds the list's selection to a new pool from the keyboard, and a board card to it`, async () => {
        const job = await makeJob(s.ctx.db, { title: `Bulk Clerk ${w.name}`, department: `Bulk ${w.name}`, status: 'ACTIVE' });
        for (const first of ['Ada', 'Ben', 'Cy']) {
          const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
            method: 'POST',
            body: toFormData(
              validFields({ email: `${first.toLowerCase()}.bulk.${w.name}@example.com`, first_name: first, last_name: 'Lindqvist' }),
            ),
          });
          expect(res.status).to.equal(201);
        }
        const pool = `Runners-up ${w.name}`;
        const hr = track(await openHrPage(browser, s.baseUrl, token, { width: w.width, height: w.height }));
        await hr.goto(`${s.baseUrl}/hr/applicants?job_id=${job.id}`);
        // Selecting a row moves no other row: what a selection shows (the bulk bar's count, "Reject
        // with email") must not push the next row down under the pointer between two clicks.
        const ben = hr.getByRole('checkbox', { name: 'Select Ben Lindqvist' });
        const benTop = () => ben.evaluate((box) => box.getBoundingClientRect().top + window.scrollY);
        const before = await benTop();
        await hr.getByRole('checkbox', { name: 'Select Ada Lindqvist' }).check();
        await hr.getByRole('button', { name: 'Reject and email 1 selected…' }).waitFor();
        expect(await benTop(), "the next row's place").to.equal(before);
        await ben.check();
        const open = hr.getByRole('button', { name: 'Add to pool…' });
        await open.focus();
        await hr.keyboard.press('Enter');
        const dialog = hr.getByRole('dialog', { name: 'Add 2 selected applicants to a talent pool' });
        await dialog.waitFor();
        // The focus starts on the pool; keys choose "New pool…", name it and give the reason; Enter adds.
        await dialog.getByRole('option', { name: 'New pool…' }).waitFor({ state: 'attached' });
        expect(await hr.evaluate(() => document.activeElement?.id)).to.equal(await dialog.getByLabel('Pool').getAttribute('id'));
        await dialog.getByLabel('Pool').selectOption({ label: 'New pool…' });
        await hr.keyboard.press('Tab');
        await hr.keyboard.type(pool);
        await hr.keyboard.press('Tab');
        await hr.keyboard.type('Strong runner-up');
        expect(await axeViolations(hr)).to.deep.equal([]);
        await screenshot(hr, `pools-list-picker-${w.name}`);
        await hr.keyboard.press('Enter');
        // Said where the list's bulk actions say how they went.
        const said = hr.locator('#island-applicants [role="status"]');
        await said.getByText(`2 people added to the pool “${pool}”.`).waitFor();
        await dialog.waitFor({ state: 'detached' });
        expect(await hr.evaluate(() => document.activeElement?.textContent)).to.equal('Add to pool…');
        // Again with Cy: one added, two in it already.
        await hr.getByRole('checkbox', { name: 'Select Cy Lindqvist' }).check();
        await open.click();
        await dialog.waitFor({ state: 'detached' });
        const three = hr.getByRole('dialog', { name: 'Add 3 selected applicants to a talent pool' });
        await three.getByLabel('Pool').selectOption({ label: pool });
        await three.getByRole('button', { name: 'Add to pool' }).click();
        await said.getByText(`1 person added to the pool “${pool}”; 2 were already in it.`).waitFor();
        expect(await axeViolations(hr)).to.deep.equal([]);
        expect(await hr.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(w.width);
        await screenshot(hr, `pools-list-${w.name}`);
        const members = await s.ctx
          .db('pool_members as m')
          .join('talent_pools as p', 'p.id', 'm.pool_id')
          .where('p.name', pool)
          .select('m.reason');
        expect(members.map((m) => m.reason).sort()).to.deep.equal(['Added by HR', 'Strong runner-up', 'Strong runner-up']);

        // A board card: "Add to pool" for that one application, the pool chosen from the list.
        const other = `Other bench ${w.name}`;
        await hr.goto(`${s.baseUrl}/hr/jobs/${job.id}/board`);
        const card = hr.getByRole('button', { name: 'Add to pool: Cy Lindqvist', exact: true });
        await card.click();
        const one = hr.getByRole('dialog', { name: 'Add Cy Lindqvist to a talent pool' });
        await one.getByLabel('Pool').selectOption({ label: pool });
        await one.getByRole('button', { name: 'Add to pool' }).click();
        await hr.locator('.alert-success', { hasText: `Cy Lindqvist is already in the pool “${pool}”.` }).waitFor();
        await card.click();
        await one.getByLabel('Pool').selectOption({ label: 'New pool…' });
        await one.getByLabel("New pool's name").fill(other);
        expect(await axeViolations(hr, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
        await screenshot(hr, `pools-board-picker-${w.name}`);
        await one.getByRole('button', { name: 'Add to pool' }).click();
        await hr.locator('.alert-success', { hasText: `Cy Lindqvist added to the pool “${other}”.` }).waitFor();
        await one.waitFor({ state: 'detached' });
        // Escape closes it, and the focus is back on the card's button.
        await card.click();
        await one.waitFor();
        await hr.keyboard.press('Escape');
        await one.waitFor({ state: 'detached' });
        expect(await hr.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Add to pool: Cy Lindqvist');
        expect(await axeViolations(hr, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
        expect(await hr.evaluate(() => document.documentElement.scrollWidth), 'page width').to.be.at.most(w.width);
        await screenshot(hr, `pools-board-card-${w.name}`);
      });
    }
  });
}

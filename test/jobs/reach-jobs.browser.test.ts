/**
 * Issue 21's job fields in real Chromium, at a phone's width and a desktop's: HR sets a department
 * (from the suggestions), a closing date in the browser's time zone (Asia/Kolkata, UTC+05:30), the
 * countries applicants may live in and a pay period, by keyboard where a user would; then the
 * public pages show them (job page, JSON-LD, /careers grouped and filtered by department). axe
 * clean throughout. Screenshots in test/artifacts/reach-jobs-*.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, releaseBrowser, sharedBrowser, openPage, screenshot } from '../helpers/browser.js';
import { makeJob } from '../helpers/factories.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrSession, openHrPage } from '../helpers/hr.js';

const ZONE = 'Asia/Kolkata';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`job departments, closing dates, countries and pay periods in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(180_000);
    let s: TestServer;
    let browser: Browser;
    let token: string;

    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      browser = await sharedBrowser();
      await makeJob(s.ctx, { public_id: 'existing-eng', title: 'Existing Engineer', department: 'Engineering', status: 'ACTIVE' });
      await makeJob(s.ctx, { public_id: 'existing-sales', title: 'Existing Seller', department: 'Sales', status: 'ACTIVE' });
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    for (const [width, name] of [
      [390, 'phone'],
      [1280, 'desktop'],
    ] as const) {
      it(`HR sets them in the editor and applicants see them (${name})`, async () => {
        const title = `Remote Platform Engineer ${name}`;
        const slug = `remote-platform-engineer-${name}`;
        const hr = await openHrPage(browser, s.baseUrl, token, { width, timezoneId: ZONE });
        const { page } = hr;
        await page.goto(`${s.baseUrl}/hr/jobs/new`);
        await page.locator('#job-title').waitFor();

        // The title, then the public id's placeholder shows the id it will make.
        await page.locator('#job-title').focus();
        await page.keyboard.type(title);
        // (The id maker is loaded once a title is typed.)
        await page.waitForFunction(
          (want) => document.querySelector('#job-public_id')?.getAttribute('placeholder') === want,
          `e.g. ${slug}`,
        );

        // Department: typed with the keyboard, suggested from the departments in use.
        expect(await page.locator('#job-department').getAttribute('list')).to.equal('job-department-suggestions');
        expect(
          await page.locator('#job-department-suggestions option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
        ).to.deep.equal(['Engineering', 'Sales']);
        await page.locator('#job-department').focus();
        await page.keyboard.type('Engineering');

        // Closing date in the browser's zone; the hint names the zone and the UTC instant.
        expect(await page.locator('#job-closes_at').getAttribute('type')).to.equal('datetime-local');
        // Chromium's ICU names the zone by its older id.
        expect(await page.locator('#job-closes_at-hint').innerText()).to.match(/Asia\/(?:Kolkata|Calcutta) \(UTC\+05:30\)/);
        await page.fill('#job-closes_at', '2099-06-30T18:00');
        expect(await page.locator('#job-closes_at-hint').innerText()).to.include('That is 2099-06-30 12:30 UTC.');

        await page.fill('#job-location', 'Remote — Anywhere');
        await page.selectOption('#job-job_type', 'FULL_TIME');
        expect(await page.locator('#job-applicant_countries').count()).to.equal(0);
        await page.selectOption('#job-work_mode', 'REMOTE');
        await page.selectOption('#job-status', 'ACTIVE');
        await page.locator('#job-applicant_countries').focus();
        await page.keyboard.type('us, ca');
        expect(await page.locator('#job-applicant_countries-hint').innerText()).to.include('United States, Canada');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `reach-jobs-editor-basics-${name}${suffix}`);

        // Compensation by keyboard: the tab list's arrow keys, then the pay period.
        await page.getByRole('tab', { name: 'Basics' }).focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
        expect(await page.getByRole('tab', { name: 'Compensation' }).getAttribute('aria-selected')).to.equal('true');
        expect(await page.locator('#job-salary_period option').allInnerTexts()).to.deep.equal(['Per year', 'Per month', 'Per hour']);
        expect(await page.locator('#job-salary_period').inputValue()).to.equal('YEAR');
        await page.locator('#job-salary_period').focus();
        await page.keyboard.press('End');
        await page.selectOption('#job-salary_period', 'HOUR');
        await page.fill('#job-min_salary', '40');
        await page.fill('#job-max_salary', '60');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `reach-jobs-editor-pay-${name}${suffix}`);

        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.waitForURL(/\/hr\/jobs\/list$/);
        const row = page.locator('tr', { hasText: title });
        expect(await row.innerText())
          .to.include('Engineering')
          .and.include('Closes');
        // The closing date in the viewer's zone (Kolkata), not UTC.
        await page.waitForFunction(
          (t) =>
            [...document.querySelectorAll('tr')].some((r) => r.textContent?.includes(t as string) && r.textContent.includes('GMT+5:30')),
          title,
        );
        expect(await row.locator('.closes-at').innerText()).to.equal('Closes Jun 30, 2099, 6:00 PM GMT+5:30');
        expect(await axeViolations(page)).to.deep.equal([]);

        const saved = await s.ctx.db('jobs').where({ public_id: slug }).first();
        expect(saved, 'job saved under the id made from its title').to.not.equal(undefined);
        expect(saved.department).to.equal('Engineering');
        expect(saved.salary_period).to.equal('HOUR');

        // Back in the editor: the closing date reads back in the browser's zone.
        await page.goto(`${s.baseUrl}/hr/jobs/${saved.id}/edit`);
        await page.locator('#job-title').waitFor();
        await page.waitForFunction(() => (document.querySelector('#job-closes_at') as HTMLInputElement | null)?.value !== '');
        expect(await page.locator('#job-closes_at').inputValue()).to.equal('2099-06-30T18:00');
        expect(await page.locator('#job-applicant_countries').inputValue()).to.equal('US, CA');
        expect(await page.locator('#job-department').inputValue()).to.equal('Engineering');
        expect(hr.errors, 'console errors').to.deep.equal([]);
        await hr.context.close();

        // The applicant's side.
        const visitor = await openPage(browser, { width });
        const pub = visitor.page;
        await pub.goto(`${s.baseUrl}/careers/${slug}`);
        const tiles = await pub.locator('.info-tiles').innerText();
        expect(tiles).to.include('Department').and.include('Engineering');
        expect(tiles).to.include('Applications close').and.include('30 Jun 2099, 12:30 UTC');
        expect(tiles).to.include('$40 – $60 per hour');
        const jsonLd = JSON.parse((await pub.locator('script[type="application/ld+json"]').textContent())!);
        expect(jsonLd.validThrough).to.equal('2099-06-30T12:30:00.000Z');
        expect(jsonLd.applicantLocationRequirements).to.deep.equal([
          { '@type': 'Country', name: 'United States' },
          { '@type': 'Country', name: 'Canada' },
        ]);
        expect(jsonLd.baseSalary.value.unitText).to.equal('HOUR');
        expect(await axeViolations(pub)).to.deep.equal([]);
        await screenshot(pub, `reach-jobs-public-job-${name}${suffix}`);

        // /careers: department headings, and the department filter by keyboard.
        await pub.goto(`${s.baseUrl}/careers`);
        const headings = await pub.locator('h2.job-group-heading').allInnerTexts();
        expect(headings).to.include.members(['Engineering', 'Sales']);
        expect(await pub.locator('section.job-group', { hasText: 'Engineering' }).innerText())
          .to.include(title)
          .and.include('$40 – $60 per hour');
        expect(await axeViolations(pub)).to.deep.equal([]);
        await screenshot(pub, `reach-jobs-careers-${name}${suffix}`);
        await pub.locator('#f-department').focus();
        await pub.selectOption('#f-department', 'Sales');
        await pub.locator('.filter-actions button[type="submit"]').focus();
        await pub.keyboard.press('Enter');
        await pub.waitForURL(/department=Sales/);
        expect(await pub.locator('.job-card-title').allInnerTexts()).to.deep.equal(['Existing Seller']);
        expect(await axeViolations(pub)).to.deep.equal([]);
        expect(visitor.errors, 'console errors').to.deep.equal([]);
        await visitor.context.close();
      });
    }
  });
}

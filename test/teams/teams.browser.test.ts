/**
 * Hiring teams in real Chromium (issue 31), at 1280 px and 390 px: an admin puts a hiring manager
 * on a job's team from the job editor's Team tab by keyboard; the applicant page lists who can see
 * the applicant and why (admin, recruiter, the job's hiring manager, an interviewer asked for a
 * stage); the hiring manager's applicants list shows only their job's applicants. Axe-clean at
 * each step, no sideways scrolling at 390 px; screenshots in test/artifacts/teams-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { toDbDate } from '../../src/db/codecs.js';
import { insertApplications } from '../helpers/applications.js';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
];

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, 'page width').to.be.at.most(width);
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`hiring teams in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let adminToken: string;
    const tabs: PageWithErrors[] = [];

    before(async () => {
      s = await startTestServer(kind);
      adminToken = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'lead.admin'));
      await createHrUser(s.ctx.db, 'rita.recruiter', { role: 'recruiter' });
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
      it(`${w.name}: the Team tab, who can see an applicant, and a hiring manager's applicants`, async () => {
        const db = s.ctx.db;
        const manager = `hm.${w.name}`;
        const managerId = await createHrUser(db, manager, { role: 'hiring_manager' });
        const interviewerId = await createHrUser(db, `iv.${w.name}`, { role: 'interviewer' });
        const own = await makeJob(s.ctx, { title: `Platform Engineer ${w.name}` });
        const other = await makeJob(s.ctx, { title: `Sales Lead ${w.name}` });
        await insertApplications(
          db,
          own.id,
          [{ first_name: 'Olga', last_name: `Own${w.name}`, email: `own.${w.name}@example.com`, phone: '+15550101', resume_name: null }],
          [],
        );
        await insertApplications(
          db,
          other.id,
          [
            {
              first_name: 'Otto',
              last_name: `Other${w.name}`,
              email: `other.${w.name}@example.com`,
              phone: '+15550102',
              resume_name: null,
            },
          ],
          [],
        );
        const app = await db('applications').where({ job_id: own.id }).first('id', 'stage_id');
        const stage = await db('job_stages').where({ job_id: own.id }).orderBy('position').first('id', 'name');
        const now = toDbDate(new Date());
        await db('scorecards').insert({
          application_id: app.id,
          stage_id: stage.id,
          stage_name: stage.name,
          interviewer_user_id: interviewerId,
          interviewer_name: `iv.${w.name}`,
          requested_at: now,
          ratings: '{}',
          updated_at: now,
        });

        // The admin: the Team tab, by keyboard.
        const admin = await openHrPage(browser, s.baseUrl, adminToken, { width: w.width, height: w.height });
        tabs.push(admin);
        const page = admin.page;
        await page.goto(`${s.baseUrl}/hr/jobs/${own.id}/edit`);
        await page.getByRole('tab', { name: 'Basics' }).focus();
        await page.keyboard.press('End');
        const teamTab = page.getByRole('tab', { name: 'Team' });
        expect(await teamTab.getAttribute('aria-selected')).to.equal('true');
        await page.getByText("No one is on this job's team yet.").waitFor();
        const userSelect = page.getByLabel('HR user');
        await userSelect.focus();
        await userSelect.selectOption({ label: `${manager} (Hiring manager)` });
        await page.getByLabel('Team role', { exact: true }).selectOption('hiring_manager');
        await page.getByRole('button', { name: 'Add', exact: true }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('button', { name: 'Save team' }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: 'Team saved: 1 member.' }).waitFor();
        expect(await page.getByLabel(`Team role of ${manager}`).inputValue()).to.equal('hiring_manager');
        const stored = await db('job_team_members').where({ job_id: own.id });
        expect(stored.map((m) => [Number(m.user_id), m.role])).to.deep.equal([[managerId, 'hiring_manager']]);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `teams-team-tab-${w.name}`);

        // The applicant page: who can see this applicant and why.
        await page.goto(`${s.baseUrl}/hr/applicants/${app.id}`);
        const access = page.locator('section.access-list');
        await access.waitFor();
        const lines = (await access.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        expect(lines).to.include.members([
          'lead.admin admin',
          'rita.recruiter recruiter',
          `${manager} hiring manager of Platform Engineer ${w.name}`,
          `iv.${w.name} asked to interview (${stage.name})`,
        ]);
        expect(lines.some((l) => l.startsWith(`hm.${w.name === 'wide' ? 'narrow' : 'wide'} `))).to.equal(false);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noSidewaysScroll(page, w.width);
        await screenshot(page, `teams-applicant-access-${w.name}`);

        // The hiring manager: their applicants list holds only their job's applicant.
        const hm = await openHrPage(browser, s.baseUrl, await liveToken(db, managerId), { width: w.width, height: w.height });
        tabs.push(hm);
        await hm.page.goto(`${s.baseUrl}/hr/applicants`);
        const body = await hm.page.locator('main').innerText();
        expect(body).to.contain(`Own${w.name}`);
        expect(body).not.to.contain(`Other${w.name}`);
        expect(body).not.to.contain('Sales Lead');
        expect(await axeViolations(hm.page)).to.deep.equal([]);
        await noSidewaysScroll(hm.page, w.width);
        await screenshot(hm.page, `teams-manager-applicants-${w.name}`);
        // The other job is answered as unknown.
        const otherApp = await db('applications').where({ job_id: other.id }).first('id');
        const res = await hm.context.request.get(`${s.baseUrl}/hr/applicants/${otherApp.id}`, { maxRedirects: 0 });
        expect(res.status()).to.equal(404);

        // The interviewer: the application they are asked to interview, with the job's description and their scorecard; no notes, no email.
        const iv = await openHrPage(browser, s.baseUrl, await liveToken(db, interviewerId), { width: w.width, height: w.height });
        tabs.push(iv);
        await iv.page.goto(`${s.baseUrl}/hr/applicants/${app.id}`);
        await iv.page.getByRole('heading', { name: 'The job' }).waitFor();
        await iv.page.getByRole('heading', { name: 'Scorecards' }).waitFor();
        await iv.page.getByText('Your scorecard').first().waitFor();
        expect(await iv.page.getByRole('heading', { name: 'Ask for feedback' }).count()).to.equal(0);
        expect(await iv.page.locator('section.access-list').count()).to.equal(0);
        expect(await iv.page.getByRole('heading', { name: 'Notes' }).count()).to.equal(0);
        expect(await iv.page.getByRole('heading', { name: 'Email the applicant' }).count()).to.equal(0);
        const navLinks = await iv.page
          .locator('nav[aria-label="HR"] a, nav[aria-label="HR mobile"] a')
          .evaluateAll((links) => links.map((a) => a.textContent?.trim()));
        expect(navLinks).to.deep.equal(['Applicants', 'My calendar', 'Applicants', 'My calendar']);
        expect(await axeViolations(iv.page)).to.deep.equal([]);
        await noSidewaysScroll(iv.page, w.width);
        await screenshot(iv.page, `teams-interviewer-applicant-${w.name}`);
      });
    }
  });
}

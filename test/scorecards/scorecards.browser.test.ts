/**
 * Interview kits, scorecards and the debrief in real Chromium, at 1280 and 390 px (issue 31):
 * - on a job's Interview kits page (linked from its board), HR writes a stage's kit by keyboard
 *   (attributes with what 1 to 4 mean, questions), saves it and saves it as a template; on
 *   another job, "Use template" fills the kit, which is saved;
 * - on an applicant's page, HR asks a colleague and themself for feedback, fills in their own
 *   scorecard (the kit's questions shown; ratings and "No evidence", a recommendation), saves the
 *   draft, submits it; the colleague, whose scorecard is not submitted, sees its content hidden;
 *   the debrief shows the scorecards side by side and records a decision that moves the
 *   application to the next stage;
 * axe-core clean, nothing wider than the screen, no console errors; screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedPeople, type Seeded } from '../applicants/helpers.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`interview kits and scorecards in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let seeded: Seeded;
    let alice: string;
    let ian: string;
    let ianId: number;

    before(async () => {
      s = await startTestServer(kind);
      seeded = await seedPeople(s.ctx.db);
      alice = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
      ianId = await createHrUser(s.ctx.db, 'ian', { role: 'recruiter' });
      ian = await liveToken(s.ctx.db, ianId);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    async function open(token: string, width: number): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
      const t = await openHrPage(browser, s.baseUrl, token, { width, height: width > 500 ? 900 : 844, timezoneId: 'Europe/Berlin' });
      return { page: t.page, errors: t.errors, close: () => t.context.close() };
    }
    const noOverflow = async (page: Page) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(await page.evaluate(() => window.innerWidth));
    const stageId = async (jobId: number, name: string) =>
      Number((await s.ctx.db('job_stages').where({ job_id: jobId, name }).first('id')).id);

    it('writes a stage kit by keyboard and saves it as a template (1280)', async () => {
      const { page, errors, close } = await open(alice, 1280);
      try {
        await page.goto(`${s.baseUrl}/hr/jobs/${seeded.jobA.id}/board`);
        await page.getByRole('link', { name: 'Interview kits' }).click();
        await page.getByRole('heading', { name: 'Interview kits: Backend Engineer' }).waitFor();
        await page.getByLabel('Stage').selectOption({ label: 'Interview (no kit yet)' });
        await page.getByLabel('Instructions for interviewers').fill('Ask about a system they built.');
        await page.getByLabel('Questions (one per line)').fill('Design a URL shortener.\nTell us about a hard bug.');
        // By keyboard: Add attribute, then Tab through its name and four levels.
        await page.getByRole('button', { name: 'Add attribute' }).focus();
        await page.keyboard.press('Enter');
        await page.getByLabel('Name', { exact: true }).focus();
        await page.keyboard.type('System design');
        for (const level of ['Could not', 'With help', 'Well', 'Better than us']) {
          await page.keyboard.press('Tab');
          await page.keyboard.type(level);
        }
        await page.getByRole('button', { name: 'Save kit' }).click();
        await page.getByRole('status').filter({ hasText: 'Kit for Interview saved.' }).waitFor();
        await page.getByLabel('Template name').fill('Engineering onsite');
        await page.getByRole('button', { name: 'Save as template' }).click();
        await page.getByRole('status').filter({ hasText: 'Template “Engineering onsite” saved.' }).waitFor();
        const kit = await s.ctx
          .db('interview_kits')
          .where({ stage_id: await stageId(seeded.jobA.id, 'Interview') })
          .first();
        expect(JSON.parse(kit.attributes)).to.deep.equal([
          { name: 'System design', levels: ['Could not', 'With help', 'Well', 'Better than us'] },
        ]);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noOverflow(page);
        await screenshot(page, 'scorecards-kits-1280');
        expect(errors).to.deep.equal([]);
      } finally {
        await close();
      }
    });

    it('starts a kit from a template with "Use template" (390)', async () => {
      const { page, errors, close } = await open(alice, 390);
      try {
        await page.goto(`${s.baseUrl}/hr/jobs/${seeded.jobB.id}/kits`);
        await page.getByLabel('Stage').selectOption({ label: 'Interview (no kit yet)' });
        await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Engineering onsite' });
        await page.getByRole('button', { name: 'Use template' }).click();
        expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('System design');
        await page.getByRole('button', { name: 'Save kit' }).click();
        await page.getByRole('status').filter({ hasText: 'Kit for Interview saved.' }).waitFor();
        const kit = await s.ctx
          .db('interview_kits')
          .where({ stage_id: await stageId(seeded.jobB.id, 'Interview') })
          .first();
        expect(kit.template_id).to.not.equal(null);
        expect(await axeViolations(page)).to.deep.equal([]);
        await noOverflow(page);
        await screenshot(page, 'scorecards-kits-390');
        expect(errors).to.deep.equal([]);
      } finally {
        await close();
      }
    });

    for (const [width, email] of [
      [1280, 'jose.muller@example.com'],
      [390, 'bjorn@example.no'],
    ] as const) {
      it(`asks for feedback, fills in and submits a scorecard, and records the debrief's decision (${width})`, async () => {
        const appId = seeded.ids.get(email)!;
        const { page, errors, close } = await open(alice, width);
        // The seeded applications name resumes that were never stored: the page's resume view gets a 404 for those, and only for those.
        const failed: string[] = [];
        page.on('response', (r) => {
          if (r.status() >= 400) failed.push(new URL(r.url()).pathname);
        });
        try {
          await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          const section = page.locator('section.scorecards-section');
          await section.getByRole('heading', { name: 'Scorecards' }).waitFor();
          await section.getByLabel('Stage').selectOption({ label: 'Interview' });
          await section.getByLabel('Interviewer').selectOption({ label: 'ian' });
          await section.getByRole('button', { name: 'Ask for feedback' }).click();
          await section.getByRole('status').filter({ hasText: 'ian was asked for feedback on Interview.' }).first().waitFor();
          await section.getByLabel('Interviewer').selectOption({ label: 'alice' });
          await section.getByLabel('Stage').selectOption({ label: 'Interview' });
          await section.getByRole('button', { name: 'Ask for feedback' }).click();
          const mine = section.locator('li.card', { has: page.getByRole('heading', { name: 'Your scorecard · Interview' }) });
          await mine.waitFor();
          expect(await mine.getByText('Design a URL shortener.').count()).to.equal(1);
          // By keyboard: the rating's radio, then the note.
          const design = mine.getByRole('group', { name: 'System design' });
          await design.getByRole('radio', { name: '3: Well' }).focus();
          await page.keyboard.press('Space');
          await design.getByLabel('Note on System design').fill('Clear trade-offs.');
          await mine.getByRole('group', { name: 'Overall recommendation' }).getByRole('radio', { name: 'Yes', exact: true }).check();
          await mine.getByRole('button', { name: 'Save draft' }).click();
          await mine.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
          await mine.getByRole('button', { name: 'Submit scorecard' }).click();
          await mine.getByText('Submitted', { exact: true }).waitFor();

          const debrief = page.locator('section.debrief-section');
          await debrief.getByRole('columnheader', { name: 'alice' }).waitFor();
          expect(await debrief.getByRole('row', { name: /System design/ }).innerText()).to.match(/System design\s+3\s+3/);
          expect(await debrief.getByRole('row', { name: /Recommendation/ }).innerText()).to.include('Yes');
          expect(await axeViolations(page)).to.deep.equal([]);
          await noOverflow(page);
          await screenshot(page, `scorecards-applicant-${width}`);

          const before = Number((await s.ctx.db('applications').where({ id: appId }).first('stage_id')).stage_id);
          await debrief.getByRole('radio', { name: 'Advance to the next stage' }).check();
          await debrief.getByRole('button', { name: 'Record decision' }).click();
          await debrief.getByRole('status').filter({ hasText: 'Decision recorded.' }).waitFor();
          await debrief.getByText(/Advance\s+by alice/).waitFor();
          const after = Number((await s.ctx.db('applications').where({ id: appId }).first('stage_id')).stage_id);
          expect(after).to.not.equal(before);
          await screenshot(page, `scorecards-debrief-${width}`);
          expect(failed.filter((p) => !/\/resume/.test(p))).to.deep.equal([]);
          expect(errors.filter((e) => !(e.startsWith('Failed to load resource') && failed.length))).to.deep.equal([]);
        } finally {
          await close();
        }

        // Ian, with his scorecard still a draft, sees Alice's without its content, and no debrief.
        const other = await open(ian, width);
        const otherFailed: string[] = [];
        other.page.on('response', (r) => {
          if (r.status() >= 400) otherFailed.push(new URL(r.url()).pathname);
        });
        try {
          await other.page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          const card = other.page.locator('li.card', { has: other.page.getByRole('heading', { name: 'alice · Interview' }) });
          await card.getByText('Hidden until you submit your own scorecard on this application.').waitFor();
          expect(await other.page.locator('section.debrief-section').innerText()).to.include('Hidden until you submit your own scorecard');
          expect(await other.page.locator('section.scorecards-section').innerText()).not.to.include('Clear trade-offs.');
          expect(await axeViolations(other.page)).to.deep.equal([]);
          await screenshot(other.page, `scorecards-blind-${width}`);
          expect(otherFailed.filter((p) => !/\/resume/.test(p))).to.deep.equal([]);
          expect(other.errors.filter((e) => !(e.startsWith('Failed to load resource') && otherFailed.length))).to.deep.equal([]);
        } finally {
          await other.close();
        }
      });
    }
    it("an outside interviewer's link shows the kit and their scorecard only, takes it by keyboard and dies when submitted (390); the dashboard lists overdue scorecards (1280)", async () => {
      const appId = seeded.ids.get('asha@dsouza.in')!;
      const stage = await stageId(seeded.jobA.id, 'Interview');
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${appId}/scorecards/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          stage,
          interviewer_email: 'olga@example.com',
          interviewer_name: 'Olga Ortiz',
          interview_at: '2026-01-01T10:00:00Z',
        }),
      });
      expect(res.status).to.equal(201);
      // Email is off here: the link is made all the same; its token is read back the way the email would carry it.
      const { randomBytes, createHash } = await import('node:crypto');
      const token = randomBytes(32).toString('base64url');
      await s.ctx
        .db('scorecards')
        .where({ interviewer_email: 'olga@example.com' })
        .update({ token_hash: createHash('sha256').update(token).digest('hex') });

      const t = await openHrPage(browser, s.baseUrl, '', { width: 390, height: 844 });
      try {
        const page = t.page;
        await t.context.clearCookies();
        await page.goto(`${s.baseUrl}/feedback/${token}`);
        await page.getByRole('heading', { name: "Feedback on Asha D'Souza" }).waitFor();
        expect(await page.getByText('Design a URL shortener.').count()).to.equal(1);
        expect(await page.locator('body').innerText()).not.to.match(/Logout|asha@dsouza\.in|Applicants/);
        const design = page.getByRole('group', { name: 'System design' });
        await design.getByRole('radio', { name: '4: Better than us' }).focus();
        await page.keyboard.press('Space');
        await page.getByRole('group', { name: 'Overall recommendation' }).locator('input[value="strong_yes"]').check();
        expect(await axeViolations(page)).to.deep.equal([]);
        await noOverflow(page);
        await screenshot(page, 'scorecards-feedback-390');
        await page.getByRole('button', { name: 'Submit scorecard' }).click();
        await page.getByRole('heading', { name: 'Thank you' }).waitFor();
        const again = await page.goto(`${s.baseUrl}/feedback/${token}`);
        expect(again?.status()).to.equal(410);
        expect(await page.locator('main, body').first().innerText()).to.include('the scorecard was submitted');
        expect(await axeViolations(page)).to.deep.equal([]);
      } finally {
        await t.context.close();
      }

      // Ian's draft on José's application (asked above) was asked for long ago: overdue on the dashboard.
      await s.ctx.db('scorecards').whereNull('submitted_at').update({ requested_at: '2026-01-01 00:00:00.000', interview_at: null });
      const { page, errors, close } = await open(alice, 1280);
      try {
        await page.goto(`${s.baseUrl}/hr/dashboard`);
        const section = page.locator('section', { has: page.getByRole('heading', { name: /Overdue scorecards/ }) });
        await section.waitFor();
        expect(await section.innerText())
          .to.include('José Müller')
          .and.include('ian');
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, 'scorecards-dashboard-1280');
        expect(errors).to.deep.equal([]);
      } finally {
        await close();
      }
    });
  });
}

/**
 * Offers in real Chromium (issue 34), at 1280 and 390 px: on the applicant page's Offer section a
 * recruiter drafts an offer and submits it, the admin (the default chain's approver) approves it
 * and sends it; the candidate opens the emailed link: the terms and the letter, axe-clean; at 1280
 * px they accept by typing their name, at 390 px they decline with script off (a plain form). An
 * interviewer's applicant page has no Offer section. Screenshots in test/artifacts/offers-*.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readable, startSmtp } from '../helpers/smtp.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { hr } from '../applicants/helpers.js';
import { createDelivery } from '../../src/posts/index.js';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`offers in Chromium [${kind}]`, function () {
    this.timeout(240_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let browser: Browser;
    let delivery: ReturnType<typeof createDelivery>;
    let rita: string;
    let dana: string;
    let ivan: string;
    let apps: number[];
    let jobId: number;
    let danaId: number;
    let ritaId: number;
    const tabs: PageWithErrors[] = [];
    const suffix = kind === 'mysql' ? '-mysql' : '';

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        COMPANY_NAME: 'Acme',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme <jobs@acme.example>',
      });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined });
      danaId = await createHrUser(s.ctx.db, 'dana', { role: 'admin' });
      ritaId = await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' });
      const ivanId = await createHrUser(s.ctx.db, 'ivan', { role: 'interviewer' });
      [dana, rita, ivan] = await Promise.all([danaId, ritaId, ivanId].map((id) => liveToken(s.ctx.db, id)));
      await s.ctx.db('hr_users').where({ id: danaId }).update({ email: 'dana@acme.example' });
      const job = await makeJob(s.ctx.db, { title: 'Backend Engineer', currency: 'EUR', min_salary: 60000, max_salary: 80000 });
      jobId = job.id;
      await insertApplications(
        s.ctx.db,
        job.id,
        ['Aiko', 'Ben', 'Chen'].map((first_name) => ({
          first_name,
          last_name: 'Tester',
          email: `${first_name.toLowerCase()}@example.com`,
          phone: '+15550100',
        })),
        [],
      );
      apps = (await s.ctx.db('applications').orderBy('id').pluck('id')).map(Number);
      // The interviewer is asked about the first application (a scorecard request), so they may open its page.
      const stage = await s.ctx.db('job_stages').where({ job_id: job.id }).orderBy('position').first('id', 'name');
      const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
      await s.ctx.db('scorecards').insert({
        application_id: apps[0],
        stage_id: stage.id,
        stage_name: stage.name,
        interviewer_user_id: ivanId,
        interviewer_name: 'ivan',
        requested_by: ritaId,
        requested_at: now,
        ratings: '{}',
        updated_at: now,
      });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await delivery?.close();
      await s?.close();
      await smtp?.close();
    });
    /** HR tabs on applicant pages, whose resume's 404 may come late (the inserted applications have none). */
    const resumeless = new Set<PageWithErrors>();
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        const errors = resumeless.has(t) ? t.errors.filter((e) => !e.includes('status of 404')) : t.errors;
        expect(errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
      resumeless.clear();
    });

    /** An HR tab on the applicant page; the inserted applications have no stored resume (its 404 is expected). */
    const hrTab = async (token: string, appId: number, w: { width: number; height: number }) => {
      const tab = await openHrPage(browser, s.baseUrl, token, w);
      tabs.push(tab);
      resumeless.add(tab);
      await tab.page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
      return tab;
    };
    const quiet404 = (tab: PageWithErrors) =>
      tab.errors.splice(0, tab.errors.length, ...tab.errors.filter((e) => !e.includes('status of 404')));

    for (const [i, w] of [
      { name: 'wide', width: 1280, height: 900 },
      { name: 'narrow', width: 390, height: 844 },
    ].entries()) {
      it(`${w.name}: drafted, submitted, approved and sent from the Offer section; the candidate's page`, async () => {
        const appId = apps[i];
        const r = await hrTab(rita, appId, w);
        const section = r.page.locator('section.offer-section');
        await section.getByText('No offer yet.').waitFor();
        await section.getByRole('button', { name: 'Make an offer' }).click();
        await section.getByLabel('Base pay').fill('85000');
        expect(await section.getByLabel('Currency').inputValue()).to.equal('EUR');
        await section.getByLabel('Bonus').fill('10% target bonus');
        await section.getByLabel('Benefits').fill('30 days of leave');
        expect(await axeViolations(r.page)).to.deep.equal([]);
        await section.getByRole('button', { name: 'Draft the offer' }).click();
        await section.getByRole('status').filter({ hasText: 'Offer drafted.' }).waitFor();
        expect(await section.locator('.offer-status').innerText()).to.equal('Draft');
        expect(await section.innerText()).to.include("outside the job's range");
        await section.getByRole('button', { name: 'Submit for approval' }).click();
        await section.locator('.offer-status', { hasText: 'Pending approval' }).waitFor();
        expect(await section.locator('.offer-approvals').innerText()).to.include('dana: asked, waiting');
        expect(await axeViolations(r.page)).to.deep.equal([]);
        await screenshot(r.page, `offers-pending-${w.name}${suffix}`);
        quiet404(r);

        const d = await hrTab(dana, appId, w);
        const dSection = d.page.locator('section.offer-section');
        await dSection.getByLabel('Your comment (required to reject)').fill('Fine, above range but worth it.');
        await dSection.getByRole('button', { name: 'Approve' }).click();
        await dSection.locator('.offer-status', { hasText: 'Approved' }).waitFor();
        await dSection.getByRole('button', { name: 'Send to the candidate' }).click();
        await dSection.locator('.offer-status', { hasText: 'Sent' }).waitFor();
        expect(await axeViolations(d.page)).to.deep.equal([]);
        await screenshot(d.page, `offers-sent-${w.name}${suffix}`);
        quiet404(d);

        const from = smtp.mails.length;
        await delivery.worker.runDue();
        const mail = readable(smtp.mails.slice(from).find((m) => m.to.includes(i === 0 ? 'aiko@example.com' : 'ben@example.com'))!.raw);
        const path = /https?:\/\/[^/\s]+(\/offer\/[A-Za-z0-9_-]{43})/.exec(mail)![1];

        const c = await openPage(browser, w);
        tabs.push(c);
        await c.page.goto(s.baseUrl + path);
        expect(await c.page.locator('h1').innerText()).to.equal('Your offer from Acme');
        expect(await c.page.locator('.offer-terms').innerText()).to.include('85,000 EUR per year');
        expect(await c.page.locator('.offer-letter').innerText()).to.include(i === 0 ? 'Dear Aiko Tester' : 'Dear Ben Tester');
        expect(await c.page.locator('meta[name="robots"]').getAttribute('content')).to.include('noindex');
        const scroll = await c.page.evaluate(() => document.documentElement.scrollWidth);
        expect(scroll, 'no sideways scrolling').to.be.at.most(w.width);
        expect(await axeViolations(c.page)).to.deep.equal([]);
        await screenshot(c.page, `offers-candidate-${w.name}${suffix}`);

        if (i === 0) {
          await c.page.getByLabel('Full name').fill('Aiko Tester');
          await c.page.getByRole('button', { name: 'Accept and sign' }).click();
          await c.page.getByRole('status').filter({ hasText: 'you accepted the offer' }).waitFor();
          expect(await c.page.locator('main, body').first().innerText()).to.include('signed “Aiko Tester”');
          expect(await axeViolations(c.page)).to.deep.equal([]);
          await screenshot(c.page, `offers-accepted-${w.name}${suffix}`);
        } else {
          // Script off: the plain form declines.
          const off = await openPage(browser, { ...w, contextOptions: { javaScriptEnabled: false } });
          tabs.push(off);
          await off.page.goto(s.baseUrl + path);
          await off.page.getByLabel('Reason (optional)').fill('I took another offer.');
          await off.page.getByRole('button', { name: 'Decline the offer' }).click();
          await off.page.getByText('You declined the offer. Thank you for letting us know.').first().waitFor();
          await screenshot(off.page, `offers-declined-${w.name}${suffix}`);
        }
        // The applicant page follows.
        await r.page.reload();
        await r.page.locator('section.offer-section .offer-status', { hasText: i === 0 ? 'Accepted' : 'Declined' }).waitFor();
        quiet404(r);
      });
    }

    for (const w of [
      { name: 'wide', width: 1280, height: 900 },
      { name: 'narrow', width: 390, height: 844 },
    ]) {
      it(`${w.name}: an admin keeps the offer templates and the default approval chain`, async () => {
        const tab = await openHrPage(browser, s.baseUrl, dana, w);
        tabs.push(tab);
        const { page } = tab;
        await page.goto(`${s.baseUrl}/hr/settings/offers`);
        await page.getByRole('heading', { name: 'Standard offer letter (default)' }).waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        await page.getByRole('button', { name: 'New offer template' }).click();
        await page.getByLabel('Name').fill(`Senior ${w.name}`);
        await page.locator('#offer-template-body').click();
        await page.keyboard.type('Dear {first_name}, we offer {base_pay} {currency} and {salary_history}.');
        await page.getByRole('button', { name: 'Save template' }).click();
        // Checked here with the API's own schema: the unknown variable is named beside the letter.
        await page.getByText('Unknown variables: {salary_history}.').waitFor();
        await page.locator('#offer-template-body').click();
        await page.keyboard.press('Control+End');
        for (let i = 0; i < '{salary_history}.'.length; i++) await page.keyboard.press('Backspace');
        await page.keyboard.type('a bonus.');
        await page.getByRole('button', { name: 'Save template' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Template “Senior ${w.name}” created.` })
          .waitFor();
        expect(await page.locator('.template-list li', { hasText: `Senior ${w.name}` }).innerText()).to.include(
          'Dear {first_name}, we offer {base_pay} {currency} and a bonus.',
        );
        await page.getByLabel("Approval needed only when the pay is outside the job's range").check();
        await page.getByRole('button', { name: 'Save the approval chain' }).click();
        await page.getByRole('status').filter({ hasText: 'Approval chain saved.' }).waitFor();
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `offers-settings-${w.name}${suffix}`);
        const chain = await s.ctx.db('offer_approval_chains').where({ scope: 'default' }).first();
        expect(Number(chain.only_out_of_range)).to.equal(1);
        await s.ctx.db('offer_approval_chains').where({ scope: 'default' }).update({ only_out_of_range: false });
        // A job's own chain: dana, then rita, in order; then back to the default.
        await page.getByLabel('Job', { exact: true }).selectOption({ label: 'Backend Engineer' });
        await page.getByText('This job uses the default chain; saving gives it its own.').waitFor();
        const own = page.locator('form', { hasText: 'Approval chain of “Backend Engineer”' });
        await own.getByLabel('Each of them, in the order chosen').check();
        await own.getByLabel('dana (admin)').check();
        await own.getByLabel('rita (recruiter)').check();
        await own.getByRole('button', { name: 'Save the approval chain' }).click();
        await page.getByRole('button', { name: 'Use the default chain' }).waitFor();
        const saved = await s.ctx
          .db('offer_approval_chains')
          .where({ scope: `job:${jobId}` })
          .first();
        expect(saved.mode).to.equal('ORDER');
        expect(JSON.parse(saved.approver_ids)).to.deep.equal([danaId, ritaId]);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `offers-settings-job-${w.name}${suffix}`);
        await page.getByRole('button', { name: 'Use the default chain' }).click();
        await page.getByText('The job uses the default chain again.').waitFor();
        expect(
          await s.ctx
            .db('offer_approval_chains')
            .where({ scope: `job:${jobId}` })
            .count({ n: '*' }),
        ).to.deep.equal([{ n: 0 }]);
      });
    }

    it('390 px: an approver rejects by the emailed link (script on, axe clean), then another link approves with script off', async () => {
      const post = (p: string, body?: unknown) => hr(s.baseUrl, rita, p, { method: 'POST', body });
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      const made = await post(`/api/hr/applications/${apps[2]}/offers/`, {
        base_pay: 70000,
        salary_period: 'YEAR',
        currency: 'EUR',
        start_date: day(30),
        expires_on: day(7),
      });
      expect(made.status).to.equal(201);
      const linkOf = async () => {
        const from = smtp.mails.length;
        await delivery.worker.runDue();
        const mail = readable(smtp.mails.slice(from).find((m) => m.to.includes('dana@acme.example'))!.raw);
        return /https?:\/\/[^/\s]+(\/offer-approvals\/[A-Za-z0-9_-]{43})/.exec(mail)![1];
      };
      expect((await post(`/api/hr/offers/${made.body.id}/submit/`)).status).to.equal(200);
      const first = await linkOf();
      const tab = await openPage(browser, { width: 390, height: 844 });
      tabs.push(tab);
      const { page } = tab;
      await page.goto(s.baseUrl + first);
      expect(await page.locator('h1').innerText()).to.equal('Offer to approve');
      expect(await page.locator('.offer-terms').innerText()).to.include('70,000 EUR per year');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, `offers-approval-narrow${suffix}`);
      await page.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('Write why the offer is rejected').first().waitFor();
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.getByLabel('Comment (required to reject)').fill('Start a week later, please.');
      await page.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('You rejected the offer').waitFor();
      expect((await hr(s.baseUrl, rita, `/api/hr/offers/${made.body.id}/`)).body).to.include({
        status: 'draft',
        rejection_comment: 'Start a week later, please.',
      });

      expect((await post(`/api/hr/offers/${made.body.id}/submit/`)).status).to.equal(200);
      const second = await linkOf();
      const off = await openPage(browser, { width: 390, height: 844, contextOptions: { javaScriptEnabled: false } });
      tabs.push(off);
      await off.page.goto(s.baseUrl + second);
      await off.page.getByRole('button', { name: 'Approve' }).click();
      await off.page.getByText('You approved the offer.').waitFor();
      expect((await hr(s.baseUrl, rita, `/api/hr/offers/${made.body.id}/`)).body.status).to.equal('approved');
      await off.page.goto(s.baseUrl + second);
      expect(await off.page.locator('h1').innerText()).to.equal('Link no longer valid');
    });

    it('shows no Offer section to an interviewer, whose offer calls are refused', async () => {
      const t = await hrTab(ivan, apps[0], { width: 1280, height: 900 });
      await t.page.locator('h1').first().waitFor();
      expect(await t.page.locator('section.offer-section').count()).to.equal(0);
      const status = await t.page.evaluate(async (id) => {
        const res = await fetch(`/api/hr/applications/${id}/offers/`, {
          headers: { Authorization: `Bearer ${localStorage.getItem('jwt')}` },
        });
        return res.status;
      }, apps[0]);
      expect(status).to.equal(403);
      quiet404(t);
      t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !e.includes('status of 403')));
    });
  });
}

/**
 * The applicant's page (issue 30) in real Chromium at 1280×800 and 390×844, from a real
 * application (apply API through a tracking link, email on with a real SMTP server, delivered by
 * the real engine): the answers in the job's question order right beside the resume; the resume's
 * heading and Download clear of the sticky header when scrolled; History with each email once,
 * HR's notification only with "Show HR notifications", stage changes by name (no ids); Notes and
 * History wide enough to read (side by side at 1280, one column on a phone); the salary and phone
 * formatted; the tracking link named with the source; on a phone "Open the resume" instead of a
 * blank PDF frame. axe-core clean; screenshots under test/artifacts.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { startDelivery } from '../../src/posts/index.js';
import { axeViolations, releaseBrowser, sharedBrowser, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { hrSession, openHrPage } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { textPdfBytes } from '../fixtures/resumes.js';
import { hr } from './helpers.js';

async function startSmtp() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => cb());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const q = (text: string, answer_type: string, order: number, options: string[] = []) => ({
  text,
  answer_type,
  required: false,
  order,
  options,
  placeholder: '',
  help_text: '',
});

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`the applicant's page in Chromium [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(120_000);
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let delivery: ReturnType<typeof startDelivery>;
    let browser: Browser;
    let tab: PageWithErrors;
    let token: string;
    let appId: number;

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'careers@acme.example',
        HR_NOTIFY_EMAIL: 'hr@acme.example',
        APPLY_RATE_LIMIT: '0',
      });
      delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined }, s.ctx.outbox);
      token = (await hrSession(s.ctx.db)).token;
      const job = await makeJob(s.ctx.db, {
        title: 'Payroll Specialist',
        public_id: 'payroll-1',
        status: 'ACTIVE',
        currency: 'INR',
        questions: [
          q('Tools you use', 'checkbox', 0, ['SAP', 'Tally']),
          q('Why us?', 'short_text', 1),
          q('Languages', 'checkbox', 2, ['English', 'Hindi']),
          q('Years in payroll', 'number', 3),
        ],
      });
      const [tools, why, langs, years] = job.questions.map((x) => x.id);
      const link = await hr(s.baseUrl, token, '/api/hr/sources/links/', {
        method: 'POST',
        body: { name: 'Referral: Priya Sharma', source: 'referral', medium: 'employee', job_id: job.id },
      });
      expect(link.status, JSON.stringify(link.body)).to.equal(201);
      const go = await fetch(`${s.baseUrl}/go/${link.body.slug}`, { redirect: 'manual' });
      const cookie = go.headers.get('set-cookie')!.split(';')[0];
      const fields = validFields({
        email: 'asha@rao.example',
        phone: '+919876543210',
        resume: { data: textPdfBytes(['Asha Rao', 'Payroll compliance lead']), filename: 'cv.pdf', type: 'application/pdf' },
        professional_experiences: JSON.stringify([
          {
            company: 'Initech',
            role: 'Payroll lead',
            start: '2019-04',
            end: '2022-08',
            notice_period: '30 days',
            salary: '1200000',
            description: 'Ran payroll for 400 people.',
          },
        ]),
        answers: JSON.stringify([
          { question_id: years, answer: '6' },
          { question_id: langs, answer: ['English', 'Hindi'] },
          { question_id: why, answer: 'The people' },
          { question_id: tools, answer: ['SAP'] },
        ]),
      });
      const res = await fetch(`${s.baseUrl}/api/jobs/payroll-1/apply/`, {
        method: 'POST',
        body: toFormData(fields),
        headers: { Cookie: cookie },
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      appId = Number((await s.ctx.db('applications').first('id')).id);
      await eventually(async () => {
        expect((await s.ctx.db('email_posts').where('status', 'SUCCESS')).length).to.equal(2);
      }, 15_000);
      // A stage change through the API: the history names the stages.
      const stages = (await hr(s.baseUrl, token, `/api/hr/jobs/${job.id}/stages/`)).body.stages;
      expect(
        (await hr(s.baseUrl, token, `/api/hr/applications/${appId}/`, { method: 'PATCH', body: { stage: stages[1].id } })).status,
      ).to.equal(200);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await delivery?.stop();
      await s?.close();
      await smtp?.close();
    });
    afterEach(async () => {
      expect(tab.errors, 'console errors').to.deep.equal([]);
      await tab.context.close();
    });

    it('at 1280: answers in question order beside the resume, formatted facts, readable notes and history without duplicates', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 1280, height: 800 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
      await page.locator('iframe.resume-frame').waitFor();
      await page.locator('.timeline-entry').first().waitFor();
      await page.screenshot({ path: `test/artifacts/applicant-page-1280-screen${suffix}.png` });
      await screenshot(page, `applicant-page-1280${suffix}`);

      // The answers, in the job's order, start on the first screen, beside the resume.
      expect(await page.locator('.answers .answer dt').allInnerTexts()).to.deep.equal([
        'Tools you use',
        'Why us?',
        'Languages',
        'Years in payroll',
      ]);
      expect(await page.locator('.answers .answer dd').allInnerTexts()).to.deep.equal(['SAP', 'The people', 'English, Hindi', '6']);
      const answers = (await page.locator('#answers-heading').boundingBox())!;
      const resume = (await page.locator('.resume-panel').boundingBox())!;
      expect(answers.y, 'answers on the first screen').to.be.lessThan(800);
      expect(resume.x).to.be.greaterThan(answers.x + answers.width - 1);

      // Phone grouped, salary in the job's currency, the tracking link named with the source.
      const facts = await page.locator('.applicant-summary .facts').innerText();
      expect(facts).to.include('+91 98765 43210');
      expect(facts).to.match(/referral \/ employee · tracking link “Referral: Priya Sharma”/);
      expect(await page.locator('.entry-card').first().innerText()).to.include('₹1,200,000');

      // History: each email once; HR's notification only when asked; stage names, no ids.
      const history = page.locator('.timeline');
      const lines = () => history.locator('.timeline-text').allInnerTexts();
      const first = await lines();
      expect(first.filter((l) => l.startsWith('Application receipt email'))).to.have.length(1);
      expect(first.filter((l) => l.startsWith('HR notification'))).to.have.length(0);
      expect(first).to.include('Stage changed from Applied to Screen');
      expect((await history.innerText()).match(/\bid: \d/)).to.equal(null);
      const toggle = page.getByLabel('Show HR notifications (1)');
      await toggle.focus();
      await page.keyboard.press('Space');
      expect((await lines()).filter((l) => l.startsWith('HR notification'))).to.have.length(1);
      expect((await lines()).filter((l) => l.startsWith('Application receipt email'))).to.have.length(1);

      // Notes and history side by side, each wide enough to read.
      const notes = (await page.locator('.notes-section').boundingBox())!;
      const hist = (await page.locator('.history-section').boundingBox())!;
      expect(notes.width).to.be.greaterThan(500);
      expect(hist.width).to.be.greaterThan(500);
      expect(Math.abs(notes.y - hist.y)).to.be.lessThan(5);
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);

      // Scrolled down through the answers, or jumped to the resume, its heading and Download stay below the sticky header.
      const header = (await page.locator('.site-header').boundingBox())!;
      const clear = async (why: string) => {
        for (const sel of ['#resume-heading', '.resume-head a[data-resume-download]']) {
          const box = (await page.locator(sel).boundingBox())!;
          expect(box.y, `${sel} ${why}`).to.be.at.least(header.y + header.height);
          expect(box.y + box.height, `${sel} ${why}`).to.be.lessThan(800);
        }
      };
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.waitForFunction(() => window.scrollY >= 399);
      await clear('scrolled');
      await page.screenshot({ path: `test/artifacts/applicant-page-1280-scrolled${suffix}.png` });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => document.getElementById('resume-heading')!.scrollIntoView());
      await clear('jumped to');
    });

    it('on a phone: one column, and "Open the resume" instead of a blank PDF frame', async () => {
      tab = await openHrPage(browser, s.baseUrl, token, { width: 390, height: 844 });
      const { page } = tab;
      await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
      await page.locator('.timeline-entry').first().waitFor();
      await screenshot(page, `applicant-page-390${suffix}`);
      const open = page.getByRole('link', { name: 'Open the resume (PDF, opens in a new tab)' });
      expect(await open.isVisible()).to.equal(true);
      expect(await open.getAttribute('href')).to.equal(`/api/hr/applications/${appId}/resume/?disposition=inline`);
      expect(await page.locator('iframe.resume-frame').count()).to.equal(0);
      const notes = (await page.locator('.notes-section').boundingBox())!;
      const hist = (await page.locator('.history-section').boundingBox())!;
      expect(hist.y).to.be.greaterThan(notes.y + notes.height - 1);
      expect(notes.width).to.be.greaterThan(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no sideways scrolling').to.be.at.most(0);
      expect(await axeViolations(page, { rules: ['label-content-name-mismatch'] })).to.deep.equal([]);
    });
  });
}

/**
 * Job alerts in real Chromium (issue 35): at 1280 px a visitor subscribes from the form under the careers list (its filters carried),
 * opens the confirmation link from the email the SMTP server received, confirms, and unsubscribes
 * with the link of the digest; at 390 px the same on /job-alerts, with a mistake corrected first;
 * and the whole way with script off (plain form posts). Axe-clean at every step of the first two
 * (axe runs in the page: script on); screenshots in test/artifacts/alerts-*.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, openPage, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readable, startSmtp } from '../helpers/smtp.js';
import { makeJob } from '../helpers/factories.js';
import { createDelivery } from '../../src/posts/index.js';
import { sendDigests } from '../../src/alerts/index.js';
import { ALERT_MESSAGES as M } from '../../src/alerts/schema.js';

const DAY = 86_400_000;
const BASE = 'https://careers.acme.example';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`job alerts in Chromium [${kind}]`, function () {
    this.timeout(180_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let browser: Browser;
    let delivery: ReturnType<typeof createDelivery>;
    const tabs: PageWithErrors[] = [];

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, COMPANY_NAME: 'Acme', PUBLIC_BASE_URL: BASE });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(Date.now() + 1000 * DAY), log: () => undefined });
      for (const [title, department, work_mode] of [
        ['Backend Engineer', 'Engineering', 'REMOTE'],
        ['Account Executive', 'Sales', 'ONSITE'],
      ])
        await makeJob(s.ctx, { title, department, work_mode, location: 'Berlin, Germany' });
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await delivery?.close();
      await s?.close();
      await smtp?.close();
    });
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        expect(t.errors, 'console errors').to.deep.equal([]);
        await t.context.close();
      }
    });

    // axe runs in the page, so the axe-checked runs have script on (the pages have no island: script changes nothing in them).
    const open = async (width: number, script = true) => {
      const tab = await openPage(browser, { width, height: 900, contextOptions: { javaScriptEnabled: script } });
      tabs.push(tab);
      return tab.page;
    };
    const cleanAt = async (page: Page, name: string, axe = true) => {
      if (axe) expect(await axeViolations(page), name).to.deep.equal([]);
      if (axe) await screenshot(page, `alerts-${name}`);
    };
    const mailTo = async (address: string) => {
      await delivery.worker.runDue();
      const mail = smtp.mails.filter((m) => m.to.includes(address)).at(-1);
      expect(mail, address).to.not.equal(undefined);
      return readable(mail!.raw);
    };
    const linkOf = (text: string, purpose: string) => {
      const m = new RegExp(`${BASE.replace(/\./g, '\\.')}/job-alerts/${purpose}/[0-9a-z]+\\.[0-9a-z]+\\.[0-9a-f]{40}`).exec(text);
      expect(m, purpose).to.not.equal(null);
      return m![0].replace(BASE, s.baseUrl);
    };

    /** Confirms from the email, gets a digest with a new job, and unsubscribes from its link. */
    const confirmAndUnsubscribe = async (page: Page, address: string, width: number, newJob: Record<string, string>, axe = true) => {
      const clean = (p: Page, name: string) => cleanAt(p, name, axe);
      const confirm = linkOf(await mailTo(address), 'confirm');
      await page.goto(confirm);
      await expect(await page.locator('h1').textContent()).to.equal('Confirm your job alert');
      await clean(page, `${width}-confirm`);
      await page.getByRole('button', { name: 'Confirm job alert' }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('status').textContent()).to.include(M.confirmed);
      await clean(page, `${width}-confirmed`);
      await makeJob(s.ctx, newJob);
      await sendDigests({ ...s.ctx, now: () => new Date(Date.now() + 2 * DAY) });
      const digest = await mailTo(address);
      expect(digest).to.include(newJob.title);
      await page.goto(linkOf(digest, 'unsubscribe'));
      await clean(page, `${width}-unsubscribe`);
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('status').textContent()).to.include(M.unsubscribed);
      await clean(page, `${width}-unsubscribed`);
      expect(Number((await s.ctx.db('job_alerts').where({ email: address }).count({ n: '*' }).first())!.n)).to.equal(0);
    };

    const clean = (page: Page, name: string) => cleanAt(page, name);

    it('1280 px: subscribes under the careers list with its filters, confirms from the email, unsubscribes', async () => {
      const page = await open(1280);
      await page.goto(`${s.baseUrl}/careers?department=Engineering`);
      const form = page.locator('.job-alerts-cta');
      expect(await form.textContent()).to.include('A job alert with Engineering.');
      await form.getByLabel('Email address').fill('ann@example.com');
      await form.getByLabel('Weekly').check();
      await form.getByRole('checkbox').check();
      await clean(page, '1280-careers');
      await form.getByRole('button', { name: 'Create job alert' }).click();
      await page.waitForURL('**/job-alerts?sent=1');
      expect(await page.getByRole('status').textContent()).to.include(M.sent);
      await clean(page, '1280-sent');
      const row = await s.ctx.db('job_alerts').where({ email: 'ann@example.com' }).first();
      expect(row).to.include({ department: 'Engineering', frequency: 'weekly', status: 'PENDING' });
      await confirmAndUnsubscribe(page, 'ann@example.com', 1280, {
        title: 'Frontend Engineer',
        department: 'Engineering',
        location: 'Berlin',
      });
    });

    it('390 px: the alerts page shows a mistake beside its field, then subscribes, confirms and unsubscribes', async () => {
      const page = await open(390);
      await page.goto(`${s.baseUrl}/job-alerts`);
      await clean(page, '390-form');
      await page.getByLabel('Email address').fill('ben@invalid');
      await page.getByLabel('Work mode').selectOption('REMOTE');
      await page.getByLabel('Keywords in the job title').fill('engineer');
      await page.getByRole('button', { name: 'Create job alert' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#alert-email-error').textContent()).to.equal(M.emailInvalid);
      expect(await page.locator('#alert-consent-error').textContent()).to.equal(M.consent);
      expect(await page.getByLabel('Work mode').inputValue()).to.equal('REMOTE');
      await clean(page, '390-errors');
      await page.getByLabel('Email address').fill('ben@example.com');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Create job alert' }).click();
      await page.waitForURL('**/job-alerts?sent=1');
      await clean(page, '390-sent');
      await confirmAndUnsubscribe(page, 'ben@example.com', 390, {
        title: 'Remote Data Engineer',
        department: 'Data',
        location: 'Lisbon',
        work_mode: 'REMOTE',
      });
    });

    it('without script (as a mail client opens links): subscribes, confirms and unsubscribes by plain form posts', async () => {
      const page = await open(390, false);
      await page.goto(`${s.baseUrl}/job-alerts?department=Sales`);
      expect(await page.getByLabel('Department').inputValue()).to.equal('Sales');
      await page.getByLabel('Email address').fill('cara@example.com');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Create job alert' }).click();
      await page.waitForURL('**/job-alerts?sent=1');
      expect(await page.getByRole('status').textContent()).to.include(M.sent);
      await confirmAndUnsubscribe(page, 'cara@example.com', 0, { title: 'Sales Lead', department: 'Sales', location: 'Paris' }, false);
    });
  });
}

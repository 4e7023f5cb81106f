/**
 * The rate limits as people meet them in Chromium, behind a trusted proxy (TRUST_PROXY=true): the
 * test client connects from 127.0.0.1 and plays the proxy, so every request the page sends gets an
 * X-Forwarded-For header as a proxy would pass it on, the client's own forged entries first.
 * - Applying and signing in: forged entries rotating in front, the real address rotating inside
 *   one IPv6 /56: still one client, refused after the limit, with the server's message.
 * - Simultaneous submissions from many tabs: exactly the limit gets through, with each tab's
 *   message. One round each: the race itself is repeated on each database, request by request,
 *   in rate-limit-concurrency.test.ts.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createHrUser, HR_PASSWORD } from '../helpers/hr.js';
import { releaseBrowser, sharedBrowser, openPage, screenshot, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fillBasic, next, resumeFiles, viewportShot } from '../applicants/apply-helpers.js';

const LIMIT = 3;
const LOGIN_FAILED = 'Invalid credentials or unauthorized.';
const LOGIN_LIMITED = 'Too many sign-in attempts. Please try again in 15 minutes.';
const APPLY_LIMITED = 'Too many applications. Please try again in 10 minutes.';
/** Chromium logs the expected 401 and 429 answers as console errors. */
const EXPECTED_STATUS = /^Failed to load resource: the server responded with a status of (401|429)/;

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`rate limits in Chromium behind a trusted proxy [${kind}]`, function () {
    const suffix = kind === 'mysql' ? '-mysql' : '';
    this.timeout(240_000);
    let s: TestServer;
    let browser: Browser;
    let files: ReturnType<typeof resumeFiles>;
    const tabs: PageWithErrors[] = [];
    let seq = 0;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: String(LIMIT), LOGIN_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' });
      await makeJob(s.ctx.db, { public_id: 'plain-job', title: 'Office Manager' });
      await createHrUser(s.ctx.db, 'hr.browser');
      files = resumeFiles();
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
      files?.cleanup();
    });
    beforeEach(() => s.ctx.db('rate_limit_hits').delete());
    afterEach(async () => {
      for (const t of tabs.splice(0)) {
        expect(
          t.errors.filter((e) => !EXPECTED_STATUS.test(e)),
          'console errors',
        ).to.deep.equal([]);
        await t.context.close();
      }
    });

    /** A tab whose API requests reach the server with X-Forwarded-For set by `xff()` per request. */
    async function tabBehindProxy(xff: () => string): Promise<Page> {
      const t = await openPage(browser);
      tabs.push(t);
      await t.page.route('**/api/**', (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': xff() } }));
      return t.page;
    }

    /** Fills the wizard of the job without questions up to Review. */
    async function toReview(page: Page): Promise<void> {
      await page.goto(`${s.baseUrl}/careers/plain-job/apply`);
      await page.locator('.wizard-card').waitFor();
      await fillBasic(page, { first: 'Asha', last: 'Rao', email: `asha${++seq}@example.com`, phone: '9876543210', resume: files.pdf });
      for (const h of ['Experience', 'Education & Skills', 'Review']) await next(page, h);
    }

    /** Submits and waits for the outcome: 'submitted' or the error dialog's text. */
    async function submit(page: Page): Promise<string> {
      await page.getByRole('button', { name: 'Submit Application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unable to Submit Application' });
      await Promise.race([page.waitForURL(/\/submitted$/), dialog.waitFor()]);
      return /\/submitted$/.test(page.url()) ? 'submitted' : (await dialog.locator('.modal-body').innerText()).trim();
    }

    async function signInOutcome(page: Page, password: string): Promise<string> {
      await page.fill('#login-username', 'hr.browser');
      await page.fill('#login-password', password);
      await page.click('button[type=submit]');
      const alert = page.getByRole('alert');
      await Promise.race([page.waitForURL(`${s.baseUrl}/hr/dashboard`), alert.waitFor()]);
      return page.url() === `${s.baseUrl}/hr/dashboard` ? 'signed in' : (await alert.innerText()).trim();
    }

    it('applying: rotating forged entries and addresses inside one IPv6 /56 are one client; another /56 is not', async () => {
      let n = 0;
      let real = () => `2001:db8:7:1${(n % 256).toString(16).padStart(2, '0')}::${n}`;
      const page = await tabBehindProxy(() => `203.0.113.${++n}, ${real()}`);
      for (let i = 0; i < LIMIT; i++) {
        await toReview(page);
        expect(await submit(page), `application ${i + 1}`).to.equal('submitted');
      }
      await toReview(page);
      expect(await submit(page)).to.equal(APPLY_LIMITED);
      await viewportShot(page, `rate-limit-apply-refused-behind-proxy${suffix}`);
      real = () => `2001:db8:7:2${(n % 256).toString(16).padStart(2, '0')}::1`;
      await page.getByRole('button', { name: 'Close' }).click();
      expect(await submit(page)).to.equal('submitted');
      expect(Number((await s.ctx.db('applications').count({ n: '*' }).first())!.n)).to.be.at.least(LIMIT + 1);
    });

    it('signing in: rotating forged entries and /56 addresses do not reset the limit; the right password is refused too until another client', async () => {
      const n = 0;
      let real = () => `2001:db8:8:1${(n % 256).toString(16).padStart(2, '0')}::${n}`;
      const page = await tabBehindProxy(() => `${n % 2 ? '198.51.100.' + n : '2001:db8:ffff::' + n}, ${real()}`);
      await page.goto(`${s.baseUrl}/hrviewlogin`);
      for (let i = 0; i < LIMIT; i++) expect(await signInOutcome(page, `wrong ${i}`), `attempt ${i + 1}`).to.equal(LOGIN_FAILED);
      expect(await signInOutcome(page, 'wrong again')).to.equal(LOGIN_LIMITED);
      expect(await signInOutcome(page, HR_PASSWORD)).to.equal(LOGIN_LIMITED);
      await screenshot(page, `rate-limit-login-refused-behind-proxy${suffix}`);
      real = () => '::ffff:192.0.2.77';
      expect(await signInOutcome(page, HR_PASSWORD)).to.equal('signed in');
    });

    it('eight tabs signing in wrongly at the same moment: exactly 3 are checked, 5 get the limit message', async () => {
      const pages = await Promise.all(Array.from({ length: 8 }, () => tabBehindProxy(() => '192.0.2.9')));
      await Promise.all(
        pages.map(async (p) => {
          await p.goto(`${s.baseUrl}/hrviewlogin`);
          await p.fill('#login-username', 'hr.browser');
          await p.fill('#login-password', 'wrong password');
        }),
      );
      await Promise.all(pages.map((p) => p.click('button[type=submit]')));
      const messages = await Promise.all(pages.map(async (p) => (await p.getByRole('alert').innerText()).trim()));
      expect(
        messages.filter((m) => m === LOGIN_FAILED),
        messages.join(' | '),
      ).to.have.length(3);
      expect(messages.filter((m) => m === LOGIN_LIMITED)).to.have.length(5);
    });

    it('eight tabs submitting applications at the same moment: exactly 3 are taken', async () => {
      const before = Number((await s.ctx.db('applications').count({ n: '*' }).first())!.n);
      const pages = await Promise.all(Array.from({ length: 8 }, () => tabBehindProxy(() => '192.0.2.10')));
      await Promise.all(pages.map((p) => toReview(p)));
      const outcomes = await Promise.all(pages.map((p) => submit(p)));
      expect(
        outcomes.filter((o) => o === 'submitted'),
        outcomes.join(' | '),
      ).to.have.length(3);
      expect(outcomes.filter((o) => o === APPLY_LIMITED)).to.have.length(5);
      expect(Number((await s.ctx.db('applications').count({ n: '*' }).first())!.n) - before).to.equal(3);
    });
  });
}

/**
 * Sliding sessions in real Chromium (issue 30), at 1280 and 390 px, with the page's clock under
 * the test's control (page.clock) and SESSION_IDLE_MINUTES=5 (the offer comes two minutes before
 * the end): the "Stay signed in" offer appears, is used by keyboard and renews the session on the
 * server; a session that ended anyway says so and the next action leads to the login page, which
 * says why ("You were signed out after 5 minutes without activity"; a session at its limit in its
 * own words) and brings the user back to the same page with the note being typed, the email being
 * written and the job editor's fields restored as drafts, which a save clears; axe clean; screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page, Request } from 'playwright-core';
import { fromDbDate } from '../../src/db/codecs.js';
import { createSession, hashToken } from '../../src/users/repo.js';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser, type PageWithErrors } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { HR_PASSWORD, createHrUser, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedPeople } from '../applicants/helpers.js';

const IDLE = 5;
const SIGNED_OUT = 'You were signed out after 5 minutes without activity';

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`Session timeout in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let userId: number;
    let appId: number;
    let jobId: number;
    let tab: PageWithErrors | null = null;
    const notFound: string[] = [];
    /** The page's API reads not yet answered: a test ends the session only once there are none. */
    const pendingReads = new Set<Request>();

    before(async () => {
      s = await startTestServer(kind, { SESSION_IDLE_MINUTES: String(IDLE), SESSION_MAX_HOURS: '12' });
      const seeded = await seedPeople(s.ctx.db);
      appId = seeded.ids.get('priya@patel.dev')!;
      jobId = seeded.jobA.id;
      userId = await createHrUser(s.ctx.db, 'sam.recruiter');
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });
    afterEach(async () => {
      // The seeded applications have no resume file: its preview's 404 is the only one expected.
      expect(notFound.splice(0).filter((u) => !u.endsWith('/resume/'))).to.deep.equal([]);
      await tab?.context.close();
      tab = null;
    });

    /** A signed-in tab whose clock the test moves; the session as if signed in `agoMs` ago. */
    async function open(width: number, height: number, agoMs = 0, ttlSeconds = IDLE * 60): Promise<{ page: Page; token: string }> {
      const token = (await createSession(s.ctx.db, userId, ttlSeconds + agoMs / 1000, new Date(Date.now() - agoMs))).token;
      tab = await openHrPage(browser, s.baseUrl, token, { width, height, contextOptions: { locale: 'en-GB' } });
      await tab.page.clock.install();

      pendingReads.clear();
      tab.page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) pendingReads.add(r);
      });
      tab.page.on('response', (r) => {
        if (r.status() === 404) notFound.push(r.url());
        // Answered once its status came (the resume's frame never reads its body to the end).
        pendingReads.delete(r.request());
      });
      tab.page.on('requestfailed', (r) => pendingReads.delete(r));
      return { page: tab.page, token };
    }
    const storedExpiry = async (token: string) =>
      fromDbDate(
        (
          await s.ctx
            .db('hr_sessions')
            .where({ token_hash: hashToken(token) })
            .first()
        ).expires_at,
      )!;
    /** The session ends on the server, as after the idle timeout. */
    const endOnServer = (token: string) =>
      s.ctx
        .db('hr_sessions')
        .where({ token_hash: hashToken(token) })
        .update({ expires_at: '2001-01-01 00:00:00.000' });
    const dialog = (page: Page) => page.getByRole('alertdialog');
    /**
     * Moves the page's clock on until `msLeft` is left of the session the page knows (its own
     * record, which the watcher reads): a loaded machine may take seconds between signing in and
     * the page's first read, so a fixed jump could overshoot the offer's two minutes.
     */
    const forwardUntilLeft = async (page: Page, msLeft: number) => {
      const left = await page.evaluate(() => JSON.parse(localStorage.getItem('careers:session') ?? '{}').endsAt - Date.now());
      await page.clock.fastForward(Math.max(0, Math.round(left - msLeft)));
    };
    /**
     * Opens a page and waits for its session watcher (a chunk loaded after the page) to know the
     * session, and for the islands' first reads to be answered: one still on its way when a test
     * ends the session would meet a 401 and go to the sign-in page before the dialog. Settled
     * means no read pending through a quiet spell, as an island may start one after another's answer.
     */
    const visit = async (page: Page, path: string) => {
      await page.goto(s.baseUrl + path);
      await page.locator('html[data-session-watch]').waitFor({ state: 'attached' });
      for (let quietChecks = 0; quietChecks < 3; ) {
        // Node's timer: the page's clock is fake.
        await new Promise((r) => setTimeout(r, 50));
        quietChecks = pendingReads.size ? 0 : quietChecks + 1;
      }
    };
    /** Console errors, less the expected 401 (the ended session) and 404 (no resume; checked in afterEach). */
    const unexpectedErrors = () => tab!.errors.filter((e) => !/status of (401|404)/.test(e));

    async function signInAgain(page: Page, expectedPath: string): Promise<void> {
      await page.locator('#login-username').fill('sam.recruiter');
      await page.locator('#login-password').fill(HR_PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).press('Enter');
      await page.waitForURL((u) => u.pathname === expectedPath);
    }

    for (const [width, height, label] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      it(`offers to stay signed in two minutes before the idle timeout, by keyboard, and renews on the server (${label})`, async () => {
        const { page, token } = await open(width, height);
        await visit(page, `/hr/applicants/${appId}`);
        await page.locator('#note-new').click();
        await forwardUntilLeft(page, 130_000);
        expect(await dialog(page).isVisible(), 'not yet: more than two minutes left').to.equal(false);
        await forwardUntilLeft(page, 115_000);
        await dialog(page).waitFor();
        expect(await dialog(page).getByRole('heading').innerText()).to.equal('Stay signed in?');
        expect(await page.locator('#session-dialog-text').innerText()).to.match(
          /^You will be signed out at \d\d:\d\d after 5 minutes without activity\. Anything you are typing is kept on this device as a draft\.$/,
        );
        const stay = dialog(page).getByRole('button', { name: 'Stay signed in' });
        expect(await stay.evaluate((el) => el === document.activeElement), 'focus on Stay signed in').to.equal(true);
        expect(await dialog(page).getByRole('button', { name: 'Sign out' }).isVisible()).to.equal(true);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `session-offer-${label}`);
        // The server's session is older now (the test moves it back) so the renewal has something to move.
        await s.ctx
          .db('hr_sessions')
          .where({ token_hash: hashToken(token) })
          .update({ expires_at: new Date(Date.now() + 60_000).toISOString().replace('T', ' ').replace('Z', '') });
        const renewed = page.waitForResponse((r) => r.url().endsWith('/api/hr/session/renew/') && r.request().method() === 'POST');
        await page.keyboard.press('Enter');
        expect((await renewed).status()).to.equal(200);
        await dialog(page).waitFor({ state: 'hidden' });
        expect((await storedExpiry(token)).getTime() - Date.now()).to.be.within(IDLE * 60_000 - 5_000, IDLE * 60_000 + 1000);
        // Focus is back where it was, in the note.
        expect(await page.evaluate(() => document.activeElement?.id)).to.equal('note-new');
        // Well short of the new end: no offer.
        await page.clock.fastForward('02:00');
        expect(await dialog(page).isVisible()).to.equal(false);
        expect(unexpectedErrors()).to.deep.equal([]);
      });

      it(`says the session ended, and after signing in again returns to the page with the note being typed restored (${label})`, async () => {
        const { page, token } = await open(width, height);
        await visit(page, `/hr/applicants/${appId}`);
        const note = `Strong on SQL; ask about the migration project (${label}).`;
        await page.locator('#note-new').fill(note);
        await endOnServer(token);
        await page.clock.fastForward('05:05');
        await dialog(page).waitFor();
        expect(await dialog(page).getByRole('heading').innerText()).to.equal('You were signed out');
        expect(await dialog(page).getByRole('button').allInnerTexts()).to.deep.equal(['Sign in again']);
        expect(await page.locator('#session-dialog-text').innerText()).to.equal(SIGNED_OUT);
        expect(await axeViolations(page)).to.deep.equal([]);
        // Closed with Escape, the next action (adding the note) leads to the login page.
        await page.keyboard.press('Escape');
        await dialog(page).waitFor({ state: 'hidden' });
        await page.getByRole('button', { name: 'Add note' }).click();
        await page.waitForURL((u) => u.pathname === '/hrviewlogin');
        expect(new URL(page.url()).searchParams.get('next')).to.equal(`/hr/applicants/${appId}`);
        await page.locator('#signed-out').waitFor();
        expect(await page.locator('#signed-out').innerText()).to.equal(SIGNED_OUT);
        expect(await page.locator('nav[aria-label="HR"]').count(), 'no HR menu signed out').to.equal(0);
        expect(await page.getByRole('link', { name: 'Applicants' }).count()).to.equal(0);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `session-signed-out-${label}`);
        await signInAgain(page, `/hr/applicants/${appId}`);
        await page.locator('#note-new-draft').waitFor();
        expect(await page.locator('#note-new-draft').innerText()).to.match(/^Draft restored/);
        expect(await page.locator('#note-new').inputValue()).to.equal(note);
        expect(await axeViolations(page)).to.deep.equal([]);
        await screenshot(page, `session-draft-restored-${label}`);
        // Saved: the draft goes.
        await page.getByRole('button', { name: 'Add note' }).click();
        await page.locator('.note-text', { hasText: note }).waitFor();
        expect(await page.locator('#note-new-draft').count()).to.equal(0);
        expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('careers:draft:')))).to.deep.equal([]);
        // And the login page forgot why the last session ended: a later visit says nothing.
        expect(unexpectedErrors()).to.deep.equal([]);
      });
    }

    it('sends a link followed after the end to the login page with the reason, once the browser has dropped the cookie', async () => {
      const { page, token } = await open(1280, 800);
      await visit(page, `/hr/dashboard`);
      await endOnServer(token);
      await page.clock.fastForward('05:05');
      await dialog(page).waitFor();
      await page.keyboard.press('Escape');
      // The cookie's Max-Age ran out with the session (the test's clock is the page's only).
      await page.context().clearCookies({ name: 'jwt' });
      await page.locator('nav[aria-label="HR"]').getByRole('link', { name: 'Applicants' }).click();
      await page.waitForURL((u) => u.pathname === '/hrviewlogin');
      expect(new URL(page.url()).searchParams.get('next')).to.equal('/hr/applicants');
      expect(await page.locator('#signed-out').innerText()).to.equal(SIGNED_OUT);
      // Signed out with Logout, the login page says nothing of the kind.
      await signInAgain(page, '/hr/applicants');
      await page.locator('nav[aria-label="HR"] [data-logout]').click();
      await page.waitForURL((u) => u.pathname === '/hrviewlogin');
      await page.locator('#login-username').waitFor();
      expect(await page.locator('#signed-out').count()).to.equal(0);
      expect(unexpectedErrors()).to.deep.equal([]);
    });

    it("keeps the job editor's unsaved fields and the email being written through a session that ended", async () => {
      const { page, token } = await open(1280, 800);
      await visit(page, `/hr/jobs/${jobId}/edit`);
      await page.locator('#job-title').fill('Senior Backend Engineer (draft)');
      await page.locator('#job-location').fill('Lisbon');
      await endOnServer(token);
      await page.clock.fastForward('05:05');
      await dialog(page).waitFor();
      // "Sign in again" from the dialog, by keyboard: no "leave this page?" prompt, the fields are kept.
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/hrviewlogin');
      expect(await page.locator('#signed-out').innerText()).to.equal(SIGNED_OUT);
      await signInAgain(page, `/hr/jobs/${jobId}/edit`);
      await page.locator('#job-draft-note').waitFor();
      expect(await page.locator('#job-title').inputValue()).to.equal('Senior Backend Engineer (draft)');
      expect(await page.locator('#job-location').inputValue()).to.equal('Lisbon');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'session-job-draft-restored');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Changes saved.').waitFor();
      expect(await page.locator('#job-draft-note').count()).to.equal(0);
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('careers:draft:')))).to.deep.equal([]);

      // The email being written: a template's text edited, kept over a reload, dropped by Discard draft.
      await visit(page, `/hr/applicants/${appId}`);
      const template = page.locator('.applicant-email').getByLabel('Template');
      await template.selectOption({ index: 1 });
      await page.locator('.applicant-email').getByLabel('Subject').fill('About your interview next week');
      await page.waitForTimeout(400);
      await page.clock.runFor(400);
      await page.reload();
      await page.locator('.applicant-email .draft-note').waitFor();
      expect(await page.locator('.applicant-email').getByLabel('Subject').inputValue()).to.equal('About your interview next week');
      await page.locator('.applicant-email').getByRole('button', { name: 'Discard draft' }).click();
      expect(await page.locator('.applicant-email').getByLabel('Subject').inputValue()).to.not.equal('About your interview next week');
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('careers:draft:')))).to.deep.equal([]);
      expect(unexpectedErrors()).to.deep.equal([]);
    });

    it('warns before the absolute limit without a renewal, and says so in its own words once it is reached', async () => {
      // Signed in 11 h 59 min ago: a minute left, which no renewal can extend.
      const { page, token } = await open(390, 844, 12 * 3_600_000 - 60_000, 60);
      await visit(page, `/hr/dashboard`);
      await page.clock.fastForward('00:01');
      await dialog(page).waitFor();
      expect(await dialog(page).getByRole('heading').innerText()).to.equal('Your session ends soon');
      expect(await page.locator('#session-dialog-text').innerText()).to.match(
        /^Sessions last at most 12 hours: you will be signed out at \d\d:\d\d\. /,
      );
      expect(await dialog(page).getByRole('button').allInnerTexts()).to.deep.equal(['OK']);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'session-limit-offer-phone');
      await page.keyboard.press('Enter');
      await dialog(page).waitFor({ state: 'hidden' });
      await endOnServer(token);
      await page.clock.fastForward('01:05');
      await dialog(page).waitFor();
      expect(await page.locator('#session-dialog-text').innerText()).to.equal('You were signed out after 12 hours; please sign in again.');
      // By pointer here (the keyboard's way is the idle test's above); the sign-in page's text is what counts, not its load event.
      await dialog(page).getByRole('button', { name: 'Sign in again' }).click();
      await page.waitForURL((u) => u.pathname === '/hrviewlogin', { waitUntil: 'commit' });
      await page.locator('#signed-out').waitFor();
      expect(await page.locator('#signed-out').innerText()).to.equal('You were signed out after 12 hours; please sign in again.');
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(page, 'session-limit-signed-out-phone');
    });
  });
}

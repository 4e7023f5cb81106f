/**
 * Interviews on the screens in real Chromium, at 1280 and 390 px (issue 32): on an applicant's
 * page HR schedules an interview through the dialog (an HR user of the team and an outside person,
 * a video link, today in the browser's zone), sees it listed with the interviewers' answers,
 * reschedules it (the dialog filled with its times), sees the board card's "Interview …" and the
 * dashboard's "Today's interviews", then cancels it (confirmed): the card's line and the dashboard
 * entry are gone. At 1280 the dialog's own checks (no interviewer, an unknown zone) and the
 * overlap warning of a second interview (planned in UTC: listed in both zones). An interviewer
 * reads their interview without the buttons; a day without interviews says so. axe-core clean,
 * nothing wider than the screen, no console errors; screenshots.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, releaseBrowser, screenshot, sharedBrowser } from '../helpers/browser.js';
import { browserDatabaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken, openHrPage } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedPeople, type Seeded } from '../applicants/helpers.js';
import { formatShortTime } from '../../src/shared/time-format.js';
import { wallClock, zonedInstant } from '../../src/shared/zoned-time.js';

/** A zone where it is before 20:00 now, so that a slot two hours on is still today there. */
function zoneWithTimeLeft(): string {
  for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Pacific/Honolulu', 'Asia/Kolkata']) {
    if (wallClock(Date.now(), zone).time < '20:00') return zone;
  }
  throw new Error('no zone with time left today');
}

/** Today's date there and a start at the next full hour plus one (HH:MM), and that plus `add` hours. */
function todaySlot(zone: string, add = 0): { date: string; start: string; end: string } {
  const now = wallClock(Date.now(), zone);
  const hour = Number(now.time.slice(0, 2)) + 2 + add;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: now.date, start: `${pad(hour)}:00`, end: `${pad(hour)}:45` };
}

for (const kind of browserDatabaseKinds(import.meta.url)) {
  describe(`interviews on the screens in Chromium [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let browser: Browser;
    let seeded: Seeded;
    let alice: string;

    before(async () => {
      s = await startTestServer(kind, { POSTS_WORKER: 'off' });
      seeded = await seedPeople(s.ctx.db);
      const aliceId = await createHrUser(s.ctx.db, 'alice');
      const danaId = await createHrUser(s.ctx.db, 'dana', { role: 'recruiter' });
      await s.ctx.db('hr_users').where('id', aliceId).update({ email: 'alice@example.com' });
      await s.ctx.db('hr_users').where('id', danaId).update({ email: 'dana@example.com' });
      alice = await liveToken(s.ctx.db, aliceId);
      browser = await sharedBrowser();
    });
    after(async () => {
      await releaseBrowser();
      await s?.close();
    });

    async function open(width: number, zone: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
      const t = await openHrPage(browser, s.baseUrl, alice, { width, height: width > 500 ? 900 : 844, timezoneId: zone });
      return { page: t.page, errors: t.errors, close: () => t.context.close() };
    }
    const noOverflow = async (page: Page) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(await page.evaluate(() => window.innerWidth));

    for (const [width, email] of [
      [1280, 'jose.muller@example.com'],
      [390, 'jo.baker@example.org'],
    ] as const) {
      it(`schedules, lists, reschedules and cancels an interview; the board card and the dashboard show it (${width})`, async () => {
        const appId = seeded.ids.get(email)!;
        const zone = zoneWithTimeLeft();
        const { page, errors, close } = await open(width, zone);
        // The seeded applications name resumes that were never stored: the page's resume view gets a 404 for those, and only for those.
        const failed: string[] = [];
        page.on('response', (r) => {
          if (r.status() >= 400) failed.push(new URL(r.url()).pathname);
        });
        try {
          await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          const section = page.locator('section.interviews-section');
          await section.getByText('No interviews yet.').waitFor();
          await section.getByRole('button', { name: 'Schedule interview' }).click();
          const dialog = page.getByRole('dialog', { name: 'Schedule interview' });
          await dialog.waitFor();
          // Focus moved into the dialog, on its first field.
          expect(await page.evaluate(() => document.activeElement?.id)).to.equal(
            await dialog.getByLabel('Type', { exact: true }).getAttribute('id'),
          );
          expect(await dialog.getByLabel('Time zone').inputValue()).to.equal(zone);
          const slot = todaySlot(zone);

          if (width === 1280) {
            // The schema's own checks, before anything is sent.
            await dialog.getByLabel('Time zone').fill('Mars/Olympus');
            await dialog.getByRole('button', { name: 'Schedule and invite' }).click();
            await dialog.getByText('Choose a time zone from the list, such as Europe/Berlin.').waitFor();
            await dialog.getByLabel('Time zone').fill(zone);
            await dialog.getByRole('button', { name: 'Schedule and invite' }).click();
            await dialog.getByText('Give 1 to 20 interviewers.').waitFor();
          }

          await dialog.getByLabel('Type', { exact: true }).selectOption({ label: 'Video' });
          await dialog.getByLabel('Day', { exact: true }).fill(slot.date);
          await dialog.getByLabel('Start', { exact: true }).fill(slot.start);
          await dialog.getByLabel('End', { exact: true }).fill(slot.end);
          await dialog.getByLabel('dana').check();
          await dialog.getByRole('button', { name: 'Add an outside interviewer' }).click();
          await dialog.getByLabel('Name of outside interviewer 1').fill('Olga Outside');
          await dialog.getByLabel('Email of outside interviewer 1').fill('olga@partner.example');
          await dialog.getByLabel('Video link').fill('https://meet.example.com/abc-defg');
          await dialog.getByLabel('Notes for the candidate').fill('Bring a laptop.');
          expect(await axeViolations(page)).to.deep.equal([]);
          await screenshot(page, `interviews-dialog-${width}`);
          await dialog.getByRole('button', { name: 'Schedule and invite' }).click();
          await section.getByRole('status').filter({ hasText: 'Scheduled.' }).waitFor();
          const item = section.locator('li.interview-item').first();
          await item.getByRole('heading', { name: /Video interview/ }).waitFor();
          expect(await item.textContent()).to.contain(`${slot.start}–${slot.end}`);
          expect(await item.textContent()).to.contain('dana');
          expect(await item.textContent()).to.contain('Olga Outside (no answer yet)');
          expect(await item.getByRole('link', { name: /Video link/ }).getAttribute('href')).to.equal('https://meet.example.com/abc-defg');
          // Focus is back on the button that opened the dialog.
          expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Schedule interview');
          const row = await s.ctx.db('interviews').where('application_id', appId).first();
          expect(row.time_zone).to.equal(zone);

          if (width === 1280) {
            // A second interview over the first with the same interviewer: scheduled, with a heads-up.
            await section.getByRole('button', { name: 'Schedule interview' }).click();
            const again = page.getByRole('dialog', { name: 'Schedule interview' });
            // Planned in UTC this time: the list shows it in the viewer's zone and in UTC.
            const utcStart = wallClock(zonedInstant(slot.date, slot.start, zone)!, 'UTC');
            const utcEnd = wallClock(zonedInstant(slot.date, slot.end, zone)!, 'UTC');
            await again.getByLabel('Type', { exact: true }).selectOption({ label: 'Phone' });
            await again.getByLabel('Time zone').fill('UTC');
            await again.getByLabel('Day', { exact: true }).fill(utcStart.date);
            await again.getByLabel('Start', { exact: true }).fill(utcStart.time);
            await again.getByLabel('End', { exact: true }).fill(utcEnd.time);
            await again.getByLabel('dana').check();
            await again.getByRole('button', { name: 'Schedule and invite' }).click();
            await section.getByRole('status').filter({ hasText: 'Scheduled. Heads-up: Overlaps' }).waitFor();
            await screenshot(page, `interviews-warning-${width}`);
            const phone = section.locator('li.interview-item', { has: page.getByRole('heading', { name: /Phone interview/ }) });
            expect(await phone.textContent())
              .to.contain(`${slot.start}–${slot.end}`)
              .and.to.contain(`${utcStart.time}–${utcEnd.time} in UTC`);
            await phone.getByRole('button', { name: /Cancel interview/ }).click();
            await page.getByRole('dialog', { name: 'Cancel this interview?' }).getByRole('button', { name: 'Cancel interview' }).click();
            await section.getByRole('status').filter({ hasText: 'Interview cancelled.' }).waitFor();
          }

          // Reschedule: the dialog holds the interview's times; one hour later.
          const later = todaySlot(zone, 1);
          const video = section.locator('li.interview-item', { has: page.getByRole('heading', { name: /Video interview/ }) });
          await video.getByRole('button', { name: /Reschedule/ }).click();
          const re = page.getByRole('dialog', { name: 'Reschedule interview' });
          expect(await re.getByLabel('Start', { exact: true }).inputValue()).to.equal(slot.start);
          expect(await re.getByLabel('dana').isChecked()).to.equal(true);
          await re.getByLabel('Start', { exact: true }).fill(later.start);
          await re.getByLabel('End', { exact: true }).fill(later.end);
          await re.getByRole('button', { name: 'Save and send updates' }).click();
          await section.getByRole('status').filter({ hasText: 'Rescheduled.' }).waitFor();
          await video.filter({ hasText: `${later.start}–${later.end}` }).waitFor();
          expect(await axeViolations(page)).to.deep.equal([]);
          await noOverflow(page);
          await screenshot(page, `interviews-applicant-${width}`);

          // The board card and the dashboard.
          const startsAt = new Date(zonedInstant(later.date, later.start, zone)!);
          await page.goto(`${s.baseUrl}/hr/jobs/${seeded.jobA.id}/board`);
          const card = page.locator(`[data-card="${appId}"]`);
          await card
            .locator('[data-next-interview]')
            .filter({ hasText: `Interview ${formatShortTime(startsAt, zone)}` })
            .waitFor();
          await noOverflow(page);
          await screenshot(page, `interviews-board-${width}`);
          await page.goto(`${s.baseUrl}/hr/dashboard`);
          const today = page.locator('section.today-interviews');
          const entry = today.locator('li', { hasText: 'Backend Engineer' }).filter({ has: page.getByRole('link') });
          await entry.first().waitFor();
          expect(await entry.first().getByRole('link').getAttribute('href')).to.equal(`/hr/applicants/${appId}`);
          expect(await today.textContent()).to.contain('Video');
          expect(await axeViolations(page)).to.deep.equal([]);
          await noOverflow(page);
          await screenshot(page, `interviews-dashboard-${width}`);

          // Cancel, confirmed: gone from the card and the dashboard.
          await page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
          await video.getByRole('button', { name: /Cancel interview/ }).click();
          const confirm = page.getByRole('dialog', { name: 'Cancel this interview?' });
          // The least destructive choice has the focus.
          expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Keep it');
          await confirm.getByRole('button', { name: 'Cancel interview' }).click();
          await section.getByRole('status').filter({ hasText: 'Interview cancelled.' }).waitFor();
          await video.getByText('Cancelled', { exact: true }).waitFor();
          expect(await video.getByRole('button', { name: /Reschedule/ }).count()).to.equal(0);
          await page.goto(`${s.baseUrl}/hr/jobs/${seeded.jobA.id}/board`);
          await card.waitFor();
          expect(await card.locator('[data-next-interview]').count()).to.equal(0);
          expect(failed.filter((p) => !/\/resume/.test(p))).to.deep.equal([]);
          expect(errors.filter((e) => !(e.startsWith('Failed to load resource') && failed.length))).to.deep.equal([]);
        } finally {
          await close();
        }
      });
    }

    it('shows an interviewer the interviews they are in, without Schedule, Reschedule or Cancel (390)', async () => {
      const ivanId = await createHrUser(s.ctx.db, 'ivan', { role: 'interviewer' });
      await s.ctx.db('hr_users').where('id', ivanId).update({ email: 'ivan@example.com' });
      const appId = seeded.ids.get('jose.muller@example.com')!;
      const start = Date.now() + 72 * 3600_000;
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${appId}/interviews/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'onsite',
          starts_at: new Date(start).toISOString(),
          ends_at: new Date(start + 3600_000).toISOString(),
          time_zone: 'UTC',
          interviewers: [{ user_id: ivanId }],
          location: 'Office, room 4',
        }),
      });
      expect(res.status).to.equal(201);
      const t = await openHrPage(browser, s.baseUrl, await liveToken(s.ctx.db, ivanId), { width: 390, height: 844, timezoneId: 'UTC' });
      try {
        await t.page.goto(`${s.baseUrl}/hr/applicants/${appId}`);
        const item = t.page.locator('section.interviews-section li.interview-item', { hasText: 'Office, room 4' });
        await item.getByRole('heading', { name: /On-site interview/ }).waitFor();
        expect(await t.page.locator('section.interviews-section button').count()).to.equal(0);
      } finally {
        await t.context.close();
      }
    });

    it('says "No interviews today" on a dashboard without any (390)', async () => {
      await s.ctx.db('interviews').update({ status: 'cancelled' });
      const { page, errors, close } = await open(390, 'UTC');
      try {
        await page.goto(`${s.baseUrl}/hr/dashboard`);
        await page.locator('section.today-interviews').getByText('No interviews today.').waitFor();
        expect(errors).to.deep.equal([]);
      } finally {
        await close();
      }
    });
  });
}

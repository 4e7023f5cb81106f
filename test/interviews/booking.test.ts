/**
 * Self-booking by the candidate (issue 32), over HTTP on SQLite and MySQL with a real SMTP server:
 * HR makes booking links (hand-picked slots, or any free slot of the interviewers), field errors,
 * 401/404, the email with the link; the candidate's page without script (noindex, times in the
 * chosen zone), booking by a plain form POST (the interview, its invitation, the recruiter told),
 * a time taken or not offered, moving and cancelling until the cut-off, dead links (404/410),
 * hostile form values; and candidates racing for the same slots: exactly one booking per slot.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readable, startSmtp } from '../helpers/smtp.js';
import { hr } from '../applicants/helpers.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { createDelivery } from '../../src/posts/index.js';
import { BOOKING_MESSAGES as M } from '../../src/interviews/booking.schema.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const kind of databaseKinds()) {
  describe(`booking links and the booking page [${kind}]`, function () {
    this.timeout(120_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let delivery: ReturnType<typeof createDelivery>;
    let rita: { id: number; token: string };
    let apps: number[];
    // A Wednesday 10:00 UTC at least 7 days ahead: inside the default working hours.
    const base = (() => {
      const d = new Date(Math.ceil(Date.now() / DAY) * DAY + 7 * DAY);
      while (d.getUTCDay() !== 3) d.setUTCDate(d.getUTCDate() + 1);
      return new Date(d.getTime() + 10 * HOUR);
    })();
    const at = (hours: number) => new Date(base.getTime() + hours * HOUR).toISOString();

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <jobs@acme.example>',
        COMPANY_NAME: 'Acme',
        PUBLIC_BASE_URL: 'https://careers.acme.example',
      });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined });
      const id = await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' });
      await s.ctx.db('hr_users').where({ id }).update({ email: 'rita@acme.example' });
      rita = { id, token: await liveToken(s.ctx.db, id) };
      const job = await makeJob(s.ctx.db, { title: 'Backend Engineer', public_id: 'backend-engineer' });
      await insertApplications(
        s.ctx.db,
        job.id,
        Array.from({ length: 14 }, (_, i) => ({
          first_name: `Cand${i}`,
          last_name: 'Idate',
          email: `cand${i}@example.com`,
          phone: '+15550100',
        })),
        [],
      );
      apps = (await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').pluck('id')).map(Number);
    });
    after(async () => {
      await delivery?.close();
      await s?.close();
      await smtp?.close();
    });

    const api = (p: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, rita.token, p, init);
    const links = (appId: number) => `/api/hr/applications/${appId}/booking-links/`;
    const valid = (over: Record<string, unknown> = {}) => ({
      type: 'video',
      time_zone: 'Europe/Berlin',
      interviewers: [{ user_id: rita.id }],
      video_url: 'https://meet.example.com/abc',
      duration_minutes: 45,
      slots: [at(0), at(1), at(2)],
      ...over,
    });
    const pathOf = (url: string) => new URL(url).pathname;
    const page = async (path: string) => {
      const res = await fetch(s.baseUrl + path);
      return { status: res.status, html: await res.text(), res };
    };
    const post = (path: string, form: Record<string, string>) =>
      fetch(s.baseUrl + path, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
    /** The times a page offers, as the ISO values of its buttons. */
    const offered = (html: string) => [...html.matchAll(/name="slot" value="([^"]+)"/g)].map((m) => m[1]);

    it('refuses bad input field by field, signed-out callers and unknown applications; makes, emails, lists and withdraws a link', async () => {
      expect((await fetch(`${s.baseUrl}${links(apps[0])}`)).status).to.equal(401);
      expect((await api(links(999_999), { method: 'POST', body: valid() })).status).to.equal(404);
      expect((await api('/api/hr/applications/x/booking-links/')).status).to.equal(404);
      for (const [over, field] of [
        [{ duration_minutes: 5 }, 'duration_minutes'],
        [{ duration_minutes: '45' }, 'duration_minutes'],
        [{ slots: [] }, 'slots'],
        [{ slots: ['tomorrow'] }, 'slots.0'],
        [{ slots: [new Date(Date.now() - HOUR).toISOString()] }, 'slots'],
        [{ slots: [at(0), at(0)] }, 'slots'],
        [{ slots: Array.from({ length: 51 }, (_, i) => at(i)) }, 'slots'],
        [{ slots: undefined }, 'slots'],
        [{ window_days: 7 }, 'window_days'],
        [{ slots: undefined, window_days: 0 }, 'window_days'],
        [{ slots: undefined, window_days: 7, interviewers: [{ email: 'o@x.example', name: 'O' }] }, 'interviewers'],
        [{ cutoff_hours: -1 }, 'cutoff_hours'],
        [{ expires_in_days: 1e9 }, 'expires_in_days'],
        [{ time_zone: 'Mars/Olympus' }, 'time_zone'],
        [{ interviewers: [{ user_id: 987_654 }] }, 'interviewers.0.user_id'],
        [{ type: '<script>' }, 'type'],
      ] as const) {
        const r = await api(links(apps[0]), { method: 'POST', body: valid(over as Record<string, unknown>) });
        expect(r.status, JSON.stringify(over).slice(0, 80)).to.equal(400);
        expect(r.body, JSON.stringify(over).slice(0, 80)).to.have.property(field);
      }
      expect((await api(links(apps[0]), { method: 'POST', body: ['x'] })).status).to.equal(400);
      expect(await s.ctx.db('booking_links').count({ n: '*' })).to.deep.equal([{ n: 0 }]);

      const from = smtp.mails.length;
      const made = await api(links(apps[0]), { method: 'POST', body: valid({ cutoff_hours: 12 }) });
      expect(made.status).to.equal(201);
      expect(made.body).to.include({ status: 'open', duration_minutes: 45, cutoff_hours: 12, email_queued: true });
      expect(made.body.slots).to.deep.equal([at(0), at(1), at(2)].map((t) => new Date(t).toISOString()));
      expect(made.body.url).to.match(/^https:\/\/careers\.acme\.example\/book\/[A-Za-z0-9_-]{43}$/);
      const stored = await s.ctx.db('booking_links').first('token_hash');
      expect(stored.token_hash).to.not.include(made.body.url.split('/').at(-1));
      await delivery.worker.runDue();
      const mail = readable(smtp.mails.slice(from).find((m) => m.to.includes('cand0@example.com'))!.raw);
      expect(mail).to.include('Choose a time for your interview: Backend Engineer').and.include(made.body.url);

      const listed = await api(links(apps[0]));
      expect(listed.body.items).to.have.length(1);
      expect(listed.body.items[0]).to.not.have.property('url');
      const gone = await api(`${links(apps[0])}${made.body.id}/`, { method: 'DELETE' });
      expect(gone.body.status).to.equal('revoked');
      expect((await api(`${links(apps[0])}${made.body.id}/`, { method: 'DELETE' })).status).to.equal(409);
      expect((await api(`${links(apps[1])}${made.body.id}/`, { method: 'DELETE' })).status).to.equal(404);
      const dead = await page(pathOf(made.body.url));
      expect(dead.status).to.equal(410);
      expect(dead.html).to.include(M.linkRevoked);
    });

    it('the candidate books by a plain form, moves and cancels until the cut-off; taken, unknown and hostile times are refused', async () => {
      const made = (await api(links(apps[1]), { method: 'POST', body: valid({ cutoff_hours: 24 }) })).body;
      const path = pathOf(made.url);
      const first = await page(`${path}?tz=America/New_York`);
      expect(first.status).to.equal(200);
      expect(first.res.headers.get('cache-control')).to.equal('no-store');
      expect(first.html)
        .to.include('<meta name="robots" content="noindex')
        .and.include('Choose a time for your interview')
        .and.include('a video interview of 45 minutes');
      expect(offered(first.html)).to.deep.equal([at(0), at(1), at(2)].map((t) => new Date(t).toISOString()));
      // 10:00 UTC is 05:00 in New York (EST) in winter, 06:00 in summer.
      const ny = new Date(at(0)).toLocaleTimeString('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit' });
      expect(first.html).to.include(`>${ny}</button>`);

      for (const slot of ['', 'yesterday', 'x'.repeat(500), new Date(Date.now() + 5 * DAY).toISOString()]) {
        const r = await post(path, { action: 'book', slot });
        expect(r.status, slot.slice(0, 20)).to.equal(400);
        expect(await r.text()).to.include(M.notOffered);
      }
      const from = smtp.mails.length;
      const booked = await post(path, { action: 'book', slot: at(1), tz: 'America/New_York' });
      expect(booked.status).to.equal(303);
      expect(booked.headers.get('location')).to.equal(`${path}?tz=America%2FNew_York&done=booked`);
      const after = await page(booked.headers.get('location')!);
      expect(after.html).to.include(M.booked).and.include('Move to another time').and.include('Cancel the interview');
      const interview = await s.ctx.db('interviews').where({ application_id: apps[1] }).first('booking_link_id');
      expect(Number(interview.booking_link_id)).to.equal(made.id);
      const listed = (await api(`/api/hr/applications/${apps[1]}/interviews/`)).body.items;
      expect(listed).to.have.length(1);
      expect(listed[0]).to.include({ starts_at: new Date(at(1)).toISOString(), booked_by_candidate: true, status: 'scheduled' });
      await delivery.worker.runDue();
      const sent = smtp.mails.slice(from);
      expect(sent.some((m) => m.to.includes('cand1@example.com') && /text\/calendar;[^\r\n]*method=REQUEST/i.test(m.raw))).to.equal(true);
      expect(readable(sent.find((m) => m.to.includes('rita@acme.example') && m.raw.includes('booked their interview'))!.raw)).to.include(
        'Cand1 Idate booked their interview',
      );

      // Booked: the same time again is no move; another link of another candidate no longer offers it.
      const other = (await api(links(apps[2]), { method: 'POST', body: valid() })).body;
      expect(offered((await page(pathOf(other.url))).html)).to.deep.equal([at(0), at(2)].map((t) => new Date(t).toISOString()));
      const taken = await post(pathOf(other.url), { action: 'book', slot: at(1) });
      expect(taken.status).to.equal(409);
      expect(await taken.text())
        .to.include(M.taken)
        .and.include(`value="${new Date(at(0)).toISOString()}"`);

      // Moved, then cancelled: the link is used up.
      const moved = await post(path, { action: 'book', slot: at(2) });
      expect(moved.headers.get('location')).to.include('done=rescheduled');
      const row = await s.ctx.db('interviews').where({ application_id: apps[1] }).first('sequence', 'status');
      expect(row).to.deep.include({ status: 'scheduled', sequence: 1 });
      const cancelled = await post(path, { action: 'cancel' });
      expect(cancelled.headers.get('location')).to.include('done=cancelled');
      expect((await s.ctx.db('interviews').where({ application_id: apps[1] }).first('status')).status).to.equal('cancelled');
      const used = await page(path);
      expect(used.status).to.equal(410);
      expect(used.html).to.include(M.linkUsed);

      // Past the cut-off: no change online.
      const soon = (
        await api(links(apps[3]), {
          method: 'POST',
          body: valid({ slots: [new Date(Date.now() + 2 * HOUR).toISOString()], cutoff_hours: 24 }),
        })
      ).body;
      const soonSlot = soon.slots[0];
      expect((await post(pathOf(soon.url), { action: 'book', slot: soonSlot })).status).to.equal(303);
      const late = await post(pathOf(soon.url), { action: 'cancel' });
      expect(late.status).to.equal(409);
      expect(await late.text()).to.include(M.cutoff(24));

      // Expired and unknown links.
      const old = (await api(links(apps[4]), { method: 'POST', body: valid() })).body;
      await s.ctx.db('booking_links').where({ id: old.id }).update({ expires_at: '2020-01-01 00:00:00.000' });
      expect((await page(pathOf(old.url))).status).to.equal(410);
      expect((await page('/book/not-a-token')).status).to.equal(404);
      expect((await page(`/book/${'A'.repeat(43)}`)).status).to.equal(404);
      expect((await post(`/book/${'A'.repeat(43)}`, { action: 'book', slot: at(0) })).status).to.equal(404);
    });

    it('candidates racing for the same three slots: exactly one booking per slot, the others told it was taken', async () => {
      const slots = [at(48), at(49), at(50)];
      const urls: string[] = [];
      for (const appId of apps.slice(5, 14)) urls.push((await api(links(appId), { method: 'POST', body: valid({ slots }) })).body.url);
      const answers = await Promise.all(urls.map((u, i) => post(pathOf(u), { action: 'book', slot: slots[i % 3] })));
      const codes = answers.map((r) => r.status).sort();
      expect(codes).to.deep.equal([303, 303, 303, 409, 409, 409, 409, 409, 409]);
      const booked = await s.ctx
        .db('interviews')
        .whereIn('application_id', apps.slice(5, 14))
        .where({ status: 'scheduled' })
        .select('starts_at');
      expect(booked).to.have.length(3);
    });

    it('any free slot of the interviewers: offered inside their working hours, an interview already booked left out', async () => {
      const made = (await api(links(apps[0]), { method: 'POST', body: valid({ slots: undefined, window_days: 14, duration_minutes: 60 }) }))
        .body;
      expect(made).to.include({ window_days: 14, slots: null });
      const times = offered((await page(`${pathOf(made.url)}?tz=UTC`)).html).map((t) => new Date(t));
      expect(times.length).to.be.greaterThan(10);
      for (const t of times) {
        expect(t.getUTCHours(), t.toISOString()).to.be.within(9, 16); // Mon–Fri 09:00–17:00 UTC, the default
        expect(t.getUTCDay(), t.toISOString()).to.be.within(1, 5);
      }
      // The racing test's bookings (Rita's, two days after base) are not offered.
      for (const t of times)
        expect(t.getTime() + HOUR <= Date.parse(at(48)) || t.getTime() >= Date.parse(at(51)), t.toISOString()).to.equal(true);
      const r = await post(pathOf(made.url), { action: 'book', slot: times[0].toISOString() });
      expect(r.status).to.equal(303);
      // Another candidate's link of the same interviewer no longer offers that hour.
      const next = (await api(links(apps[2]), { method: 'POST', body: valid({ slots: undefined, window_days: 14, duration_minutes: 60 }) }))
        .body;
      const left = offered((await page(pathOf(next.url))).html);
      expect(left).to.not.include(times[0].toISOString());
    });
  });
}

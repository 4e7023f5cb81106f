/**
 * Issue 30, "Rejections and emails", over HTTP on SQLite and MySQL with a real SMTP server:
 * - send later: `send_at` or the template's default delay; the email waits in the outbox and is
 *   sent when due, exactly once with two workers claiming; it shows as SCHEDULED on the timeline
 *   and can be cancelled until it is sent (its sender or an admin; 403, 404, 409);
 * - Reply-To (MAIL_REPLY_TO) and the sender's name in From; {sender_name}, {stage},
 *   {application_date} and {job_url};
 * - a bulk rejection with email skips the applications already rejected unless `email_again`,
 *   and its preview counts them;
 * - the automatic receipt is written from the edited "Application received" template;
 * - HR_NOTIFY_DIGEST=hourly: one digest per hour instead of one email per application.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { hr, seedPeople, type Seeded } from '../applicants/helpers.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { header, readable, startSmtp } from '../helpers/smtp.js';
import { createDelivery } from '../../src/posts/index.js';
import { toDbDate } from '../../src/db/codecs.js';
import { createSession } from '../../src/users/repo.js';

const DAY = 86_400_000;

for (const kind of databaseKinds()) {
  describe(`emails sent later, Reply-To, variables, bulk skips, receipt and digest [${kind}]`, function () {
    this.timeout(60_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let seeded: Seeded;
    // The clock of the server and of the workers: moved forward by the tests.
    let clock = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000);
    const users: Record<'admin' | 'rita' | 'ravi', { id: number }> = {} as never;
    let workers: ReturnType<typeof createDelivery>[] = [];

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(
        kind,
        {
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          MAIL_FROM: 'Acme Careers <jobs@acme.example>',
          MAIL_REPLY_TO: 'recruiting@acme.example',
          MAIL_REPLY_TO_SENDER: 'true',
          HR_NOTIFY_EMAIL: 'hr@acme.example',
          HR_NOTIFY_DIGEST: 'hourly',
          COMPANY_NAME: 'Acme',
          PUBLIC_BASE_URL: 'https://careers.acme.example',
          APPLY_RATE_LIMIT: '0',
        },
        { now: () => clock },
      );
      seeded = await seedPeople(s.ctx.db);
      for (const [name, role] of [
        ['admin', 'admin'],
        ['rita', 'recruiter'],
        ['ravi', 'recruiter'],
      ] as const) {
        users[name] = { id: await createHrUser(s.ctx.db, name, { role }) };
      }
      const log = () => undefined;
      // Two workers on one database, as two processes would run them.
      workers = [
        createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => clock, log }),
        createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => clock, log }),
      ];
    });
    after(async () => {
      for (const w of workers) await w.close();
      await s.close();
      await smtp.close();
    });

    // Days pass on the server's clock: each call signs in afresh at that time (sessions slide up to SESSION_MAX_HOURS).
    const as =
      (who: { id: number }) =>
      async (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, (await createSession(s.ctx.db, who.id, 3600, clock)).token, p, init);
    const runBoth = () => Promise.all(workers.map((w) => w.worker.runDue()));
    const template = async (purpose: string) =>
      (await as(users.admin)('/api/hr/email-templates/')).body.results.find((t: any) => t.purpose === purpose);
    const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to)).map((m) => readable(m.raw));
    const appId = (email: string) => seeded.ids.get(email)!;
    const db = (): Knex => s.ctx.db;

    it('schedules an email: it waits in the outbox, shows as Scheduled, and is sent once when due by two workers, with Reply-To and the sender in From', async () => {
      const rejection = await template('rejection');
      const id = appId('jose.muller@example.com');
      const at = new Date(clock.getTime() + 2 * DAY);
      const res = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: at.toISOString() },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ status: 'PENDING', send_after: at.toISOString(), detail: `Email scheduled for ${at.toISOString()}.` });
      const row = await db()('email_posts').where({ id: res.body.id }).first();
      expect(row.status).to.equal('PENDING');

      await runBoth();
      expect(mailsTo('jose.muller@example.com')).to.have.length(0);

      const timeline = await as(users.admin)(`/api/hr/applications/${id}/timeline/`);
      const entry = timeline.body.results.find((e: any) => e.id === `email-${res.body.id}`);
      expect(entry).to.deep.include({ action: 'scheduled' });
      expect(entry.text).to.equal(
        `“Rejection” email to jose.muller@example.com scheduled by rita: Your application for Backend Engineer at Acme`,
      );
      expect(entry.email).to.include({ id: res.body.id, status: 'SCHEDULED', send_after: at.toISOString() });
      const list = await as(users.rita)(`/api/hr/applications/${id}/emails/scheduled/`);
      expect(list.status).to.equal(200);
      expect(list.body.results).to.deep.equal([
        {
          id: res.body.id,
          application_id: id,
          to: 'jose.muller@example.com',
          subject: 'Your application for Backend Engineer at Acme',
          template_name: 'Rejection',
          send_after: at.toISOString(),
          sent_by: { id: users.rita.id, username: 'rita' },
          can_cancel: true,
        },
      ]);
      expect((await as(users.ravi)(`/api/hr/applications/${id}/emails/scheduled/`)).body.results[0].can_cancel).to.equal(false);
      expect((await as(users.admin)(`/api/hr/applications/${id}/emails/scheduled/`)).body.results[0].can_cancel).to.equal(true);

      // A minute before: still waiting. Then due: sent once, although both workers claim.
      clock = new Date(at.getTime() - 60_000);
      await runBoth();
      expect(mailsTo('jose.muller@example.com')).to.have.length(0);
      clock = new Date(at.getTime() + 1000);
      await runBoth();
      await runBoth();
      const mails = mailsTo('jose.muller@example.com');
      expect(mails).to.have.length(1);
      expect(header(mails[0], 'From')).to.equal('rita via Acme Careers <jobs@acme.example>');
      expect(header(mails[0], 'Reply-To')).to.equal('recruiting@acme.example');
      expect(smtp.mails.find((m) => m.to.includes('jose.muller@example.com'))!.from).to.equal('jobs@acme.example');
      expect((await db()('email_posts').where({ id: res.body.id }).first()).status).to.equal('SUCCESS');
      expect((await as(users.rita)(`/api/hr/applications/${id}/emails/scheduled/`)).body.results).to.deep.equal([]);

      // Sent: too late to cancel.
      const late = await as(users.rita)(`/api/hr/emails/${res.body.id}/cancel/`, { method: 'POST' });
      expect(late.status).to.equal(409);
      expect(late.body).to.deep.equal({ detail: 'This email has already been sent: it can no longer be cancelled.' });
    });

    it('cancels a scheduled email until it is sent: its sender or an admin; another recruiter 403, unknown 404, twice 409, signed out 401', async () => {
      const rejection = await template('rejection');
      const id = appId('jo.baker@example.org');
      const at = new Date(clock.getTime() + DAY);
      const one = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: at.toISOString() },
      });
      const two = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: at.toISOString() },
      });
      expect([one.status, two.status]).to.deep.equal([201, 201]);

      const cancel = (who: { id: number }, emailId: unknown) => as(who)(`/api/hr/emails/${emailId}/cancel/`, { method: 'POST' });
      const other = await cancel(users.ravi, one.body.id);
      expect(other.status).to.equal(403);
      expect(other.body).to.deep.equal({ detail: 'Only the sender of this email or an admin may cancel it.' });
      expect((await fetch(`${s.baseUrl}/api/hr/emails/${one.body.id}/cancel/`, { method: 'POST' })).status).to.equal(401);
      expect(
        (await fetch(`${s.baseUrl}/api/hr/emails/${one.body.id}/cancel/`, { method: 'POST', headers: { Authorization: 'Bearer nope' } }))
          .status,
      ).to.equal(401);
      for (const bad of [999_999, 'abc', -1, '1.5']) {
        const r = await cancel(users.rita, bad);
        expect(r.status, String(bad)).to.equal(404);
        expect(r.body).to.deep.equal({ detail: 'Not found.' });
      }
      const mine = await cancel(users.rita, one.body.id);
      expect(mine.status).to.equal(200);
      expect(mine.body).to.deep.equal({ id: one.body.id, status: 'CANCELLED', detail: 'Email cancelled: it will not be sent.' });
      const again = await cancel(users.rita, one.body.id);
      expect(again.status).to.equal(409);
      expect(again.body).to.deep.equal({ detail: 'This email was already cancelled.' });
      expect((await cancel(users.admin, two.body.id)).status).to.equal(200);
      const row = await db()('email_posts').where({ id: one.body.id }).first();
      expect(row.status).to.equal('CANCELLED');
      expect(Number(row.cancelled_by)).to.equal(users.rita.id);

      const timeline = await as(users.rita)(`/api/hr/applications/${id}/timeline/`);
      const entry = timeline.body.results.find((e: any) => e.id === `email-${one.body.id}`);
      expect(entry.email.status).to.equal('CANCELLED');
      expect(timeline.body.results.find((e: any) => e.id === `email-${one.body.id}-cancelled`).text).to.equal(
        '“Rejection” email to jo.baker@example.org cancelled before it was sent',
      );

      clock = new Date(at.getTime() + 60_000);
      await runBoth();
      expect(mailsTo('jo.baker@example.org')).to.have.length(0);
    });

    it('an email the application sent itself cannot be cancelled (404); an email being sent is 409', async () => {
      const job = await makeJob(db(), { title: 'Receipt Job' });
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: 'self@example.com', first_name: 'Sam' })),
      });
      expect(res.status).to.equal(201);
      const receipt = await db()('email_posts').where({ template: 'applicant_confirmation' }).orderBy('id', 'desc').first();
      expect((await as(users.admin)(`/api/hr/emails/${receipt.id}/cancel/`, { method: 'POST' })).status).to.equal(404);
      const rejection = await template('rejection');
      const sent = await as(users.rita)(`/api/hr/applications/${appId('asha@dsouza.in')}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: new Date(clock.getTime() + DAY).toISOString() },
      });
      // A worker holds it (claimed): on the wire, maybe.
      await db()('email_posts').where({ id: sent.body.id }).update({ claim_token: 'held-by-a-worker' });
      const busy = await as(users.rita)(`/api/hr/emails/${sent.body.id}/cancel/`, { method: 'POST' });
      expect(busy.status).to.equal(409);
      expect(busy.body).to.deep.equal({ detail: 'This email is being sent right now: it can no longer be cancelled.' });
      await db()('email_posts').where({ id: sent.body.id }).update({ claim_token: null });
      expect((await as(users.rita)(`/api/hr/emails/${sent.body.id}/cancel/`, { method: 'POST' })).status).to.equal(200);
      await runBoth();
    });

    it('refuses a time in the past, too far ahead, or not a time, writing nothing', async () => {
      const rejection = await template('rejection');
      const id = appId('zoe.a@example.se');
      const before = Number((await db()('email_posts').count({ n: '*' }))[0].n);
      const PAST = 'The time to send must be in the future.';
      const FAR = 'The time to send may be at most 30 days ahead.';
      const BAD = 'The time to send must be a date and time with its time zone, such as 2026-12-01T09:00:00+01:00, or null to send now.';
      const cases: [unknown, string][] = [
        [new Date(clock.getTime() - 60_000).toISOString(), PAST],
        [clock.toISOString(), PAST],
        [new Date(clock.getTime() + 31 * DAY).toISOString(), FAR],
        ['9999-12-31T23:59:59Z', FAR],
        [Date.now() + DAY, BAD],
        ['tomorrow', BAD],
        ['2026-12-01T09:00', BAD],
        ['2026-13-45T09:00:00Z', BAD],
        [{ at: 'later' }, BAD],
        [true, BAD],
        ['2026-12-01T09:00:00Z'.repeat(50), BAD],
      ];
      for (const [sendAt, message] of cases) {
        const one = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
          method: 'POST',
          body: { template_id: rejection.id, send_at: sendAt },
        });
        expect(one.status, JSON.stringify(sendAt)).to.equal(400);
        expect(one.body, JSON.stringify(sendAt)).to.deep.equal({ send_at: [message] });
        const bulk = await as(users.rita)('/api/hr/applications/emails/bulk/', {
          method: 'POST',
          body: { ids: [id], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit', send_at: sendAt },
        });
        expect(bulk.status, JSON.stringify(sendAt)).to.equal(400);
        expect(bulk.body.send_at, JSON.stringify(sendAt)).to.deep.equal([message]);
      }
      const wrongAgain = await as(users.rita)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: [id], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit', email_again: 'yes' },
      });
      expect(wrongAgain.status).to.equal(400);
      expect(wrongAgain.body).to.deep.equal({ email_again: ['email_again must be true or false.'] });
      expect(Number((await db()('email_posts').count({ n: '*' }))[0].n)).to.equal(before);
      expect((await db()('applications').where({ id }).first()).outcome).to.equal(null);
      // 30 days ahead exactly is allowed.
      const edge = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: new Date(clock.getTime() + 30 * DAY).toISOString() },
      });
      expect(edge.status).to.equal(201);
      expect((await as(users.rita)(`/api/hr/emails/${edge.body.id}/cancel/`, { method: 'POST' })).status).to.equal(200);
    });

    it("uses the template's default delay when no time is given (admins set it; null sends now); refuses bad delays", async () => {
      const interview = await template('interview');
      const put = (who: { id: number }, delay: unknown) =>
        as(who)(`/api/hr/email-templates/${interview.id}/`, {
          method: 'PUT',
          body: { name: interview.name, subject: interview.subject, body: interview.body, default_delay_minutes: delay },
        });
      expect((await put(users.rita, 2880)).status).to.equal(403);
      const MESSAGE = 'The default delay must be a whole number of minutes from 0 to 43,200 (30 days), or null.';
      for (const bad of [-1, 1.5, '60', 43_201, true, 1e100]) {
        const r = await put(users.admin, bad);
        expect(r.status, String(bad)).to.equal(400);
        expect(r.body).to.deep.equal({ default_delay_minutes: [MESSAGE] });
      }
      const ok = await put(users.admin, 2880);
      expect(ok.status).to.equal(200);
      expect(ok.body.default_delay_minutes).to.equal(2880);
      expect((await template('interview')).default_delay_minutes).to.equal(2880);

      const id = appId('bjorn@example.no');
      const later = await as(users.rita)(`/api/hr/applications/${id}/emails/`, { method: 'POST', body: { template_id: interview.id } });
      expect(later.body.send_after).to.equal(new Date(clock.getTime() + 2 * DAY).toISOString());
      const now = await as(users.rita)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: interview.id, send_at: null },
      });
      expect(now.body.send_after).to.equal(null);
      expect(now.body.detail).to.equal('Email queued.');
      await runBoth();
      expect(mailsTo('bjorn@example.no')).to.have.length(1);
      expect((await as(users.rita)(`/api/hr/emails/${later.body.id}/cancel/`, { method: 'POST' })).status).to.equal(200);
      // 0 is "at once", stored as null; leaving the field out of a PUT clears it.
      expect((await put(users.admin, 0)).body.default_delay_minutes).to.equal(null);
      await put(users.admin, 60);
      const cleared = await as(users.admin)(`/api/hr/email-templates/${interview.id}/`, {
        method: 'PUT',
        body: { name: interview.name, subject: interview.subject, body: interview.body },
      });
      expect(cleared.body.default_delay_minutes).to.equal(null);
    });

    it('fills {sender_name}, {stage}, {application_date} and {job_url}, in the preview and the email', async () => {
      const created = await as(users.admin)('/api/hr/email-templates/', {
        method: 'POST',
        body: {
          name: 'Variables',
          subject: '{job_title}: {stage}',
          body: 'Hi {first_name},\n\nYou applied on {application_date} for {job_url}.\n\n{sender_name}',
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const id = appId('rahul.sharma@example.com');
      const preview = await as(users.rita)(`/api/hr/applications/${id}/emails/preview/`, {
        method: 'POST',
        body: { template_id: created.body.id },
      });
      expect(preview.status).to.equal(200);
      const stage = (await db()('applications as a').join('job_stages as s', 's.id', 'a.stage_id').where('a.id', id).first('s.name')).name;
      expect(preview.body.subject).to.equal(`Data Analyst: ${stage}`);
      expect(preview.body.text).to.equal(
        'Hi Rahul,\n\nYou applied on 12 January 2026 for https://careers.acme.example/careers/data-1.\n\nrita\n',
      );
      const bad = await as(users.admin)('/api/hr/email-templates/', {
        method: 'POST',
        body: { name: 'Bad', subject: 'x', body: '{job_link}' },
      });
      expect(bad.body).to.deep.equal({
        body: [
          'Unknown variable {job_link}: use {first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date} or {job_url}.',
        ],
      });
      const sent = await as(users.rita)(`/api/hr/applications/${id}/emails/`, { method: 'POST', body: { template_id: created.body.id } });
      expect(sent.status).to.equal(201);
      await runBoth();
      const [mail] = mailsTo('rahul.sharma@example.com');
      expect(mail).to.include('You applied on 12 January 2026 for https://careers.acme.example/careers/data-1.');
    });

    it('a bulk rejection skips those already rejected unless email_again; its preview counts them', async () => {
      const rejection = await template('rejection');
      const a = appId('priya@patel.dev');
      const b = appId('weiss@example.de');
      const first = await as(users.rita)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: [a], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' },
      });
      expect(first.body).to.include({ queued: 1 });
      const preview = await as(users.rita)('/api/hr/applications/emails/bulk/preview/', {
        method: 'POST',
        body: { ids: [a, b, 777_777], template_id: rejection.id },
      });
      expect(preview.status).to.equal(200);
      expect(preview.body).to.deep.include({ count: 2, already_rejected: 1, already_rejected_ids: [a], not_found: [777_777] });
      // The preview shows someone who would get the email.
      expect(preview.body.email.to).to.equal('weiss@example.de');
      const skip = await as(users.rita)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: [a, b], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' },
      });
      expect(skip.body).to.deep.include({ queued: 1, queued_ids: [b], skipped_ids: [a], rejected_ids: [b] });
      const again = await as(users.rita)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: [a, b], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit', email_again: true },
      });
      expect(again.body).to.deep.include({ queued: 2, skipped_ids: [], rejected_ids: [] });
      await runBoth();
      expect(mailsTo('priya@patel.dev')).to.have.length(2);
      expect(mailsTo('weiss@example.de')).to.have.length(2);
      // Scheduled in bulk.
      const at = new Date(clock.getTime() + 2 * DAY);
      const later = await as(users.rita)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: {
          ids: [appId('liam.smith@example.com')],
          template_id: rejection.id,
          outcome: 'REJECTED',
          reason: 'Not a fit',
          send_at: at.toISOString(),
        },
      });
      expect(later.body).to.deep.include({ queued: 1, send_after: at.toISOString(), detail: `1 email scheduled for ${at.toISOString()}.` });
      // Bad preview input.
      for (const [body, field] of [
        [{ ids: [], template_id: rejection.id }, 'ids'],
        [{ ids: [a], template_id: 'x' }, 'template_id'],
        [{ ids: [777_777], template_id: rejection.id }, 'ids'],
      ] as const) {
        const r = await as(users.rita)('/api/hr/applications/emails/bulk/preview/', { method: 'POST', body });
        expect(r.status).to.equal(400);
        expect(r.body).to.have.property(field);
      }
      expect((await fetch(`${s.baseUrl}/api/hr/applications/emails/bulk/preview/`, { method: 'POST' })).status).to.equal(401);
    });

    it('writes the receipt from the edited "Application received" template, and sends HR one digest per hour instead of one email per application', async () => {
      const receipt = await template('receipt');
      const put = await as(users.admin)(`/api/hr/email-templates/${receipt.id}/`, {
        method: 'PUT',
        body: {
          name: receipt.name,
          subject: 'We have it: {job_title}',
          body: 'Hello {first_name},\n\nYour application of {application_date} for {job_url} is in.\n\n{sender_name}',
        },
      });
      expect(put.status).to.equal(200);
      // The start of a fresh hour: the digest below covers only these two.
      clock = new Date(Math.ceil((clock.getTime() + 1) / 3_600_000) * 3_600_000 + 60_000);
      const appliedAt = clock;
      const job = await makeJob(db(), { title: 'Digest Job', public_id: 'digest-job' });
      for (const [email, first] of [
        ['dana@example.com', 'Dana'],
        ['eli@example.com', 'Eli'],
      ]) {
        const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, first_name: first })),
        });
        expect(res.status).to.equal(201);
      }
      expect(await db()('email_posts').where({ template: 'hr_notification' })).to.have.length(0);
      await runBoth();
      const [dana] = mailsTo('dana@example.com');
      expect(header(dana, 'Subject')).to.equal('We have it: Digest Job');
      const day = clock.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
      expect(dana)
        .to.include(`Your application of ${day} for https://careers.acme.example/careers/digest-job is in.`)
        .and.include('Acme Careers');
      expect(mailsTo('hr@acme.example')).to.have.length(0);

      // The hour has ended: both workers ask; one digest is written and sent.
      clock = new Date(Math.ceil(clock.getTime() / 3_600_000) * 3_600_000 + 60_000);
      const made = await Promise.all(workers.map((w) => w.digest()));
      expect(made.filter(Boolean)).to.have.length(1);
      expect(await workers[0].digest()).to.equal(false);
      await runBoth();
      const digests = mailsTo('hr@acme.example');
      expect(digests).to.have.length(1);
      expect(header(digests[0], 'Subject')).to.equal('2 new applications in the last hour');
      expect(digests[0])
        .to.include('Dana')
        .and.include('Eli')
        .and.include('Digest Job (digest-job): https://careers.acme.example/hr/applicants/');
      // An hour without applications sends nothing.
      clock = new Date(clock.getTime() + 3_600_000);
      expect(await workers[0].digest()).to.equal(false);

      // HR_NOTIFY_DIGEST=daily: once the UTC day has ended, one digest of the day's applications.
      const daily = createDelivery({
        db: db(),
        config: { ...s.ctx.config, mail: { ...s.ctx.config.mail, hrNotifyDigest: 'daily' } },
        now: () => clock,
        log: () => undefined,
      });
      try {
        // The UTC day of the two applications: the hours above may have crossed midnight since.
        const dayStart = Math.floor(appliedAt.getTime() / DAY) * DAY;
        const inDay = Number(
          (
            await db()('applications')
              .where('created_at', '>=', toDbDate(new Date(dayStart)))
              .where('created_at', '<', toDbDate(new Date(dayStart + DAY)))
              .count({ n: '*' })
          )[0].n,
        );
        clock = new Date(Math.max(clock.getTime(), dayStart + DAY + 60_000));
        expect(await daily.digest()).to.equal(true);
        expect(await daily.digest()).to.equal(false);
        await daily.worker.runDue();
        const last = mailsTo('hr@acme.example').at(-1)!;
        expect(header(last, 'Subject')).to.equal(`${inDay} new ${inDay === 1 ? 'application' : 'applications'} yesterday`);
        expect(last).to.include(`on ${new Date(dayStart).toISOString().slice(0, 10)} (UTC)`);
      } finally {
        await daily.close();
      }
    });

    it("MAIL_REPLY_TO_SENDER=true: the Reply-To is the sender's own address once HR users have one (hr_users.email), MAIL_REPLY_TO otherwise", async function () {
      // HR users' email addresses come with company sign-in (another change of issue 30): without the column, MAIL_REPLY_TO alone (the first test).
      if (!(await db().schema.hasColumn('hr_users', 'email'))) this.skip();
      await db()('hr_users').where({ id: users.ravi.id }).update({ email: 'ravi@acme.example' });
      const rejection = await template('rejection');
      const id = appId('mia.rossi@example.it');
      const sent = await as(users.ravi)(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { template_id: rejection.id, send_at: null },
      });
      expect(sent.status).to.equal(201);
      await runBoth();
      const [mail] = mailsTo('mia.rossi@example.it');
      expect(header(mail, 'Reply-To')).to.equal('ravi@acme.example');
      expect(header(mail, 'From')).to.equal('ravi via Acme Careers <jobs@acme.example>');
    });

    it('every new route answers 401 signed out', async () => {
      const id = appId('mia.rossi@example.it');
      for (const [method, path] of [
        ['GET', `/api/hr/applications/${id}/emails/scheduled/`],
        ['POST', '/api/hr/emails/1/cancel/'],
        ['POST', '/api/hr/applications/emails/bulk/preview/'],
      ]) {
        expect((await fetch(s.baseUrl + path, { method })).status, path).to.equal(401);
      }
      expect((await as(users.rita)('/api/hr/applications/999999/emails/scheduled/')).status).to.equal(404);
    });
  });
}

/**
 * Interviews on the calendar, the scheduling core (issue 32), over HTTP on SQLite and MySQL with
 * a real SMTP server and a real webhook receiver: schedule, list, read, change and cancel an
 * interview; field errors (wrong types, missing, huge, hostile values), 401 signed out, 403 for
 * interviewers changing, 404s; the iMIP invitations as calendars read them (parsed with ical.js:
 * METHOD, UID, SEQUENCE, ATTENDEE RSVP, VTIMEZONE, DTSTART in the zone), updates and CANCELs; the
 * overlap warning; webhooks; the timeline; scorecards asked for; reminders 24 h and 1 h before,
 * written from the two reminder templates as HR edited them and sent at the times each has ticked
 * (read back from the SMTP server).
 */
import { expect } from 'chai';
import ICAL from 'ical.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { decodedHeader, header, readable, startSmtp } from '../helpers/smtp.js';
import { hr } from '../applicants/helpers.js';
import { insertApplications } from '../helpers/applications.js';
import { startReceiver, verifyStandardWebhook, webhookJob, type Receiver } from '../posts/helpers.js';
import { createDelivery } from '../../src/posts/index.js';
import { fromDbDate, fromDbJson } from '../../src/db/codecs.js';
import {
  cancelInterview,
  remindUpcomingInterviews,
  rescheduleInterview,
  scheduleInterview,
  type ConflictCheck,
} from '../../src/interviews/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
type Who = { id: number; token: string };

/** "Tuesday 1 December 2026, 10:00–10:45 (Europe/Berlin)", written with Intl: how reminders say when. */
function whenIn(start: Date, end: Date, zone: string): string {
  const part = (d: Date, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { ...o, timeZone: zone }).format(d);
  const day = (d: Date) =>
    `${part(d, { weekday: 'long' })} ${part(d, { day: 'numeric' })} ${part(d, { month: 'long' })} ${part(d, { year: 'numeric' })}`;
  const hm = (d: Date) => part(d, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day(start)}, ${hm(start)}–${day(start) === day(end) ? hm(end) : `${day(end)}, ${hm(end)}`} (${zone})`;
}

/** The text/calendar part of a raw message (nodemailer's icalEvent): its Content-Type and its text. */
function calendarPart(raw: string): { contentType: string; text: string } {
  const m = /\r\nContent-Type: (text\/calendar;[^\r\n]*(?:\r\n[ \t][^\r\n]*)*)\r\n((?:[^\r\n]+\r\n)*?)\r\n([\s\S]*?)\r\n--/i.exec(raw);
  if (!m) throw new Error(`no text/calendar part in:\n${raw.slice(0, 2000)}`);
  const contentType = m[1].replace(/\r\n[ \t]+/g, ' ');
  const encoding = /Content-Transfer-Encoding: (\S+)/i.exec(m[2])?.[1]?.toLowerCase() ?? '7bit';
  const body = m[3];
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { contentType, text };
}

/** The parts of an invitation a calendar acts on, read by ical.js. */
function parseInvite(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  const ev = cal.getFirstSubcomponent('vevent')!;
  const start = ev.getFirstProperty('dtstart')!;
  return {
    method: String(cal.getFirstPropertyValue('method')),
    uid: String(ev.getFirstPropertyValue('uid')),
    sequence: Number(ev.getFirstPropertyValue('sequence')),
    status: String(ev.getFirstPropertyValue('status') ?? ''),
    tzids: cal.getAllSubcomponents('vtimezone').map((z) => String(z.getFirstPropertyValue('tzid'))),
    dtstartTzid: String(start.getParameter('tzid') ?? ''),
    dtstartLocal: String(start.getFirstValue()),
    dtstamp: String(ev.getFirstProperty('dtstamp')!.toICALString()),
    organizer: String(ev.getFirstPropertyValue('organizer')),
    organizerName: String(ev.getFirstProperty('organizer')!.getParameter('cn')),
    attendees: ev.getAllProperties('attendee').map((a) => ({
      email: String(a.getFirstValue())
        .replace(/^mailto:/i, '')
        .toLowerCase(),
      rsvp: String(a.getParameter('rsvp')),
      partstat: String(a.getParameter('partstat')),
    })),
    location: String(ev.getFirstPropertyValue('location') ?? ''),
    description: String(ev.getFirstPropertyValue('description') ?? ''),
  };
}

for (const kind of databaseKinds()) {
  describe(`interviews API [${kind}]`, function () {
    this.timeout(90_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let receiver: Receiver;
    let s: TestServer;
    let delivery: ReturnType<typeof createDelivery>;
    let rita: Who;
    let ian: Who;
    let dana: Who;
    let ivan: Who; // an interviewer (role), asked by scheduling
    let appId: number;
    let otherAppId: number;
    let jobId: number;
    let stages: { id: number; name: string }[];
    // 02:00 UTC three days ahead: every time below falls on one UTC day, inside the working hours set below.
    const base = new Date(Math.ceil((Date.now() + 3 * DAY) / DAY) * DAY + 2 * HOUR);
    const at = (hours: number) => new Date(base.getTime() + hours * HOUR).toISOString();

    before(async () => {
      smtp = await startSmtp();
      receiver = await startReceiver();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <jobs@acme.example>',
        COMPANY_NAME: 'Acme',
        PUBLIC_BASE_URL: 'https://careers.acme.example',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined });
      const make = async (name: string, role: 'admin' | 'recruiter' | 'interviewer', email: string | null) => {
        const id = await createHrUser(s.ctx.db, name, { role });
        if (email) await s.ctx.db('hr_users').where({ id }).update({ email });
        // Working every day, all day: the warnings here are about overlaps (availability.test.ts checks working hours).
        await s.ctx.db('interviewer_settings').insert({
          hr_user_id: id,
          time_zone: 'UTC',
          work_days: '1,2,3,4,5,6,7',
          work_start: '00:00',
          work_end: '23:59',
          updated_at: new Date().toISOString().replace('T', ' ').slice(0, 23),
        });
        return { id, token: await liveToken(s.ctx.db, id) };
      };
      rita = await make('rita', 'recruiter', 'rita@acme.example');
      ian = await make('ian', 'recruiter', 'ian@acme.example');
      dana = await make('dana', 'admin', null);
      ivan = await make('ivan', 'interviewer', 'ivan@acme.example');
      const job = await webhookJob(s.ctx.db, receiver.url, 's3cret-s3cret-s3cret', { title: 'Backend Engineer' });
      jobId = job.id;
      await insertApplications(
        s.ctx.db,
        job.id,
        [
          { first_name: 'José', last_name: 'Müller', email: 'jose@example.com', phone: '+15550100' },
          { first_name: 'Asha', last_name: 'Rao', email: 'asha@example.com', phone: '+15550101' },
        ],
        [],
      );
      const apps = await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').select('id');
      [appId, otherAppId] = apps.map((a: any) => Number(a.id));
      stages = (await s.ctx.db('job_stages').where({ job_id: job.id }).orderBy('position').select('id', 'name')).map((r: any) => ({
        id: Number(r.id),
        name: r.name,
      }));
    });
    after(async () => {
      await delivery?.close();
      await s?.close();
      await smtp?.close();
      await receiver?.close();
    });

    const as =
      (who: Who) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const list = (id = appId) => `/api/hr/applications/${id}/interviews/`;
    const one = (id: number) => `/api/hr/interviews/${id}/`;
    const valid = (over: Record<string, unknown> = {}) => ({
      type: 'video',
      starts_at: at(0),
      ends_at: at(0.75),
      time_zone: 'Europe/Berlin',
      interviewers: [{ user_id: rita.id }, { email: 'Olga@Outside.example', name: 'Olga Outside' }],
      video_url: 'https://meet.example.com/abc',
      candidate_notes: 'Bring a laptop.\nWe will pair on code.',
      ...over,
    });
    /** Sends what the outbox holds to the SMTP server and the receiver; answers the mails received since `from`. */
    const deliver = async (from: number) => {
      await delivery.worker.runDue();
      return smtp.mails.slice(from);
    };
    const invitesTo = (mails: typeof smtp.mails, email: string) =>
      mails.filter((m) => m.to.includes(email)).map((m) => ({ ...calendarPart(m.raw), mail: readable(m.raw) }));

    it('refuses signed-out callers (401), unknown and erased applications and interviews (404)', async () => {
      const routes: [string, string][] = [
        ['GET', list()],
        ['POST', list()],
        ['GET', one(1)],
        ['PATCH', one(1)],
        ['DELETE', one(1)],
      ];
      for (const [method, p] of routes)
        for (const token of ['', 'not-a-token']) {
          const res = await fetch(s.baseUrl + p, {
            method,
            headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json' },
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
          expect(res.status, `${method} ${p}`).to.equal(401);
        }
      for (const bad of ['999999', '0', 'abc', '1e3', '99999999999']) {
        expect((await as(rita)(list(bad as never))).body).to.deep.equal({ detail: 'Application not found.' });
        expect((await as(rita)(list(bad as never), { method: 'POST', body: valid() })).status).to.equal(404);
        for (const method of ['GET', 'PATCH', 'DELETE'])
          expect((await as(rita)(`/api/hr/interviews/${bad}/`, { method, body: method === 'GET' ? undefined : {} })).body).to.deep.equal({
            detail: 'Interview not found.',
          });
      }
    });

    it('answers bad input with 400 and a message per field', async () => {
      const post = (body: unknown) => as(rita)(list(), { method: 'POST', body });
      const far = new Date(Date.now() + 2 * 365 * DAY + 5 * DAY).toISOString();
      const cases: [unknown, Record<string, string[]>][] = [
        [
          {},
          {
            type: ['This field is required.'],
            starts_at: ['This field is required.'],
            ends_at: ['This field is required.'],
            time_zone: ['This field is required.'],
            interviewers: ['This field is required.'],
          },
        ],
        [valid({ type: 'coffee' }), { type: ['The type is one of phone, video, onsite, other.'] }],
        [valid({ type: ['video'] }), { type: ['The type is one of phone, video, onsite, other.'] }],
        [
          valid({ starts_at: '2026-13-01T09:00:00Z' }),
          { starts_at: ['Give a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.'] },
        ],
        [
          valid({ starts_at: '2026-12-01 09:00' }),
          { starts_at: ['Give a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.'] },
        ],
        [
          valid({ starts_at: 1767258000000 }),
          { starts_at: ['Give a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.'] },
        ],
        [
          valid({ ends_at: 'x'.repeat(100_000) }),
          { ends_at: ['Give a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.'] },
        ],
        [valid({ ends_at: at(0) }), { ends_at: ['The end must be after the start.'] }],
        [valid({ ends_at: at(-1) }), { ends_at: ['The end must be after the start.'] }],
        [valid({ ends_at: at(12.5) }), { ends_at: ['An interview lasts at most 12 hours.'] }],
        [
          valid({ starts_at: far, ends_at: new Date(Date.parse(far) + HOUR).toISOString() }),
          { starts_at: ['The start must be within 2 years from now.'] },
        ],
        [valid({ time_zone: 'Mars/Olympus' }), { time_zone: ['Choose a time zone by its IANA name, such as Europe/Berlin.'] }],
        [valid({ time_zone: '../../etc/passwd' }), { time_zone: ['Choose a time zone by its IANA name, such as Europe/Berlin.'] }],
        [valid({ time_zone: 7 }), { time_zone: ['Choose a time zone by its IANA name, such as Europe/Berlin.'] }],
        [valid({ interviewers: [] }), { interviewers: ['Give 1 to 20 interviewers.'] }],
        [valid({ interviewers: 'rita' }), { interviewers: ['Give 1 to 20 interviewers.'] }],
        [
          valid({ interviewers: Array.from({ length: 21 }, (_, i) => ({ email: `p${i}@x.example`, name: `P${i}` })) }),
          { interviewers: ['Give 1 to 20 interviewers.'] },
        ],
        [valid({ interviewers: [null] }), { 'interviewers.0': ["Give an HR user (user_id), or an outside interviewer's email and name."] }],
        [valid({ interviewers: [{}] }), { 'interviewers.0': ["Give an HR user (user_id), or an outside interviewer's email and name."] }],
        [valid({ interviewers: [{ email: 'not-an-email', name: 'X' }] }), { 'interviewers.0.email': ['Enter a valid email address.'] }],
        [valid({ interviewers: [{ email: 'a@b.example' }] }), { 'interviewers.0.name': ['This field is required.'] }],
        [
          valid({ interviewers: [{ email: 'a@b.example', name: 'Bad\u202Ename' }] }),
          { 'interviewers.0.name': ['Remove the invisible or text-direction characters (such as U+200B or U+202E).'] },
        ],
        [valid({ interviewers: [{ user_id: '1; DROP TABLE interviews' }] }), { 'interviewers.0.user_id': ['Choose an active HR user.'] }],
        [
          valid({ interviewers: [{ user_id: rita.id, email: 'a@b.example', name: 'A' }] }),
          { 'interviewers.0.email': ["Give either an HR user or an outside interviewer's email and name, not both."] },
        ],
        [valid({ interviewers: [{ user_id: rita.id }, { user_id: rita.id }] }), { interviewers: ['Each interviewer is named once.'] }],
        [valid({ interviewers: [{ user_id: 999999 }] }), { 'interviewers.0.user_id': ['Choose an active HR user.'] }],
        [
          valid({ interviewers: [{ user_id: dana.id }] }),
          { 'interviewers.0.user_id': ['This HR user has no email address for the invitation: add one on the Users page first.'] },
        ],
        [
          valid({ interviewers: [{ user_id: rita.id }, { email: 'RITA@acme.example', name: 'Rita again' }] }),
          { interviewers: ['Each interviewer is named once.'] },
        ],
        [valid({ video_url: 'javascript:alert(1)' }), { video_url: ['Enter a web address starting with http:// or https://.'] }],
        [valid({ video_url: 'ftp://files.example.com/x' }), { video_url: ['Enter a web address starting with http:// or https://.'] }],
        [
          valid({ video_url: `https://x.example/${'a'.repeat(2000)}` }),
          { video_url: ['Ensure this field has no more than 2000 characters.'] },
        ],
        [valid({ location: 'x'.repeat(501) }), { location: ['Ensure this field has no more than 500 characters.'] }],
        [valid({ location: 'Room 1\nFloor 2' }), { location: ['Enter this on one line, without control characters.'] }],
        [valid({ location: { room: 1 } }), { location: ['Must be text.'] }],
        [valid({ candidate_notes: 'x'.repeat(5001) }), { candidate_notes: ['Ensure this field has no more than 5000 characters.'] }],
        [valid({ stage_id: 'first' }), { stage_id: ["Choose a stage of this application's job."] }],
        [valid({ stage_id: 999999 }), { stage_id: ["Choose a stage of this application's job."] }],
      ];
      for (const [body, errors] of cases) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body).slice(0, 100)).to.equal(400);
        expect(res.body, JSON.stringify(body).slice(0, 100)).to.deep.equal(errors);
      }
      for (const body of [null, [], 'text', 7]) expect((await post(body)).status).to.equal(400);
      expect(Number((await s.ctx.db('interviews').count({ n: '*' }).first())!.n)).to.equal(0);
    });

    let interviewId: number;
    let uid: string;

    it('schedules an interview: 201 with the stage and kit, invitations any calendar reads, scorecards asked for, the webhook and the timeline', async () => {
      // The application at the Interview stage, which has a kit.
      const stage = stages.find((st) => st.name === 'Interview') ?? stages[1];
      await s.ctx.db('applications').where({ id: appId }).update({ stage_id: stage.id });
      const kit = await as(rita)(`/api/hr/jobs/${jobId}/kits/${stage.id}/`, {
        method: 'PUT',
        body: { instructions: 'Ask about systems.' },
      });
      expect(kit.status).to.equal(200);
      const kitId = Number((await s.ctx.db('interview_kits').where({ stage_id: stage.id }).first('id')).id);
      const before = smtp.mails.length;
      const res = await as(ian)(list(), { method: 'POST', body: valid({ starts_at: at(0).replace('Z', '+00:00') }) });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.warnings).to.deep.equal([]);
      const iv = res.body.interview;
      interviewId = iv.id;
      expect(iv).to.deep.include({
        application_id: appId,
        stage_id: stage.id,
        stage_name: stage.name,
        kit_id: kitId,
        type: 'video',
        starts_at: at(0),
        ends_at: at(0.75),
        time_zone: 'Europe/Berlin',
        location: null,
        video_url: 'https://meet.example.com/abc',
        candidate_notes: 'Bring a laptop.\nWe will pair on code.',
        status: 'scheduled',
        sequence: 0,
        booked_by_candidate: false,
        created_by: ian.id,
      });
      expect(iv.interviewers).to.deep.equal([
        { user_id: rita.id, email: 'rita@acme.example', name: 'rita', response: 'needs-action' },
        { user_id: null, email: 'olga@outside.example', name: 'Olga Outside', response: 'needs-action' },
      ]);
      expect((await as(rita)(one(iv.id))).body).to.deep.equal({ interview: iv });
      expect((await as(rita)(list())).body).to.deep.equal({ items: [iv] });
      expect((await as(rita)(list(otherAppId))).body).to.deep.equal({ items: [] });
      uid = (await s.ctx.db('interviews').where({ id: iv.id }).first('uid')).uid;
      expect(uid).to.match(/^[0-9a-f-]{36}@careers\.acme\.example$/);

      // Scorecards asked for at the stage: rita (an HR user) and Olga (outside, with her own link).
      const cards = await s.ctx.db('scorecards').where({ application_id: appId }).orderBy('id').select('*');
      expect(
        cards.map((c: any) => [
          c.interviewer_user_id === null ? null : Number(c.interviewer_user_id),
          c.interviewer_email,
          Number(c.stage_id),
        ]),
      ).to.deep.equal([
        [rita.id, null, stage.id],
        [null, 'olga@outside.example', stage.id],
      ]);
      expect(cards[1].token_hash).to.be.a('string');

      // One email each (candidate, rita, Olga), each with its own text/calendar part.
      const mails = await deliver(before);
      expect(mails.map((m) => m.to[0]).sort()).to.deep.equal(['jose@example.com', 'olga@outside.example', 'rita@acme.example']);
      const [cand] = invitesTo(mails, 'jose@example.com');
      expect(cand.contentType).to.match(/^text\/calendar;.*method=REQUEST/i);
      expect(header(cand.mail, 'Subject')).to.equal('Interview for Backend Engineer at Acme');
      expect(cand.mail).to.contain('Bring a laptop.');
      const berlin = new Date(at(0)).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).replace(' ', 'T');
      for (const inv of [cand, ...invitesTo(mails, 'rita@acme.example'), ...invitesTo(mails, 'olga@outside.example')]) {
        const ics = parseInvite(inv.text);
        expect(ics).to.deep.include({
          method: 'REQUEST',
          uid,
          sequence: 0,
          dtstartTzid: 'Europe/Berlin',
          dtstartLocal: berlin,
          status: 'CONFIRMED',
        });
        expect(ics.tzids).to.deep.equal(['Europe/Berlin']);
        expect(ics.dtstamp).to.match(/Z$/);
        expect(ics.organizer.toLowerCase()).to.equal('mailto:jobs@acme.example');
        expect(ics.organizerName).to.equal('Acme');
        expect(ics.attendees).to.deep.equal(
          ['jose@example.com', 'rita@acme.example', 'olga@outside.example'].map((email) => ({
            email,
            rsvp: 'TRUE',
            partstat: 'NEEDS-ACTION',
          })),
        );
        expect(ics.location).to.equal('https://meet.example.com/abc');
      }
      const [ritaMail] = invitesTo(mails, 'rita@acme.example');
      expect(ritaMail.mail).to.contain(`Your interview kit and scorecard: https://careers.acme.example/hr/applicants/${appId}`);
      expect(parseInvite(ritaMail.text).description).to.contain(`https://careers.acme.example/hr/applicants/${appId}`);
      const [olga] = invitesTo(mails, 'olga@outside.example');
      expect(olga.mail).to.match(/Your interview kit and scorecard: https:\/\/careers\.acme\.example\/feedback\/[A-Za-z0-9_-]{43}/);
      expect(olga.mail).not.to.contain('Bring a laptop.');

      // The webhook, signed as every job webhook post.
      const hook = receiver.received.find((r) => JSON.parse(r.body).event === 'interview.scheduled');
      expect(hook, 'interview.scheduled posted').to.not.equal(undefined);
      expect(verifyStandardWebhook('s3cret-s3cret-s3cret', hook!.headers, hook!.body)).to.equal(true);
      expect(JSON.parse(hook!.body)).to.deep.include({
        application_id: appId,
        interview_id: iv.id,
        stage: stage.name,
        type: 'video',
        starts_at: at(0),
        ends_at: at(0.75),
        time_zone: 'Europe/Berlin',
        status: 'scheduled',
      });
      const timeline = (await as(rita)(`/api/hr/applications/${appId}/timeline/`)).body.results.map((e: any) => e.text);
      expect(timeline).to.include(
        `Interview scheduled: Video (${stage.name}), ${at(0).slice(0, 10)} ${at(0).slice(11, 16)}–${at(0.75).slice(11, 16)} UTC, with rita, Olga Outside`,
      );
    });

    it('warns of an overlap with another scheduled interview of the same interviewer (HR user or email), and still schedules', async () => {
      const res = await as(rita)(list(otherAppId), {
        method: 'POST',
        body: valid({
          type: 'phone',
          starts_at: at(0.5),
          ends_at: at(1),
          time_zone: 'UTC',
          video_url: null,
          candidate_notes: null,
          location: 'Room 4',
          interviewers: [{ user_id: rita.id }, { email: 'OLGA@outside.example', name: 'Olga O.' }, { user_id: ivan.id }],
        }),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const span = `${at(0).slice(11, 16)}–${at(0.75).slice(11, 16)} UTC`;
      const stage = (await s.ctx.db('interviews').where({ id: interviewId }).first('stage_name')).stage_name;
      expect(res.body.warnings).to.deep.equal([
        { kind: 'overlap', interviewer: 'rita', detail: `Overlaps ${stage} with José Müller (Backend Engineer) ${span}` },
        { kind: 'overlap', interviewer: 'Olga O.', detail: `Overlaps ${stage} with José Müller (Backend Engineer) ${span}` },
      ]);
      // The other application's current stage (the first) by default, without a kit.
      expect(res.body.interview).to.deep.include({
        stage_id: stages[0].id,
        stage_name: stages[0].name,
        kit_id: null,
        time_zone: 'UTC',
        location: 'Room 4',
      });
      // Back to back is no overlap.
      const next = await as(rita)(list(otherAppId), {
        method: 'POST',
        body: valid({ starts_at: at(1), ends_at: at(2), interviewers: [{ user_id: rita.id }] }),
      });
      expect(next.body.warnings).to.deep.equal([]);
      // The interviewer (role) asked now reads the interviews of that application, and changes none (403).
      expect((await as(ivan)(list(otherAppId))).body.items).to.have.length(2);
      expect((await as(ivan)(one(res.body.interview.id))).status).to.equal(200);
      expect((await as(ivan)(one(res.body.interview.id), { method: 'PATCH', body: { location: 'Room 5' } })).status).to.equal(403);
      expect((await as(ivan)(one(res.body.interview.id), { method: 'DELETE' })).status).to.equal(403);
      expect((await as(ivan)(list(otherAppId), { method: 'POST', body: valid() })).status).to.equal(403);
      expect((await as(ivan)(list())).status).to.equal(404);
      await deliver(smtp.mails.length);
    });

    it('sends a change as an update (same UID, higher SEQUENCE) and a CANCEL to interviewers taken off; bad changes are 400', async () => {
      const patch = (body: unknown) => as(rita)(one(interviewId), { method: 'PATCH', body });
      // Nothing changed: nothing sent, the sequence stays.
      const same = await patch({ type: 'video' });
      expect(same.status).to.equal(200);
      expect(same.body.interview.sequence).to.equal(0);
      for (const [body, errors] of [
        [{ ends_at: at(-2) }, { ends_at: ['The end must be after the start.'] }],
        [{ starts_at: at(-1), ends_at: at(12) }, { ends_at: ['An interview lasts at most 12 hours.'] }],
        [{ type: null }, { type: ['This field is required.'] }],
        [{ interviewers: [] }, { interviewers: ['Give 1 to 20 interviewers.'] }],
        [{ time_zone: 'Europe/Nowhere' }, { time_zone: ['Choose a time zone by its IANA name, such as Europe/Berlin.'] }],
        [
          { video_url: 'data:text/html,<script>alert(1)</script>' },
          { video_url: ['Enter a web address starting with http:// or https://.'] },
        ],
      ] as [unknown, unknown][]) {
        const res = await patch(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body).to.deep.equal(errors);
      }
      const before = smtp.mails.length;
      const moved = await patch({
        starts_at: at(24),
        ends_at: at(25),
        time_zone: 'America/New_York',
        location: 'HQ, Room 1',
        video_url: null,
        interviewers: [{ user_id: rita.id }, { user_id: ian.id }],
      });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect(moved.body.warnings).to.deep.equal([]);
      expect(moved.body.interview).to.deep.include({
        sequence: 1,
        starts_at: at(24),
        ends_at: at(25),
        time_zone: 'America/New_York',
        video_url: null,
      });
      expect(moved.body.interview.interviewers.map((i: any) => i.name)).to.deep.equal(['rita', 'ian']);
      const mails = await deliver(before);
      expect(mails.map((m) => m.to[0]).sort()).to.deep.equal([
        'ian@acme.example',
        'jose@example.com',
        'olga@outside.example',
        'rita@acme.example',
      ]);
      const ny = new Date(at(24)).toLocaleString('sv-SE', { timeZone: 'America/New_York' }).replace(' ', 'T');
      for (const to of ['jose@example.com', 'rita@acme.example', 'ian@acme.example']) {
        const [inv] = invitesTo(mails, to);
        expect(inv.contentType).to.match(/method=REQUEST/i);
        const ics = parseInvite(inv.text);
        expect(ics).to.deep.include({
          method: 'REQUEST',
          uid,
          sequence: 1,
          dtstartTzid: 'America/New_York',
          dtstartLocal: ny,
          location: 'HQ, Room 1',
        });
        expect(ics.tzids).to.deep.equal(['America/New_York']);
        expect(ics.attendees.map((a) => a.email)).to.deep.equal(['jose@example.com', 'rita@acme.example', 'ian@acme.example']);
      }
      expect(header(invitesTo(mails, 'jose@example.com')[0].mail, 'Subject')).to.equal('Updated: Interview for Backend Engineer at Acme');
      // Rita's scorecard (asked before) falls due after the new time; Ian, added, is asked too; Olga, taken off, gets a CANCEL naming only her.
      const ritaCard = await s.ctx.db('scorecards').where({ application_id: appId, interviewer_user_id: rita.id }).first('interview_at');
      expect(fromDbDate(ritaCard.interview_at)!.toISOString()).to.equal(at(24));
      expect(await s.ctx.db('scorecards').where({ application_id: appId, interviewer_user_id: ian.id }).first('id')).to.not.equal(
        undefined,
      );
      const [off] = invitesTo(mails, 'olga@outside.example');
      expect(off.contentType).to.match(/method=CANCEL/i);
      const cancelled = parseInvite(off.text);
      expect(cancelled).to.deep.include({ method: 'CANCEL', uid, sequence: 1, status: 'CANCELLED' });
      expect(cancelled.attendees.map((a) => a.email)).to.deep.equal(['olga@outside.example']);
      const hook = receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.event === 'interview.rescheduled');
      expect(hook).to.deep.include({
        interview_id: interviewId,
        starts_at: at(24),
        time_zone: 'America/New_York',
        interviewers: ['rita', 'ian'],
      });
      const timeline = (await as(rita)(`/api/hr/applications/${appId}/timeline/`)).body.results.map((e: any) => e.text);
      expect(timeline.some((t: string) => t.startsWith('Interview rescheduled: Video') && t.endsWith('with rita, ian'))).to.equal(true);
    });

    it('cancels with METHOD:CANCEL to everyone; twice, or a change after, is 409', async () => {
      const before = smtp.mails.length;
      const res = await as(rita)(one(interviewId), { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(res.body.interview).to.deep.include({ status: 'cancelled', sequence: 2 });
      const mails = await deliver(before);
      expect(mails.map((m) => m.to[0]).sort()).to.deep.equal(['ian@acme.example', 'jose@example.com', 'rita@acme.example']);
      for (const to of ['jose@example.com', 'rita@acme.example', 'ian@acme.example']) {
        const [inv] = invitesTo(mails, to);
        expect(inv.contentType).to.match(/method=CANCEL/i);
        expect(parseInvite(inv.text)).to.deep.include({ method: 'CANCEL', uid, sequence: 2, status: 'CANCELLED' });
      }
      expect(header(invitesTo(mails, 'jose@example.com')[0].mail, 'Subject')).to.equal('Cancelled: Interview for Backend Engineer at Acme');
      expect((await as(rita)(one(interviewId), { method: 'DELETE' })).body).to.deep.equal({
        detail: 'This interview is already cancelled.',
      });
      const again = await as(rita)(one(interviewId), { method: 'PATCH', body: { location: 'Elsewhere' } });
      expect(again.status).to.equal(409);
      expect(again.body).to.deep.equal({ detail: 'This interview is cancelled: schedule a new one instead.' });
      expect(receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.event === 'interview.cancelled')).to.deep.include({
        interview_id: interviewId,
        status: 'cancelled',
      });
      const timeline = (await as(rita)(`/api/hr/applications/${appId}/timeline/`)).body.results.map((e: any) => e.text);
      expect(timeline.some((t: string) => t.startsWith('Interview cancelled: Video'))).to.equal(true);
      // Its scorecards not submitted are withdrawn: no overdue reminder; Olga's link (taken off before) died then.
      const cards = await s.ctx
        .db('scorecards')
        .where({ application_id: appId })
        .select('interviewer_email', 'reminded_at', 'token_hash', 'token_expires_at');
      expect(cards.length).to.be.greaterThan(1);
      for (const c of cards) expect(c.reminded_at, String(c.interviewer_email)).to.not.equal(null);
      const olga = cards.find((c: any) => c.interviewer_email === 'olga@outside.example');
      expect(fromDbDate(olga.token_expires_at)!.getTime()).to.be.at.most(Date.now());
      // A cancelled interview warns no one.
      const free = await as(rita)(list(), {
        method: 'POST',
        body: valid({ starts_at: at(24), ends_at: at(25), interviewers: [{ user_id: ian.id }] }),
      });
      expect(free.body.warnings).to.deep.equal([]);
      await as(rita)(one(free.body.interview.id), { method: 'DELETE' });
      await deliver(smtp.mails.length);
    });

    it('adds the warnings of further checks (working hours, calendars) given as its conflicts dependency', async () => {
      const asked: unknown[] = [];
      const conflicts: ConflictCheck = async (_deps, q) => {
        asked.push(q);
        return [
          { kind: 'outside_hours', user_id: ian.id, interviewer: 'ian', detail: 'Outside working hours (09:00–17:00 Europe/Berlin)' },
        ];
      };
      const deps = { ...s.ctx, conflicts };
      const input = {
        type: 'onsite' as const,
        starts_at: new Date(at(48)),
        ends_at: new Date(at(49)),
        time_zone: 'Asia/Kolkata',
        interviewers: [{ kind: 'user' as const, userId: ian.id }],
        location: 'Office',
        video_url: null,
        candidate_notes: null,
      };
      const made = await scheduleInterview(deps, { applicationId: otherAppId, input, by: null });
      expect(made.warnings).to.deep.equal([
        { kind: 'outside_hours', interviewer: 'ian', detail: 'Outside working hours (09:00–17:00 Europe/Berlin)' },
      ]);
      expect(made.interview.created_by).to.equal(null);
      const moved = await rescheduleInterview(deps, {
        interviewId: made.interview.id,
        patch: { starts_at: new Date(at(50)), ends_at: new Date(at(51)) },
        by: ian.id,
      });
      expect(moved.interview.sequence).to.equal(1);
      expect(asked).to.deep.equal([
        { userIds: [ian.id], startsAt: new Date(at(48)), endsAt: new Date(at(49)) },
        { userIds: [ian.id], startsAt: new Date(at(50)), endsAt: new Date(at(51)), ignoreInterviewId: made.interview.id },
      ]);
      expect((await cancelInterview(deps, { interviewId: made.interview.id, by: ian.id })).interview.status).to.equal('cancelled');
      await deliver(smtp.mails.length);
    });

    it('queues reminders 24 h and 1 h before to the candidate and the interviewers, each once across two sweeps at once', async () => {
      const t0 = new Date();
      const start = new Date(Math.ceil(t0.getTime() / HOUR) * HOUR + 30 * HOUR);
      const made = await as(rita)(list(), {
        method: 'POST',
        body: valid({
          starts_at: start.toISOString(),
          ends_at: new Date(start.getTime() + HOUR).toISOString(),
          interviewers: [{ user_id: rita.id }],
        }),
      });
      expect(made.status).to.equal(201);
      // Scheduled two hours before its start: no 24 h reminder (the invitation was just sent), the 1 h one.
      const late = new Date(start.getTime() + 3 * HOUR);
      const soon = await scheduleInterview(
        { ...s.ctx, now: () => new Date(late.getTime() - 2 * HOUR) },
        {
          applicationId: otherAppId,
          input: {
            type: 'phone',
            starts_at: late,
            ends_at: new Date(late.getTime() + HOUR),
            time_zone: 'UTC',
            interviewers: [{ kind: 'email', email: 'pat@outside.example', name: 'Pat' }],
            location: null,
            video_url: null,
            candidate_notes: null,
          },
          by: rita.id,
        },
      );
      const sweep = (at: Date) => remindUpcomingInterviews({ db: s.ctx.db, config: s.ctx.config, now: () => at });
      const reminders = async () =>
        (
          await s.ctx
            .db('email_posts')
            .where('template_name', 'like', 'Interview reminder%')
            .orderBy('id')
            .select('template_name', 'payload')
        ).map((r: any) => {
          const m = typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload;
          return [r.template_name, m.to, m.subject, m.text];
        });
      expect(await sweep(new Date(start.getTime() - 25 * HOUR))).to.equal(0);
      const day = await Promise.all([sweep(new Date(start.getTime() - 23 * HOUR)), sweep(new Date(start.getTime() - 23 * HOUR))]);
      expect(day[0] + day[1]).to.equal(2);
      // The default reminder templates' texts: when (in the interview's zone), where, with whom, the notes; the interviewer's kit and scorecard.
      const when = whenIn(start, new Date(start.getTime() + HOUR), 'Europe/Berlin');
      expect(await reminders()).to.deep.equal([
        [
          'Interview reminder (24 h)',
          'jose@example.com',
          'Reminder: your interview for Backend Engineer at Acme starts in 24 hours',
          [
            'Hello José,',
            'A reminder: your interview for Backend Engineer at Acme starts in 24 hours.',
            `When: ${when}\nWhere: video link https://meet.example.com/abc\nWith: rita`,
            'Bring a laptop.\nWe will pair on code.',
            'We look forward to speaking with you.\nAcme\n',
          ].join('\n\n'),
        ],
        [
          'Interview reminder (24 h)',
          'rita@acme.example',
          'Reminder: your interview with José Müller for Backend Engineer starts in 24 hours',
          [
            'Hello rita,',
            'A reminder: your interview with José Müller for Backend Engineer starts in 24 hours.',
            `When: ${when}\nWhere: video link https://meet.example.com/abc\nWith: rita`,
            `Your interview kit and scorecard: https://careers.acme.example/hr/applicants/${appId}`,
            'Acme\n',
          ].join('\n\n'),
        ],
      ]);
      expect(await sweep(new Date(start.getTime() - 2 * HOUR))).to.equal(0);
      const hour = await Promise.all([sweep(new Date(start.getTime() - 50 * 60_000)), sweep(new Date(start.getTime() - 50 * 60_000))]);
      expect(hour[0] + hour[1]).to.equal(2);
      expect((await reminders()).slice(2).map((r) => r[1])).to.deep.equal(['jose@example.com', 'rita@acme.example']);
      expect((await reminders())[2][2]).to.equal('Reminder: your interview for Backend Engineer at Acme starts in 1 hour');
      // The late one: nothing a day ahead, then its 1 h reminder to Asha and Pat.
      expect(await sweep(new Date(late.getTime() - 50 * 60_000))).to.equal(2);
      expect((await reminders()).slice(4).map((r) => r[1])).to.deep.equal(['asha@example.com', 'pat@outside.example']);
      // A phone interview without a place; an outside interviewer's scorecard link was in their invitation.
      expect((await reminders())[4][3]).to.include('\nWhere: by phone\nWith: Pat\n\nWe look forward');
      expect((await reminders())[5][3]).to.include(
        'Your interview kit and scorecard: the feedback link of our earlier email (it works until you submit)',
      );
      expect(await sweep(new Date(late.getTime() - 10 * 60_000))).to.equal(0);
      // A new time clears them: the reminders go again for it.
      await as(rita)(one(made.body.interview.id), {
        method: 'PATCH',
        body: {
          starts_at: new Date(start.getTime() + 5 * HOUR).toISOString(),
          ends_at: new Date(start.getTime() + 6 * HOUR).toISOString(),
        },
      });
      expect(await sweep(new Date(start.getTime() + 5 * HOUR - 50 * 60_000))).to.equal(2);
      await as(rita)(one(soon.interview.id), { method: 'DELETE' });
      // An erased application takes its interviews with it.
      await s.ctx.db('applications').where({ id: otherAppId }).delete();
      expect((await as(rita)(list(otherAppId))).status).to.equal(404);
      expect((await as(rita)(one(soon.interview.id))).status).to.equal(404);
      await deliver(smtp.mails.length);
    });

    it('writes reminders from the reminder templates as HR edited them, and sends each audience only the times its template has ticked', async () => {
      const templates = (await as(dana)('/api/hr/email-templates/')).body.results;
      const candidate = templates.find((t: any) => t.purpose === 'reminder_candidate');
      const interviewer = templates.find((t: any) => t.purpose === 'reminder_interviewer');
      const put = async (t: any, over: Record<string, unknown>) => {
        const body = { name: t.name, subject: t.subject, body: t.body, remind_24h: t.remind_24h, remind_1h: t.remind_1h, ...over };
        const res = await as(dana)(`/api/hr/email-templates/${t.id}/`, { method: 'PUT', body });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      };
      // HR rewrites the candidate's reminder and unticks its 1 h time; the interviewers' keeps both.
      await put(candidate, {
        subject: 'See you in {hours_before}: {job_title} ({interview_type})',
        body: 'Hi {first_name} <b>&</b>,\n\n{interview_time}\n{interview_place}\nWith {interviewers}, stage {stage}.\n\n{interview_notes}\n\n{sender_name}',
        remind_1h: false,
      });
      const start = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 20 * DAY);
      const end = new Date(start.getTime() + 45 * 60_000);
      const made = await as(rita)(list(), {
        method: 'POST',
        body: valid({
          starts_at: start.toISOString(),
          ends_at: end.toISOString(),
          time_zone: 'America/New_York',
          location: 'Room 4 <west>',
          interviewers: [{ user_id: rita.id }, { email: 'olga@outside.example', name: 'Olga Outside' }],
          stage_id: stages[1].id,
        }),
      });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      /** A sweep at `at`, then delivery to the SMTP server as of `at`: the mails it received. */
      const sweepAndDeliver = async (at: Date) => {
        const from = smtp.mails.length;
        const queued = await remindUpcomingInterviews({ db: s.ctx.db, config: s.ctx.config, now: () => at });
        const later = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => at, log: () => undefined });
        await later.worker.runDue();
        await later.close();
        // Only this interview's reminders (in New York time): the clock ahead also delivers its invitations and what earlier tests queued ahead.
        const mails = smtp.mails
          .slice(from)
          .map((m) => ({ to: m.to.join(','), subject: decodedHeader(m.raw, 'Subject'), mail: readable(m.raw).replace(/\r\n/g, '\n') }))
          .filter((m) => m.mail.includes('(America/New_York)') && /^(See you in|Reminder: )/.test(m.subject ?? ''));
        return { queued, mails };
      };
      const day = await sweepAndDeliver(new Date(start.getTime() - 23 * HOUR));
      expect(day.queued).to.equal(3);
      expect(day.mails.map((m) => m.to).sort()).to.deep.equal(['jose@example.com', 'olga@outside.example', 'rita@acme.example']);
      const toJose = day.mails.find((m) => m.to === 'jose@example.com')!.mail;
      expect(day.mails.find((m) => m.to === 'jose@example.com')!.subject).to.equal('See you in 24 hours: Backend Engineer (Video)');
      expect(toJose).to.include(
        [
          'Hi José <b>&</b>,',
          `${whenIn(start, end, 'America/New_York')}\nRoom 4 <west>; video link https://meet.example.com/abc\nWith rita, Olga Outside, stage ${stages[1].name}.`,
          'Bring a laptop.\nWe will pair on code.',
          'Acme Careers',
        ].join('\n\n'),
      );
      // The HTML part escapes what HR wrote and what the values hold, as every template's email.
      expect(toJose).to.include('<p>Hi José &#60;b&#62;&#38;&#60;/b&#62;,</p>').and.include('Room 4 &#60;west&#62;');
      const toOlga = day.mails.find((m) => m.to === 'olga@outside.example')!.mail;
      expect(day.mails.find((m) => m.to === 'olga@outside.example')!.subject).to.equal(
        'Reminder: your interview with José Müller for Backend Engineer starts in 24 hours',
      );
      expect(toOlga).to.include('Hello Olga Outside,');
      // The emails say which reminder they were on the timeline, with their template.
      const last = await s.ctx.db('email_posts').where({ application_id: appId, template_id: candidate.id }).orderBy('id', 'desc').first();
      expect([last.template_name, last.sent_by, fromDbJson<any>(last.payload, null).to]).to.deep.equal([
        'Interview reminder (24 h)',
        null,
        'jose@example.com',
      ]);

      // 1 h before: the candidate's template has it unticked, so only the interviewers get it.
      const hour = await sweepAndDeliver(new Date(start.getTime() - 50 * 60_000));
      expect(hour.queued).to.equal(2);
      expect(hour.mails.map((m) => m.to).sort()).to.deep.equal(['olga@outside.example', 'rita@acme.example']);
      expect(hour.mails[0].subject).to.equal('Reminder: your interview with José Müller for Backend Engineer starts in 1 hour');

      // Neither time ticked on either template: a moved interview's reminders are claimed and nothing is sent.
      await put(candidate, { remind_24h: false, remind_1h: false });
      await put(interviewer, { remind_24h: false, remind_1h: false });
      const moved = new Date(start.getTime() + 2 * DAY);
      const patch = await as(rita)(one(made.body.interview.id), {
        method: 'PATCH',
        body: { starts_at: moved.toISOString(), ends_at: new Date(moved.getTime() + HOUR).toISOString() },
      });
      expect(patch.status).to.equal(200);
      expect((await sweepAndDeliver(new Date(moved.getTime() - 23 * HOUR))).queued).to.equal(0);
      expect((await sweepAndDeliver(new Date(moved.getTime() - 50 * 60_000))).queued).to.equal(0);
      const row = await s.ctx.db('interviews').where({ id: made.body.interview.id }).first();
      expect(fromDbDate(row.reminded_24h_at)).to.not.equal(null);
      expect(fromDbDate(row.reminded_1h_at)).to.not.equal(null);

      // Back as they were; the interview is cancelled.
      await put(candidate, {});
      await put(interviewer, {});
      expect((await as(rita)(one(made.body.interview.id), { method: 'DELETE' })).status).to.equal(200);
      await deliver(smtp.mails.length);
    });
  });
}

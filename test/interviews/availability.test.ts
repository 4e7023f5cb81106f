/**
 * Interviewer availability (issue 32): the slot maths (working hours across a DST change, buffers,
 * notice, several people), reading calendars (an iCal feed with RRULE, EXDATE, a RECURRENCE-ID
 * override and TZID times, transparent and cancelled events free; a CalDAV free-busy REPORT;
 * private addresses refused at fetch time, a size limit), and over HTTP on both databases: working
 * hours (defaults, bad input, admins for others), calendars (private addresses refused at save,
 * the address sealed at rest and never answered, at most 10), Find a time (feeds, scheduled
 * interviews, a failing calendar as a warning, the cache) and busyConflicts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople } from '../applicants/helpers.js';
import { toDbDate } from '../../src/db/codecs.js';
import { busyConflicts } from '../../src/interviews/index.js';
import { busyFromIcal, readBusy } from '../../src/interviews/lib/feeds.js';
import { findFreeSlots, type Interval } from '../../src/interviews/lib/slots.js';
import { DEFAULT_SETTINGS } from '../../src/interviews/availability.types.js';

const t = (iso: string) => Date.parse(iso);
const isoOf = (list: Interval[]) => list.map((i) => [new Date(i.start).toISOString(), new Date(i.end).toISOString()]);

/** A week from Monday 2 December 2030, in Berlin (UTC+1): a daily 09:00 stand-up (TZID, no VTIMEZONE), Tuesday's cancelled by EXDATE, Wednesday's moved to 10:00. */
const FEED = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//test//EN
BEGIN:VEVENT
UID:standup@test
DTSTART;TZID=Europe/Berlin:20301202T090000
DTEND;TZID=Europe/Berlin:20301202T093000
RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR
EXDATE;TZID=Europe/Berlin:20301203T090000
SUMMARY:Stand-up
END:VEVENT
BEGIN:VEVENT
UID:standup@test
RECURRENCE-ID;TZID=Europe/Berlin:20301204T090000
DTSTART;TZID=Europe/Berlin:20301204T100000
DTEND;TZID=Europe/Berlin:20301204T110000
SUMMARY:Stand-up (moved)
END:VEVENT
BEGIN:VEVENT
UID:focus@test
DTSTART:20301202T090000Z
DTEND:20301202T110000Z
TRANSP:TRANSPARENT
SUMMARY:Focus time (free)
END:VEVENT
BEGIN:VEVENT
UID:gone@test
DTSTART:20301202T120000Z
DTEND:20301202T130000Z
STATUS:CANCELLED
END:VEVENT
END:VCALENDAR`;

const FREEBUSY = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//test//EN
BEGIN:VFREEBUSY
DTSTART:20301202T000000Z
DTEND:20301209T000000Z
FREEBUSY:20301202T100000Z/20301202T110000Z,20301203T140000Z/PT30M
FREEBUSY;FBTYPE=FREE:20301204T100000Z/20301204T110000Z
END:VFREEBUSY
END:VCALENDAR`;

interface Feeds {
  base: string;
  hits: Map<string, number>;
  reports: { depth?: string; auth?: string; body: string }[];
  close(): Promise<void>;
}

/** Calendars on 127.0.0.1: the feed under a secret path, a broken one, a too large one and a CalDAV collection. */
async function startFeeds(): Promise<Feeds> {
  const hits = new Map<string, number>();
  const reports: Feeds['reports'] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (path.startsWith('/secret-token-abc/')) return res.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED);
      if (path === '/broken.ics') return res.writeHead(500).end('oops');
      if (path === '/big.ics') return res.writeHead(200).end('x'.repeat(2048));
      if (path === '/dav/' && req.method === 'REPORT') {
        reports.push({ depth: req.headers.depth as string, auth: req.headers.authorization, body });
        return res.writeHead(200, { 'content-type': 'text/calendar' }).end(FREEBUSY);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    reports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('availability: slot maths and calendars', () => {
  let feeds: Feeds;
  before(async () => {
    feeds = await startFeeds();
  });
  after(() => feeds.close());

  it('keeps working hours in the zone across DST, buffers, notice and the step, for several people', () => {
    const berlin = { ...DEFAULT_SETTINGS, time_zone: 'Europe/Berlin', buffer_before_minutes: 15, buffer_after_minutes: 30 };
    // Sunday 26 Oct 2031 Berlin leaves summer time: Monday 09:00 Berlin is 08:00 UTC, Friday before was 07:00 UTC.
    const fri = findFreeSlots({
      people: [{ settings: berlin, busy: [] }],
      now: t('2031-10-24T00:00:00Z'),
      from: t('2031-10-24T00:00:00Z'),
      to: t('2031-10-28T00:00:00Z'),
      durationMinutes: 60,
      stepMinutes: 15,
      count: 100,
    });
    expect(new Date(fri[0].start).toISOString()).to.equal('2031-10-24T07:00:00.000Z');
    expect(fri.some((s) => s.start === t('2031-10-27T08:00:00Z'))).to.equal(true);
    expect(fri.some((s) => s.start >= t('2031-10-25T00:00:00Z') && s.start < t('2031-10-27T00:00:00Z'))).to.equal(false);
    // A busy hour 10:00-11:00 Berlin (09:00-10:00 UTC) on Monday 27 Oct: an interview keeps 15 min free before it, 30 after.
    const utc = { ...DEFAULT_SETTINGS, min_notice_minutes: 120 };
    const slots = findFreeSlots({
      people: [
        { settings: berlin, busy: [{ start: t('2031-10-27T09:00:00Z'), end: t('2031-10-27T10:00:00Z') }] },
        { settings: utc, busy: [] },
      ],
      now: t('2031-10-27T08:00:00Z'),
      from: t('2031-10-27T08:00:00Z'),
      to: t('2031-10-28T00:00:00Z'),
      durationMinutes: 45,
      stepMinutes: 15,
      count: 2,
    });
    // UTC person: notice until 10:00 UTC; Berlin person: from 10:15 UTC (busy end + 15 before the interview).
    expect(isoOf(slots)).to.deep.equal([
      ['2031-10-27T10:15:00.000Z', '2031-10-27T11:00:00.000Z'],
      ['2031-10-27T10:30:00.000Z', '2031-10-27T11:15:00.000Z'],
    ]);
    // 30 min after an interview: a busy hour at 11:30 UTC leaves only a slot ending by 11:00.
    const before = findFreeSlots({
      people: [{ settings: berlin, busy: [{ start: t('2031-10-27T11:30:00Z'), end: t('2031-10-27T12:00:00Z') }] }],
      now: t('2031-10-27T10:00:00Z'),
      from: t('2031-10-27T10:00:00Z'),
      to: t('2031-10-27T12:30:00Z'),
      durationMinutes: 45,
      stepMinutes: 15,
      count: 5,
    });
    expect(isoOf(before)).to.deep.equal([
      ['2031-10-27T10:00:00.000Z', '2031-10-27T10:45:00.000Z'],
      ['2031-10-27T10:15:00.000Z', '2031-10-27T11:00:00.000Z'],
    ]);
  });

  it('expands an iCal feed: RRULE, EXDATE, an override, TZID; transparent and cancelled events are free', () => {
    const busy = busyFromIcal(FEED, t('2030-12-02T00:00:00Z'), t('2030-12-06T00:00:00Z'), 'UTC');
    expect(isoOf(busy)).to.deep.equal([
      ['2030-12-02T08:00:00.000Z', '2030-12-02T08:30:00.000Z'],
      ['2030-12-04T09:00:00.000Z', '2030-12-04T10:00:00.000Z'],
      ['2030-12-05T08:00:00.000Z', '2030-12-05T08:30:00.000Z'],
    ]);
    // A fortnightly series begun in 2020 (walked from shortly before the window), one date EXDATEd; a series ended in 2021.
    const old = `BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:f@t\r\nDTSTART;TZID=Europe/Berlin:20200106T140000\r\nDTEND;TZID=Europe/Berlin:20200106T150000\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE\r\nEXDATE;TZID=Europe/Berlin:20301211T140000\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:g@t\r\nDTSTART:20200106T100000Z\r\nDTEND:20200106T110000Z\r\nRRULE:FREQ=DAILY;UNTIL=20210101T000000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
    expect(isoOf(busyFromIcal(old, t('2030-12-02T00:00:00Z'), t('2030-12-26T00:00:00Z'), 'UTC')).map((i) => i[0])).to.deep.equal([
      '2030-12-09T13:00:00.000Z',
      '2030-12-23T13:00:00.000Z',
      '2030-12-25T13:00:00.000Z',
    ]);
    expect(() => busyFromIcal('<html>no</html>', 0, 1, 'UTC')).to.throw('did not answer an iCalendar file');
  });

  it('reads over HTTP: a CalDAV free-busy REPORT; private addresses refused at fetch time; a size limit', async () => {
    const from = t('2030-12-02T00:00:00Z');
    const to = t('2030-12-09T00:00:00Z');
    const dav = await readBusy({ kind: 'caldav', url: `${feeds.base}/dav/`, username: 'ian', password: 'pw' }, from, to, 'UTC', {
      allowPrivate: true,
    });
    expect(isoOf(dav)).to.deep.equal([
      ['2030-12-02T10:00:00.000Z', '2030-12-02T11:00:00.000Z'],
      ['2030-12-03T14:00:00.000Z', '2030-12-03T14:30:00.000Z'],
    ]);
    const report = feeds.reports.at(-1)!;
    expect(report.depth).to.equal('1');
    expect(report.auth).to.equal(`Basic ${Buffer.from('ian:pw').toString('base64')}`);
    expect(report.body).to.include('free-busy-query').and.include('start="20301202T000000Z" end="20301209T000000Z"');

    const url = `${feeds.base}/secret-token-abc/cal.ics`;
    const refused = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => null,
        (e: Error) => e,
      );
      expect(err, 'refused').to.be.an('error');
      expect(err!.message).to.match(/^Refused: /);
      expect(err!.message).to.not.include('secret-token');
      return err!;
    };
    await refused(readBusy({ kind: 'ical', url }, from, to, 'UTC', { allowPrivate: false }));
    // A public-looking name resolving to a private address: refused in the socket's lookup.
    const lookup = ((_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }])) as never;
    const port = new URL(feeds.base).port;
    await refused(
      readBusy({ kind: 'ical', url: `http://calendar.example.com:${port}/secret-token-abc/x.ics` }, from, to, 'UTC', {
        allowPrivate: false,
        lookup,
      }),
    );
    const big = await readBusy({ kind: 'ical', url: `${feeds.base}/big.ics` }, from, to, 'UTC', {
      allowPrivate: true,
      maxBytes: 1024,
    }).catch((e: Error) => e);
    expect((big as Error).message).to.match(/larger than/);
  });
});

for (const kind of databaseKinds()) {
  describe(`availability API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let feeds: Feeds;
    let admin: { id: number; token: string };
    let rita: { id: number; token: string };
    let appId: number;

    before(async () => {
      feeds = await startFeeds();
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      const seeded = await seedPeople(s.ctx.db);
      appId = seeded.ids.values().next().value as number;
      const adminId = await createHrUser(s.ctx.db, 'alice', { role: 'admin' });
      const ritaId = await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' });
      admin = { id: adminId, token: await liveToken(s.ctx.db, adminId) };
      rita = { id: ritaId, token: await liveToken(s.ctx.db, ritaId) };
    });
    after(async () => {
      await s.close();
      await feeds.close();
    });

    const call = (who: { token: string }, path: string, init: { method?: string; body?: unknown } = {}) =>
      hr(s.baseUrl, who.token, path, init);
    const HOURS = {
      time_zone: 'Europe/Berlin',
      work_days: [5, 1, 2, 3, 4],
      work_start: '09:00',
      work_end: '17:00',
      buffer_before_minutes: 15,
      buffer_after_minutes: 0,
      min_notice_minutes: 60,
    };

    it('keeps working hours: defaults, a save, bad input answered 400, admins for others', async () => {
      const me = await call(rita, '/api/hr/interviewers/me/settings/');
      expect(me.status).to.equal(200);
      expect(me.body).to.deep.include({ time_zone: 'UTC', work_days: [1, 2, 3, 4, 5], work_start: '09:00', is_default: true });
      const bad = await call(rita, '/api/hr/interviewers/me/settings/', {
        method: 'PUT',
        body: {
          time_zone: 'Mars/Olympus',
          work_days: [0, 8, 8],
          work_start: '9am',
          work_end: { h: 1 },
          buffer_before_minutes: -1,
          buffer_after_minutes: 1e12,
          min_notice_minutes: '60',
        },
      });
      expect(bad.status).to.equal(400);
      expect(Object.keys(bad.body)).to.deep.equal([
        'time_zone',
        'work_days',
        'work_start',
        'work_end',
        'buffer_before_minutes',
        'buffer_after_minutes',
        'min_notice_minutes',
      ]);
      const backwards = await call(rita, '/api/hr/interviewers/me/settings/', { method: 'PUT', body: { ...HOURS, work_end: '08:00' } });
      expect(backwards.body).to.deep.equal({ work_end: ['The working day must end after it starts.'] });
      expect((await call(rita, '/api/hr/interviewers/me/settings/', { method: 'PUT', body: [1] })).body.detail).to.equal(
        'Must be an object.',
      );
      const saved = await call(rita, '/api/hr/interviewers/me/settings/', { method: 'PUT', body: HOURS });
      expect(saved.status).to.equal(200);
      expect(saved.body).to.deep.include({ ...HOURS, work_days: [1, 2, 3, 4, 5], is_default: false, user_id: rita.id });
      // Admins read and change another's; a recruiter may not; an unknown user is 404.
      expect((await call(admin, `/api/hr/interviewers/${rita.id}/settings/`)).body.time_zone).to.equal('Europe/Berlin');
      expect((await call(rita, `/api/hr/interviewers/${admin.id}/settings/`)).status).to.equal(403);
      expect((await call(admin, '/api/hr/interviewers/999999/settings/')).status).to.equal(404);
      expect((await call(admin, '/api/hr/interviewers/x1/settings/')).status).to.equal(404);
      const put = await call(admin, `/api/hr/interviewers/${admin.id}/settings/`, { method: 'PUT', body: { ...HOURS, time_zone: 'UTC' } });
      expect(put.body.time_zone).to.equal('UTC');
    });

    it('saves calendars sealed: private addresses refused at save, the address never stored or answered in clear, at most 10', async () => {
      const url = `${feeds.base}/secret-token-abc/cal.ics`;
      const config = s.ctx.config as { webhookAllowPrivate: boolean };
      config.webhookAllowPrivate = false;
      try {
        for (const u of [url, 'http://localhost/x.ics', 'https://[::1]/x.ics', 'http://169.254.169.254/latest']) {
          const r = await call(rita, '/api/hr/interviewers/me/calendars/', {
            method: 'POST',
            body: { kind: 'ical', label: 'Work', url: u },
          });
          expect(r.body, u).to.deep.equal({ url: ['The calendar address must not point to a private or local address.'] });
        }
        const webcal = await call(rita, '/api/hr/interviewers/me/calendars/', {
          method: 'POST',
          body: { kind: 'ical', label: 'Google', url: 'webcal://calendar.example.com/private-s3cr3t/basic.ics' },
        });
        expect(webcal.status).to.equal(201);
        expect(webcal.body.url_hint).to.equal('https://calendar.example.com….ics');
        expect((await call(rita, `/api/hr/interviewers/me/calendars/${webcal.body.id}/`, { method: 'DELETE' })).status).to.equal(204);
      } finally {
        config.webhookAllowPrivate = true;
      }
      const bad = await call(rita, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'ics', label: 'a\u202eb', url: 'ftp://example.com/x', username: 'u' },
      });
      expect(Object.keys(bad.body)).to.deep.equal(['kind', 'label', 'url']);
      const creds = await call(rita, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'ical', label: 'X', url: 'https://user:pw@example.com/x.ics' },
      });
      expect(creds.body.url).to.deep.equal(['Give the user name and password in their own fields, not in the address.']);
      expect(
        (
          await call(rita, '/api/hr/interviewers/me/calendars/', {
            method: 'POST',
            body: { kind: 'ical', label: 'X', url: 'https://example.com/x.ics', username: 'u' },
          })
        ).body,
      ).to.deep.equal({
        username: ['A user name and password go with a CalDAV calendar only.'],
      });

      const added = await call(rita, '/api/hr/interviewers/me/calendars/', { method: 'POST', body: { kind: 'ical', label: 'Work', url } });
      expect(added.status).to.equal(201);
      expect(JSON.stringify(added.body)).to.not.include('secret-token');
      expect(added.body.url_hint).to.equal(`${feeds.base}….ics`);
      const dav = await call(rita, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'caldav', label: 'DAV', url: `${feeds.base}/dav/`, username: 'rita', password: 'dav-password-123' },
      });
      expect(dav.body).to.deep.include({ kind: 'caldav', has_credentials: true });
      const rows = await s.ctx.db('calendar_sources').where({ hr_user_id: rita.id }).select('*');
      expect(JSON.stringify(rows)).to.not.include('secret-token').and.not.include('dav-password').and.not.include('/dav/');
      // AES-256-GCM under the server key: opens to the address; a changed byte or another key does not open.
      const work = rows.find((r: { label: string }) => r.label === 'Work');
      expect(await s.ctx.serverKey.open(work.url_encrypted)).to.equal(url);
      expect(await s.ctx.serverKey.seal(url)).to.not.equal(await s.ctx.serverKey.seal(url));
      // A character in the middle: all six of its bits are data (the last ones may be padding bits that decode the same).
      const mid = Math.floor(work.url_encrypted.length / 2);
      const flipped = work.url_encrypted.slice(0, mid) + (work.url_encrypted[mid] === 'A' ? 'B' : 'A') + work.url_encrypted.slice(mid + 1);
      let opened = true;
      await s.ctx.serverKey.open(flipped).catch(() => (opened = false));
      expect(opened).to.equal(false);
      const list = await call(rita, '/api/hr/interviewers/me/calendars/');
      expect(list.body.results.map((c: { label: string }) => c.label)).to.deep.equal(['Work', 'DAV']);
      expect(JSON.stringify(list.body)).to.not.include('secret-token');
      // Another user's calendar is not theirs to remove.
      expect((await call(admin, `/api/hr/interviewers/me/calendars/${dav.body.id}/`, { method: 'DELETE' })).status).to.equal(404);
      expect((await call(rita, `/api/hr/interviewers/me/calendars/${dav.body.id}/`, { method: 'DELETE' })).status).to.equal(204);

      for (let i = 0; i < 9; i++)
        await call(admin, '/api/hr/interviewers/me/calendars/', {
          method: 'POST',
          body: { kind: 'ical', label: `C${i}`, url: `${feeds.base}/none/${i}.ics` },
        });
      const eleventh = await call(admin, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'ical', label: 'C', url: 'https://example.com/a.ics' },
      });
      expect(eleventh.status).to.equal(201);
      const twelfth = await call(admin, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'ical', label: 'C', url: 'https://example.com/a.ics' },
      });
      expect(twelfth.body).to.deep.equal({ detail: 'An interviewer can add at most 10 calendars. Remove one first.' });
      await s.ctx.db('calendar_sources').where({ hr_user_id: admin.id }).delete();
    });

    it('finds times: working hours, buffers, feeds, scheduled interviews; a failing calendar is a warning; feeds are cached', async () => {
      // Rita (Berlin, 15 min before, the feed above) has an interview Monday 10:00-16:00 Berlin.
      const now = toDbDate(new Date());
      const [interviewId] = await s.ctx.db('interviews').insert({
        application_id: appId,
        stage_name: 'Interview',
        type: 'video',
        starts_at: toDbDate(new Date('2030-12-02T09:00:00Z')),
        ends_at: toDbDate(new Date('2030-12-02T15:00:00Z')),
        time_zone: 'Europe/Berlin',
        uid: `test-${kind}@example.com`,
        created_at: now,
        updated_at: now,
      });
      await s.ctx
        .db('interview_participants')
        .insert({ interview_id: interviewId, hr_user_id: rita.id, email: 'rita@example.com', name: 'rita' });
      // Alice (UTC 09:00-17:00) has a calendar that fails.
      await call(admin, '/api/hr/interviewers/me/calendars/', {
        method: 'POST',
        body: { kind: 'ical', label: 'Broken', url: `${feeds.base}/broken.ics` },
      });

      const find = (q: string) => call(rita, `/api/hr/interviewers/find-time/?${q}`);
      const solo = await find(`interviewers=${rita.id}&duration=60&from=2030-12-02T00:00:00Z&count=2&tz=Europe/Berlin`);
      expect(solo.status).to.equal(200);
      // Monday: stand-up 09:00-09:30, the interview 10:00-16:00 (15 min before it kept free): no hour left. Tuesday: the stand-up is EXDATEd.
      expect(solo.body).to.deep.equal({
        slots: [
          { starts_at: '2030-12-03T08:00:00.000Z', ends_at: '2030-12-03T09:00:00.000Z' },
          { starts_at: '2030-12-03T08:15:00.000Z', ends_at: '2030-12-03T09:15:00.000Z' },
        ],
        time_zone: 'Europe/Berlin',
        warnings: [],
      });
      const both = await find(`interviewers=${rita.id},${admin.id}&duration=60&from=2030-12-02T01:00:00%2B01:00&count=1`);
      expect(both.body.slots).to.deep.equal([{ starts_at: '2030-12-03T09:00:00.000Z', ends_at: '2030-12-03T10:00:00.000Z' }]);
      expect(both.body.time_zone).to.equal('UTC');
      expect(both.body.warnings).to.deep.equal([
        { kind: 'calendar', user_id: admin.id, interviewer: 'alice', detail: 'Broken: The calendar answered HTTP 500. Counted as free.' },
      ]);
      // Read once per CALENDAR_CACHE_SECONDS: asking again fetches nothing; the read and its error are recorded.
      const hits = feeds.hits.get('/secret-token-abc/cal.ics');
      await find(`interviewers=${rita.id},${admin.id}&duration=30&from=2030-12-02T00:00:00Z`);
      expect(feeds.hits.get('/secret-token-abc/cal.ics')).to.equal(hits);
      expect(feeds.hits.get('/broken.ics')).to.equal(1);
      const cal = (await call(admin, '/api/hr/interviewers/me/calendars/')).body.results[0];
      expect(cal.last_error).to.equal('The calendar answered HTTP 500');
      expect(cal.last_fetched_at).to.be.a('string');

      for (const [q, field] of [
        ['duration=60', 'interviewers'],
        [`interviewers=${rita.id}&duration=2`, 'duration'],
        [`interviewers=${rita.id}&duration=60&days=61&count=0&tz=Nowhere&step=7&from=tomorrow`, 'from'],
        ['interviewers=1,2,3,4,5,6,7,8,9,10,11&duration=60', 'interviewers'],
      ]) {
        const r = await find(q);
        expect(r.status, q).to.equal(400);
        expect(r.body, q).to.have.property(field);
      }
      expect(Object.keys((await find(`interviewers=${rita.id}&duration=60&days=61&count=0&tz=Nowhere&step=7`)).body)).to.deep.equal([
        'days',
        'count',
        'tz',
        'step',
      ]);
      expect((await find('interviewers=999999&duration=60')).body).to.deep.equal({ interviewers: ['Choose active HR users.'] });

      // busyConflicts (for the interviews' warnings): the moved stand-up on Wednesday, Saturday outside hours.
      const conflicts = await busyConflicts(s.ctx, {
        userIds: [rita.id],
        startsAt: new Date('2030-12-04T08:30:00Z'),
        endsAt: new Date('2030-12-04T09:15:00Z'),
      });
      expect(conflicts).to.deep.equal([
        {
          kind: 'busy',
          user_id: rita.id,
          interviewer: 'rita',
          detail: 'rita is busy in their calendar Wed 4 Dec 10:00–11:00 (Europe/Berlin)',
        },
      ]);
      const weekend = await busyConflicts(s.ctx, {
        userIds: [rita.id],
        startsAt: new Date('2030-12-07T09:00:00Z'),
        endsAt: new Date('2030-12-07T10:00:00Z'),
      });
      expect(weekend.map((c) => c.kind)).to.deep.equal(['outside_hours']);
      expect(weekend[0].detail).to.equal("Outside rita's working hours (Mon–Fri 09:00–17:00 Europe/Berlin)");
    });
  });
}

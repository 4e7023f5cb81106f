/**
 * Job alerts (issue 35) over HTTP on SQLite and MySQL with a real SMTP server: the form (with and
 * without a known address: the same answer), bad and hostile input (nothing written), double
 * opt-in (nothing sent before confirming; the link from the received email), digests of new
 * matching jobs through the outbox (each job once, nothing when nothing is new, daily and weekly,
 * the RFC 8058 headers), one-click unsubscribe without sign-in, renewing, expiry and retention,
 * the per-address limits, the rate limit, `careers-admin alerts send`, erase, and admins' count.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { header, readable, startSmtp } from '../helpers/smtp.js';
import { makeJob } from '../helpers/factories.js';
import { cliSync } from '../helpers/child-server.js';
import { createDelivery } from '../../src/posts/index.js';
import { scheduleAlerts, sendDigests } from '../../src/alerts/index.js';
import { ConfigError, loadConfig } from '../../config/index.js';
import { ALERT_MESSAGES as M } from '../../src/alerts/schema.js';

const DAY = 86_400_000;
const BASE = 'https://careers.acme.example';

for (const kind of databaseKinds()) {
  describe(`job alerts [${kind}]`, function () {
    this.timeout(120_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let delivery: ReturnType<typeof createDelivery>;
    let clock = Date.now();

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(
        kind,
        {
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          MAIL_FROM: 'Acme Careers <jobs@acme.example>',
          COMPANY_NAME: 'Acme',
          PUBLIC_BASE_URL: BASE,
          ALERTS_RATE_LIMIT: '1000',
        },
        { now: () => new Date(clock) },
      );
      // The digests of later days are due then: the worker's clock runs far ahead, so it sends whatever is queued.
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(Date.now() + 1000 * DAY), log: () => undefined });
      await makeJob(s.ctx, { title: 'Old Backend Engineer', department: 'Engineering', location: 'Berlin, Germany', work_mode: 'REMOTE' });
    });
    after(async () => {
      await delivery?.close();
      await s?.close();
      await smtp?.close();
    });

    const post = (path: string, body: Record<string, string | string[]> | string, headers: Record<string, string> = {}) =>
      fetch(s.baseUrl + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body:
          typeof body === 'string'
            ? body
            : new URLSearchParams(Object.entries(body).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))),
      });
    const valid = (over: Record<string, string | string[]> = {}) => ({
      email: 'Ann@Example.com',
      department: 'Engineering',
      location: 'Berlin',
      work_mode: 'REMOTE',
      keywords: 'engineer',
      frequency: 'daily',
      consent: 'yes',
      ...over,
    });
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number((await s.ctx.db(table).where(where).count({ n: '*' }).first())!.n);
    const deliver = async () => {
      const before = smtp.mails.length;
      await delivery.worker.runDue();
      return smtp.mails.slice(before).map((m) => ({ ...m, text: readable(m.raw) }));
    };
    const local = (url: string) => url.replace(BASE, s.baseUrl);
    const linkIn = (text: string, purpose: string) => {
      const m = new RegExp(`${BASE.replace(/\./g, '\\.')}/job-alerts/${purpose}/[0-9a-z]+\\.[0-9a-z]+\\.[0-9a-f]{40}`).exec(text);
      expect(m, `a ${purpose} link in:\n${text}`).to.not.equal(null);
      return m![0];
    };
    const digests = (at = clock) => sendDigests({ ...s.ctx, now: () => new Date(at) });

    it('shows the form with the careers list choices, and on /careers under the list', async () => {
      const page = await (await fetch(`${s.baseUrl}/job-alerts?department=Engineering&title=backend`)).text();
      expect(page).to.include('<h1>Job alerts</h1>');
      expect(page).to.match(/<option value="Engineering" selected>/);
      expect(page).to.include('value="backend"');
      expect(page).to.include('I agree to receive emails from Acme about new jobs');
      const careers = await (await fetch(`${s.baseUrl}/careers?department=Engineering`)).text();
      expect(careers).to.include('Get new jobs by email');
      expect(careers).to.match(/<input type="hidden" name="department" value="Engineering">/);
    });

    it('refuses bad and hostile input with the messages, keeping what was typed (escaped), writing nothing', async () => {
      const cases: [Record<string, string | string[]>, string, string][] = [
        [valid({ email: '' }), 'email', M.emailRequired],
        [valid({ email: 'not-an-address' }), 'email', M.emailInvalid],
        [valid({ email: `${'a'.repeat(250)}@example.com` }), 'email', 'Ensure this field has no more than 254 characters.'],
        [valid({ email: ['a@example.com', 'b@example.com'] }), 'email', 'Must be text.'],
        [valid({ work_mode: 'MOON' }), 'work_mode', M.workMode],
        [valid({ frequency: 'hourly' }), 'frequency', M.frequency],
        [valid({ frequency: '' }), 'frequency', M.frequency],
        [valid({ consent: '' }), 'consent', M.consent],
        [valid({ keywords: 'x'.repeat(101) }), 'keywords', 'Ensure this field has no more than 100 characters.'],
        [valid({ keywords: 'line\nbreak' }), 'keywords', 'Enter this on one line'],
        [valid({ department: 'd'.repeat(192) }), 'department', 'Ensure this field has no more than 191 characters.'],
        [valid({ location: 'Ber\u202Elin' }), 'location', 'Remove the invisible'],
      ];
      for (const [body, field, message] of cases) {
        const res = await post('/job-alerts', body);
        const html = await res.text();
        expect(res.status, field).to.equal(400);
        expect(html, field).to.include(`id="alert-${field}-error"`);
        expect(html, field).to.include(message.replace(/'/g, '&#39;').slice(0, 20));
      }
      const hostile = await post(
        '/job-alerts',
        valid({ email: '<script>alert(1)</script>@x.com', department: '"><img src=x onerror=alert(1)>' }),
      );
      const html = await hostile.text();
      expect(hostile.status).to.equal(400);
      expect(html).to.not.include('<script>alert(1)</script>');
      expect(html).to.not.include('<img src=x');
      // No body, a JSON body, a body over the limit.
      expect((await post('/job-alerts', '')).status).to.equal(400);
      expect((await post('/job-alerts', JSON.stringify(valid()), { 'content-type': 'application/json' })).status).to.equal(400);
      expect((await post('/job-alerts', `email=${'a'.repeat(9000)}`)).status).to.equal(413);
      expect(await count('job_alerts')).to.equal(0);
      expect(await count('email_posts')).to.equal(0);
    });

    let confirmLink = '';
    it('answers the same for a new and a known address, sends only a confirmation, and nothing before it is confirmed', async () => {
      const first = await post('/job-alerts', valid());
      expect(first.status).to.equal(303);
      expect(first.headers.get('location')).to.equal('/job-alerts?sent=1');
      const again = await post('/job-alerts', valid({ frequency: 'weekly' }));
      expect(again.status).to.equal(303);
      expect(again.headers.get('location')).to.equal('/job-alerts?sent=1');
      const other = await post('/job-alerts', valid({ email: 'nobody-known@example.com' }));
      expect(other.headers.get('location')).to.equal('/job-alerts?sent=1');
      const sentPage = await (await fetch(`${s.baseUrl}/job-alerts?sent=1`)).text();
      expect(sentPage).to.include(M.sent);
      const rows = await s.ctx.db('job_alerts').where({ email: 'ann@example.com' });
      expect(rows).to.have.length(1);
      expect(rows[0].status).to.equal('PENDING');
      expect(rows[0].frequency).to.equal('weekly');
      expect(rows[0].consent_text).to.include('I agree to receive emails from Acme');
      expect(rows[0].consent_at).to.equal(null);
      // The second form within minutes sends no second confirmation.
      const mails = await deliver();
      const ann = mails.filter((m) => m.to.includes('ann@example.com'));
      expect(ann).to.have.length(1);
      expect(header(ann[0].text, 'Subject')).to.equal('Confirm your job alert from Acme');
      expect(ann[0].text).to.include('daily emails about new jobs at Acme matching: Engineering · Berlin · Remote · “engineer”');
      confirmLink = linkIn(ann[0].text, 'confirm');
      expect(ann[0].text).to.include(`<a href="${confirmLink}">`);
      expect(header(ann[0].text, 'List-Unsubscribe')).to.equal(null);
      // A job published before confirming is never in a digest; nothing is sent to an unconfirmed alert.
      await makeJob(s.ctx, { title: 'Pending Time Engineer', department: 'Engineering', location: 'Berlin', work_mode: 'REMOTE' });
      const run = await digests();
      expect(run.queued).to.equal(0);
      expect((await deliver()).length).to.equal(0);
    });

    it('confirms with the link from the email: a page with a button (GET changes nothing), then the POST', async () => {
      const page = await fetch(local(confirmLink));
      const html = await page.text();
      expect(page.status).to.equal(200);
      expect(html).to.include('Confirm your job alert');
      expect(html).to.include('noindex');
      expect((await s.ctx.db('job_alerts').where({ email: 'ann@example.com' }).first()).status).to.equal('PENDING');
      const done = await post(new URL(local(confirmLink)).pathname, {});
      expect(done.status).to.equal(200);
      expect(await done.text()).to.include(M.confirmed);
      const row = await s.ctx.db('job_alerts').where({ email: 'ann@example.com' }).first();
      expect(row.status).to.equal('ACTIVE');
      expect(row.consent_at).to.not.equal(null);
      const expires = new Date(row.expires_at instanceof Date ? row.expires_at : `${String(row.expires_at).replace(' ', 'T')}Z`);
      expect(Math.round((expires.getTime() - clock) / DAY)).to.equal(365);
      // The jobs open at confirmation count as known.
      expect(await count('job_alert_jobs', { alert_id: row.id, sent: 0 })).to.equal(2);
      const twice = await post(new URL(local(confirmLink)).pathname, {});
      expect(await twice.text()).to.include(M.alreadyConfirmed);
    });

    let unsubscribeUrl = '';
    let renewLink = '';
    it('sends a digest of the new matching jobs only, with the one-click unsubscribe headers; each job once; nothing when nothing is new', async () => {
      const a = await makeJob(s.ctx, {
        title: 'Senior Engineer',
        department: 'engineering',
        location: 'Berlin, Germany',
        work_mode: 'REMOTE',
      });
      const b = await makeJob(s.ctx, {
        title: 'Platform ENGINEER <b>',
        department: 'Engineering',
        location: 'Berlin',
        work_mode: 'REMOTE',
      });
      await makeJob(s.ctx, { title: 'Sales Engineer', department: 'Sales', location: 'Berlin', work_mode: 'REMOTE' });
      await makeJob(s.ctx, { title: 'Onsite Engineer', department: 'Engineering', location: 'Berlin', work_mode: 'ONSITE' });
      await makeJob(s.ctx, { title: 'Designer', department: 'Engineering', location: 'Berlin', work_mode: 'REMOTE' });
      await makeJob(s.ctx, {
        title: 'Draft Engineer',
        department: 'Engineering',
        location: 'Berlin',
        work_mode: 'REMOTE',
        status: 'INACTIVE',
      });
      const run = await digests();
      expect(run).to.include({ checked: 1, queued: 1, jobs: 2 });
      const [mail] = await deliver();
      expect(mail.to).to.deep.equal(['ann@example.com']);
      expect(header(mail.text, 'Subject')).to.equal('New jobs at Acme: 2');
      for (const title of ['Senior Engineer', 'Platform ENGINEER']) expect(mail.text).to.include(title);
      expect(mail.text).to.include(`${BASE}/careers/${a.public_id}`);
      expect(mail.text).to.include(`${BASE}/careers/${b.public_id}`);
      for (const title of ['Sales Engineer', 'Onsite Engineer', 'Designer', 'Draft Engineer', 'Old Backend', 'Pending Time'])
        expect(mail.text).to.not.include(title);
      expect(mail.text).to.include('Platform ENGINEER &#60;b&#62;');
      const listUnsubscribe = header(mail.text, 'List-Unsubscribe')!;
      expect(listUnsubscribe).to.match(/^<https:\/\/careers\.acme\.example\/job-alerts\/unsubscribe\/[^>]+>$/);
      expect(header(mail.text, 'List-Unsubscribe-Post')).to.equal('List-Unsubscribe=One-Click');
      unsubscribeUrl = listUnsubscribe.slice(1, -1);
      // The visible link is the same.
      expect(linkIn(mail.text, 'unsubscribe')).to.equal(unsubscribeUrl);
      renewLink = linkIn(mail.text, 'renew');
      // The same run again, and a day later with nothing new: no email.
      expect((await digests()).checked).to.equal(0);
      const later = await digests(clock + DAY);
      expect(later).to.include({ checked: 0 });
      // Weekly: not due again before a week.
      await makeJob(s.ctx, { title: 'Next Week Engineer', department: 'Engineering', location: 'Berlin', work_mode: 'REMOTE' });
      expect((await digests(clock + 3 * DAY)).queued).to.equal(0);
      expect(await deliver()).to.have.length(0);
      const week = await digests(clock + 7 * DAY);
      expect(week).to.include({ checked: 1, queued: 1, jobs: 1 });
      const [next] = await deliver();
      expect(next.text).to.include('Next Week Engineer');
      expect(next.text).to.not.include('Senior Engineer');
      // A week on, nothing new: checked, not sent.
      expect(await digests(clock + 14 * DAY)).to.include({ checked: 1, queued: 0 });
      expect(await deliver()).to.have.length(0);
    });

    it('refuses links that are not ours (404), and says when a confirmation link has expired (410)', async () => {
      const path = new URL(local(confirmLink)).pathname;
      const tampered = path.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0'));
      for (const p of [
        '/job-alerts/confirm/garbage',
        '/job-alerts/confirm/1.zz.<script>',
        tampered,
        path.replace('/confirm/', '/renew/'),
        `/job-alerts/unsubscribe/${'9'.repeat(12)}.abc.${'0'.repeat(40)}`.replace(/^(.*)$/, '$1'),
      ]) {
        const res = await fetch(s.baseUrl + p);
        const html = await res.text();
        if (p.includes('unsubscribe')) {
          // An alert that is gone is unsubscribed already.
          expect(res.status, p).to.equal(200);
          continue;
        }
        expect(res.status, p).to.equal(404);
        expect(html, p).to.not.include('<script>');
        expect((await post(p, {})).status, p).to.equal(404);
      }
      await post('/job-alerts', valid({ email: 'late@example.com' }));
      const [mail] = (await deliver()).filter((m) => m.to.includes('late@example.com'));
      const late = new URL(local(linkIn(mail.text, 'confirm'))).pathname;
      const saved = clock;
      clock += 8 * DAY;
      try {
        const res = await fetch(s.baseUrl + late);
        expect(res.status).to.equal(410);
        expect(await res.text()).to.include(M.confirmExpired);
        expect((await post(late, {})).status).to.equal(410);
      } finally {
        clock = saved;
      }
      expect((await s.ctx.db('job_alerts').where({ email: 'late@example.com' }).first()).status).to.equal('PENDING');
    });

    it('renews from the digest link, for a year from now', async () => {
      const saved = clock;
      clock += 100 * DAY;
      try {
        const page = await fetch(local(renewLink));
        expect(page.status).to.equal(200);
        expect(await page.text()).to.include('Renew for a year');
        const res = await post(new URL(local(renewLink)).pathname, {});
        expect(res.status).to.equal(200);
        expect(await res.text()).to.include('Your job alert is renewed until');
        const row = await s.ctx.db('job_alerts').where({ email: 'ann@example.com' }).first();
        const expires = new Date(row.expires_at instanceof Date ? row.expires_at : `${String(row.expires_at).replace(' ', 'T')}Z`);
        expect(Math.round((expires.getTime() - clock) / DAY)).to.equal(365);
      } finally {
        clock = saved;
      }
    });

    it('unsubscribes with one click (RFC 8058): a POST without sign-in or cookies deletes the alert', async () => {
      const path = new URL(local(unsubscribeUrl)).pathname;
      const page = await fetch(s.baseUrl + path);
      expect(await page.text()).to.include('Press the button to stop this job alert.');
      const { id } = await s.ctx.db('job_alerts').where({ email: 'ann@example.com' }).first();
      expect(await count('job_alert_jobs', { alert_id: id })).to.be.greaterThan(0);
      const res = await post(path, 'List-Unsubscribe=One-Click');
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include(M.unsubscribed);
      expect(await count('job_alerts', { email: 'ann@example.com' })).to.equal(0);
      // What it was sent goes with it.
      expect(await count('job_alert_jobs', { alert_id: id })).to.equal(0);
      const again = await post(path, 'List-Unsubscribe=One-Click');
      expect(again.status).to.equal(200);
      expect(await again.text()).to.include(M.unsubscribed);
    });

    it('limits confirmations per address and day, and alerts per address, answering the same', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await post('/job-alerts', valid({ email: 'many@example.com', keywords: `word${i}` }));
        expect(res.headers.get('location')).to.equal('/job-alerts?sent=1');
      }
      const mails = (await deliver()).filter((m) => m.to.includes('many@example.com'));
      expect(mails).to.have.length(3);
      for (let i = 5; i < 15; i++) await post('/job-alerts', valid({ email: 'many@example.com', keywords: `word${i}` }));
      expect(await count('job_alerts', { email: 'many@example.com' })).to.equal(10);
    });

    it('keeps one waiting alert and sends one confirmation when the same form arrives five times at once', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => post('/job-alerts', valid({ email: 'burst@example.com' }))));
      expect(answers.map((r) => r.status)).to.deep.equal([303, 303, 303, 303, 303]);
      expect(await count('job_alerts', { email: 'burst@example.com' })).to.equal(1);
      expect((await deliver()).filter((m) => m.to.includes('burst@example.com'))).to.have.length(1);
    });

    it('expires alerts after a year (no digest), and deletes them and unconfirmed ones after their retention', async () => {
      await post('/job-alerts', valid({ email: 'exp@example.com', department: '', location: '', work_mode: '', keywords: '' }));
      const [mail] = (await deliver()).filter((m) => m.to.includes('exp@example.com'));
      await post(new URL(local(linkIn(mail.text, 'confirm'))).pathname, {});
      await makeJob(s.ctx, { title: 'Any Job', location: 'Anywhere' });
      const run = await digests(clock + 366 * DAY);
      expect(run.queued).to.equal(0);
      expect(await count('job_alerts', { email: 'exp@example.com' })).to.equal(1);
      const purged = await digests(clock + 400 * DAY);
      expect(purged.purged).to.be.greaterThan(0);
      expect(await count('job_alerts', { email: 'exp@example.com' })).to.equal(0);
      expect(await count('job_alerts', { status: 'PENDING' })).to.equal(0);
    });

    it('careers-admin alerts send queues what is due; applicants erase removes an address’s alerts', async () => {
      await post('/job-alerts', valid({ email: 'cli@example.com', department: '', location: '', work_mode: '', keywords: 'cli' }));
      const [mail] = (await deliver()).filter((m) => m.to.includes('cli@example.com'));
      await post(new URL(local(linkIn(mail.text, 'confirm'))).pathname, {});
      await makeJob(s.ctx, { title: 'CLI Specialist', location: 'Anywhere' });
      const env = {
        DATA_DIR: s.testDb.dataDir,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        PUBLIC_BASE_URL: BASE,
        ...(s.ctx.config.databaseUrl ? { DATABASE_URL: s.ctx.config.databaseUrl } : {}),
      };
      const r = cliSync(['alerts', 'send'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.match(/queued 1 digest with 1 job/);
      const [digest] = (await deliver()).filter((m) => m.to.includes('cli@example.com'));
      expect(digest.text).to.include('CLI Specialist');
      expect(cliSync(['alerts', 'send'], env).out).to.include('0 alerts were due');
      expect(cliSync(['alerts', 'send'], { ...env, SMTP_URL: '' }).code).to.equal(1);
      // A look-alike address is another person's: erase never takes it (binary email on MySQL too).
      await s.ctx
        .db('job_alerts')
        .insert({ ...(await s.ctx.db('job_alerts').where({ email: 'cli@example.com' }).first()), id: undefined, email: 'clı@example.com' });
      const dry = cliSync(['applicants', 'erase', '--email', 'CLI@example.com', '--dry-run'], env);
      expect(dry.out).to.include('would remove 1 job alert');
      const erase = cliSync(['applicants', 'erase', '--email', 'CLI@example.com', '--yes'], env);
      expect(erase.code, erase.err).to.equal(0);
      expect(erase.out).to.include('Removed 1 job alert');
      expect(await count('job_alerts', { email: 'cli@example.com' })).to.equal(0);
      expect(await count('job_alerts', { email: 'clı@example.com' })).to.equal(1);
      await s.ctx.db('job_alerts').where({ email: 'clı@example.com' }).delete();
    });

    it('shows admins the count of active alerts on the Sources page (not recruiters)', async () => {
      const admin = await createHrUser(s.ctx.db, 'alert-admin', { role: 'admin' });
      const recruiter = await createHrUser(s.ctx.db, 'alert-recruiter', { role: 'recruiter' });
      expect(await count('job_alerts')).to.equal(0);
      await post('/job-alerts', valid({ email: 'waiting@example.com' }));
      await post('/job-alerts', valid({ email: 'on@example.com' }));
      const [mail] = (await deliver()).filter((m) => m.to.includes('on@example.com'));
      await post(new URL(local(linkIn(mail.text, 'confirm'))).pathname, {});
      const page = async (id: number) =>
        (await fetch(`${s.baseUrl}/hr/sources`, { headers: { cookie: `jwt=${await liveToken(s.ctx.db, id)}` } })).text();
      expect(await page(admin)).to.include('<strong>Job alerts:</strong> 1 active, 1 waiting for confirmation.');
      expect(await page(recruiter)).to.not.include('Job alerts:');
    });

    it('sends each digest once when two runs start at the same moment (two processes on one schedule)', async () => {
      const filters = { department: '', location: '', work_mode: '', keywords: 'racecar' };
      for (const n of [1, 2, 3]) await post('/job-alerts', valid({ email: `race${n}@example.com`, ...filters }));
      for (const mail of (await deliver()).filter((m) => m.to[0].startsWith('race')))
        await post(new URL(local(linkIn(mail.text, 'confirm'))).pathname, {});
      expect(await count('job_alerts', { status: 'ACTIVE', keywords: 'racecar' })).to.equal(3);
      await makeJob(s.ctx, { title: 'Racecar Mechanic', department: 'Racing', location: 'Monza' });
      const at = clock + 30 * DAY;
      const runs = await Promise.all([digests(at), digests(at), digests(at)]);
      expect(runs.reduce((n, r) => n + r.queued, 0)).to.equal(3);
      const mails = (await deliver()).filter((m) => m.text.includes('Racecar Mechanic'));
      expect(mails.map((m) => m.to[0]).sort()).to.deep.equal(['race1@example.com', 'race2@example.com', 'race3@example.com']);
    });
  });
}

describe('job alerts: rate limit, settings, schedule, email off', function () {
  this.timeout(60_000);
  it('answers 429 with Retry-After past ALERTS_RATE_LIMIT', async () => {
    const s = await startTestServer('sqlite', {
      SMTP_URL: 'smtp://127.0.0.1:1',
      ALERTS_RATE_LIMIT: '2',
      ALERTS_RATE_WINDOW_SECONDS: '600',
    });
    try {
      const send = () =>
        fetch(`${s.baseUrl}/job-alerts`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=a%40example.com&frequency=daily&consent=yes',
        });
      expect((await send()).status).to.equal(303);
      expect((await send()).status).to.equal(303);
      const third = await send();
      expect(third.status).to.equal(429);
      expect(third.headers.get('retry-after')).to.match(/^\d+$/);
      expect(await third.text()).to.include('Too many job alert requests');
    } finally {
      await s.close();
    }
  });

  it('ALERTS_CRON: 0 8 * * * by default, "off" for none, anything else node-cron refuses stops the start', () => {
    expect(loadConfig({}).alertsCron).to.equal('0 8 * * *');
    expect(loadConfig({ ALERTS_CRON: 'off' }).alertsCron).to.equal(null);
    expect(loadConfig({ ALERTS_RATE_LIMIT: '0' }).rateLimits.alerts).to.deep.equal({ limit: 0, windowSeconds: 3600 });
    for (const bad of ['every morning', '61 8 * * *', '0 8 * *'])
      expect(() => loadConfig({ ALERTS_CRON: bad }), bad)
        .to.throw(ConfigError)
        .with.property('message')
        .that.includes('ALERTS_CRON must be a cron expression');
    expect(() => loadConfig({ ALERTS_RATE_LIMIT: 'many' })).to.throw(ConfigError, /ALERTS_RATE_LIMIT/);
  });

  it('the ALERTS_CRON task queues the digests due and wakes the delivery worker', async () => {
    const smtp = await startSmtp();
    const s = await startTestServer('sqlite', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ALERTS_CRON: '* * * * * *' });
    let woken = 0;
    const unsubscribe = s.ctx.outbox.subscribe(() => woken++);
    const runs: { queued: number }[] = [];
    const task = scheduleAlerts(
      s.ctx,
      () => undefined,
      (run) => runs.push(run),
    );
    try {
      const at = new Date(Date.now() - 2 * DAY);
      const [id] = await s.ctx.db('job_alerts').insert({
        email: 'cron@example.com',
        frequency: 'daily',
        status: 'ACTIVE',
        consent_text: 'yes',
        consent_at: at.toISOString().replace('T', ' ').replace('Z', ''),
        expires_at: new Date(Date.now() + 100 * DAY).toISOString().replace('T', ' ').replace('Z', ''),
        created_at: at.toISOString().replace('T', ' ').replace('Z', ''),
        updated_at: at.toISOString().replace('T', ' ').replace('Z', ''),
      });
      expect(id).to.be.a('number');
      await makeJob(s.ctx, { title: 'Cron Job Engineer' });
      for (let i = 0; i < 40 && !runs.some((r) => r.queued); i++) await new Promise((r) => setTimeout(r, 100));
      expect(runs.reduce((n, r) => n + r.queued, 0)).to.equal(1);
      expect(woken).to.be.greaterThan(0);
      const row = await s.ctx.db('email_posts').where({ template: 'job_alert_digest' }).first();
      expect(JSON.parse(row.payload).text).to.include('Cron Job Engineer');
    } finally {
      await task?.stop();
      unsubscribe();
      await s.close();
      await smtp.close();
    }
    expect(scheduleAlerts({ ...s.ctx, config: { ...s.ctx.config, alertsCron: null } }, () => undefined)).to.equal(null);
  });

  it('without SMTP_URL there are no alerts: no form under the list, /job-alerts says so', async () => {
    const s = await startTestServer('sqlite');
    try {
      expect(await (await fetch(`${s.baseUrl}/careers`)).text()).to.not.include('Get new jobs by email');
      const res = await fetch(`${s.baseUrl}/job-alerts`);
      expect(res.status).to.equal(404);
      expect(await res.text()).to.include(M.alertsOff);
    } finally {
      await s.close();
    }
  });
});

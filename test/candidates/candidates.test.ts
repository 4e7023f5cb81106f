/**
 * The candidate's side (issue 35) over HTTP on both databases, with a real SMTP server: the
 * receipt carries the link to the status page; the page shows each application in plain words
 * (admins' texts per stage, built-in ones otherwise, never status codes), is noindex, no-store and
 * sends no Referer; the candidate withdraws (outcome Withdrew), downloads their data and resume,
 * and asks for erasure, which HR confirms; a new link is emailed on request, the answer the same
 * for a known and an unknown address; dead, changed and hostile links and inputs are answered.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readable, startSmtp } from '../helpers/smtp.js';
import { rawRequest } from '../helpers/raw-http.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { createDelivery } from '../../src/posts/index.js';
import { makeStatusToken } from '../../src/people/lib/status-token.js';
import type { Job } from '../../src/jobs/index.js';
import { toDbDate } from '../../src/db/codecs.js';

const BASE = 'https://careers.acme.example';

for (const kind of databaseKinds()) {
  describe(`candidate status page [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let delivery: ReturnType<typeof createDelivery>;
    let admin: string;
    let recruiter: string;
    let jobs: Job[];

    const apply = async (job: Job, email: string, first = 'Lena'): Promise<number> => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, first_name: first, last_name: 'Novak', phone: '+14155550777' })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      return Number((await s.ctx.db('applications').where({ job_id: job.id, email }).first('id')).id);
    };
    /** The status page's path from the last email to `to`. */
    const linkFor = async (to: string): Promise<string> => {
      await delivery.worker.runDue();
      const mail = smtp.mails.filter((m) => m.to.includes(to)).at(-1);
      expect(mail, `an email to ${to}`).to.not.equal(undefined);
      const m = new RegExp(`${BASE.replace(/\./g, '\\.')}(/candidate/[0-9.a-f]+)`).exec(readable(mail!.raw));
      expect(m, readable(mail!.raw)).to.not.equal(null);
      return m![1];
    };
    const page = (path: string) => rawRequest(s.baseUrl, path);
    const post = (path: string, fields: Record<string, string>) =>
      rawRequest(s.baseUrl, path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const hr = async (token: string, path: string, init: { method?: string; body?: unknown } = {}) => {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <jobs@acme.example>',
        COMPANY_NAME: 'Acme',
        PUBLIC_BASE_URL: BASE,
        APPLY_RATE_LIMIT: '0',
        CANDIDATE_RATE_LIMIT: '0',
      });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined });
      admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'cand.admin'));
      recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'cand.recruiter', { role: 'recruiter' }));
      jobs = [];
      for (const title of ['Data Analyst', 'Payroll Lead']) jobs.push(await makeJob(s.ctx.db, { title, status: 'ACTIVE' }));
    });
    after(async () => {
      await delivery.close();
      await s.close();
      await smtp.close();
    });

    it('links the receipt to a private status page in plain words, with texts admins set per stage', async () => {
      await apply(jobs[0], 'lena@example.com');
      await apply(jobs[1], 'lena@example.com');
      const path = await linkFor('lena@example.com');
      const res = await page(path);
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.body).to.include('<meta name="robots" content="noindex');
      expect(res.body).to.include('Hello Lena.');
      expect(res.body).to.include('Data Analyst').and.include('Payroll Lead');
      expect(res.body).to.include('We have your application. Our hiring team reads every application and answers within 10 working days.');
      for (const code of ['>NEW<', 'REVIEWED', 'ARCHIVED', 'REJECTED']) expect(res.body).to.not.include(code);
      // An offer sent for one of them waits for an answer (issue 34's offers, on their own page).
      const lenaApp = await s.ctx.db('applications').where({ email: 'lena@example.com', job_id: jobs[1].id }).first('id');
      const at = toDbDate(new Date('2026-11-20T10:00:00Z'));
      await s.ctx.db('offers').insert({
        application_id: lenaApp.id,
        job_id: jobs[1].id,
        status: 'sent',
        base_pay: 90000,
        salary_period: 'YEAR',
        currency: 'EUR',
        start_date: '2027-01-04',
        expires_on: '2099-12-10',
        letter: '<p>Welcome</p>',
        sent_at: at,
        created_at: at,
        updated_at: at,
      });
      expect((await page(path)).body).to.include(
        'An offer for <strong>Payroll Lead</strong> is waiting for your answer: open it with the link in the email we sent you on 20 November 2026. It is open until 10 December 2099.',
      );

      const texts = (await hr(admin, '/api/hr/settings/status-texts/')).body.results;
      expect(texts.map((t: { stage: string }) => t.stage)).to.include.members(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      expect((await hr(recruiter, '/api/hr/settings/status-texts/', { method: 'PUT', body: { texts: [] } })).status).to.equal(403);
      const saved = await hr(admin, '/api/hr/settings/status-texts/', {
        method: 'PUT',
        body: { texts: [{ stage: 'applied', text: '  We answer every application within a week.  ' }] },
      });
      expect(saved.status).to.equal(200);
      expect(saved.body.results.find((t: { stage: string }) => t.stage === 'Applied')).to.deep.include({
        text: 'We answer every application within a week.',
        custom: true,
      });
      expect((await page(path)).body).to.include('We answer every application within a week.');
      const tooLong = await hr(admin, '/api/hr/settings/status-texts/', {
        method: 'PUT',
        body: { texts: [{ stage: 'Screen', text: 'x'.repeat(501) }] },
      });
      expect(tooLong.status).to.equal(400);
      expect(JSON.stringify(tooLong.body)).to.include('A text is 1 to 500 characters, or empty for the default.');
      expect((await hr(admin, '/api/hr/settings/status-texts/', { method: 'PUT', body: { texts: 'nope' } })).status).to.equal(400);
      await hr(admin, '/api/hr/settings/status-texts/', { method: 'PUT', body: { texts: [{ stage: 'Applied', text: '' }] } });
      expect((await page(path)).body).to.include('answers within 10 working days');
    });

    it('withdraws an application with a reason (outcome Withdrew), once, and only the candidate’s own', async () => {
      const id = await apply(jobs[0], 'omar@example.com', 'Omar');
      const path = await linkFor('omar@example.com');
      const other = await apply(jobs[1], 'someone.else@example.com', 'Sam');
      expect((await post(`${path}/withdraw`, { application_id: String(other), reason: '' })).status).to.equal(404);
      expect((await post(`${path}/withdraw`, { application_id: 'abc', reason: '' })).status).to.equal(400);
      const long = await post(`${path}/withdraw`, { application_id: String(id), reason: 'x'.repeat(101) });
      expect(long.status).to.equal(400);
      expect(long.body).to.include('Keep the reason to 100 characters.');
      const done = await post(`${path}/withdraw`, { application_id: String(id), reason: 'Took another offer\u0007' });
      expect(done.status).to.equal(303);
      expect(done.headers.location).to.equal(`${path}?done=withdrawn`);
      const row = await s.ctx.db('applications').where({ id }).first('outcome', 'outcome_reason', 'status');
      expect(row).to.deep.equal({ outcome: 'WITHDREW', outcome_reason: 'Took another offer', status: 'ARCHIVED' });
      const after = (await page(`${path}?done=withdrawn`)).body;
      expect(after).to.include('Your application has been withdrawn. Thank you for letting us know.');
      expect(after).to.include('You withdrew this application.').and.include('Withdrawn');
      expect(after).to.not.include('Withdraw my application for Data Analyst');
      const again = await post(`${path}/withdraw`, { application_id: String(id), reason: '' });
      expect(again.headers.location).to.equal(`${path}?done=alreadyWithdrawn`);
      const timeline = (await hr(admin, `/api/hr/applications/${id}/timeline/`)).body.results.map((e: { text: string }) => e.text);
      expect(timeline).to.include('Outcome set to Withdrew (reason: Took another offer, stage: Applied)');
    });

    it('hands the candidate their data and resume as downloads, and nothing of anyone else', async () => {
      const id = await apply(jobs[0], 'ines@example.com', 'Ines');
      const path = await linkFor('ines@example.com');
      const data = await page(`${path}/data.json`);
      expect(data.status).to.equal(200);
      expect(data.headers['content-disposition']).to.equal('attachment; filename="my-applications.json"');
      const json = JSON.parse(data.body);
      expect(json.addresses).to.deep.equal(['ines@example.com']);
      expect(json.applications).to.have.length(1);
      expect(json.applications[0]).to.deep.include({
        id,
        first_name: 'Ines',
        email: 'ines@example.com',
        skills: ['TypeScript', 'Node.js'],
      });
      expect(json.applications[0].professional_experiences[0].company).to.equal('Initech');
      expect(json.applications[0].emails[0].subject).to.be.a('string');
      const resume = await page(`${path}/resume/${id}`);
      expect(resume.status).to.equal(200);
      expect(resume.headers['content-disposition']).to.match(/^attachment; filename=/);
      const someone = await apply(jobs[1], 'not.ines@example.com', 'Nia');
      expect((await page(`${path}/resume/${someone}`)).status).to.equal(404);
      expect((await page(`${path}/resume/0`)).status).to.equal(404);
    });

    it('emails a new link on request, answering a known and an unknown address the same; refuses a bad one', async () => {
      await apply(jobs[1], 'kai@example.com', 'Kai');
      await delivery.worker.runDue();
      const before = smtp.mails.length;
      const known = await post('/candidate', { email: 'KAI@example.com' });
      const unknown = await post('/candidate', { email: 'nobody@example.com' });
      expect([known.status, known.headers.location]).to.deep.equal([303, '/candidate?sent=1']);
      expect([unknown.status, unknown.headers.location]).to.deep.equal([303, '/candidate?sent=1']);
      await delivery.worker.runDue();
      const sent = smtp.mails.slice(before).map((m) => m.to.join(','));
      expect(sent).to.deep.equal(['kai@example.com']);
      expect((await page('/candidate?sent=1')).body).to.include('If we have applications from this address, we have emailed it a link');
      const fresh = await linkFor('kai@example.com');
      expect((await page(fresh)).body).to.include('Hello Kai.');
      for (const email of ['', 'not-an-email', `${'a'.repeat(400)}@example.com`, '<script>@x']) {
        const bad = await post('/candidate', { email });
        expect(bad.status, email).to.equal(400);
        expect(bad.body).to.include('Enter the email address you applied with.');
      }
      expect((await post('/candidate', { email: 'x'.repeat(5000) })).status).to.equal(413);
    });

    it('answers changed, made-up and expired links with a page saying why and the request form', async () => {
      await apply(jobs[0], 'eva@example.com', 'Eva');
      const path = await linkFor('eva@example.com');
      const changed = `${path.slice(0, -1)}${path.endsWith('0') ? '1' : '0'}`;
      for (const p of [changed, '/candidate/1.9999999999.' + '0'.repeat(32), '/candidate/%00', `/candidate/${'9'.repeat(500)}`]) {
        const res = await page(p);
        expect(res.status, p).to.equal(404);
        expect(res.body).to.include('This link is not valid. Ask for a new one with the email address you applied with.');
        expect(res.body).to.include('action="/candidate"');
      }
      const personId = Number((await s.ctx.db('people').where({ email: 'eva@example.com' }).first('id')).id);
      const expired = await makeStatusToken(s.ctx.serverKey, personId, new Date(Date.now() - 1000));
      const res = await page(`/candidate/${expired}`);
      expect(res.status).to.equal(410);
      expect(res.body).to.include('This link has expired.');
      expect((await post(`/candidate/${expired}/erasure`, {})).status).to.equal(410);
    });

    it('asks for erasure; HR confirms in one click and the person, their applications and link are gone', async () => {
      const ids = [await apply(jobs[0], 'zed@example.com', 'Zed'), await apply(jobs[1], 'zed@example.com', 'Zed')];
      const path = await linkFor('zed@example.com');
      const asked = await post(`${path}/erasure`, {});
      expect([asked.status, asked.headers.location]).to.deep.equal([303, `${path}?done=erasure`]);
      expect((await page(`${path}?done=erasure`)).body).to.include('We have your request.');
      expect((await page(path)).body).to.include('You asked us to erase your data on');
      const list = await hr(recruiter, '/api/hr/erasure-requests/');
      const request = list.body.results.find((r: { email: string }) => r.email === 'zed@example.com');
      expect(request).to.deep.include({ name: 'Zed Novak', applications: 2 });
      expect((await hr(recruiter, '/api/hr/erasure-requests/abc/confirm/', { method: 'POST' })).status).to.equal(404);
      const confirmed = await hr(recruiter, `/api/hr/erasure-requests/${request.id}/confirm/`, { method: 'POST' });
      expect(confirmed).to.deep.equal({ status: 200, body: { applications: 2, entries: 0, alerts: 0 } });
      expect(Number((await s.ctx.db('applications').whereIn('id', ids).count({ n: '*' }).first())!.n)).to.equal(0);
      expect(await s.ctx.db('people').where({ email: 'zed@example.com' }).first()).to.equal(undefined);
      expect((await page(path)).status).to.equal(404);
      expect((await hr(recruiter, `/api/hr/erasure-requests/${request.id}/confirm/`, { method: 'POST' })).body).to.deep.equal({
        detail: 'Erasure request not found.',
      });
    });
  });
}

/**
 * Talent pools (issue 35) over HTTP on both databases, with a real SMTP server: HR keeps pools and
 * adds people (asked for consent by email, with their status page's link); a rejection for
 * "Position filled" keeps the candidate; a member is offered for a new job of the same department
 * or title words only once they agreed, with why; "Invite to apply" emails the job's link once;
 * withdrawing consent, and erasure, take them out. Bad input answered, HR only.
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
import { removeApplications } from '../../src/applicants/index.js';
import { toDbDate } from '../../src/db/codecs.js';
import type { Job } from '../../src/jobs/index.js';
import type { PoolMatch, PoolMember } from '../../src/pools/types.js';

const BASE = 'https://careers.acme.example';

for (const kind of databaseKinds()) {
  describe(`talent pools [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let delivery: ReturnType<typeof createDelivery>;
    let admin: string;
    let jobs: Job[];

    const api = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${init.token ?? admin}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const apply = async (job: Job, email: string, first: string): Promise<number> => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, first_name: first, last_name: 'Pool' })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      return Number((await s.ctx.db('applications').where({ job_id: job.id, email }).first('id')).id);
    };
    const mailsTo = async (to: string) => {
      await delivery.worker.runDue();
      return smtp.mails.filter((m) => m.to.includes(to)).map((m) => readable(m.raw));
    };
    const statusPath = (mail: string) => new RegExp(`${BASE.replace(/\./g, '\\.')}(/candidate/[0-9.a-f]+)`).exec(mail)![1];
    const history = async (id: number) =>
      (await api(`/api/hr/applications/${id}/timeline/`)).body.results.map((e: { text: string }) => e.text);

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
      admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pool.admin'));
      jobs = [
        await makeJob(s.ctx.db, { title: 'Payroll Specialist', department: 'Finance', status: 'ACTIVE' }),
        await makeJob(s.ctx.db, { title: 'Office Manager', department: 'Operations', status: 'ACTIVE' }),
      ];
    });
    after(async () => {
      await delivery.close();
      await s.close();
      await smtp.close();
    });

    it('keeps people who agreed, offers them for a matching job with why, and invites them once', async () => {
      const pool = await api('/api/hr/pools/', { method: 'POST', body: { name: '  Silver   medalists ' } });
      expect(pool).to.deep.include({ status: 201 });
      expect(pool.body).to.deep.include({ name: 'Silver medalists', members: 0 });
      expect((await api('/api/hr/pools/', { method: 'POST', body: { name: 'Silver medalists' } })).body).to.deep.equal({
        name: ['A pool with this name exists already.'],
      });
      const mia = await apply(jobs[0], 'mia@example.com', 'Mia');
      const added = await api(`/api/hr/pools/${pool.body.id}/members/`, { method: 'POST', body: { application_ids: [mia, mia] } });
      expect(added).to.deep.equal({ status: 200, body: { added: 1, already: 0, not_found: [] } });
      expect(
        (await api(`/api/hr/pools/${pool.body.id}/members/`, { method: 'POST', body: { application_ids: [mia] } })).body,
      ).to.deep.equal({ added: 0, already: 1, not_found: [] });
      const members: PoolMember[] = (await api(`/api/hr/pools/${pool.body.id}/members/`)).body.results;
      expect(members.map((m) => [m.name, m.consent, m.reason])).to.deep.equal([['Mia Pool', 'waiting', 'Added by HR']]);
      expect(await history(mia)).to.include('Added to the talent pool “Silver medalists” (Added by HR)');
      const asked = (await mailsTo('mia@example.com')).find((m) => m.includes('May we keep your details? Acme'))!;
      expect(asked)
        .to.include('Dear Mia,\r\n\r\nWe would like to keep your details to tell you about other jobs at Acme that fit you.')
        .and.match(/\(the link works until \d{1,2} [A-Z][a-z]+ \d{4}\):\r\n\r\nhttps:\/\/careers\.acme\.example\/candidate\//);

      const lead = await makeJob(s.ctx.db, { title: 'Payroll Lead', department: 'Finance', status: 'ACTIVE' });
      expect((await api(`/api/hr/jobs/${lead.id}/pool-matches/`)).body.results).to.deep.equal([]);
      // Mia agrees on her status page.
      const page = statusPath(asked);
      expect((await rawRequest(s.baseUrl, page)).body).to.include('I agree: keep my details');
      const agreed = await rawRequest(s.baseUrl, `${page}/future-jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'keep=yes',
      });
      expect(agreed.headers.location).to.equal(`${page}?done=keepOn`);
      expect((await rawRequest(s.baseUrl, `${page}?done=keepOn`)).body).to.include(
        'Thank you: we will tell you about other jobs that fit you.',
      );
      const matches: PoolMatch[] = (await api(`/api/hr/jobs/${lead.id}/pool-matches/`)).body.results;
      expect(matches).to.have.length(1);
      expect(matches[0]).to.deep.include({
        name: 'Mia Pool',
        why: 'Same department (Finance)',
        furthest_stage: 'Applied (Payroll Specialist)',
        scorecard_average: null,
        pool: 'Silver medalists',
        invited_at: null,
      });
      // Not offered for an unrelated job.
      const design = await makeJob(s.ctx.db, { title: 'Graphic Designer', department: 'Brand', status: 'ACTIVE' });
      expect((await api(`/api/hr/jobs/${design.id}/pool-matches/`)).body.results).to.deep.equal([]);

      const invited = await api(`/api/hr/jobs/${lead.id}/pool-matches/${matches[0].person_id}/invite/`, { method: 'POST' });
      expect(invited.status).to.equal(200);
      const mail = (await mailsTo('mia@example.com')).find((m) => m.includes('A job for you at Acme: Payroll Lead'))!;
      // The default template (migration 047) says what the built-in text said.
      expect(mail)
        .to.include('Dear Mia,\r\n\r\nWe have a new opening at Acme we think fits you: Payroll Lead.')
        .and.include(`Read about it and apply here:\r\n${BASE}/careers/${lead.public_id}?utm_source=talent-pool&utm_medium=email`)
        .and.include('you can withdraw that on your status page at any time.\r\n\r\nAcme Careers');
      expect(await history(mia)).to.include('Invited to apply for Payroll Lead');
      const twice = await api(`/api/hr/jobs/${lead.id}/pool-matches/${matches[0].person_id}/invite/`, { method: 'POST' });
      expect(twice.status).to.equal(409);
      expect((await api(`/api/hr/jobs/${design.id}/pool-matches/${matches[0].person_id}/invite/`, { method: 'POST' })).status).to.equal(
        409,
      );

      // She says stop: she leaves every pool and is offered nowhere.
      await rawRequest(s.baseUrl, `${page}/future-jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'keep=no',
      });
      expect((await api(`/api/hr/pools/${pool.body.id}/members/`)).body.results).to.deep.equal([]);
      expect((await api(`/api/hr/jobs/${lead.id}/pool-matches/`)).body.results).to.deep.equal([]);
    });

    it('keeps a candidate rejected for "Position filled" in the pool of that name; erasing removes them', async () => {
      const leo = await apply(jobs[1], 'leo@example.com', 'Leo');
      const rejected = await api(`/api/hr/applications/${leo}/`, {
        method: 'PATCH',
        body: { outcome: 'REJECTED', reason: 'Position filled' },
      });
      expect(rejected.status).to.equal(200);
      const pools = (await api('/api/hr/pools/')).body.results;
      const filled = pools.find((p: { name: string }) => p.name === 'Position filled');
      expect(filled).to.deep.include({ members: 1, consented: 0 });
      const mine = (await api(`/api/hr/applications/${leo}/pools/`)).body;
      expect(mine.pools.map((p: { name: string; reason: string }) => [p.name, p.reason])).to.deep.equal([
        ['Position filled', 'Rejected: Position filled'],
      ]);
      expect(mine.consent).to.equal('waiting');
      await removeApplications(
        { db: s.ctx.db, storage: s.ctx.storage, now: () => new Date(), log: s.ctx.log },
        { email: 'leo@example.com' },
        { action: 'erase' },
      );
      expect((await api(`/api/hr/pools/${filled.id}/members/`)).body.results).to.deep.equal([]);
    });

    it('answers bad input, and is for admins and recruiters only', async () => {
      for (const [body, message] of [
        [{}, "A pool's name is 1 to 100 characters on one line."],
        [{ name: '' }, "A pool's name is 1 to 100 characters on one line."],
        [{ name: 'x'.repeat(101) }, "A pool's name is 1 to 100 characters on one line."],
        [{ name: 42 }, "A pool's name is 1 to 100 characters on one line."],
      ] as const) {
        const res = await api('/api/hr/pools/', { method: 'POST', body });
        expect([res.status, res.body.name?.[0]], JSON.stringify(body)).to.deep.equal([400, message]);
      }
      const pool = (await api('/api/hr/pools/', { method: 'POST', body: { name: 'Bad input' } })).body;
      for (const body of [
        {},
        { application_ids: [] },
        { application_ids: ['x'] },
        { application_ids: Array(501).fill(1) },
        { application_ids: [1], reason: 'x'.repeat(201) },
      ]) {
        expect((await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body })).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api('/api/hr/pools/999999/members/', { method: 'POST', body: { application_ids: [1] } })).body).to.deep.equal({
        detail: 'Talent pool not found.',
      });
      expect((await api(`/api/hr/pools/${pool.id}/members/999999/`, { method: 'DELETE' })).status).to.equal(404);
      expect((await api('/api/hr/pools/abc/', { method: 'DELETE' })).status).to.equal(404);
      expect((await api(`/api/hr/pools/${pool.id}/`, { method: 'DELETE' })).status).to.equal(204);
      expect((await fetch(`${s.baseUrl}/api/hr/pools/`)).status).to.equal(401);
      const recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pool.recruiter', { role: 'recruiter' }));
      expect((await api('/api/hr/pools/', { token: recruiter })).status).to.equal(200);
      const manager = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pool.manager', { role: 'hiring_manager' }));
      expect((await api('/api/hr/pools/', { token: manager })).status).to.equal(403);
      expect(
        (await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body: { application_ids: [1] }, token: manager })).status,
      ).to.equal(403);
      // "Add to pool" is offered on the list and the board to those who may use pools, never to the job's hiring manager.
      const managerId = Number((await s.ctx.db('hr_users').where({ username: 'pool.manager' }).first('id')).id);
      await s.ctx
        .db('job_team_members')
        .insert({ job_id: jobs[0].id, user_id: managerId, role: 'hiring_manager', created_at: toDbDate(new Date()) });
      const lia = await apply(jobs[0], 'lia@example.com', 'Lia');
      const page = async (path: string, token: string) => {
        const res = await fetch(`${s.baseUrl}${path}`, { headers: { cookie: `jwt=${token}` } });
        expect(res.status, path).to.equal(200);
        return res.text();
      };
      for (const [who, token, offered] of [
        ['admin', admin, true],
        ['recruiter', recruiter, true],
        ['hiring manager', manager, false],
      ] as const) {
        expect((await page(`/hr/applicants?job_id=${jobs[0].id}`, token)).includes('id="island-bulk-pools"'), who).to.equal(offered);
        expect((await page(`/hr/jobs/${jobs[0].id}/board`, token)).includes('"pools":true'), who).to.equal(offered);
        // The applicant page's pools section too (its API answers the others 403).
        expect((await page(`/hr/applicants/${lia}`, token)).includes('id="island-applicant-pools"'), who).to.equal(offered);
      }
    });

    it("adds the list's selection in one request: the people new to the pool, those in it already, the ids not found; bad input changes nothing", async () => {
      const pool = (await api('/api/hr/pools/', { method: 'POST', body: { name: 'From the list' } })).body;
      const members = async () => Number((await s.ctx.db('pool_members').where({ pool_id: pool.id }).count({ n: '*' }))[0].n);
      const ada = await apply(jobs[0], 'ada.list@example.com', 'Ada');
      // The same person's second application: one member.
      const ada2 = await apply(jobs[1], 'ada.list@example.com', 'Ada');
      const bo = await apply(jobs[0], 'bo.list@example.com', 'Bo');
      const first = await api(`/api/hr/pools/${pool.id}/members/`, {
        method: 'POST',
        body: { application_ids: [ada, String(bo), 999999], reason: '  Strong   second\nchoice ' },
      });
      expect(first).to.deep.equal({ status: 200, body: { added: 2, already: 0, not_found: [999999] } });
      const cy = await apply(jobs[1], 'cy.list@example.com', 'Cy');
      const again = await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body: { application_ids: [ada, ada2, bo, cy] } });
      expect(again).to.deep.equal({ status: 200, body: { added: 1, already: 2, not_found: [] } });
      const listed: PoolMember[] = (await api(`/api/hr/pools/${pool.id}/members/`)).body.results;
      expect(listed.map((m) => [m.name, m.reason]).sort()).to.deep.equal([
        ['Ada Pool', 'Strong second choice'],
        ['Bo Pool', 'Strong second choice'],
        ['Cy Pool', 'Added by HR'],
      ]);
      // A hostile reason is text: stored and answered as typed, never markup.
      const dee = await apply(jobs[0], 'dee.list@example.com', 'Dee');
      const markup = '<img src=x onerror=alert(1)> "; DROP TABLE pool_members; --';
      expect(
        (await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body: { application_ids: [dee], reason: markup } })).body,
      ).to.deep.equal({ added: 1, already: 0, not_found: [] });
      expect((await api(`/api/hr/applications/${dee}/pools/`)).body.pools[0].reason).to.equal(markup);

      const before = await members();
      const ids = 'application_ids must be a list of 1 to 500 application ids.';
      const reason = 'The reason is at most 200 characters on one line.';
      for (const [body, field, message] of [
        [{ application_ids: String(ada) }, 'application_ids', ids],
        [{ application_ids: { 0: ada } }, 'application_ids', ids],
        [{ application_ids: [true] }, 'application_ids', ids],
        [{ application_ids: [[ada]] }, 'application_ids', ids],
        [{ application_ids: [null] }, 'application_ids', ids],
        [{ application_ids: [{ id: ada }] }, 'application_ids', ids],
        [{ application_ids: [1.5] }, 'application_ids', ids],
        [{ application_ids: [0] }, 'application_ids', ids],
        [{ application_ids: [-ada] }, 'application_ids', ids],
        [{ application_ids: ['1e3'] }, 'application_ids', ids],
        [{ application_ids: ['0x10'] }, 'application_ids', ids],
        [{ application_ids: [` ${ada}`] }, 'application_ids', ids],
        [{ application_ids: [`${ada}; DROP TABLE pool_members`] }, 'application_ids', ids],
        [{ application_ids: [2147483648] }, 'application_ids', ids],
        [{ application_ids: Array.from({ length: 501 }, (_, i) => i + 1) }, 'application_ids', ids],
        [{ application_ids: [ada], reason: 42 }, 'reason', reason],
        [{ application_ids: [ada], reason: 'r'.repeat(201) }, 'reason', reason],
        [{ application_ids: [ada], reason: 'fine\u0000nul' }, 'reason', 'Enter this on one line, without control characters.'],
        [
          { application_ids: [ada], reason: 'txt.exe\u202e' },
          'reason',
          'Remove the invisible or text-direction characters (such as U+200B or U+202E).',
        ],
      ] as const) {
        const res = await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body });
        expect([res.status, res.body[field]], JSON.stringify(body).slice(0, 80)).to.deep.equal([400, [message]]);
      }
      for (const body of [[ada], 'x', null]) {
        const res = await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      // 500 ids are taken (those not found named).
      const many = await api(`/api/hr/pools/${pool.id}/members/`, {
        method: 'POST',
        body: { application_ids: [ada, ...Array.from({ length: 499 }, (_, i) => 1_000_000 + i)] },
      });
      expect([many.status, many.body.added, many.body.already, many.body.not_found.length]).to.deep.equal([200, 0, 1, 499]);
      const badName = await api('/api/hr/pools/', { method: 'POST', body: { name: 'Pool\u202e' } });
      expect([badName.status, badName.body.name]).to.deep.equal([
        400,
        ['Remove the invisible or text-direction characters (such as U+200B or U+202E).'],
      ]);
      expect(await members()).to.equal(before);
    });

    it('sends both emails from the templates HR edits; their variables only; the templates are never deleted or sent by hand', async () => {
      const templates = (await api('/api/hr/email-templates/')).body.results;
      const invite = templates.find((t: { purpose: string }) => t.purpose === 'pool_invite');
      const consent = templates.find((t: { purpose: string }) => t.purpose === 'pool_consent');
      expect([invite.name, consent.name]).to.deep.equal(['Talent pool invitation', 'Talent pool consent request']);
      const put = (id: number, body: Record<string, unknown>) => api(`/api/hr/email-templates/${id}/`, { method: 'PUT', body });
      const unknown = await put(invite.id, { name: invite.name, subject: 'Hi {first_name}', body: 'At stage {stage}: {status_link}' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.body).to.deep.equal([
        'Unknown variables {stage}, {status_link}: use {first_name}, {last_name}, {company_name}, {job_title} or {job_url}.',
      ]);
      expect((await put(consent.id, { name: consent.name, subject: 'x', body: '{job_url}' })).body.body[0]).to.match(
        /^Unknown variable \{job_url\}: use .*\{status_link\} or \{link_expires_on\}\.$/,
      );
      expect((await put(invite.id, { name: invite.name, subject: 'x', body: 'y', default_delay_minutes: 60 })).status).to.equal(400);
      const saved = await put(invite.id, {
        name: invite.name,
        subject: '{first_name}, {job_title} at {company_name} is open',
        body: 'Hello {first_name} {last_name},\n\n{job_title} is open: {job_url}\n\nSee you, {company_name}',
      });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect(
        (
          await put(consent.id, {
            name: consent.name,
            subject: 'Stay in touch with {company_name}?',
            body: 'Hi {first_name} {last_name}: say yes at {status_link} (until {link_expires_on}).',
          })
        ).status,
      ).to.equal(200);
      for (const t of [invite, consent]) {
        const gone = await api(`/api/hr/email-templates/${t.id}/`, { method: 'DELETE' });
        expect([gone.status, gone.body]).to.deep.equal([
          409,
          { detail: 'The talent pool templates cannot be deleted: edit their text instead.' },
        ]);
      }
      const choices = (await api('/api/hr/applications/emails/')).body.templates.map((t: { purpose: string }) => t.purpose);
      expect(choices).to.not.include.members(['pool_invite', 'pool_consent']);
      const zoe = await apply(jobs[0], 'zoe@example.com', 'Zoe');
      expect((await api(`/api/hr/applications/${zoe}/emails/`, { method: 'POST', body: { template_id: invite.id } })).status).to.equal(400);

      const legal = await makeJob(s.ctx.db, { title: 'Contract Counsel', department: 'Legal', status: 'ACTIVE' });
      const ivo = await apply(legal, 'ivo@example.com', 'Ivo');
      const pool = (await api('/api/hr/pools/', { method: 'POST', body: { name: 'Legal bench' } })).body;
      await api(`/api/hr/pools/${pool.id}/members/`, { method: 'POST', body: { application_ids: [ivo] } });
      const asked = (await mailsTo('ivo@example.com')).find((m) => m.includes('Stay in touch with Acme?'))!;
      expect(asked).to.match(
        new RegExp(`Hi Ivo Pool: say yes at ${BASE.replace(/\./g, '\\.')}/candidate/[0-9.a-f]+ \\(until \\d{1,2} [A-Z][a-z]+ \\d{4}\\)\\.`),
      );
      await rawRequest(s.baseUrl, `${statusPath(asked)}/future-jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'keep=yes',
      });
      const next = await makeJob(s.ctx.db, { title: 'Privacy Counsel', department: 'Legal', status: 'ACTIVE' });
      const match: PoolMatch = (await api(`/api/hr/jobs/${next.id}/pool-matches/`)).body.results[0];
      expect((await api(`/api/hr/jobs/${next.id}/pool-matches/${match.person_id}/invite/`, { method: 'POST' })).status).to.equal(200);
      const mail = (await mailsTo('ivo@example.com')).find((m) => m.includes('Ivo, Privacy Counsel at Acme is open'))!;
      expect(mail)
        .to.include('Hello Ivo Pool,\r\n\r\nPrivacy Counsel is open: ')
        .and.include(`${BASE}/careers/${next.public_id}?utm_source=talent-pool&utm_medium=email`)
        .and.include('See you, Acme')
        .and.not.include('We have a new opening');
    });
  });
}

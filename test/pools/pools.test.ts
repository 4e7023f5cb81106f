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
      expect(added).to.deep.equal({ status: 200, body: { added: 1 } });
      expect(
        (await api(`/api/hr/pools/${pool.body.id}/members/`, { method: 'POST', body: { application_ids: [mia] } })).body,
      ).to.deep.equal({ added: 0 });
      const members: PoolMember[] = (await api(`/api/hr/pools/${pool.body.id}/members/`)).body.results;
      expect(members.map((m) => [m.name, m.consent, m.reason])).to.deep.equal([['Mia Pool', 'waiting', 'Added by HR']]);
      expect(await history(mia)).to.include('Added to the talent pool “Silver medalists” (Added by HR)');
      const asked = (await mailsTo('mia@example.com')).find((m) => m.includes('May we keep your details?'))!;
      expect(asked).to.include('We would like to keep your details to tell you about other jobs at Acme');

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
      expect(mail).to.include(`${BASE}/careers/${lead.public_id}?utm_source=talent-pool&utm_medium=email`);
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
    });
  });
}

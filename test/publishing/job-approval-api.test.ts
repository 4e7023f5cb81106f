/**
 * Issue 34, optional job approval (JOB_APPROVAL=on) over real HTTP: a recruiter's new or changed
 * job waits for its hiring manager or an admin before it can be active; approve and reject with a
 * comment (exact 400s, 403 for others, 409 when nothing waits); the state on the checklist and the
 * job lists; emails to the approvers and back to the recruiter in the outbox; every step audited.
 */
import { expect } from 'chai';
import { PUBLISHING_MESSAGES } from '../../src/publishing/index.js';

const ACTIVATION_REFUSED = PUBLISHING_MESSAGES.activationRefused;
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NOT_APPROVER = "Only the job's hiring manager or an admin may approve or reject it, and never the person who asked.";
const NOT_PENDING = 'This job is not waiting for approval.';

type Who = 'admin' | 'recruiter' | 'manager' | 'otherManager' | 'interviewer';

function job(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Support Lead',
    location: 'Singapore',
    job_type: 'FULL_TIME',
    work_mode: 'ONSITE',
    description: '<p>Lead support.</p>',
    status: 'ACTIVE',
    ...overrides,
  };
}

for (const kind of databaseKinds()) {
  describe(`job approval [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    const token = {} as Record<Who, string>;
    const ids = {} as Record<Who, number>;

    before(async () => {
      s = await startTestServer(kind, { JOB_APPROVAL: 'on', SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'careers@acme.example' });
      const roles: [Who, 'admin' | 'recruiter' | 'hiring_manager' | 'interviewer'][] = [
        ['admin', 'admin'],
        ['recruiter', 'recruiter'],
        ['manager', 'hiring_manager'],
        ['otherManager', 'hiring_manager'],
        ['interviewer', 'interviewer'],
      ];
      for (const [who, role] of roles) {
        ids[who] = await createHrUser(s.ctx.db, `ap.${who}`, { role });
        await s.ctx
          .db('hr_users')
          .where({ id: ids[who] })
          .update({ email: `${who.toLowerCase()}@acme.example` });
        token[who] = await liveToken(s.ctx.db, ids[who]);
      }
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown, who: Who = 'recruiter') => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token[who]}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const approval = async (id: number, who: Who = 'recruiter') => (await call('GET', `/api/hr/jobs/${id}/checks/`, undefined, who)).body;
    const emails = async (template: string) =>
      (await s.ctx.db('email_posts').where({ template }).orderBy('id').select('payload')).map((r) => {
        const p = JSON.parse(r.payload);
        return { to: p.to, subject: p.subject, text: p.text };
      });
    const actions = async (id: number) =>
      (await s.ctx.db('audit_log').where({ entity: 'job', entity_id: id }).orderBy('id').select('action')).map((r) => r.action);
    const status = async (id: number) => (await call('GET', `/api/hr/jobs/${id}/`, undefined, 'admin')).body.status;

    it("holds a recruiter's active job for approval, and lets its hiring manager reject it, then approve it", async () => {
      const created = await call('POST', '/api/hr/jobs/', job());
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const id = created.body.id;
      expect(created.body.status).to.equal('INACTIVE');
      const a = await approval(id);
      expect(a).to.include({ approval_on: true, can_decide: false, blocked: false });
      expect(a.approval).to.include({
        state: 'PENDING',
        requested_status: 'ACTIVE',
        requested_by: 'ap.recruiter',
        decided_by: null,
        comment: '',
      });
      // The admins are told (the hiring manager is not on the team yet); never the one who asked.
      expect(await emails('job_approval_request')).to.deep.equal([
        {
          to: 'admin@acme.example',
          subject: 'Approval needed: Support Lead',
          text: `ap.recruiter asked for approval of the job “Support Lead” (${created.body.public_id}), to publish it.\n\nReview it, then approve or reject it on the job's page: ${s.ctx.config.publicBaseUrl}/hr/jobs/${id}/edit\n`,
        },
      ]);
      // The lists show it.
      const list = await call('GET', '/api/hr/jobs/', undefined, 'recruiter');
      expect(list.body.results.find((j: any) => j.id === id).approval).to.equal('PENDING');
      const page = await fetch(`${s.baseUrl}/hr/jobs`, { headers: { Cookie: `jwt=${token.recruiter}` } }).then((r) => r.text());
      expect(page).to.contain('<span class="status status-approval-pending">Pending approval</span>');

      // Put the hiring manager on the team.
      const team = await call('PUT', `/api/hr/jobs/${id}/team/`, { members: [{ user_id: ids.manager, role: 'hiring_manager' }] }, 'admin');
      expect(team.status, JSON.stringify(team.body)).to.equal(200);
      expect((await approval(id, 'manager')).can_decide).to.equal(true);
      expect((await approval(id, 'admin')).can_decide).to.equal(true);

      // Who may not decide.
      expect(await call('POST', `/api/hr/jobs/${id}/approve/`, {}, 'recruiter')).to.deep.equal({
        status: 403,
        body: { detail: NOT_APPROVER },
      });
      expect((await call('POST', `/api/hr/jobs/${id}/approve/`, {}, 'otherManager')).status).to.equal(404);
      expect((await call('POST', `/api/hr/jobs/${id}/approve/`, {}, 'interviewer')).status).to.equal(403);
      // Bad bodies.
      const bad: [unknown, unknown][] = [
        [{}, { comment: ['Write why the job is rejected, so its recruiter knows what to change.'] }],
        [{ comment: '   ' }, { comment: ['Write why the job is rejected, so its recruiter knows what to change.'] }],
        [{ comment: 5 }, { comment: ['Must be text.'] }],
        [{ comment: 'c'.repeat(1001) }, { comment: ['Ensure this field has no more than 1000 characters.'] }],
        [[1], { detail: 'Expected a JSON object.' }],
      ];
      for (const [body, expected] of bad) {
        expect(await call('POST', `/api/hr/jobs/${id}/reject/`, body, 'manager'), JSON.stringify(body).slice(0, 40)).to.deep.equal({
          status: 400,
          body: expected,
        });
      }
      // A hiring manager may not override checks.
      expect(await call('POST', `/api/hr/jobs/${id}/approve/`, { override_checks: { note: 'x' } }, 'manager')).to.deep.equal({
        status: 403,
        body: { detail: 'Only an admin may override the publishing checks. Ask an admin of your team.' },
      });

      // Rejected, with a comment: the job stays inactive; the recruiter is told.
      const rejected = await call(
        'POST',
        `/api/hr/jobs/${id}/reject/`,
        { comment: 'Name the team in the title.\n<b>Thanks</b>' },
        'manager',
      );
      expect(rejected.status, JSON.stringify(rejected.body)).to.equal(200);
      expect(rejected.body.approval).to.include({
        state: 'REJECTED',
        decided_by: 'ap.manager',
        comment: 'Name the team in the title.\n<b>Thanks</b>',
      });
      expect(await status(id)).to.equal('INACTIVE');
      expect(await call('POST', `/api/hr/jobs/${id}/approve/`, {}, 'manager')).to.deep.equal({
        status: 409,
        body: { detail: NOT_PENDING },
      });
      const told = await emails('job_approval_decision');
      expect(told).to.have.length(1);
      expect(told[0]).to.include({ to: 'recruiter@acme.example', subject: 'Job rejected: Support Lead' });
      expect(told[0].text).to.contain(
        'ap.manager rejected the job “Support Lead”.\n\nComment:\nName the team in the title.\n<b>Thanks</b>',
      );
      const listed = await fetch(`${s.baseUrl}/hr/jobs`, { headers: { Cookie: `jwt=${token.recruiter}` } }).then((r) => r.text());
      expect(listed).to.contain('Approval rejected');

      // Changed and sent again: pending; the hiring manager is told now too.
      const again = await call('PUT', `/api/hr/jobs/${id}/`, { ...created.body, title: 'Support Lead, Payments', status: 'ACTIVE' });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body.status).to.equal('INACTIVE');
      expect((await approval(id)).approval).to.include({ state: 'PENDING', decided_by: null, comment: '' });
      expect((await emails('job_approval_request')).slice(1).map((e) => e.to)).to.deep.equal([
        'admin@acme.example',
        'manager@acme.example',
      ]);

      // Approved: the job is active now.
      const approved = await call('POST', `/api/hr/jobs/${id}/approve/`, { comment: 'Good to go.' }, 'manager');
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(approved.body.approval).to.include({ state: 'APPROVED', decided_by: 'ap.manager', comment: 'Good to go.' });
      expect(await status(id)).to.equal('ACTIVE');
      expect((await emails('job_approval_decision')).at(-1)).to.include({
        to: 'recruiter@acme.example',
        subject: 'Job approved: Support Lead, Payments',
      });
      expect(await actions(id)).to.deep.equal([
        'job.create',
        'job.approval_requested',
        'team',
        'job.rejected',
        'job.update',
        'job.approval_requested',
        'job.update',
        'job.approved',
      ]);

      // Deactivated and activated again without a change: no new approval.
      const off = await call('PUT', `/api/hr/jobs/${id}/`, {
        ...approved.body,
        ...(await call('GET', `/api/hr/jobs/${id}/`)).body,
        status: 'INACTIVE',
      });
      expect(off.body.status).to.equal('INACTIVE');
      const on = await call('PUT', `/api/hr/jobs/${id}/`, { ...off.body, status: 'ACTIVE' });
      expect(on.body.status).to.equal('ACTIVE');
      expect((await approval(id)).approval.state).to.equal('APPROVED');

      // A change to the active job takes it off the site until approved again.
      const changed = await call('PUT', `/api/hr/jobs/${id}/`, { ...on.body, description: '<p>Lead support, now in Payments.</p>' });
      expect(changed.body.status).to.equal('INACTIVE');
      expect((await approval(id)).approval).to.include({ state: 'PENDING', requested_status: 'ACTIVE' });
      // Its hiring manager saving it active approves it.
      const byManager = await call('PUT', `/api/hr/jobs/${id}/`, { ...changed.body, status: 'ACTIVE' }, 'manager');
      expect(byManager.status, JSON.stringify(byManager.body)).to.equal(200);
      expect(byManager.body.status).to.equal('ACTIVE');
      expect((await approval(id)).approval).to.include({
        state: 'APPROVED',
        decided_by: 'ap.manager',
        comment: 'Approved by saving the job as active.',
      });
    });

    it("needs no approval for an admin's job, and approves an inactive change without activating it", async () => {
      const byAdmin = await call('POST', '/api/hr/jobs/', job({ title: 'Admin job' }), 'admin');
      expect(byAdmin.body.status).to.equal('ACTIVE');
      expect((await approval(byAdmin.body.id)).approval).to.equal(null);
      // A recruiter's inactive new job asks for approval of its content; approving keeps it inactive.
      const draft = await call('POST', '/api/hr/jobs/', job({ title: 'Draft job', status: 'INACTIVE' }));
      expect((await approval(draft.body.id)).approval).to.include({ state: 'PENDING', requested_status: 'INACTIVE' });
      const ok = await call('POST', `/api/hr/jobs/${draft.body.id}/approve/`, {}, 'admin');
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.approval).to.include({ state: 'APPROVED', comment: '' });
      expect(await status(draft.body.id)).to.equal('INACTIVE');
      // Then the recruiter may activate it as approved.
      const on = await call('PUT', `/api/hr/jobs/${draft.body.id}/`, { ...draft.body, status: 'ACTIVE' });
      expect(on.body.status).to.equal('ACTIVE');
      // Nothing waits now.
      expect(await call('POST', `/api/hr/jobs/${draft.body.id}/reject/`, { comment: 'no' }, 'admin')).to.deep.equal({
        status: 409,
        body: { detail: NOT_PENDING },
      });
    });

    it('runs the blocking checks again when an approval activates the job; an admin approver may override them', async () => {
      const asked = await call('POST', '/api/hr/jobs/', job({ title: 'Checked at approval', location: 'Oslo, Norway' }));
      const id = asked.body.id;
      // A rule for Norway comes in meanwhile.
      const rule = await call('POST', '/api/hr/pay-rules/', { label: 'Norway', country: 'NO' }, 'admin');
      expect(rule.status).to.equal(201);
      await call('PUT', `/api/hr/jobs/${id}/team/`, { members: [{ user_id: ids.manager, role: 'hiring_manager' }] }, 'admin');
      const reason = 'Norway requires a pay range in the posting: give both a minimum and a maximum salary.';
      expect(await call('POST', `/api/hr/jobs/${id}/approve/`, {}, 'manager')).to.deep.equal({
        status: 400,
        body: { status: [ACTIVATION_REFUSED], min_salary: [reason], max_salary: [reason] },
      });
      expect((await approval(id)).approval.state).to.equal('PENDING');
      expect(await status(id)).to.equal('INACTIVE');
      const approved = await call(
        'POST',
        `/api/hr/jobs/${id}/approve/`,
        { comment: 'Agreed with legal.', override_checks: { note: 'Range in the letter.' } },
        'admin',
      );
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(approved.body).to.deep.include({ blocked: false });
      expect(approved.body.override).to.include({ note: 'Range in the letter.', by: 'ap.admin' });
      expect(await status(id)).to.equal('ACTIVE');
      expect((await actions(id)).slice(-3)).to.deep.equal(['job.update', 'job.checks_override', 'job.approved']);
      await call('DELETE', `/api/hr/pay-rules/${rule.body.id}/`, undefined, 'admin');
    });

    it('answers 409 when approval is off', async () => {
      const off = await startTestServer(kind);
      try {
        const tok = await liveToken(off.ctx.db, await createHrUser(off.ctx.db, 'ap.off'));
        const post = (path: string, body: unknown) =>
          fetch(off.baseUrl + path, {
            method: 'POST',
            headers: { Authorization: `Bearer ${tok}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
        const made = (await (await post('/api/hr/jobs/', job({ title: 'No approval' }))).json()) as any;
        expect(made.status).to.equal('ACTIVE');
        const r = await post(`/api/hr/jobs/${made.id}/approve/`, {});
        expect(r.status).to.equal(409);
        expect(await r.json()).to.deep.equal({ detail: 'Job approval is off (JOB_APPROVAL): there is nothing to approve.' });
        const checks = (await (
          await fetch(`${off.baseUrl}/api/hr/jobs/${made.id}/checks/`, { headers: { Authorization: `Bearer ${tok}` } })
        ).json()) as any;
        expect(checks).to.include({ approval_on: false, approval: null, can_decide: false });
        const list = (await (await fetch(`${off.baseUrl}/api/hr/jobs/`, { headers: { Authorization: `Bearer ${tok}` } })).json()) as any;
        expect(list.results[0].approval).to.equal(null);
      } finally {
        await off.close();
      }
    });
  });
}

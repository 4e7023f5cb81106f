/**
 * A job's hiring team over real HTTP (issue 31): GET/PUT /api/hr/jobs/{id}/team/, its 400s
 * (unknown or disabled users, bad roles, duplicates, huge arrays, not an object), 404s, the audit
 * entry, and the new account roles on /api/hr/users/.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { TEAM_MAX, TEAM_MESSAGES } from '../../src/teams/schema.js';

for (const kind of databaseKinds()) {
  describe(`hiring team API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let admin: string;
    let adminId: number;
    let hmId: number;
    let ivId: number;
    let offId: number;
    let jobId: number;

    before(async () => {
      s = await startTestServer(kind);
      adminId = await createHrUser(s.ctx.db, 'tm.admin');
      admin = await liveToken(s.ctx.db, adminId);
      hmId = await createHrUser(s.ctx.db, 'tm.manager', { role: 'hiring_manager' });
      ivId = await createHrUser(s.ctx.db, 'tm.interviewer', { role: 'interviewer' });
      offId = await createHrUser(s.ctx.db, 'tm.off', { role: 'recruiter', active: false });
      jobId = (await makeJob(s.ctx)).id;
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown, token = admin) => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const team = (id = jobId) => `/api/hr/jobs/${id}/team/`;

    it('starts empty, offers the active users, and PUT replaces the team (audited once per change)', async () => {
      const empty = await call('GET', team());
      expect(empty.status).to.equal(200);
      expect(empty.body.members).to.deep.equal([]);
      const names = empty.body.candidates.map((c: any) => c.username);
      expect(names).to.include.members(['tm.admin', 'tm.manager', 'tm.interviewer']);
      expect(names).not.to.include('tm.off');

      const put = await call('PUT', team(), {
        members: [
          { user_id: hmId, role: 'hiring_manager' },
          { user_id: String(ivId), role: 'interviewer' },
        ],
      });
      expect(put.status).to.equal(200);
      expect(put.body.members).to.deep.equal([
        { user_id: ivId, username: 'tm.interviewer', role: 'interviewer', user_role: 'interviewer' },
        { user_id: hmId, username: 'tm.manager', role: 'hiring_manager', user_role: 'hiring_manager' },
      ]);
      expect((await call('GET', team())).body.members).to.have.length(2);

      // The same team again writes nothing; a change writes one entry with the team before and after.
      await call('PUT', team(), {
        members: [
          { user_id: ivId, role: 'interviewer' },
          { user_id: hmId, role: 'hiring_manager' },
        ],
      });
      const replaced = await call('PUT', team(), { members: [{ user_id: hmId, role: 'coordinator' }] });
      expect(replaced.body.members.map((m: any) => [m.user_id, m.role])).to.deep.equal([[hmId, 'coordinator']]);
      const audit = await s.ctx.db('audit_log').where({ entity: 'job', entity_id: jobId, action: 'team' }).orderBy('id');
      expect(audit).to.have.length(2);
      expect(Number(audit[1].user_id)).to.equal(adminId);
      const details = typeof audit[1].details === 'string' ? JSON.parse(audit[1].details) : audit[1].details;
      expect(details.to).to.deep.equal([{ user_id: hmId, role: 'coordinator' }]);
      expect(details.from).to.have.length(2);

      expect((await call('PUT', team(), { members: [] })).body.members).to.deep.equal([]);
    });

    it('answers bad teams with 400 and a clear message, and keeps the team', async () => {
      await call('PUT', team(), { members: [{ user_id: hmId, role: 'hiring_manager' }] });
      const cases: [unknown, string, string][] = [
        [{ members: [{ user_id: 999999, role: 'interviewer' }] }, 'members.0.user_id', TEAM_MESSAGES.unknownUser(999999)],
        [{ members: [{ user_id: offId, role: 'interviewer' }] }, 'members.0.user_id', TEAM_MESSAGES.unknownUser(offId)],
        [{ members: [{ user_id: hmId, role: 'boss' }] }, 'members.0.role', TEAM_MESSAGES.role],
        [{ members: [{ user_id: 'x1', role: 'interviewer' }] }, 'members.0.user_id', TEAM_MESSAGES.userId],
        [{ members: [{ user_id: -3, role: 'interviewer' }] }, 'members.0.user_id', TEAM_MESSAGES.userId],
        [
          {
            members: [
              { user_id: hmId, role: 'interviewer' },
              { user_id: hmId, role: 'recruiter' },
            ],
          },
          'members.1.user_id',
          TEAM_MESSAGES.duplicate(hmId),
        ],
        [
          { members: Array.from({ length: TEAM_MAX + 1 }, (_, i) => ({ user_id: i + 1, role: 'interviewer' })) },
          'members',
          TEAM_MESSAGES.members,
        ],
        [{ members: 'all' }, 'members', TEAM_MESSAGES.members],
        [{}, 'members', TEAM_MESSAGES.members],
      ];
      for (const [body, key, message] of cases) {
        const res = await call('PUT', team(), body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(res.body[key], JSON.stringify(res.body)).to.include(message);
      }
      const notObject = await call('PUT', team(), '[1]');
      expect(notObject.status).to.equal(400);
      expect((await call('GET', team())).body.members.map((m: any) => m.user_id)).to.deep.equal([hmId]);
    });

    it('answers 404 for an unknown or malformed job', async () => {
      for (const path of [team(999999), '/api/hr/jobs/abc/team/', '/api/hr/jobs/0/team/']) {
        expect((await call('GET', path)).status, path).to.equal(404);
        expect((await call('PUT', path, { members: [] })).status, path).to.equal(404);
      }
    });

    it('creates and re-roles users as hiring_manager and interviewer; other words are refused', async () => {
      const made = await call('POST', '/api/hr/users/', {
        username: 'tm.new',
        role: 'hiring_manager',
        password: 'correct horse battery',
        password_confirm: 'correct horse battery',
      });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect(made.body.user.role).to.equal('hiring_manager');
      const changed = await call('PATCH', `/api/hr/users/${made.body.user.id}/`, { role: 'interviewer' });
      expect(changed.status).to.equal(200);
      expect(changed.body.role).to.equal('interviewer');
      const bad = await call('PATCH', `/api/hr/users/${made.body.user.id}/`, { role: 'manager' });
      expect(bad.status).to.equal(400);
      expect(JSON.stringify(bad.body)).to.include('admin, recruiter, hiring_manager, interviewer');
    });
  });
}

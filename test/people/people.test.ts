/**
 * One person across jobs (issue 35) over HTTP on both databases: applications with one address are
 * one person; a phone number or the same name and resume suggests a duplicate, which only HR
 * merges (every application's history says so), undoes within 7 days, or dismisses; erase takes
 * every application of the person, under any of their addresses; bad input answers, never crashes.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, hrSession, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { removeApplications } from '../../src/applicants/retention.service.js';
import type { Job } from '../../src/jobs/index.js';
import { toDbDate } from '../../src/db/codecs.js';
import type { DuplicateList, PersonApplication, PersonMerge } from '../../src/people/types.js';

const DAY = 86_400_000;

for (const kind of databaseKinds()) {
  describe(`people: one person across jobs [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let jobs: Job[];

    const api = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${init.token ?? token}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const apply = async (job: Job, fields: Record<string, string>): Promise<number> => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, { method: 'POST', body: toFormData(validFields(fields)) });
      expect(res.status, await res.clone().text()).to.equal(201);
      const row = await s.ctx.db('applications').where({ job_id: job.id, email: fields.email.toLowerCase() }).first('id');
      return Number(row.id);
    };
    const personOf = async (applicationId: number) =>
      Number((await s.ctx.db('applications').where({ id: applicationId }).first('person_id')).person_id);
    const others = async (applicationId: number): Promise<PersonApplication[]> =>
      (await api(`/api/hr/applications/${applicationId}/other-applications/`)).body.results;
    /** Moves a merge `ms` into the past, as if it had been made then. */
    const backdate = (mergeId: number, ms: number) =>
      s.ctx
        .db('person_merges')
        .where({ id: mergeId })
        .update({ created_at: toDbDate(new Date(Date.now() - ms)) });
    const history = async (applicationId: number): Promise<string[]> =>
      (await api(`/api/hr/applications/${applicationId}/timeline/`)).body.results.map((e: { text: string }) => e.text);

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      jobs = [];
      for (const title of ['Data Analyst', 'Payroll Lead', 'Office Manager', 'Support Agent'])
        jobs.push(await makeJob(s.ctx.db, { title, status: 'ACTIVE' }));
    });
    after(() => s.close());

    it('links applications with one address to one person and shows the others on the applicant page', async () => {
      const first = await apply(jobs[0], { email: 'Ann.Lee@Example.com', phone: '+14155550101', first_name: 'Ann', last_name: 'Lee' });
      const second = await apply(jobs[1], { email: 'ann.lee@example.com', phone: '+14155550101', first_name: 'Ann', last_name: 'Lee' });
      expect(await personOf(first)).to.equal(await personOf(second));
      const listed = await others(second);
      expect(listed.map((a) => [a.id, a.job_title, a.stage, a.outcome])).to.deep.equal([[first, 'Data Analyst', 'Applied', null]]);
      expect(await others(first)).to.have.length(1);
      const page = await fetch(`${s.baseUrl}/hr/applicants/${second}`, { headers: { cookie: `jwt=${token}` } });
      const html = await page.text();
      expect(html).to.include('<h2 id="other-applications-heading">Other applications</h2>');
      expect(html).to.include(`<a href="/hr/applicants/${first}">Data Analyst</a>`);
      // One address is one person: nothing to review.
      const list: DuplicateList = (await api('/api/hr/people/duplicates/')).body;
      expect(list.results.filter((p) => p.person.email.startsWith('ann'))).to.deep.equal([]);
    });

    it('suggests, merges with a line on every history, undoes within 7 days, and suggests the pair again', async () => {
      const older = await apply(jobs[0], { email: 'raj@example.com', phone: '+14155550202', first_name: 'Raj', last_name: 'Iyer' });
      const newer = await apply(jobs[2], { email: 'raj.iyer@work.example', phone: '+14155550202', first_name: 'Raj', last_name: 'Iyer' });
      const [olderPerson, newerPerson] = [await personOf(older), await personOf(newer)];
      expect(newerPerson).to.not.equal(olderPerson);
      const found = await api('/api/hr/people/duplicates/');
      expect(found.status, JSON.stringify(found.body)).to.equal(200);
      const list: DuplicateList = found.body;
      const pair = list.results.find((p) => p.person.id === newerPerson)!;
      expect(pair.other.id).to.equal(olderPerson);
      expect(pair.reason).to.equal('PHONE');
      expect(pair.person.applications.map((a) => a.job_title)).to.deep.equal(['Office Manager']);
      expect(await others(newer)).to.deep.equal([]);

      const merged = await api('/api/hr/people/merges/', { method: 'POST', body: { person_id: newerPerson, into_person_id: olderPerson } });
      expect(merged.status).to.equal(201);
      const m: PersonMerge = merged.body;
      expect(m.from_label).to.equal('Raj Iyer <raj.iyer@work.example>');
      expect(m.into_label).to.equal('Raj Iyer <raj@example.com>');
      expect(m.applications_moved).to.equal(1);
      expect(new Date(m.undo_until!).getTime() - new Date(m.created_at).getTime()).to.equal(7 * DAY);
      expect((await others(newer)).map((a) => a.id)).to.deep.equal([older]);
      const line = 'Merged: Raj Iyer <raj.iyer@work.example> and Raj Iyer <raj@example.com> are one person now';
      expect(await history(newer)).to.include(line);
      expect(await history(older)).to.include(line);
      expect(
        (await api('/api/hr/people/duplicates/')).body.results.some((p: { person: { id: number } }) => p.person.id === newerPerson),
      ).to.equal(false);
      // A later application with the merged address joins the person.
      const later = await apply(jobs[3], { email: 'raj.iyer@work.example', phone: '+14155550299', first_name: 'Raj', last_name: 'Iyer' });
      expect(await personOf(later)).to.equal(olderPerson);
      // Merging the merged person again is refused.
      const again = await api('/api/hr/people/merges/', { method: 'POST', body: { person_id: newerPerson, into_person_id: olderPerson } });
      expect(again.status).to.equal(409);
      expect(again.body.detail).to.equal('This person has been merged into another already: merge that one instead.');

      // Six days later: still undoable.
      await backdate(m.id, 6 * DAY);
      const undone = await api(`/api/hr/people/merges/${m.id}/undo/`, { method: 'POST' });
      expect(undone.status).to.equal(200);
      expect(Date.now() - new Date(undone.body.undone_at).getTime()).to.be.within(0, 60_000);
      expect(undone.body.undo_until).to.equal(null);
      expect(await personOf(newer)).to.equal(newerPerson);
      expect(await personOf(later)).to.equal(newerPerson);
      expect((await others(older)).map((a) => a.id)).to.deep.equal([]);
      expect(await history(older)).to.include(
        'Merge undone: Raj Iyer <raj.iyer@work.example> and Raj Iyer <raj@example.com> are two people again',
      );
      expect(
        (await api('/api/hr/people/duplicates/')).body.results.some((p: { person: { id: number } }) => p.person.id === newerPerson),
      ).to.equal(true);
      const twice = await api(`/api/hr/people/merges/${m.id}/undo/`, { method: 'POST' });
      expect([twice.status, twice.body.detail]).to.deep.equal([409, 'This merge has been undone already.']);

      // Merged again, then too late to undo.
      const re = (await api('/api/hr/people/merges/', { method: 'POST', body: { person_id: newerPerson, into_person_id: olderPerson } }))
        .body;
      await backdate(re.id, 7 * DAY + 1000);
      const late = await api(`/api/hr/people/merges/${re.id}/undo/`, { method: 'POST' });
      expect([late.status, late.body.detail]).to.deep.equal([409, 'A merge can be undone for 7 days only.']);
      const recent: PersonMerge[] = (await api('/api/hr/people/merges/')).body.results;
      expect(recent.find((x) => x.id === m.id)).to.deep.include({ undo_until: null, undone_at: undone.body.undone_at });
      // Older than 7 days: no longer among the recent merges.
      expect(recent.map((x) => x.id)).to.not.include(re.id);
    });

    it('keeps a dismissed pair as two people, and suggests by the same name and resume file', async () => {
      const a = await apply(jobs[0], { email: 'mei@example.com', phone: '+14155550303', first_name: 'Mei', last_name: 'Chen' });
      const b = await apply(jobs[1], { email: 'mei.chen@example.org', phone: '+14155550304', first_name: 'Mei', last_name: 'Chen' });
      const list: DuplicateList = (await api('/api/hr/people/duplicates/')).body;
      const found = list.results.find((p) => p.person.applications[0].id === b)!;
      expect(found.reason).to.equal('NAME_RESUME');
      expect(found.other.applications[0].id).to.equal(a);
      const dismissed = await api('/api/hr/people/duplicates/dismiss/', {
        method: 'POST',
        body: { person_id: found.other.id, other_person_id: found.person.id },
      });
      expect(dismissed.status).to.equal(204);
      // Another application of the same person does not bring the pair back.
      await apply(jobs[2], { email: 'mei.chen@example.org', phone: '+14155550304', first_name: 'Mei', last_name: 'Chen' });
      const after: DuplicateList = (await api('/api/hr/people/duplicates/')).body;
      expect(after.results.some((p) => p.person.id === found.person.id)).to.equal(false);
      const merge = await api('/api/hr/people/merges/', {
        method: 'POST',
        body: { person_id: found.person.id, into_person_id: found.other.id },
      });
      expect([merge.status, merge.body.detail]).to.deep.equal([404, 'These two people are not a suggested duplicate.']);
    });

    it('erases every application of the person, under any of their addresses, and the person with them', async () => {
      const older = await apply(jobs[0], { email: 'zoe@example.com', phone: '+14155550505', first_name: 'Zoe', last_name: 'Park' });
      const newer = await apply(jobs[1], { email: 'zoe.park@example.net', phone: '+14155550505', first_name: 'Zoe', last_name: 'Park' });
      const [from, into] = [await personOf(newer), await personOf(older)];
      expect((await api('/api/hr/people/merges/', { method: 'POST', body: { person_id: from, into_person_id: into } })).status).to.equal(
        201,
      );
      const removed = await removeApplications(
        { db: s.ctx.db, storage: s.ctx.storage, now: () => new Date(), log: s.ctx.log },
        { email: 'zoe.park@example.net' },
        { action: 'erase' },
      );
      expect(removed.applications).to.equal(2);
      expect(await s.ctx.db('applications').whereIn('id', [older, newer]).count({ n: '*' }).first()).to.deep.include({ n: 0 });
      const people = await s.ctx.db('people').whereIn('email', ['zoe@example.com', 'zoe.park@example.net']).count({ n: '*' }).first();
      expect(Number(people!.n)).to.equal(0);
      expect(Number((await s.ctx.db('person_merges').whereIn('from_person_id', [from, into]).count({ n: '*' }).first())!.n)).to.equal(0);
    });

    it('answers wrong types, missing fields, huge and hostile values with the exact message, changing nothing', async () => {
      const before = await s.ctx.db('person_merges').count({ n: '*' }).first();
      const cases: [unknown, number, Record<string, unknown>][] = [
        [{}, 400, { person_id: ['person_id must be the id of a person.'] }],
        [{ person_id: 'x', into_person_id: 2 }, 400, { person_id: ['person_id must be the id of a person.'] }],
        [{ person_id: 1, into_person_id: 1e30 }, 400, { into_person_id: ['into_person_id must be the id of a person.'] }],
        [{ person_id: '<script>', into_person_id: [1] }, 400, { person_id: ['person_id must be the id of a person.'] }],
        [{ person_id: 5, into_person_id: 5 }, 400, { into_person_id: ['A person cannot be merged into themselves.'] }],
        [[1, 2], 400, { detail: 'Must be an object.' }],
        [{ person_id: 999999, into_person_id: 1 }, 404, { detail: 'Person not found.' }],
      ];
      for (const [body, status, expected] of cases) {
        const res = await api('/api/hr/people/merges/', { method: 'POST', body });
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(res.body, JSON.stringify(body)).to.deep.include(expected);
      }
      const broken = await api('/api/hr/people/merges/', { method: 'POST', body: '{"person_id": 1,' });
      expect(broken.status).to.equal(400);
      for (const id of ['abc', '0', '99999999999', '1e3']) {
        const res = await api(`/api/hr/people/merges/${id}/undo/`, { method: 'POST' });
        expect([res.status, res.body.detail], id).to.deep.equal([404, 'Merge not found.']);
      }
      expect((await api('/api/hr/people/duplicates/?page=0')).body).to.deep.equal({ page: ['page must be a whole number from 1.'] });
      expect((await api('/api/hr/people/duplicates/?page=99999')).body.results).to.deep.equal([]);
      expect((await api('/api/hr/people/duplicates/dismiss/', { method: 'POST', body: { person_id: 1 } })).body).to.deep.include({
        other_person_id: ['other_person_id must be the id of a person.'],
      });
      expect(await s.ctx.db('person_merges').count({ n: '*' }).first()).to.deep.equal(before);
    });

    it('is HR only: no token is 401; a hiring manager and an interviewer may not review or merge', async () => {
      expect((await fetch(`${s.baseUrl}/api/hr/people/duplicates/`)).status).to.equal(401);
      expect((await fetch(`${s.baseUrl}/hr/applicants/duplicates`, { redirect: 'manual' })).status).to.equal(302);
      for (const role of ['hiring_manager', 'interviewer'] as const) {
        const their = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, `${role}-people`, { role }));
        expect((await api('/api/hr/people/duplicates/', { token: their })).status, role).to.equal(403);
        expect(
          (await api('/api/hr/people/merges/', { method: 'POST', token: their, body: { person_id: 1, into_person_id: 2 } })).status,
        ).to.equal(403);
      }
    });
  });
}

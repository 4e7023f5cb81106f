/**
 * The pipeline over HTTP on SQLite and MySQL (issue 20, stages and outcomes): a job's stages
 * (GET/PUT, renames keep applicants, removal refused while in use), the rejection reasons,
 * PATCH and bulk moves with the status rules, their audit entries and counters, the board, the
 * list's stage column and filter, the dashboard's per-stage totals, and bad input refused whole.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { hr, seedPeople, type Seeded } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`pipeline: stages, outcomes and the board [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let seeded: Seeded;
    const call = (path: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, path, init);
    const stagesOf = async (jobId: number) =>
      (await call(`/api/hr/jobs/${jobId}/stages/`)).body.stages as { id: number; name: string; applicants: number; hired: boolean }[];
    const app = async (id: number) => (await call(`/api/hr/applications/${id}/`)).body;
    const idOf = (email: string) => seeded.ids.get(email)!;
    const counter = async (name: string) => Number((await s.ctx.db('change_counters').where({ name }).first('value')).value);
    const audits = async (id: number) =>
      (await s.ctx.db('audit_log').where({ entity: 'application', entity_id: id }).orderBy('id').select('action', 'details')).map(
        (r: any) => ({ action: r.action, details: JSON.parse(r.details) }),
      );

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      seeded = await seedPeople(s.ctx.db);
    });
    after(() => s.close());

    it('gives every job the default stages, in order, with their applicants, and the default reasons', async () => {
      const stages = await stagesOf(seeded.jobA.id);
      expect(stages.map((x) => x.name)).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      expect(stages.map((x) => x.hired)).to.deep.equal([false, false, false, false, true]);
      expect(stages[0].applicants).to.equal(5);
      const { status, body } = await call('/api/hr/rejection-reasons/');
      expect(status).to.equal(200);
      expect(body.reasons.map((r: any) => r.name)).to.deep.equal(['Not a fit', 'Withdrew', 'Position filled', 'Other']);
      expect((await call('/api/hr/jobs/999999/stages/')).status).to.equal(404);
      expect((await call('/api/hr/jobs/abc/stages/')).status).to.equal(404);
    });

    it('puts an application sent through the apply API in the first stage', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Fresh Job', public_id: 'fresh-1' });
      const res = await fetch(`${s.baseUrl}/api/jobs/fresh-1/apply/`, { method: 'POST', body: toFormData(validFields({})) });
      expect(res.status).to.equal(201);
      const row = await s.ctx.db('applications').where({ job_id: job.id }).first('id');
      const detail = await app(Number(row.id));
      expect(detail.stage).to.equal('Applied');
      expect(detail.outcome).to.equal(null);
      expect((await stagesOf(job.id))[0].applicants).to.equal(1);
    });

    it('moves an application by PATCH {stage}: NEW becomes REVIEWED, audited with stage names, counters raised', async () => {
      const id = idOf('jose.muller@example.com');
      const stages = await stagesOf(seeded.jobA.id);
      const [stageCount, statusCount] = [await counter('applications.stage'), await counter('applications.status')];
      const { status, body } = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[1].id } });
      expect(status).to.equal(200);
      expect(body).to.include({ stage: 'Screen', stage_id: stages[1].id, status: 'REVIEWED', outcome: null });
      expect(await audits(id)).to.deep.equal([
        { action: 'stage', details: { from: 'Applied', to: 'Screen', from_id: stages[0].id, to_id: stages[1].id } },
        { action: 'status', details: { from: 'NEW', to: 'REVIEWED' } },
      ]);
      expect(await counter('applications.stage')).to.equal(stageCount + 1);
      expect(await counter('applications.status')).to.equal(statusCount + 1);
      // The same stage again changes nothing and writes nothing.
      await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[1].id } });
      expect(await audits(id)).to.have.length(2);
      expect(await counter('applications.stage')).to.equal(stageCount + 1);
    });

    it('archives on Hired and on a rejection; moving back makes it REVIEWED; a status change leaves the stage', async () => {
      const id = idOf('asha@dsouza.in');
      const stages = await stagesOf(seeded.jobA.id);
      let r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[4].id } });
      expect(r.body).to.include({ stage: 'Hired', status: 'ARCHIVED' });
      r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[2].id } });
      expect(r.body).to.include({ stage: 'Interview', status: 'REVIEWED' });
      r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Withdrew' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ stage: 'Interview', outcome: 'REJECTED', outcome_reason: 'Withdrew', status: 'ARCHIVED' });
      const last = (await audits(id)).filter((a) => a.action === 'outcome').at(-1);
      expect(last!.details).to.deep.equal({ from: null, to: 'REJECTED', reason: 'Withdrew', stage: 'Interview' });
      // The spec's status call leaves the stage and the outcome.
      r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { status: 'NEW' } });
      expect(r.body).to.include({ status: 'NEW', stage: 'Interview', outcome: 'REJECTED' });
      r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[3].id } });
      expect(r.body).to.include({ stage: 'Offer', outcome: null, outcome_reason: null, status: 'REVIEWED' });
    });

    it('refuses bad changes with a clear 400 and writes nothing', async () => {
      const id = idOf('liam.smith@example.com');
      const other = await stagesOf(seeded.jobB.id);
      const before = await app(id);
      const auditsBefore = (await audits(id)).length;
      const bad: [unknown, string][] = [
        [{ stage: other[1].id }, 'stage'],
        [{ stage: 2_000_000 }, 'stage'],
        [{ stage: 'x' }, 'stage'],
        [{ stage: 1, status: 'NEW' }, 'detail'],
        [{ outcome: 'REJECTED' }, 'reason'],
        [{ outcome: 'REJECTED', reason: 'Too tall' }, 'reason'],
        [{ outcome: 'HIRED', reason: 'Other' }, 'outcome'],
        [{ reason: 'Other', stage: other[0].id }, 'reason'],
        [{}, 'status'],
        [{ outcome: 'REJECTED', reason: '<script>alert(1)</script>' }, 'reason'],
      ];
      for (const [body, field] of bad) {
        const r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body, JSON.stringify(body)).to.have.property(field);
      }
      expect(await app(id)).to.deep.equal(before);
      expect(await audits(id)).to.have.length(auditsBefore);
      expect(
        (await call('/api/hr/applications/99999/', { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Other' } })).status,
      ).to.equal(404);
    });

    it('moves and rejects in bulk; another job among the ids, or over 500 ids, refuses the whole request', async () => {
      const a = [idOf('jo.baker@example.org'), idOf('zoe.a@example.se')];
      const stagesA = await stagesOf(seeded.jobA.id);
      let r = await call('/api/hr/applications/bulk-status/', {
        method: 'POST',
        body: { ids: [...a, idOf('bjorn@example.no')], stage: stagesA[2].id },
      });
      expect(r.status).to.equal(400);
      expect(r.body.stage).to.be.an('array');
      expect((await app(a[0])).stage).to.equal('Applied');
      r = await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: [...a, 987654], stage: stagesA[2].id } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ stage: stagesA[2].id, updated: 2, updated_ids: [...a].sort((x, y) => x - y), not_found: [987654] });
      expect((await app(a[0])).stage).to.equal('Interview');
      r = await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: a, outcome: 'REJECTED', reason: 'Not a fit' } });
      expect(r.body).to.include({ outcome: 'REJECTED', reason: 'Not a fit', updated: 2 });
      expect(await app(a[1])).to.include({ outcome: 'REJECTED', status: 'ARCHIVED', stage: 'Interview' });
      const many = Array.from({ length: 501 }, (_, i) => i + 1);
      r = await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: many, stage: stagesA[1].id } });
      expect(r.status).to.equal(400);
      expect(r.body.ids).to.be.an('array');
      // The spec's call is unchanged.
      r = await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: [a[0]], status: 'REVIEWED' } });
      expect(r.body).to.deep.equal({ status: 'REVIEWED', updated: 1, updated_ids: [a[0]], not_found: [] });
    });

    it('renames, adds, reorders and removes stages; a stage in use is kept until its applicants move', async () => {
      const job = seeded.jobB;
      const [applied, screen, interview, offer, hired] = await stagesOf(job.id);
      const put = (stages: unknown) => call(`/api/hr/jobs/${job.id}/stages/`, { method: 'PUT', body: { stages } });
      // Applied holds applicants: removing it is refused, nothing changes.
      let r = await put([
        { id: screen.id, name: 'Phone screen' },
        { id: interview.id, name: 'Interview' },
      ]);
      expect(r.status).to.equal(400);
      expect(r.body.stages[0]).to.match(/"Applied" has \d+ applicants/);
      expect((await stagesOf(job.id)).map((x) => x.name)).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired']);
      r = await put([
        { id: applied.id, name: 'New' },
        { id: interview.id, name: 'Onsite' },
        { id: screen.id, name: 'Phone screen' },
        { name: 'Reference check' },
        { id: hired.id, name: 'Hired' },
      ]);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.stages.map((x: any) => x.name)).to.deep.equal(['New', 'Onsite', 'Phone screen', 'Reference check', 'Hired']);
      expect(r.body.stages[0].id).to.equal(applied.id);
      expect(r.body.stages[0].applicants).to.equal(5);
      expect(r.body.stages[4].hired).to.equal(true);
      expect(await s.ctx.db('job_stages').where({ id: offer.id }).first()).to.equal(undefined);
      // The renamed stage keeps its applicants: they now read 'New'.
      expect((await app(idOf('bjorn@example.no'))).stage).to.equal('New');
      const jobAudit = await s.ctx.db('audit_log').where({ entity: 'job', entity_id: job.id, action: 'stages' }).first('details');
      expect(JSON.parse(jobAudit.details).to).to.deep.equal(['New', 'Onsite', 'Phone screen', 'Reference check', 'Hired']);
      // A removed stage is no target.
      r = await call(`/api/hr/applications/${idOf('bjorn@example.no')}/`, { method: 'PATCH', body: { stage: offer.id } });
      expect(r.status).to.equal(400);
    });

    it('refuses bad stage lists whole', async () => {
      const job = seeded.jobB;
      const current = await stagesOf(job.id);
      const keep = current.map((x) => ({ id: x.id, name: x.name }));
      const other = await stagesOf(seeded.jobA.id);
      const cases: [unknown, string][] = [
        [{ stages: [] }, 'stages'],
        [{ stages: 'Applied' }, 'stages'],
        [{}, 'stages'],
        [{ stages: [...keep, { name: '' }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: '   ' }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: 'x'.repeat(61) }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: 'a\nb' }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: 'hired' }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: 'Rejected' }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { name: 42 }] }, `stages.${keep.length}.name`],
        [{ stages: [...keep, { id: other[1].id, name: 'Stolen' }] }, `stages.${keep.length}.id`],
        [{ stages: [...keep, { id: keep[0].id, name: 'Twice' }] }, `stages.${keep.length}.id`],
        [{ stages: [...keep, ...Array.from({ length: 16 }, (_, i) => ({ name: `Extra ${i}` }))] }, 'stages'],
      ];
      for (const [body, field] of cases) {
        const r = await call(`/api/hr/jobs/${job.id}/stages/`, { method: 'PUT', body });
        expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(r.body, JSON.stringify(body).slice(0, 80)).to.have.property(field);
      }
      expect(await stagesOf(job.id)).to.deep.equal(current);
      expect((await call('/api/hr/jobs/999999/stages/', { method: 'PUT', body: { stages: keep } })).status).to.equal(404);
    });

    it('keeps the rejection reasons HR edits; a rejection names one of them', async () => {
      const { body } = await call('/api/hr/rejection-reasons/');
      const [notFit, withdrew, , other] = body.reasons;
      let r = await call('/api/hr/rejection-reasons/', {
        method: 'PUT',
        body: {
          reasons: [
            { id: withdrew.id, name: 'Candidate withdrew' },
            { id: notFit.id, name: 'Not a fit' },
            { id: other.id, name: 'Other' },
            { name: 'Salary' },
          ],
        },
      });
      expect(r.status).to.equal(200);
      expect(r.body.reasons.map((x: any) => x.name)).to.deep.equal(['Candidate withdrew', 'Not a fit', 'Other', 'Salary']);
      for (const bad of [
        { reasons: [] },
        { reasons: [{ name: 'A' }, { name: 'a' }] },
        { reasons: [{ id: 999999, name: 'A' }] },
        { reasons: [{ name: 'x'.repeat(101) }] },
        { reasons: 'Other' },
      ]) {
        const res = await call('/api/hr/rejection-reasons/', { method: 'PUT', body: bad });
        expect(res.status, JSON.stringify(bad)).to.equal(400);
      }
      r = await call(`/api/hr/applications/${idOf('priya@patel.dev')}/`, {
        method: 'PATCH',
        body: { outcome: 'REJECTED', reason: 'Withdrew' },
      });
      expect(r.status).to.equal(400);
      r = await call(`/api/hr/applications/${idOf('priya@patel.dev')}/`, {
        method: 'PATCH',
        body: { outcome: 'REJECTED', reason: 'Salary' },
      });
      expect(r.body).to.include({ outcome: 'REJECTED', outcome_reason: 'Salary' });
    });

    it('answers the board: a column per stage and Rejected, counts, newest cards, filters, show more', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Board Job', public_id: 'board-1' });
      const people = Array.from({ length: 30 }, (_, i) => ({
        first_name: i % 2 ? 'Kiran' : 'Lena',
        last_name: `Person${i}`,
        email: `p${i}@board.example`,
        phone: `+9190000000${String(i).padStart(2, '0')}`,
        status: (i % 3 === 0 ? 'REVIEWED' : 'NEW') as 'NEW' | 'REVIEWED',
        created_at: new Date(Date.UTC(2026, 0, 1 + i)),
      }));
      await insertApplications(s.ctx.db, job.id, people, []);
      const [, screen] = await stagesOf(job.id);
      const ids: number[] = (await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').select('id')).map((r: any) =>
        Number(r.id),
      );
      await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: ids.slice(0, 3), stage: screen.id } });
      await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: [ids[3]], outcome: 'REJECTED', reason: 'Other' } });
      let r = await call(`/api/hr/jobs/${job.id}/board/`);
      expect(r.status).to.equal(200);
      expect(r.body.job).to.include({ id: job.id, title: 'Board Job' });
      expect(r.body.columns.map((c: any) => [c.name, c.count])).to.deep.equal([
        ['Applied', 26],
        ['Screen', 3],
        ['Interview', 0],
        ['Offer', 0],
        ['Hired', 0],
        ['Rejected', 1],
      ]);
      const applied = r.body.columns[0];
      expect(applied.cards).to.have.length(25);
      expect(applied.has_more).to.equal(true);
      expect(applied.cards[0]).to.include({ id: ids[29], name: 'Kiran Person29' });
      expect(r.body.columns[5].cards[0]).to.include({ id: ids[3], outcome_reason: 'Other' });
      expect(r.body.reasons).to.include('Other');
      r = await call(`/api/hr/jobs/${job.id}/board/?column=${applied.stage_id}&offset=25`);
      expect(r.body.columns).to.have.length(1);
      expect(r.body.columns[0].cards.map((c: any) => c.id)).to.deep.equal([ids[4]]);
      r = await call(`/api/hr/jobs/${job.id}/board/?q=kiran&status=NEW`);
      const expected = people.filter((p, i) => p.first_name === 'Kiran' && i > 3 && p.status === 'NEW').length;
      expect(r.body.columns[0].count).to.equal(expected);
      // The applicants list's filters: applied between two days (UTC), from a source (any case).
      r = await call(`/api/hr/jobs/${job.id}/board/?date_from=2026-01-10&date_to=2026-01-12`);
      expect(r.body.columns.reduce((n: number, c: any) => n + c.count, 0)).to.equal(3);
      await s.ctx.db('applications').whereIn('id', ids.slice(20, 22)).update({ source: 'LinkedIn' });
      r = await call(`/api/hr/jobs/${job.id}/board/?source=linkedin`);
      expect(r.body.columns[0].cards.map((c: any) => c.id).sort()).to.deep.equal(ids.slice(20, 22).sort());
      r = await call(`/api/hr/jobs/${job.id}/board/?source=(direct)&date_from=2026-01-21`);
      expect(r.body.columns.reduce((n: number, c: any) => n + c.count, 0)).to.equal(8);
      for (const bad of [
        'status=OPEN',
        'column=abc',
        `column=${(await stagesOf(seeded.jobA.id))[0].id}`,
        'limit=0',
        'limit=101',
        'offset=-1',
        `q=${'x'.repeat(101)}`,
        'date_from=2026-02-30',
        'date_to=yesterday',
        `source=${'s'.repeat(101)}`,
        'source=a&source=b',
      ]) {
        expect((await call(`/api/hr/jobs/${job.id}/board/?${bad}`)).status, bad).to.equal(400);
      }
      expect((await call('/api/hr/jobs/999999/board/')).status).to.equal(404);
    });

    it('lists the stage in the applicants list and filters by stage name across jobs, or Rejected', async () => {
      const all = await call('/api/hr/applications/?page_size=100');
      expect(all.body.results[0]).to.have.keys(
        'id',
        'job_id',
        'name',
        'email',
        'phone',
        'status',
        'created_at',
        'resume_download_url',
        'stage_id',
        'stage',
        'outcome',
        'source',
      );
      const inInterview = await call('/api/hr/applications/?stage=Interview&page_size=100');
      expect(inInterview.status).to.equal(200);
      for (const row of inInterview.body.results) expect(row).to.include({ stage: 'Interview', outcome: null });
      const rejected = await call('/api/hr/applications/?stage=Rejected&page_size=100');
      expect(rejected.body.count).to.be.greaterThan(0);
      for (const row of rejected.body.results) expect(row.outcome).to.equal('REJECTED');
      const searched = await call('/api/hr/applications/?stage=Applied&q=kiran');
      for (const row of searched.body.results) expect(row.stage).to.equal('Applied');
      expect((await call(`/api/hr/applications/?stage=${'x'.repeat(61)}`)).status).to.equal(400);
      const html = await (await fetch(`${s.baseUrl}/hr/applicants?stage=Interview`, { headers: { Cookie: `jwt=${token}` } })).text();
      expect(html).to.contain('<option value="Interview" selected>');
    });

    it('sums applicants per stage name on the dashboard, never stale after a move', async () => {
      const before = (await call('/api/hr/dashboard/')).body;
      const total = before.stage_stats.reduce((n: number, x: any) => n + x.applicants, 0) + before.rejected_applicants;
      expect(total).to.equal(before.total_applicants);
      expect(before.stage_stats.map((x: any) => x.name)).to.include.members(['Applied', 'Screen', 'Interview', 'Hired']);
      const id = idOf('mia.rossi@example.it');
      await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Other' } });
      const after = (await call('/api/hr/dashboard/')).body;
      expect(after.rejected_applicants).to.equal(before.rejected_applicants + 1);
      const html = await (await fetch(`${s.baseUrl}/hr/dashboard`, { headers: { Cookie: `jwt=${token}` } })).text();
      expect(html).to.contain('Applicants per stage');
    });

    it('refuses moves on a removed job, and stage edits of it', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Gone Job', public_id: 'gone-1' });
      await insertApplications(
        s.ctx.db,
        job.id,
        [{ first_name: 'Old', last_name: 'Timer', email: 'old@gone.example', phone: '+919999999999' }],
        [],
      );
      const stages = await stagesOf(job.id);
      const id = Number((await s.ctx.db('applications').where({ job_id: job.id }).first('id')).id);
      await s.ctx.db('jobs').where({ id: job.id }).update({ status: 'REMOVED' });
      let r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { stage: stages[1].id } });
      expect(r.status).to.equal(400);
      r = await call(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Other' } });
      expect(r.status).to.equal(400);
      r = await call(`/api/hr/jobs/${job.id}/stages/`, {
        method: 'PUT',
        body: { stages: stages.map((x) => ({ id: x.id, name: `${x.name}!` })) },
      });
      expect(r.status).to.equal(400);
      expect(await app(id)).to.include({ stage: 'Applied', outcome: null });
    });

    it('refuses every pipeline call without a valid token', async () => {
      for (const [method, path] of [
        ['GET', `/api/hr/jobs/${seeded.jobA.id}/stages/`],
        ['PUT', `/api/hr/jobs/${seeded.jobA.id}/stages/`],
        ['GET', `/api/hr/jobs/${seeded.jobA.id}/board/`],
        ['GET', '/api/hr/rejection-reasons/'],
        ['PUT', '/api/hr/rejection-reasons/'],
      ]) {
        const res = await fetch(s.baseUrl + path, {
          method,
          headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
          body: method === 'PUT' ? '{}' : undefined,
        });
        expect(res.status, path).to.equal(401);
      }
      const page = await fetch(`${s.baseUrl}/hr/jobs/${seeded.jobA.id}/board`, { redirect: 'manual' });
      expect(page.status).to.equal(302);
    });
  });
}

/**
 * Reports (issue 31) over HTTP on SQLite and MySQL: the ledger written by applying and by the
 * pipeline's PATCH (entry, move, rejection, move back); a seeded history with known medians, p90s,
 * pass-through, reasons, sources and funnel; one job and all jobs; the workbook, one sheet per
 * table; bad queries (400), an unknown job (404), a role that may not read reports (403), no session (401).
 */
import ExcelJS from 'exceljs';
import { expect } from 'chai';
import { fromDbDate, toDbDate } from '../../src/db/codecs.js';
import { readableQuery } from '../../src/reports/service.js';
import type { Job } from '../../src/jobs/types.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, hrSession, liveToken } from '../helpers/hr.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';

const DAY = 86_400;
const D0 = Date.parse('2026-03-02T09:00:00Z');
const at = (days: number) => new Date(D0 + days * DAY * 1000);

for (const kind of databaseKinds()) {
  describe(`reports [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let userId: number;
    let job: Job;
    let live: Job;
    const call = async (path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) => {
      const t = init.token === undefined ? token : init.token;
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { ...(t ? { Authorization: `Bearer ${t}` } : {}), 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const stageIds = async (jobId: number) =>
      (await s.ctx.db('job_stages').where('job_id', jobId).orderBy('position').select('id', 'name')).map((r) => ({
        id: Number(r.id),
        name: r.name as string,
      }));

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '1000', POSTS_WORKER: 'off' });
      ({ token, userId } = await hrSession(s.ctx.db, 'reports-hr'));
      job = await makeJob(s.ctx.db, { title: 'Data Analyst', public_id: 'data-analyst', status: 'ACTIVE' });
      live = await makeJob(s.ctx.db, { title: 'Live Role', public_id: 'live-role', status: 'ACTIVE' });

      // A seeded history with known times: five applications on 2026-03-02, one before the period.
      const people = ['a1', 'a2', 'a3', 'a4', 'a5', 'old'].map((n) => ({
        first_name: n,
        last_name: 'Test',
        email: `${n}@example.com`,
        phone: '+15550000000',
        created_at: n === 'old' ? new Date('2026-01-01T10:00:00Z') : at(0),
      }));
      await insertApplications(s.ctx.db, job.id, people, []);
      const ids = Object.fromEntries(
        (await s.ctx.db('applications').where('job_id', job.id).select('id', 'first_name')).map((r) => [r.first_name, Number(r.id)]),
      );
      const [applied, screen, interview, , hired] = await stageIds(job.id);
      // [application, to stage, outcome, reason, day]
      const moves: [string, number, string | null, string | null, number][] = [
        ['a1', screen.id, null, null, 1],
        ['a1', interview.id, null, null, 3],
        ['a1', hired.id, null, null, 10],
        ['a2', screen.id, null, null, 2],
        ['a2', interview.id, null, null, 6],
        ['a2', interview.id, 'REJECTED', 'Not a fit', 7],
        ['a3', screen.id, null, null, 3],
        ['a3', screen.id, 'REJECTED', 'Withdrew', 4],
        ['a5', screen.id, null, null, 4],
        ['a5', interview.id, null, null, 5],
        ['a5', hired.id, null, null, 6],
      ];
      const rows = [];
      const where = new Map<string, number>();
      for (const n of ['a1', 'a2', 'a3', 'a4', 'a5', 'old'])
        rows.push({
          application_id: ids[n],
          job_id: job.id,
          from_stage_id: null,
          to_stage_id: applied.id,
          at: toDbDate(n === 'old' ? new Date('2026-01-01T10:00:00Z') : at(0)),
        });
      for (const [n, to, outcome, reason, day] of moves) {
        rows.push({
          application_id: ids[n],
          job_id: job.id,
          from_stage_id: where.get(n) ?? applied.id,
          to_stage_id: to,
          outcome,
          reason,
          at: toDbDate(at(day)),
          by_user_id: userId,
        });
        where.set(n, to);
        await s.ctx.db('applications').where('id', ids[n]).update({ stage_id: to, outcome, outcome_reason: reason });
      }
      await s.ctx.db('stage_transitions').insert(rows);
      await s.ctx.db('applications').whereIn('id', [ids.a1, ids.a2]).update({ source: 'linkedin' });
      await s.ctx.db('job_funnel_counts').insert([
        ...[
          ['view', 100],
          ['apply', 40],
          ['basic', 30],
          ['experience', 20],
          ['education_skills', 15],
          ['review', 10],
          ['submitted', 4],
          ['submitted_direct', 1],
        ].map(([step, count]) => ({ job_id: job.id, day: '2026-03-02', step, event: 'reached', device: 'desktop', count })),
        { job_id: job.id, day: '2026-01-01', step: 'view', event: 'reached', device: 'phone', count: 999 },
        { job_id: job.id, day: '2026-03-02', step: 'basic', event: 'completed', device: 'phone', count: 77 },
      ]);
      await s.ctx.db('jobs').where('id', job.id).update({ views: 1234 });
    });
    after(() => s?.close());

    it('writes the ledger when applying and with every PATCH of stage or outcome, in order', async () => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${live.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: 'ledger@example.com' })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      const app = await s.ctx.db('applications').where({ email: 'ledger@example.com' }).first();
      const stages = await stageIds(live.id);
      expect((await call(`/api/hr/applications/${app.id}/`, { method: 'PATCH', body: { stage: stages[1].id } })).status).to.equal(200);
      expect(
        (await call(`/api/hr/applications/${app.id}/`, { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Withdrew' } })).status,
      ).to.equal(200);
      expect((await call(`/api/hr/applications/${app.id}/`, { method: 'PATCH', body: { stage: stages[2].id } })).status).to.equal(200);
      // A status alone changes no stage: no ledger row.
      expect((await call(`/api/hr/applications/${app.id}/`, { method: 'PATCH', body: { status: 'ARCHIVED' } })).status).to.equal(200);
      const ledger = await s.ctx.db('stage_transitions').where('application_id', app.id).orderBy('id');
      expect(
        ledger.map((r) => [r.from_stage_id, r.to_stage_id, r.outcome, r.reason, r.by_user_id === null ? null : Number(r.by_user_id)]),
      ).to.deep.equal([
        [null, stages[0].id, null, null, null],
        [stages[0].id, stages[1].id, null, null, userId],
        [stages[1].id, stages[1].id, 'REJECTED', 'Withdrew', userId],
        [stages[1].id, stages[2].id, null, null, userId],
      ]);
      expect(Number(ledger[0].job_id)).to.equal(live.id);
      expect(fromDbDate(ledger[0].at)!.getTime()).to.equal(fromDbDate(app.created_at)!.getTime());
    });

    it("answers a job's report with the seeded history's numbers", async () => {
      const { status, body } = await call(`/api/hr/reports/?job_id=${job.id}&from=2026-02-01&to=2026-03-31`);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.job).to.deep.equal({ id: job.id, title: 'Data Analyst', public_id: 'data-analyst' });
      expect(body).to.include({ from: '2026-02-01', to: '2026-03-31', applications: 5, rejected: 2 });
      expect(body.by_source).to.deep.equal([
        { source: null, applications: 3 },
        { source: 'linkedin', applications: 2 },
      ]);
      expect(body.by_stage.map((x: { name: string; applications: number }) => [x.name, x.applications])).to.deep.equal([
        ['Applied', 1],
        ['Screen', 0],
        ['Interview', 0],
        ['Offer', 0],
        ['Hired', 2],
      ]);
      const stats = (x: { name: string; count: number; median_seconds: number | null; p90_seconds: number | null }) => [
        x.name,
        x.count,
        x.median_seconds === null ? null : x.median_seconds / DAY,
        x.p90_seconds === null ? null : x.p90_seconds / DAY,
      ];
      // Applied: 1, 2, 3, 4 days (a4 still there: not counted); Screen: 1, 1, 2, 4; Interview: 1, 1, 7.
      expect(body.time_in_stage.map(stats)).to.deep.equal([
        ['Applied', 4, 2.5, 4],
        ['Screen', 4, 1.5, 4],
        ['Interview', 3, 1, 7],
        ['Offer', 0, null, null],
      ]);
      expect(body.time_to_hire).to.deep.equal({ count: 2, median_seconds: 8 * DAY, p90_seconds: 10 * DAY });
      expect(
        body.pass_through.map((x: { name: string; reached: number; passed: number; rate: number | null }) => [
          x.name,
          x.reached,
          x.passed,
          x.rate,
        ]),
      ).to.deep.equal([
        ['Applied', 5, 4, 80],
        ['Screen', 4, 3, 75],
        ['Interview', 3, 2, 66.7],
        ['Offer', 0, 0, null],
      ]);
      expect(body.rejection_reasons).to.deep.equal([
        { reason: 'Not a fit', applications: 1 },
        { reason: 'Withdrew', applications: 1 },
      ]);
      expect(body.offers).to.deep.equal({ made: 0, accepted: 0, declined: 0, acceptance_rate: null });
      expect(body.funnel.lines.map((l: { label: string; count: number }) => [l.label, l.count])).to.deep.equal([
        ['Job page views', 100],
        ['Apply page opened', 40],
        ['Wizard: Basic Info', 30],
        ['Wizard: Experience', 20],
        ['Wizard: Education & Skills', 15],
        ['Wizard: Review', 10],
        ['Sent from the wizard', 4],
        ['Applications (every way)', 5],
        ['Reached Applied', 5],
        ['Reached Screen', 4],
        ['Reached Interview', 3],
        ['Reached Offer', 0],
        ['Reached Hired', 2],
      ]);
      expect(body.funnel).to.include({ all_time_views: 1234, submitted_direct: 1 });
      expect(body.funnel.anchor).to.match(/Applications \(every way\)/);
    });

    it('narrows by period, and sums every job for all jobs', async () => {
      const march3 = await call(`/api/hr/reports/?job_id=${job.id}&from=2026-03-03&to=2026-03-31`);
      expect(march3.body.applications).to.equal(0);
      expect(march3.body.time_to_hire.count).to.equal(0);
      expect(march3.body.funnel.lines[0].count).to.equal(0);
      const jan = await call(`/api/hr/reports/?job_id=${job.id}&from=2026-01-01&to=2026-01-01`);
      expect(jan.body.applications).to.equal(1);
      expect(jan.body.funnel.lines[0].count).to.equal(999);
      const all = await call('/api/hr/reports/?job_id=all&from=2026-01-01&to=2026-03-31');
      expect(all.status).to.equal(200);
      expect(all.body.job).to.equal(null);
      expect(all.body.applications).to.equal(6);
      expect(all.body.time_to_hire.count).to.equal(2);
      // The default period: the last 90 days, today included; the live application is in it.
      const dflt = await call('/api/hr/reports/');
      const today = new Date().toISOString().slice(0, 10);
      expect(dflt.body.to).to.equal(today);
      expect((Date.parse(dflt.body.to) - Date.parse(dflt.body.from)) / (DAY * 1000)).to.equal(89);
      expect(dflt.body.applications).to.equal(1);
    });

    it('exports the report as a workbook, one sheet per table', async () => {
      const res = await fetch(`${s.baseUrl}/api/hr/reports/export/?job_id=${job.id}&from=2026-02-01&to=2026-03-31`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-disposition')).to.include('report-data-analyst-2026-02-01-to-2026-03-31.xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
      expect(wb.worksheets.map((w) => w.name)).to.deep.equal([
        'Summary',
        'By source',
        'By stage',
        'Time in stage',
        'Time to schedule',
        'Pass-through',
        'Rejection reasons',
        'Scorecards on time',
        'Attributes and outcome',
        'Funnel',
      ]);
      const values = (name: string) =>
        wb
          .getWorksheet(name)!
          .getSheetValues()
          .slice(1)
          .map((r) => (r as unknown[]).slice(1));
      expect(values('Summary')).to.deep.include(['Applications', 5]);
      expect(values('Summary')).to.deep.include(['Time to hire: median (days)', 8]);
      expect(values('Summary').find((r) => r[0] === 'Offers made')![1]).to.equal(0);
      expect(values('Summary').find((r) => r[0] === 'Offers accepted')![1]).to.equal(0);
      expect(values('Time in stage')).to.deep.include(['Applied', 4, 2.5, 4]);
      expect(values('Pass-through')).to.deep.include(['Screen', 4, 3, 75]);
      expect(values('By source')).to.deep.include(['Direct', 3]);
    });

    it('refuses bad queries (400), an unknown job (404), other roles (403) and no session (401)', async () => {
      const bad = async (q: string, field: string, message: RegExp) => {
        const r = await call(`/api/hr/reports/${q}`);
        expect(r.status, q).to.equal(400);
        expect(r.body[field]?.[0], `${q}: ${JSON.stringify(r.body)}`).to.match(message);
      };
      await bad('?from=2026-02-30', 'from', /YYYY-MM-DD/);
      await bad('?to=yesterday', 'to', /YYYY-MM-DD/);
      await bad(`?from=${'9'.repeat(5000)}`, 'from', /YYYY-MM-DD/);
      await bad('?from=1999-12-31', 'from', /YYYY-MM-DD/);
      await bad('?from=2026-03-10&to=2026-03-01', 'from', /on or before/);
      await bad('?from=2000-01-01&to=2026-03-01', 'from', /at most 3660 days/);
      await bad('?job_id=abc', 'job_id', /Select a job/);
      await bad('?job_id=0', 'job_id', /Select a job/);
      await bad('?job_id=99999999999', 'job_id', /Select a job/);
      await bad(`?job_id=${job.id}&job_id=${live.id}`, 'job_id', /Select a job/);
      await bad('?from=2026-01-01&from=2026-01-02', 'from', /YYYY-MM-DD/);
      const missing = await call('/api/hr/reports/?job_id=999999');
      expect(missing).to.deep.equal({ status: 404, body: { detail: 'Job not found.' } });
      expect((await call('/api/hr/reports/export/?job_id=999999')).status).to.equal(404);
      expect((await call('/api/hr/reports/export/?from=nope')).status).to.equal(400);

      const recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'reports-recruiter', { role: 'recruiter' }));
      expect((await call('/api/hr/reports/', { token: recruiter })).status).to.equal(200);
      // A role beside admin and recruiter (job-scoped roles are coming; the users feature reads an
      // unknown stored role as recruiter today, so the check is reached through the service).
      for (const role of ['hiring_manager', 'interviewer', undefined]) {
        const err = await readableQuery({ db: s.ctx.db }, role, {}).catch((e: Error & { status?: number }) => e);
        expect(err, String(role)).to.include({ status: 403, message: 'Reports are for admins and recruiters.' });
      }
      expect((await call('/api/hr/reports/', { token: null })).status).to.equal(401);
      const okPage = await fetch(`${s.baseUrl}/hr/reports`, { headers: { Cookie: `jwt=${token}` }, redirect: 'manual' });
      expect(okPage.status).to.equal(200);
      expect(await okPage.text()).to.include('href="/hr/reports" aria-current="page"');
    });
  });
}

/** HR dashboard: GET /api/hr/dashboard/ numbers and the /hr/dashboard page, on a few jobs and applications. */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { addApplications } from '../jobs/hr-jobs.helpers.js';
import { hrSession } from '../helpers/hr.js';

for (const kind of databaseKinds()) {
  describe(`HR dashboard [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const api = () => fetch(`${s.baseUrl}/api/hr/dashboard/`, { headers: { Authorization: `Bearer ${token}` } });

    it('answers zeros and an empty list with no jobs', async () => {
      const res = await api();
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({
        total_jobs: 0,
        active_jobs: 0,
        new_applicants: 0,
        total_applicants: 0,
        job_stats: [],
        stage_stats: [],
        rejected_applicants: 0,
      });
      const html = await (await fetch(`${s.baseUrl}/hr/dashboard`, { headers: { Cookie: `jwt=${token}` } })).text();
      expect(html).to.include('No job posts yet.');
    });

    it('counts jobs and applicants; removed jobs are left out of the job figures', async () => {
      const db = s.ctx.db;
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      const a = await makeJob(db, { public_id: 'dash-a', title: 'Alpha', status: 'ACTIVE' }, new Date(t0));
      const b = await makeJob(db, { public_id: 'dash-b', title: 'Beta', status: 'INACTIVE' }, new Date(t0 + 1000));
      const c = await makeJob(db, { public_id: 'dash-c', title: 'Gamma', status: 'ACTIVE' }, new Date(t0 + 2000));
      const r = await makeJob(db, { public_id: 'dash-r', title: 'Removed', status: 'REMOVED' }, new Date(t0 + 3000));
      await addApplications(db, a.id, 1200, 'NEW');
      await addApplications(db, a.id, 34, 'REVIEWED');
      await addApplications(db, b.id, 5, 'ARCHIVED');
      await addApplications(db, b.id, 2, 'NEW');
      await addApplications(db, r.id, 3, 'NEW');
      await db('jobs').where({ id: c.id }).update({ views: 4321 });

      const body = await (await api()).json();
      expect(body).to.deep.include({ total_jobs: 3, active_jobs: 2, new_applicants: 1205, total_applicants: 1244 });
      expect(body.job_stats).to.deep.equal([
        { id: c.id, public_id: 'dash-c', title: 'Gamma', status: 'ACTIVE', applicants: 0, views: 4321, closes_at: null },
        { id: b.id, public_id: 'dash-b', title: 'Beta', status: 'INACTIVE', applicants: 7, views: 0, closes_at: null },
        { id: a.id, public_id: 'dash-a', title: 'Alpha', status: 'ACTIVE', applicants: 1234, views: 0, closes_at: null },
      ]);
      // An active job past its closing date takes no applications: not counted as Active.
      await db('jobs')
        .where({ id: c.id })
        .update({ closes_at: new Date(Date.now() - 60_000) });
      expect((await (await api()).json()).active_jobs).to.equal(1);
      await db('jobs')
        .where({ id: c.id })
        .update({ closes_at: new Date(Date.now() + 86_400_000) });
      expect((await (await api()).json()).active_jobs).to.equal(2);
      await db('jobs').where({ id: c.id }).update({ closes_at: null });
    });

    it('renders the page with the buttons, tiles and table, numbers grouped for the visitor locale', async () => {
      const page = (lang?: string) =>
        fetch(`${s.baseUrl}/hr/dashboard`, { headers: { Cookie: `jwt=${token}`, ...(lang ? { 'Accept-Language': lang } : {}) } });
      const res = await page('en-US,en;q=0.9');
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const html = await res.text();
      expect(html).to.include('<h1>HR Dashboard</h1>');
      for (const [text, href] of [
        ['Jobs', '/hr/jobs/list'],
        ['Manage Jobs', '/hr/jobs'],
        ['View Applicants', '/hr/applicants'],
      ]) {
        expect(html).to.match(new RegExp(`<a class="btn[^"]*" href="${href}">${text}</a>`));
      }
      for (const tile of ['Total Jobs', 'Active Jobs', 'New Applicants', 'Total Applicants', 'Job Statistics'])
        expect(html).to.include(tile);
      // Each summary tile leads to what it counts.
      for (const [label, href] of [
        ['Total Jobs', '/hr/jobs/list'],
        ['Active Jobs', '/hr/jobs/list?status=ACTIVE'],
        ['New Applicants', '/hr/applicants?status=NEW'],
        ['Total Applicants', '/hr/applicants'],
      ]) {
        expect(html).to.include(`<a class="stat-link" href="${href}"><span class="stat-label">${label}</span>`);
      }
      expect(html).to.match(
        /<th scope="col">Public ID<\/th><th scope="col">Title<\/th><th scope="col">Status<\/th><th scope="col" class="num">Applicants<\/th>/,
      );
      expect(html).to.include('<span class="stat-value">1,244</span>').and.include('<span class="stat-value">1,205</span>');
      expect(html).to.include('dash-a').and.include('Gamma').and.not.include('dash-r');
      const de = await (await page('de-DE')).text();
      expect(de).to.include('<span class="stat-value">1.244</span>');
      const bogus = await page('zz-invalid-tag-!!,*');
      expect(bogus.status).to.equal(200);
    });

    it('sends visitors without a valid session to the login page, keeping the origin', async () => {
      for (const cookie of [undefined, 'jwt=not-a-token', `jwt=${'a'.repeat(43)}`]) {
        const res = await fetch(`${s.baseUrl}/hr/dashboard`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
        expect(res.status).to.equal(302);
        expect(res.headers.get('location')).to.equal('/hrviewlogin?next=%2Fhr%2Fdashboard');
      }
      const apiRes = await fetch(`${s.baseUrl}/api/hr/dashboard/`);
      expect(apiRes.status).to.equal(401);
    });
  });
}

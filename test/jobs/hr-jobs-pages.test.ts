/** HR job pages over HTTP: guards, empty states, escaping of hostile titles, 404 for unknown ids. */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { addApplications } from './hr-jobs.helpers.js';
import { hrSession } from '../helpers/hr.js';
import { HR_JOBS_PAGE_SIZE } from '../../src/jobs/pages.js';

for (const kind of databaseKinds()) {
  describe(`HR job pages [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const page = (path: string, cookie = `jwt=${token}`) =>
      fetch(s.baseUrl + path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

    it('redirects to the login page without a valid session, keeping the origin', async () => {
      for (const path of ['/hr/jobs', '/hr/jobs/list', '/hr/jobs/new', '/hr/jobs/1/edit']) {
        for (const cookie of ['', 'jwt=garbage']) {
          const res = await page(path, cookie);
          expect(res.status, `${path} ${cookie}`).to.equal(302);
          expect(res.headers.get('location')).to.equal(`/hrviewlogin?next=${encodeURIComponent(path)}`);
        }
      }
    });

    it('shows empty states with no jobs', async () => {
      expect(await (await page('/hr/jobs')).text())
        .to.include('No job posts yet. Use New Job to create one.')
        .and.include('href="/hr/jobs/new"');
      expect(await (await page('/hr/jobs/list')).text())
        .to.include('No job posts yet.')
        .and.include('<h1>All Job Posts</h1>');
    });

    it('renders the editor pages with their headings and props; unknown ids are 404', async () => {
      const create = await page('/hr/jobs/new');
      expect(create.status).to.equal(200);
      const html = await create.text();
      expect(html).to.include('<title>Create Job</title>').and.include('data-island="job-editor"');
      const props = JSON.parse(/<script type="application\/json" id="island-job-editor-props">([\s\S]*?)<\/script>/.exec(html)![1]);
      expect(props).to.include({ mode: 'create', jobId: null });
      expect(props.statuses.map((o: any) => o.label)).to.deep.equal(['Active', 'Inactive', 'Removed']);
      expect(props.answerTypes.map((o: any) => o.value)).to.deep.equal(['short_text', 'long_text', 'number', 'single_choice', 'checkbox']);
      expect(props.currencies).to.include('USD').and.include('EUR');
      for (const id of ['999999', 'abc', '1.5', '-3']) {
        const res = await page(`/hr/jobs/${id}/edit`);
        expect(res.status, id).to.equal(404);
        expect(await res.text()).to.include('404 — Page Not Found');
      }
    });

    it("pages Manage Jobs and All Job Posts, newest first, with the total and each page's applicant counts", async () => {
      const total = HR_JOBS_PAGE_SIZE + 3;
      const start = Date.now() - total * 60_000;
      const jobs = [];
      for (let i = 0; i < total; i++) {
        jobs.push(
          await makeJob(
            s.ctx.db,
            { public_id: `paged-${i}`, title: `Paged job ${i}`, status: i % 7 === 0 ? 'REMOVED' : 'ACTIVE' },
            new Date(start + i * 60_000),
          ),
        );
      }
      await addApplications(s.ctx.db, jobs[1].id, 3);
      const links = (html: string) =>
        [...html.matchAll(/href="(\/hr\/jobs(?:\/list)?(?:\?page=\d+)?)" rel="(prev|next)"/g)].map((m) => `${m[2]} ${m[1]}`);
      for (const path of ['/hr/jobs', '/hr/jobs/list']) {
        const first = await (await page(path)).text();
        expect(first, path).to.include(`${total} job posts`).and.include('Page 1 of 2');
        expect(first)
          .to.include(`Paged job ${total - 1}<`)
          .and.not.include('Paged job 2<');
        expect((first.match(/<tr>/g) ?? []).length).to.equal(HR_JOBS_PAGE_SIZE + 1); // + the header row
        expect(links(first)).to.deep.equal([`next ${path}?page=2`]);
        const second = await (await page(`${path}?page=2`)).text();
        expect(second)
          .to.include('Page 2 of 2')
          .and.include('Paged job 0<')
          .and.include('Paged job 2<')
          .and.not.include(`Paged job ${total - 1}<`);
        expect(links(second)).to.deep.equal([`prev ${path}`]);
        expect((await page(`${path}?page=3`)).status).to.equal(404);
        expect(await (await page(`${path}?page=abc`)).text()).to.include('Page 1 of 2');
      }
      const list2 = await (await page('/hr/jobs/list?page=2')).text();
      expect(list2).to.match(
        /<a href="\/hr\/jobs\/\d+\/edit">Paged job 1<\/a>(?:<br><small[^>]*>[^<]*<\/small>)?<\/td>[\s\S]*?<td [^>]*class="num"><a href="\/hr\/applicants\?job_id=\d+"[^>]*>3<\/a><\/td>/,
      );
      // Removed jobs stay listed on Manage Jobs (to be restored through Edit), without Remove.
      const manage2 = await (await page('/hr/jobs?page=2')).text();
      expect(manage2).to.match(/Paged job 0<\/a>[\s\S]*?Removed[\s\S]*?Edit/);
      expect(manage2).not.to.include(`data-remove-job="${jobs[0].id}"`);
      await s.ctx.db('applications').del();
      await s.ctx.db('jobs').where('public_id', 'like', 'paged-%').del();
    });

    it('escapes hostile titles everywhere they are shown', async () => {
      const job = await makeJob(s.ctx.db, { public_id: 'xss-1', title: '<img src=x onerror=alert(1)>"\'</script>' });
      for (const path of ['/hr/jobs', '/hr/jobs/list', '/hr/dashboard', `/hr/jobs/${job.id}/edit`]) {
        const html = await (await page(path)).text();
        expect(html, path).not.to.include('<img src=x');
        expect(html, path).not.to.include('</script>"');
        expect(html, path).to.match(/&lt;img src=x onerror=alert\(1\)&gt;|\\u003cimg src=x/);
      }
      const edit = await (await page(`/hr/jobs/${job.id}/edit`)).text();
      expect(edit).to.include('<h1>Edit Job: &#60;img src=x onerror=alert(1)&#62;&#34;&#39;&#60;/script&#62;</h1>');
    });
  });
}

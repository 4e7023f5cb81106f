/** HR job pages over HTTP: guards, empty states, escaping of hostile titles, 404 for unknown ids. */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { signIn } from './hr-jobs.helpers.js';

for (const kind of databaseKinds()) {
  describe(`HR job pages [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await signIn(s));
    });
    after(() => s.close());

    const page = (path: string, cookie = `jwt=${token}`) => fetch(s.baseUrl + path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

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
      expect(await (await page('/hr/jobs')).text()).to.include('No job posts yet. Use New Job to create one.').and.include('href="/hr/jobs/new"');
      expect(await (await page('/hr/jobs/list')).text()).to.include('No job posts yet.').and.include('<h1>All Job Posts</h1>');
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

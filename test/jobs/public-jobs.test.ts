import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`public jobs API and pages [${kind}]`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      const base = new Date('2026-01-01T00:00:00Z');
      await makeJob(
        db,
        {
          public_id: 'eng-1',
          title: 'Backend Engineer',
          location: 'Berlin, Germany',
          job_type: 'FULL_TIME',
          work_mode: 'REMOTE',
          webhook_enabled: true,
          webhook_url: 'https://hooks.example.com/x',
          webhook_secret: 's3cret-0123456789',
          questions: [{ text: '<p>Why?</p>', answer_type: 'short_text', required: true }],
        },
        new Date(base.getTime() + 1000),
      );
      await makeJob(
        db,
        {
          public_id: 'des-1',
          title: 'Designer 100%_off',
          location: 'London, UK',
          job_type: 'PART_TIME',
          work_mode: 'HYBRID',
          min_salary: null,
          max_salary: null,
        },
        new Date(base.getTime() + 2000),
      );
      await makeJob(db, { public_id: 'inactive-1', title: 'Old Engineer', status: 'INACTIVE' }, new Date(base.getTime() + 3000));
      await makeJob(db, { public_id: 'removed-1', title: 'Removed Engineer', status: 'REMOVED' }, new Date(base.getTime() + 4000));
    });
    after(() => s.close());

    const get = (path: string) => fetch(s.baseUrl + path);

    it('lists only active jobs, newest first, paged', async () => {
      const res = await get('/api/jobs/');
      expect(res.status).to.equal(200);
      const body = await res.json();
      expect(body.count).to.equal(2);
      expect(body.next).to.equal(null);
      expect(body.previous).to.equal(null);
      expect(body.results.map((j: any) => j.public_id)).to.deep.equal(['des-1', 'eng-1']);
      expect(body.results[1].salary_display).to.equal('$1,000 – $2,000 per year');
      expect(body.results[0].salary_display).to.equal(null);
      const p1 = await (await get('/api/jobs/?page_size=1')).json();
      expect(p1.results).to.have.length(1);
      expect(p1.next).to.match(/page=2/);
      const p2 = await (await fetch(p1.next.replace(/^http:\/\/localhost:\d+/, s.baseUrl))).json();
      expect(p2.previous).to.be.a('string');
    });

    it('filters by title, location, job_type and work_mode; empty strings mean no filter', async () => {
      const q = async (qs: string) => (await (await get(`/api/jobs/?${qs}`)).json()).results.map((j: any) => j.public_id);
      expect(await q('title=engineer')).to.deep.equal(['eng-1']);
      expect(await q('title=&location=&job_type=&work_mode=')).to.have.length(2);
      expect(await q('location=london')).to.deep.equal(['des-1']);
      expect(await q('job_type=PART_TIME')).to.deep.equal(['des-1']);
      expect(await q('work_mode=REMOTE')).to.deep.equal(['eng-1']);
      // LIKE wildcards in the search are taken literally.
      expect(await q('title=100%25_')).to.deep.equal(['des-1']);
      expect(await q('title=%25')).to.deep.equal(['des-1']);
      expect(await q(`title=${encodeURIComponent("' OR 1=1 --")}`)).to.deep.equal([]);
    });

    it('drops control characters from the search filters, the same on every database', async () => {
      const q = async (qs: string) => (await (await get(`/api/jobs/?${qs}`)).json()).results.map((j: any) => j.public_id);
      // A lone NUL is no filter at all (SQLite matched every job with it, MySQL none).
      expect(await q('title=%00')).to.deep.equal(['des-1', 'eng-1']);
      expect(await q('title=%00%01%1F%7F&location=%0A%0D%09')).to.deep.equal(['des-1', 'eng-1']);
      expect(await q('title=engi%00neer')).to.deep.equal(['eng-1']);
      expect(await q('title=%1F%20engineer%7F%20')).to.deep.equal(['eng-1']);
      expect(await q('location=%0Alondon%0D')).to.deep.equal(['des-1']);
      expect(await q('job_type=PART_TIME%00')).to.deep.equal(['des-1']);
      const html = await (await get('/careers?title=%00Backend%1F')).text();
      expect(html).to.include('Backend Engineer').and.include('value="Backend"').and.not.include('Designer');
      expect(html).not.to.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    });

    it('answers bad query values with 400 field errors', async () => {
      let res = await get('/api/jobs/?job_type=WHATEVER');
      expect(res.status).to.equal(400);
      expect((await res.json()).job_type[0]).to.match(/Select a valid choice/);
      res = await get('/api/jobs/?page=abc');
      expect(res.status).to.equal(400);
      res = await get('/api/jobs/?page=99');
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.equal({ detail: 'Invalid page.' });
      res = await get(`/api/jobs/?title=${'x'.repeat(5000)}`);
      expect(res.status).to.equal(200);
    });

    it('shows a job with questions and without HR-only fields', async () => {
      const res = await get('/api/jobs/eng-1/');
      expect(res.status).to.equal(200);
      const job = await res.json();
      expect(job.accepting_applications).to.equal(true);
      expect(job.questions).to.have.length(1);
      expect(job.questions[0]).to.include({ text: '<p>Why?</p>', answer_type: 'short_text', required: true });
      const raw = JSON.stringify(job);
      for (const secret of ['webhook', 's3cret', 'hooks.example.com', 'views', '"status"']) expect(raw).not.to.include(secret);
      const inactive = await (await get('/api/jobs/inactive-1/')).json();
      expect(inactive.accepting_applications).to.equal(false);
    });

    it('answers 404 {detail} for removed, unknown and hostile ids', async () => {
      for (const id of ['removed-1', 'nope', '..%2F..%2Fetc%2Fpasswd', encodeURIComponent("1' OR '1'='1"), 'x'.repeat(500)]) {
        const res = await get(`/api/jobs/${id}/`);
        expect(res.status, id).to.equal(404);
        expect(await res.json()).to.have.property('detail');
      }
    });

    it('renders the list, detail and unavailable pages', async () => {
      let res = await get('/careers');
      let html = await res.text();
      expect(res.status).to.equal(200);
      expect(html).to.include('Backend Engineer').and.include('FULL TIME').and.include('View details');
      expect(html).not.to.include('Old Engineer');
      html = await (await get('/careers?title=zzzz')).text();
      expect(html).to.include('No jobs match the current filters');
      res = await get('/careers/eng-1');
      html = await res.text();
      expect(html).to.include('Apply Now').and.include('Apply for this role').and.include('application/ld+json');
      html = await (await get('/careers/inactive-1')).text();
      expect(html).to.include('This job post has stopped taking application').and.not.include('Apply Now');
      res = await get('/careers/removed-1');
      expect(res.status).to.equal(404);
      html = await res.text();
      expect(html)
        .to.include('Job post unavailable')
        .and.include('This job post has been removed or never existed.')
        .and.include('Back to Careers');
    });

    it('answers 404 for a list page beyond the last, but 200 for an empty first page', async () => {
      for (const qs of ['page=2', 'page=999999', 'page=999999999', 'page=99999999999999999999', 'title=zzzz&page=2']) {
        const res = await get(`/careers?${qs}`);
        expect(res.status, qs).to.equal(404);
        expect(await res.text(), qs)
          .to.include('404 — Page Not Found')
          .and.include('<meta name="robots" content="noindex">');
      }
      const empty = await get('/careers?title=zzzz');
      expect(empty.status).to.equal(200);
      expect(await empty.text()).to.include('No jobs match the current filters');
      // Not a page number: the first page, as before.
      for (const qs of ['page=abc', 'page=0', 'page=1', 'page=']) expect((await get(`/careers?${qs}`)).status, qs).to.equal(200);
    });

    it('redirects / to /careers and answers unknown paths with the 404 page', async () => {
      const res = await fetch(s.baseUrl + '/', { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('/careers');
      const nf = await get('/no/such/page');
      expect(nf.status).to.equal(404);
      expect(await nf.text())
        .to.include('404 — Page Not Found')
        .and.include('href="/careers"');
      const api = await get('/api/nothing/');
      expect(api.status).to.equal(404);
      expect(await api.json()).to.deep.equal({ detail: 'Not found.' });
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`public job list pages: paging and indexing [${kind}]`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://jobs.example.com' });
      const base = Date.parse('2026-01-01T00:00:00Z');
      // 31 active jobs: two pages of 30.
      for (let i = 0; i < 31; i++) {
        await makeJob(
          s.ctx.db,
          { public_id: `list-${i}`, title: `Listed Role ${i}`, job_type: i % 2 ? 'PART_TIME' : 'FULL_TIME' },
          new Date(base + i * 1000),
        );
      }
    });
    after(() => s.close());

    const page = async (qs: string) => {
      const res = await fetch(`${s.baseUrl}/careers${qs}`);
      const html = await res.text();
      return {
        status: res.status,
        html,
        cards: (html.match(/class="job-card"/g) ?? []).length,
        robots: /<meta name="robots" content="([^"]*)">/.exec(html)?.[1] ?? null,
        canonical: /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1] ?? null,
      };
    };

    it('indexes only the unfiltered first page; later and filtered pages are noindex with their own canonical', async () => {
      const first = await page('');
      expect(first).to.include({ status: 200, cards: 30, robots: null, canonical: 'https://jobs.example.com/careers' });
      expect(first.html).to.include('href="/careers?page=2" rel="next"');
      // Empty filters and page=1 are the same list: indexable, canonical /careers.
      expect(await page('?title=&location=&job_type=&work_mode=&page=1')).to.include({
        status: 200,
        robots: null,
        canonical: 'https://jobs.example.com/careers',
      });
      const second = await page('?page=2');
      expect(second).to.include({ status: 200, cards: 1, robots: 'noindex', canonical: 'https://jobs.example.com/careers?page=2' });
      expect(second.html).to.include('href="/careers" rel="prev"');
      expect(await page('?page=3')).to.include({ status: 404, robots: 'noindex', canonical: null });
      const filtered = await page('?job_type=FULL_TIME&title=%20Listed%00&location=');
      expect(filtered).to.include({
        status: 200,
        cards: 16,
        robots: 'noindex',
        canonical: 'https://jobs.example.com/careers?title=Listed&amp;job_type=FULL_TIME',
      });
      expect(await page('?job_type=FULL_TIME&page=2')).to.include({ status: 404 });
    });
  });
}

/** The applicants pages as HTML (no browser): guard, first results, bad filters, 'Not found.', links from the job pages. */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedPeople, type Seeded } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`applicants pages [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let seeded: Seeded;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      seeded = await seedPeople(s.ctx.db);
    });
    after(() => s.close());

    const page = (path: string, cookie: string | null = `jwt=${token}`) =>
      fetch(`${s.baseUrl}${path}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

    it('sends visitors without a valid session to the login page, keeping the filtered list', async () => {
      for (const path of ['/hr/applicants?status=NEW&q=jos', `/hr/applicants/${seeded.ids.get('asha@dsouza.in')}`]) {
        for (const cookie of [null, 'jwt=bogus']) {
          const res = await page(path, cookie);
          expect(res.status).to.equal(302);
          expect(res.headers.get('location')).to.equal(`/hrviewlogin?next=${encodeURIComponent(path)}`);
        }
      }
    });

    it('renders the first results on the server, with the filters kept in the form and the links', async () => {
      const res = await page(`/hr/applicants?job_id=${seeded.jobB.id}&status=NEW`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const html = await res.text();
      expect(html).to.include('<h1>Applicants: Data Analyst</h1>').and.include('2 applicants');
      expect(html).to.include(`<option value="${seeded.jobB.id}" selected>`).and.include('<option value="NEW" selected>NEW</option>');
      expect(html).to.include('Priya Patel').and.include('Björn Ølsen').and.not.include('Rahul Sharma');
      const id = seeded.ids.get('priya@patel.dev');
      expect(html).to.include(`href="/hr/applicants/${id}?job_id=${seeded.jobB.id}&amp;status=NEW"`);
      expect(html).to.include(`href="/api/hr/applications/${id}/resume/"`);
      expect(html).to.include('aria-current="page">Applicants</a>');
    });

    it('pages by 25 with a total, and says when nothing matches', async () => {
      const empty = await (await page('/hr/applicants?q=nobody')).text();
      expect(empty).to.include('No applicants found.').and.not.include('<table');
      expect((await page('/hr/applicants?page=2')).status).to.equal(404);
    });

    it('shows bad filters under their fields with a 400, and no list', async () => {
      const res = await page('/hr/applicants?date_from=2026-02-02&date_to=2026-02-01&status=HIRED');
      expect(res.status).to.equal(400);
      const html = await res.text();
      expect(html)
        .to.include('The to date must not be before the from date.')
        .and.include('Select a valid status: NEW, REVIEWED or ARCHIVED.');
      expect(html).to.include('value="2026-02-02"').and.not.include('<table');
    });

    it("shows one application, and 'Not found.' for an unknown or non-numeric id", async () => {
      const id = seeded.ids.get('weiss@example.de')!;
      const html = await (await page(`/hr/applicants/${id}?status=ARCHIVED`)).text();
      expect(html)
        .to.include(`<h1>Application #${id}</h1>`)
        .and.include('Straße Weiß')
        .and.include('Data Analyst')
        .and.include('<code>data-1</code>');
      expect(html).to.include(`href="/hr/applicants/${seeded.ids.get('zoe.a@example.se')}?status=ARCHIVED" rel="next"`);
      for (const bad of ['999999', 'abc', '0']) {
        const res = await page(`/hr/applicants/${bad}`);
        expect(res.status, bad).to.equal(404);
        expect(await res.text()).to.include('<h1>Not found.</h1>');
      }
    });

    it('links the dashboard, Manage Jobs and All Job Posts to the list filtered by job', async () => {
      const href = `href="/hr/applicants?job_id=${seeded.jobA.id}"`;
      for (const path of ['/hr/dashboard', '/hr/jobs', '/hr/jobs/list']) expect(await (await page(path)).text(), path).to.include(href);
    });
  });
}

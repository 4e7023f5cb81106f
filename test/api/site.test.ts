/** Site-wide behaviour: SEO files and tags, security headers, the error page, views counting. */
import { expect } from 'chai';
import { findJobByPublicId, updateJob } from '../../src/jobs/repo.js';
import { parseJobInput } from '../../src/jobs/schema.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

for (const kind of databaseKinds()) {
  describe(`site: SEO, headers, errors [${kind}]`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://jobs.example.com', COMPANY_NAME: 'Globex <Inc>' });
      await makeJob(s.ctx.db, { public_id: 'remote-dev', title: 'Remote Dev', work_mode: 'REMOTE', location: 'Anywhere', min_salary: 50000, max_salary: 70000, currency: 'EUR', description: '<p>Desc</p>', requirements: '<ul><li>R</li></ul>' });
      await makeJob(s.ctx.db, { public_id: 'office-dev', title: 'Office Dev', work_mode: 'ONSITE', location: 'Pune', min_salary: null, max_salary: null });
      await makeJob(s.ctx.db, { public_id: 'hidden-dev', title: 'Hidden', status: 'INACTIVE' });
    });
    after(() => s.close());

    it('serves a sitemap of active jobs and a robots.txt that keeps /hr out', async () => {
      const sm = await (await fetch(`${s.baseUrl}/sitemap.xml`)).text();
      expect(sm).to.include('<loc>https://jobs.example.com/careers/remote-dev</loc>').and.include('office-dev').and.not.include('hidden-dev');
      const robots = await (await fetch(`${s.baseUrl}/robots.txt`)).text();
      expect(robots).to.include('Disallow: /hr').and.include('Sitemap: https://jobs.example.com/sitemap.xml');
    });

    it('puts JobPosting JSON-LD, canonical, description and Open Graph on job pages', async () => {
      const html = await (await fetch(`${s.baseUrl}/careers/remote-dev`)).text();
      expect(html).to.include('<link rel="canonical" href="https://jobs.example.com/careers/remote-dev">');
      expect(html).to.include('<meta name="description" content="Desc">');
      expect(html).to.include('property="og:title"').and.include('property="og:type" content="article"');
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);
      expect(ld).to.deep.include({ '@type': 'JobPosting', title: 'Remote Dev', employmentType: 'FULL_TIME', directApply: true, jobLocationType: 'TELECOMMUTE' });
      expect(ld.hiringOrganization.name).to.equal('Globex <Inc>');
      expect(ld.baseSalary).to.deep.equal({ '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', unitText: 'YEAR', minValue: 50000, maxValue: 70000 } });
      expect(ld.description).to.include('<p>Desc</p>');
      expect(ld.identifier.value).to.equal('remote-dev');
      expect(ld.datePosted).to.match(/^\d{4}-\d{2}-\d{2}$/);
      // The JSON is escaped so a "<" in data cannot close the script element.
      expect(html).not.to.include('"Globex <Inc>"');
      const onsite = await (await fetch(`${s.baseUrl}/careers/office-dev`)).text();
      const ld2 = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(onsite)![1]);
      expect(ld2.jobLocation.address.addressLocality).to.equal('Pune');
      expect(ld2).not.to.have.property('baseSalary');
      const inactive = await (await fetch(`${s.baseUrl}/careers/hidden-dev`)).text();
      expect(inactive).not.to.include('application/ld+json');
      expect(inactive).to.include('<meta name="robots" content="noindex">');
    });

    it('sends security headers and a strict CSP', async () => {
      const res = await fetch(`${s.baseUrl}/careers`);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).to.include("script-src 'self'").and.include("object-src 'none'").and.include("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('x-powered-by')).to.equal(null);
      expect(res.headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
      const api = await fetch(`${s.baseUrl}/api/jobs/`);
      expect(api.headers.get('cache-control')).to.equal('no-store');
    });

    it('counts job page views in batches', async () => {
      const views = async () => Number((await s.ctx.db('jobs').where({ public_id: 'office-dev' }).first('views')).views);
      await s.ctx.views.flush();
      const before = await views();
      for (let i = 0; i < 3; i++) await fetch(`${s.baseUrl}/careers/office-dev`);
      expect(await views(), 'not written per request').to.equal(before);
      await s.ctx.views.flush();
      expect(await views()).to.equal(before + 3);
    });

    it('serves public reads from a short cache that job writes clear at once', async () => {
      const before = await (await fetch(`${s.baseUrl}/api/jobs/office-dev/`)).json();
      expect(before.title).to.equal('Office Dev');
      // A write behind the repo's back is not seen while the entry lives (PUBLIC_CACHE_SECONDS)...
      await s.ctx.db('jobs').where({ public_id: 'office-dev' }).update({ title: 'Sneaky' });
      expect((await (await fetch(`${s.baseUrl}/api/jobs/office-dev/`)).json()).title).to.equal('Office Dev');
      // ...while a write through the repo is visible on the very next request.
      const job = (await findJobByPublicId(s.ctx.db, 'office-dev'))!;
      await s.ctx.db.transaction((trx) => updateJob(trx, job.id, parseJobInput({ ...job, title: 'Office Developer', status: 'REMOVED' }), new Date()));
      expect((await fetch(`${s.baseUrl}/api/jobs/office-dev/`)).status).to.equal(404);
      expect(await (await fetch(`${s.baseUrl}/careers`)).text()).not.to.include('Office Dev');
    });

    it('answers malformed JSON bodies under /api with 400, not 500', async () => {
      const res = await fetch(`${s.baseUrl}/api/jobs/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
      expect(res.status).to.equal(400);
      expect((await res.json()).detail).to.match(/JSON/);
    });
  });
}

describe('unexpected failures [sqlite]', () => {
  it("shows 'Unexpected Application Error!' with status 500 and no stack", async () => {
    const s = await startTestServer('sqlite');
    // Take the database away under the running app: every query now fails.
    await s.ctx.db.destroy();
    const origError = console.error;
    console.error = () => undefined;
    try {
      const page = await fetch(`${s.baseUrl}/careers`);
      const html = await page.text();
      expect(page.status).to.equal(500);
      expect(html).to.include('Unexpected Application Error!').and.not.include('node_modules').and.not.include('acquire');
      const api = await fetch(`${s.baseUrl}/api/jobs/`);
      expect(api.status).to.equal(500);
      expect(await api.json()).to.deep.equal({ detail: 'A server error occurred.' });
    } finally {
      console.error = origError;
      await s.close();
    }
  });
});

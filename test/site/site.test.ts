/** Site-wide behaviour: SEO files and tags, security headers, the error page, views counting. */
import { expect } from 'chai';
import { findJobByPublicId } from '../../src/jobs/repo.js';
import { parseJobInput, updateJob } from '../../src/jobs/service.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawRequest } from '../helpers/raw-http.js';
import { hrSession } from '../helpers/hr.js';
import { captureLog } from '../helpers/log.js';

const ldOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);

/** Runs `fn` with the log collected instead of printed; returns what was logged. */
async function captureErrors(fn: () => Promise<void>): Promise<string[]> {
  const log = captureLog();
  try {
    await fn();
  } finally {
    log.restore();
  }
  return log.lines();
}

for (const kind of databaseKinds()) {
  describe(`site: SEO, headers, errors [${kind}]`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://jobs.example.com', COMPANY_NAME: 'Globex <Inc>' });
      await makeJob(s.ctx.db, {
        public_id: 'remote-dev',
        title: 'Remote Dev',
        work_mode: 'REMOTE',
        location: 'Anywhere',
        min_salary: 50000,
        max_salary: 70000,
        currency: 'EUR',
        description: '<p>Desc</p>',
        requirements: '<ul><li>R</li></ul>',
      });
      await makeJob(s.ctx.db, {
        public_id: 'office-dev',
        title: 'Office Dev',
        work_mode: 'ONSITE',
        location: 'Pune',
        min_salary: null,
        max_salary: null,
      });
      await makeJob(s.ctx.db, { public_id: 'hidden-dev', title: 'Hidden', status: 'INACTIVE' });
      // JSON-LD shapes: every job type, every location shape, one-sided and equal salaries.
      const ld = (o: Record<string, unknown>) => makeJob(s.ctx.db, { currency: 'USD', ...o });
      await ld({
        public_id: 'ld-austin',
        job_type: 'FULL_TIME',
        work_mode: 'ONSITE',
        location: 'Austin, TX, United States',
        min_salary: 120000,
        max_salary: 120000,
      });
      await ld({
        public_id: 'ld-london',
        job_type: 'PART_TIME',
        work_mode: 'HYBRID',
        location: 'London, United Kingdom',
        currency: 'GBP',
        min_salary: 30000,
        max_salary: null,
      });
      await ld({
        public_id: 'ld-bengaluru',
        job_type: 'CONTRACT',
        work_mode: 'ONSITE',
        location: 'Bengaluru, India',
        currency: 'INR',
        min_salary: null,
        max_salary: 900000,
      });
      await ld({ public_id: 'ld-intern', job_type: 'INTERNSHIP', work_mode: 'HYBRID', location: 'Toronto, ON, CA', currency: 'CAD' });
      await ld({ public_id: 'ld-singapore', work_mode: 'ONSITE', location: 'Singapore' });
      await ld({ public_id: 'ld-aliases', work_mode: 'ONSITE', location: 'Dubai, UAE' });
      await ld({ public_id: 'ld-no-country', work_mode: 'ONSITE', location: 'Springfield' });
      await ld({ public_id: 'ld-state-code', work_mode: 'HYBRID', location: 'San Francisco, CA' });
      await ld({ public_id: 'ld-remote-us', work_mode: 'REMOTE', location: 'Remote — United States' });
      await ld({ public_id: 'ld-remote-city', work_mode: 'REMOTE', location: 'Austin, TX, United States' });
      await ld({ public_id: 'ld-remote-eu', work_mode: 'REMOTE', location: 'Remote — Europe' });
    });
    after(() => s.close());

    it('serves a sitemap of active jobs and a robots.txt that keeps /hr out', async () => {
      const sm = await (await fetch(`${s.baseUrl}/sitemap.xml`)).text();
      expect(sm)
        .to.include('<loc>https://jobs.example.com/careers/remote-dev</loc>')
        .and.include('office-dev')
        .and.not.include('hidden-dev');
      const robots = await (await fetch(`${s.baseUrl}/robots.txt`)).text();
      expect(robots).to.include('Disallow: /hr').and.include('Sitemap: https://jobs.example.com/sitemap.xml');
    });

    it('keeps the sitemap like a page: an ETag, 304 to it, and a new job listed at once with PUBLIC_CACHE_SECONDS=0', async () => {
      const fresh = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://jobs.example.com', PUBLIC_CACHE_SECONDS: '0' });
      try {
        // rawRequest, not fetch: fetch adds Cache-Control: no-cache to a conditional request.
        const first = await rawRequest(fresh.baseUrl, '/sitemap.xml');
        expect(first.headers['content-type']).to.equal('application/xml; charset=utf-8');
        expect(first.body).to.include('<loc>https://jobs.example.com/careers</loc>');
        const ifNoneMatch = { 'if-none-match': first.headers.etag! };
        expect((await rawRequest(fresh.baseUrl, '/sitemap.xml', { headers: ifNoneMatch })).status).to.equal(304);
        await makeJob(fresh.ctx.db, { public_id: 'sitemap-new', status: 'ACTIVE' });
        const later = await rawRequest(fresh.baseUrl, '/sitemap.xml', { headers: ifNoneMatch });
        expect(later.status).to.equal(200);
        expect(later.body).to.include('<loc>https://jobs.example.com/careers/sitemap-new</loc>');
      } finally {
        await fresh.close();
      }
    });

    it('puts JobPosting JSON-LD, canonical, description and Open Graph on job pages', async () => {
      const html = await (await fetch(`${s.baseUrl}/careers/remote-dev`)).text();
      expect(html).to.include('<link rel="canonical" href="https://jobs.example.com/careers/remote-dev">');
      expect(html).to.include('<meta name="description" content="Desc">');
      expect(html).to.include('property="og:title"').and.include('property="og:type" content="article"');
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);
      expect(ld).to.deep.include({
        '@type': 'JobPosting',
        title: 'Remote Dev',
        employmentType: 'FULL_TIME',
        directApply: true,
        jobLocationType: 'TELECOMMUTE',
      });
      // COMPANY_LOGO_URL is unset here: no logo key at all (see the next test for one).
      expect(ld.hiringOrganization).to.deep.equal({
        '@type': 'Organization',
        name: 'Globex <Inc>',
        sameAs: 'https://www.example.com/about',
      });
      expect(ld.baseSalary).to.deep.equal({
        '@type': 'MonetaryAmount',
        currency: 'EUR',
        value: { '@type': 'QuantitativeValue', unitText: 'YEAR', minValue: 50000, maxValue: 70000 },
      });
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

    it('names the company logo in hiringOrganization when COMPANY_LOGO_URL is set', async () => {
      // Characters that must not end the script element or the JSON string come through intact.
      const logo = 'https://cdn.example.com/brand/logo.png?v=2&x="</script><b>';
      const withLogo = await startTestServer(kind, { COMPANY_LOGO_URL: logo, COMPANY_NAME: 'Globex' });
      try {
        await makeJob(withLogo.ctx.db, { public_id: 'logo-dev', title: 'Logo Dev' });
        const res = await fetch(`${withLogo.baseUrl}/careers/logo-dev`);
        expect(res.status).to.equal(200);
        const html = await res.text();
        expect(ldOf(html).hiringOrganization).to.deep.equal({
          '@type': 'Organization',
          name: 'Globex',
          sameAs: 'https://www.example.com/about',
          logo,
        });
        expect(html).not.to.include('</script><b>');
        // Only job pages carry JSON-LD: the list does not gain a logo elsewhere.
        expect(await (await fetch(`${withLogo.baseUrl}/careers`)).text()).not.to.include('cdn.example.com');
      } finally {
        await withLogo.close();
      }
    });

    it('maps job types to Google employmentType values', async () => {
      const type = async (id: string) => ldOf(await (await fetch(`${s.baseUrl}/careers/${id}`)).text()).employmentType;
      expect(await type('ld-austin')).to.equal('FULL_TIME');
      expect(await type('ld-london')).to.equal('PART_TIME');
      expect(await type('ld-bengaluru')).to.equal('CONTRACTOR');
      expect(await type('ld-intern')).to.equal('INTERN');
    });

    it('splits on-site and hybrid locations into a PostalAddress with an ISO country code', async () => {
      const address = async (id: string) => {
        const ld = ldOf(await (await fetch(`${s.baseUrl}/careers/${id}`)).text());
        expect(ld, id).not.to.have.property('jobLocationType');
        expect(ld, id).not.to.have.property('applicantLocationRequirements');
        expect(ld.jobLocation['@type'], id).to.equal('Place');
        return ld.jobLocation.address;
      };
      expect(await address('ld-austin')).to.deep.equal({
        '@type': 'PostalAddress',
        addressLocality: 'Austin',
        addressRegion: 'TX',
        addressCountry: 'US',
      });
      expect(await address('ld-london')).to.deep.equal({ '@type': 'PostalAddress', addressLocality: 'London', addressCountry: 'GB' });
      expect(await address('ld-bengaluru')).to.deep.equal({ '@type': 'PostalAddress', addressLocality: 'Bengaluru', addressCountry: 'IN' });
      // A bare code is trusted after a region: 'Toronto, ON, CA' is Canada...
      expect(await address('ld-intern')).to.deep.equal({
        '@type': 'PostalAddress',
        addressLocality: 'Toronto',
        addressRegion: 'ON',
        addressCountry: 'CA',
      });
      // ...while 'San Francisco, CA' (California, not Canada) names no country: the text stays the locality.
      expect(await address('ld-state-code')).to.deep.equal({ '@type': 'PostalAddress', addressLocality: 'San Francisco, CA' });
      expect(await address('ld-singapore')).to.deep.equal({ '@type': 'PostalAddress', addressCountry: 'SG' });
      expect(await address('ld-aliases')).to.deep.equal({ '@type': 'PostalAddress', addressLocality: 'Dubai', addressCountry: 'AE' });
      expect(await address('ld-no-country')).to.deep.equal({ '@type': 'PostalAddress', addressLocality: 'Springfield' });
    });

    it('marks remote jobs TELECOMMUTE with the applicant country only when one is recognised', async () => {
      const remote = async (id: string) => {
        const ld = ldOf(await (await fetch(`${s.baseUrl}/careers/${id}`)).text());
        expect(ld.jobLocationType, id).to.equal('TELECOMMUTE');
        expect(ld, id).not.to.have.property('jobLocation');
        return ld.applicantLocationRequirements;
      };
      expect(await remote('ld-remote-us')).to.deep.equal({ '@type': 'Country', name: 'United States' });
      expect(await remote('ld-remote-city')).to.deep.equal({ '@type': 'Country', name: 'United States' });
      // A region or 'Anywhere' is never passed off as a Country.
      expect(await remote('ld-remote-eu')).to.equal(undefined);
      expect(await remote('remote-dev')).to.equal(undefined);
    });

    it('gives baseSalary as a range, one bound or one value', async () => {
      const value = async (id: string) => {
        const ld = ldOf(await (await fetch(`${s.baseUrl}/careers/${id}`)).text());
        expect(ld.baseSalary['@type']).to.equal('MonetaryAmount');
        return { currency: ld.baseSalary.currency, ...ld.baseSalary.value };
      };
      expect(await value('remote-dev')).to.deep.equal({
        currency: 'EUR',
        '@type': 'QuantitativeValue',
        unitText: 'YEAR',
        minValue: 50000,
        maxValue: 70000,
      });
      expect(await value('ld-london')).to.deep.equal({ currency: 'GBP', '@type': 'QuantitativeValue', unitText: 'YEAR', minValue: 30000 });
      expect(await value('ld-bengaluru')).to.deep.equal({
        currency: 'INR',
        '@type': 'QuantitativeValue',
        unitText: 'YEAR',
        maxValue: 900000,
      });
      expect(await value('ld-austin')).to.deep.equal({ currency: 'USD', '@type': 'QuantitativeValue', unitText: 'YEAR', value: 120000 });
    });

    it('answers malformed percent sequences in path parameters with 404, logging nothing', async () => {
      const { token } = await hrSession(s.ctx.db, 'hr-percent');
      const cases: [string, string, Record<string, string>][] = [
        ['GET', '/careers/%', {}],
        ['GET', '/careers/%E0%A4%A', {}],
        ['GET', '/careers/%/apply', {}],
        ['GET', '/careers/%ZZ/submitted', {}],
        ['GET', '/api/jobs/%/', {}],
        ['GET', '/api/jobs/%E0%A4%A/', {}],
        ['POST', '/api/jobs/%/apply/', { 'Content-Type': 'multipart/form-data; boundary=x' }],
        ['GET', '/api/hr/jobs/%/', { Authorization: `Bearer ${token}` }],
        ['PUT', '/api/hr/jobs/%/', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }],
        ['GET', '/api/hr/jobs/%/analytics/', { Authorization: `Bearer ${token}` }],
        ['GET', '/hr/jobs/%/edit', { Cookie: `jwt=${token}` }],
        ['GET', '/hr/jobs/%/insights', { Cookie: `jwt=${token}` }],
      ];
      const logged = await captureErrors(async () => {
        for (const [method, target, headers] of cases) {
          const res = await rawRequest(s.baseUrl, target, {
            method,
            headers,
            body: method === 'GET' ? undefined : method === 'PUT' ? '{}' : '--x--\r\n',
          });
          const label = `${method} ${target}`;
          expect(res.status, label).to.equal(404);
          if (target.startsWith('/api/')) {
            expect(JSON.parse(res.body), label).to.deep.equal({ detail: 'Not found.' });
          } else {
            expect(res.body, label)
              .to.include('404 — Page Not Found')
              .and.include('href="/careers"')
              .and.not.include('URIError')
              .and.not.include('decode');
          }
        }
      });
      expect(logged, 'nothing logged').to.deep.equal([]);
      // Without a session the HR guards still answer first.
      expect((await rawRequest(s.baseUrl, '/api/hr/jobs/%/')).status).to.equal(401);
      expect((await rawRequest(s.baseUrl, '/hr/jobs/%/edit')).status).to.equal(302);
    });

    it('answers other client errors from middleware with their 4xx status and a generic message, logging nothing', async () => {
      const logged = await captureErrors(async () => {
        // A body that claims gzip but is not: the JSON parser fails with a 400 carrying zlib's message.
        const res = await fetch(`${s.baseUrl}/api/jobs/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: 'not gzip at all',
        });
        expect(res.status).to.equal(400);
        expect(await res.json()).to.deep.equal({ detail: 'Bad Request.' });
      });
      expect(logged).to.deep.equal([]);
    });

    it('builds paging links from PUBLIC_BASE_URL, never from an absolute request target', async () => {
      const res = await rawRequest(s.baseUrl, 'http://evil.example/api/jobs/?page_size=2&title=', { headers: { Host: 'evil.example' } });
      expect(res.status).to.equal(200);
      const body = JSON.parse(res.body);
      expect(body.next).to.equal('https://jobs.example.com/api/jobs/?page_size=2&title=&page=2');
      expect(body.previous).to.equal(null);
      const p2 = JSON.parse((await rawRequest(s.baseUrl, 'https://evil.example:8443/api/jobs/?page=2&page_size=2')).body);
      expect(p2.previous).to.equal('https://jobs.example.com/api/jobs/?page_size=2');
      expect(p2.next).to.match(/^https:\/\/jobs\.example\.com\/api\/jobs\/\?page=3&page_size=2$/);
      // The HR list uses the same links.
      const { token } = await hrSession(s.ctx.db, 'hr-paging');
      const hr = await rawRequest(s.baseUrl, 'http://evil.example/api/hr/jobs/?page_size=1', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(JSON.parse(hr.body).next).to.equal('https://jobs.example.com/api/hr/jobs/?page_size=1&page=2');
    });

    it('shows the current UTC year in the footer', async () => {
      const html = await (await fetch(`${s.baseUrl}/privacy`)).text();
      expect(html).to.include(`&copy; ${new Date().getUTCFullYear()} Globex &lt;Inc&gt;. All rights reserved.`);
    });

    it('puts a default Open Graph image on public pages and serves it with a long cache', async () => {
      for (const path of ['/careers', '/careers/remote-dev', '/privacy', '/terms', '/no/such/page', '/careers/hidden-dev']) {
        const html = await (await fetch(s.baseUrl + path)).text();
        expect(html, path).to.include('<meta property="og:image" content="https://jobs.example.com/og/careers-1200x630.png">');
        expect(html, path)
          .to.include('<meta property="og:image:width" content="1200">')
          .and.include('<meta property="og:image:height" content="630">');
        expect(html, path).to.include('<meta name="twitter:card" content="summary_large_image">');
      }
      const img = await fetch(`${s.baseUrl}/og/careers-1200x630.png`);
      expect(img.status).to.equal(200);
      expect(img.headers.get('content-type')).to.equal('image/png');
      expect(img.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await img.arrayBuffer());
      expect(bytes.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], 'IHDR width x height').to.deep.equal([1200, 630]);
      const missing = await fetch(`${s.baseUrl}/og/nope.png`);
      expect(missing.status).to.equal(404);
      expect(await missing.text()).to.include('404 — Page Not Found');
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
      // A write behind the service's back is not seen while the entry lives (PUBLIC_CACHE_SECONDS)...
      await s.ctx.db('jobs').where({ public_id: 'office-dev' }).update({ title: 'Sneaky' });
      expect((await (await fetch(`${s.baseUrl}/api/jobs/office-dev/`)).json()).title).to.equal('Office Dev');
      // ...while a write through the jobs service is visible on the very next request.
      const job = (await findJobByPublicId(s.ctx.db, 'office-dev'))!;
      await updateJob(s.ctx, job, parseJobInput({ ...job, title: 'Office Developer', status: 'REMOVED' }));
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
    // A failure the app does not expect: the jobs table is gone (a database that is merely
    // unavailable is a 503, see test/db/db-outage.test.ts).
    await s.ctx.db.schema.dropTable('jobs');
    const log = captureLog();
    try {
      const page = await fetch(`${s.baseUrl}/careers`);
      const html = await page.text();
      expect(page.status).to.equal(500);
      expect(html).to.include('Unexpected Application Error!').and.not.include('node_modules').and.not.include('acquire');
      const api = await fetch(`${s.baseUrl}/api/jobs/`);
      expect(api.status).to.equal(500);
      expect(await api.json()).to.deep.equal({ detail: 'A server error occurred.' });
    } finally {
      log.restore();
      await s.close();
    }
  });
});

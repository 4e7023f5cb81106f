/**
 * Embeds (issue 21) over HTTP: off (404) without EMBED_ORIGINS; with it, /embed/jobs may be framed
 * by the listed origins only (CSP frame-ancestors, no X-Frame-Options) while every other page still
 * forbids framing; /embed.js may be loaded cross-site; the list's filters apply (an unknown choice is
 * a 400); campaign parameters are cleaned, cut and carried on in the job links; hostile values stay text.
 */
import { expect } from 'chai';
import { loadConfig } from '../../config/index.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('EMBED_ORIGINS', () => {
  it('takes origins separated by commas or spaces, and refuses paths, queries, credentials and other schemes', () => {
    expect(
      loadConfig({ EMBED_ORIGINS: 'https://www.example.com, http://localhost:8080  https://b.example.org/' }).embedOrigins,
    ).to.deep.equal(['https://www.example.com', 'http://localhost:8080', 'https://b.example.org']);
    expect(loadConfig({}).embedOrigins).to.deep.equal([]);
    for (const bad of [
      'https://example.com/jobs',
      'https://example.com?x=1',
      'https://u:p@example.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      '*',
    ]) {
      expect(() => loadConfig({ EMBED_ORIGINS: bad }), bad).to.throw(/EMBED_ORIGINS must list origins/);
    }
  });
});

for (const kind of databaseKinds()) {
  describe(`embeds [${kind}]`, function () {
    this.timeout(60_000);
    let on: TestServer;
    let off: TestServer;
    before(async () => {
      on = await startTestServer(kind, {
        EMBED_ORIGINS: 'https://www.example.com,http://127.0.0.1:9',
        PUBLIC_BASE_URL: 'https://jobs.example.com',
      });
      await makeJob(on.ctx.db, {
        title: 'Payroll Specialist',
        location: 'Austin, TX, United States',
        work_mode: 'ONSITE',
        public_id: 'payroll',
      });
      await makeJob(on.ctx.db, {
        title: '<script>alert(1)</script> Engineer',
        location: 'Remote',
        work_mode: 'REMOTE',
        public_id: 'remote-eng',
      });
      await makeJob(on.ctx.db, { title: 'Closed Role', status: 'INACTIVE', public_id: 'closed-role' });
      off = await startTestServer(kind);
    });
    after(async () => {
      await on.close();
      await off.close();
    });

    it('answers 404 for both without EMBED_ORIGINS', async () => {
      expect((await fetch(`${off.baseUrl}/embed/jobs`)).status).to.equal(404);
      expect((await fetch(`${off.baseUrl}/embed.js`)).status).to.equal(404);
    });

    it('/embed/jobs lists the open jobs and may be framed by the listed origins only', async () => {
      const res = await fetch(`${on.baseUrl}/embed/jobs`);
      expect(res.status).to.equal(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).to.include('frame-ancestors https://www.example.com http://127.0.0.1:9');
      expect(csp).to.include("script-src 'self'");
      expect(res.headers.get('x-frame-options')).to.equal(null);
      const html = await res.text();
      expect(html).to.include('Payroll Specialist');
      expect(html).to.include('&lt;script&gt;alert(1)&lt;/script&gt; Engineer');
      expect(html).to.not.include('<script>alert(1)');
      expect(html).to.not.include('Closed Role');
      expect(html).to.include('href="https://jobs.example.com/careers/payroll?utm_source=embed&amp;utm_medium=embed"');
      expect(html).to.include('<meta name="robots" content="noindex">');
      // Every other page still refuses to be framed.
      const list = await fetch(`${on.baseUrl}/careers`);
      expect(list.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
      expect(list.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    });

    it('/embed.js is a script any page may load', async () => {
      const res = await fetch(`${on.baseUrl}/embed.js`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
      expect(res.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
      expect(await res.text()).to.include('/embed/jobs');
      expect((await fetch(`${on.baseUrl}/careers`)).headers.get('cross-origin-resource-policy')).to.equal('same-origin');
    });

    it("takes the list's filters: an unknown choice is a 400, long or hostile texts are harmless", async () => {
      const remote = await (await fetch(`${on.baseUrl}/embed/jobs?work_mode=REMOTE`)).text();
      expect(remote).to.include('Engineer');
      expect(remote).to.not.include('Payroll Specialist');
      const austin = await (await fetch(`${on.baseUrl}/embed/jobs?location=austin`)).text();
      expect(austin).to.include('Payroll Specialist');
      expect(austin).to.include('href="https://jobs.example.com/careers?location=austin&amp;utm_source=embed&amp;utm_medium=embed"');
      expect((await fetch(`${on.baseUrl}/embed/jobs?job_type=NOPE`)).status).to.equal(400);
      expect((await fetch(`${on.baseUrl}/embed/jobs?title=${'x'.repeat(10_000)}`)).status).to.equal(200);
      expect((await fetch(`${on.baseUrl}/embed/jobs?location=%27%20OR%201%3D1--`)).status).to.equal(200);
    });

    it('carries the campaign parameters on, cleaned of control characters and cut to 100 characters', async () => {
      const q = new URLSearchParams({ utm_source: 'news\u0000letter\r\n', utm_medium: 'email', utm_campaign: 'y'.repeat(500) });
      const html = await (await fetch(`${on.baseUrl}/embed/jobs?${q}`)).text();
      expect(html).to.include(
        `href="https://jobs.example.com/careers/payroll?utm_source=news+letter&amp;utm_medium=email&amp;utm_campaign=${'y'.repeat(100)}"`,
      );
      const hostile = await (await fetch(`${on.baseUrl}/embed/jobs?utm_source=${encodeURIComponent('"><script>x</script>')}`)).text();
      expect(hostile).to.not.include('<script>x');
      expect((await fetch(`${on.baseUrl}/embed/jobs?utm_source=a&utm_source=b`)).status).to.equal(200);
    });
  });
}

/**
 * Tracking-link clicks (issue 28 item 8) over HTTP on both databases: `/go/{slug}` counts one click
 * per client address and link per CLICK_WINDOW_SECONDS, shared by every process on the database; a
 * HEAD (a link preview) is redirected but counts nothing and sets no cookie; every visit is still
 * redirected; the count starts again once the window has passed. Also: a bad job id of a new
 * link, 0 included, gets the field's own message.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { createAppContext } from '../../src/wiring.js';
import { toDbDate } from '../../src/db/codecs.js';
import { listenHttp } from '../../src/http/listen.js';
import { CLICK_WINDOW_SECONDS } from '../../src/sources/pages.js';
import { SOURCE_MESSAGES } from '../../src/sources/schema.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

for (const kind of databaseKinds()) {
  describe(`tracking-link clicks [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    const hr = async (path: string, init: { method?: string; body?: unknown } = {}) => {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const clicks = async (slug: string) => Number((await s.ctx.db('tracking_links').where({ slug }).first('clicks')).clicks);
    /** A visit from `client` (the test client is the trusted proxy, so X-Forwarded-For names the client). */
    const go = (baseUrl: string, slug: string, client = '203.0.113.7', method = 'GET') =>
      fetch(`${baseUrl}/go/${slug}`, { method, redirect: 'manual', headers: { 'X-Forwarded-For': client } });

    before(async () => {
      s = await startTestServer(kind, { TRUST_PROXY: 'true' });
      token = (await hrSession(s.ctx.db, 'clicks-hr')).token;
      const job = await makeJob(s.ctx.db, { title: 'Clicked Role', public_id: 'clicked' });
      expect(
        (
          await hr('/api/hr/sources/links/', {
            method: 'POST',
            body: { name: 'Spring post', source: 'linkedin', job_id: job.id, slug: 'spring' },
          })
        ).status,
      ).to.equal(201);
      expect(
        (await hr('/api/hr/sources/links/', { method: 'POST', body: { name: 'Autumn post', source: 'linkedin', slug: 'autumn' } })).status,
      ).to.equal(201);
    });
    after(() => s.close());

    it('a HEAD is redirected but is no click and keeps no first touch', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await go(s.baseUrl, 'spring', '198.51.100.1', 'HEAD');
        expect(res.status).to.equal(302);
        expect(res.headers.get('location')).to.equal('/careers/clicked');
        expect(res.headers.getSetCookie()).to.deep.equal([]);
      }
      expect(await clicks('spring')).to.equal(0);
    });

    it('one client adds one click per link per window, every visit redirected; other clients and links count apart', async () => {
      for (let i = 0; i < 10; i++) {
        const res = await go(s.baseUrl, i % 2 ? 'SPRING' : 'spring');
        expect(res.status).to.equal(302);
        expect(res.headers.get('location')).to.equal('/careers/clicked');
      }
      expect(await clicks('spring')).to.equal(1);
      await go(s.baseUrl, 'autumn');
      await go(s.baseUrl, 'autumn');
      expect(await clicks('autumn')).to.equal(1);
      await go(s.baseUrl, 'spring', '198.51.100.2');
      await go(s.baseUrl, 'spring', '2001:db8::1');
      // The same IPv6 network (RATE_LIMIT_IPV6_SUBNET, /56 by default) is the same client, as for the limits.
      await go(s.baseUrl, 'spring', '2001:db8::2');
      expect(await clicks('spring')).to.equal(3);
      // The store keeps only a keyed hash of the link and address.
      const keys = (await s.ctx.db('rate_limit_hits').where('key', 'like', 'go-click:%').pluck('key')) as string[];
      expect(keys.length).to.be.greaterThan(0);
      expect(keys.join(' ')).to.not.match(/203\.0\.113|198\.51|2001|spring/);
    });

    it('a second process on the same database shares the window', async () => {
      const ctx = createAppContext(s.testDb.config);
      const server: Server = await listenHttp(createApp(ctx), { port: 0, host: '127.0.0.1' });
      try {
        const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const before = await clicks('spring');
        await Promise.all([go(other, 'spring', '192.0.2.50'), go(s.baseUrl, 'spring', '192.0.2.50'), go(other, 'spring', '192.0.2.50')]);
        expect(await clicks('spring')).to.equal(before + 1);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await ctx.db.destroy();
      }
    });

    it(`counts the client again once its ${CLICK_WINDOW_SECONDS}-second window has passed`, async () => {
      const before = await clicks('autumn');
      await go(s.baseUrl, 'autumn');
      expect(await clicks('autumn')).to.equal(before);
      // Every window ends now (what the passing of CLICK_WINDOW_SECONDS does).
      await s.ctx
        .db('rate_limit_hits')
        .where('key', 'like', 'go-click:%')
        .update({ reset_at: toDbDate(new Date(Date.now() - 1000)) });
      await go(s.baseUrl, 'autumn');
      expect(await clicks('autumn')).to.equal(before + 1);
    });

    it('a new link with job_id 0 or another bad job id is refused with the job message', async () => {
      for (const job_id of [0, '0', -5, 1.5, 'abc', true, [], {}, 2 ** 31, '1e3', Number.MAX_SAFE_INTEGER]) {
        const res = await hr('/api/hr/sources/links/', { method: 'POST', body: { name: 'Bad job', source: 'x', job_id } });
        expect(res.status, JSON.stringify(job_id)).to.equal(400);
        expect(res.body, JSON.stringify(job_id)).to.deep.equal({ job_id: [SOURCE_MESSAGES.job] });
      }
    });
  });
}

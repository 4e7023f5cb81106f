/**
 * The public pages as HTTP caches and browsers see them (issue 19): a weak ETag and 304 answered
 * before any page is rendered again, brotli and gzip bodies kept with the page, `Vary:
 * Accept-Encoding` on every variant, HEAD, and no old ETag answered 304 after a job write, in the
 * process that wrote or (once its PUBLIC_CACHE_SECONDS have passed) in another process on the
 * same database. Requests go through node:http so bodies arrive exactly as sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { createSite } from '../../src/app.js';
import { createAppContext } from '../../src/wiring.js';
import { createDb } from '../../src/db/knex.js';
import { listenHttp } from '../../src/http/listen.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as HTML, whatever it was sent in. */
function decoded(a: Answer): string {
  const coding = a.headers['content-encoding'];
  const raw = coding === 'br' ? zlib.brotliDecompressSync(a.body) : coding === 'gzip' ? zlib.gunzipSync(a.body) : a.body;
  return raw.toString('utf8');
}

for (const kind of databaseKinds()) {
  for (const cacheSeconds of ['60', '0']) {
    describe(`public pages: ETag, 304 and encodings, PUBLIC_CACHE_SECONDS=${cacheSeconds} [${kind}]`, function () {
      this.timeout(60_000);
      let s: TestServer;
      let jobPath: string;
      before(async () => {
        s = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: cacheSeconds });
        const job = await makeJob(s.ctx.db, { title: 'Etag Engineer', status: 'ACTIVE' });
        await makeJob(s.ctx.db, { title: 'Second Role', status: 'ACTIVE' });
        jobPath = `/careers/${job.public_id}`;
      });
      after(() => s.close());

      for (const page of ['list', 'job'] as const) {
        const path = () => (page === 'list' ? '/careers' : jobPath);

        it(`${page}: sends a weak ETag, the same for every encoding and request, and Vary: Accept-Encoding`, async () => {
          const plain = await get(s.baseUrl, path());
          expect(plain.status).to.equal(200);
          expect(plain.headers.etag).to.match(/^W\/"[0-9a-f]+-[\w-]+"$/);
          expect(plain.headers.vary).to.equal('Accept-Encoding');
          expect(plain.headers['content-type']).to.equal('text/html; charset=utf-8');
          expect(plain.headers['content-encoding']).to.equal(undefined);
          expect(Number(plain.headers['content-length'])).to.equal(plain.body.length);
          expect(decoded(plain)).to.include(page === 'list' ? 'Etag Engineer' : '<h1');
          for (const acceptEncoding of ['gzip, br', 'gzip', 'identity']) {
            const again = await get(s.baseUrl, path(), { 'accept-encoding': acceptEncoding });
            expect(again.headers.etag, acceptEncoding).to.equal(plain.headers.etag);
            expect(again.headers.vary, acceptEncoding).to.equal('Accept-Encoding');
            expect(decoded(again), acceptEncoding).to.equal(plain.body.toString('utf8'));
          }
        });

        it(`${page}: negotiates q-values, identity, * and unknown codings; compressed bodies are whole`, async () => {
          const cases: [string, string | undefined][] = [
            ['gzip, deflate, br, zstd', 'br'],
            ['gzip, br', 'br'],
            ['br;q=0.5, gzip;q=0.8', 'gzip'],
            ['br;q=0, gzip', 'gzip'],
            ['GZIP', 'gzip'],
            ['gzip;q=0', undefined],
            ['gzip;q=0, br;q=0', undefined],
            ['identity', undefined],
            ['compress, x-unknown', undefined],
            ['*', 'br'],
            ['*;q=0', undefined], // nothing acceptable is offered: the page is sent as is
            ['identity;q=0', undefined],
            [';;;,,q=', undefined],
            ['', undefined],
          ];
          const html = decoded(await get(s.baseUrl, path()));
          for (const [acceptEncoding, coding] of cases) {
            const a = await get(s.baseUrl, path(), { 'accept-encoding': acceptEncoding });
            expect(a.status, acceptEncoding).to.equal(200);
            expect(a.headers['content-encoding'], acceptEncoding).to.equal(coding);
            expect(Number(a.headers['content-length']), acceptEncoding).to.equal(a.body.length);
            expect(decoded(a), acceptEncoding).to.equal(html);
          }
        });

        it(`${page}: answers 304 to its own ETag (alone, in a list, weak or strong, or *), 200 to a stale or malformed one`, async () => {
          const { headers } = await get(s.baseUrl, path());
          const etag = headers.etag as string;
          for (const inm of [etag, etag.slice(2), `"stale", ${etag}`, '*']) {
            const a = await get(s.baseUrl, path(), { 'if-none-match': inm, 'accept-encoding': 'gzip, br' });
            expect(a.status, inm).to.equal(304);
            expect(a.body.length, inm).to.equal(0);
            expect(a.headers.etag, inm).to.equal(etag);
            expect(a.headers.vary, inm).to.equal('Accept-Encoding');
          }
          for (const inm of ['W/"0-stale"', '"stale"', 'garbage', 'W/', '""', `${etag}x`, `W/"${'a'.repeat(6000)}"`]) {
            const a = await get(s.baseUrl, path(), { 'if-none-match': inm });
            expect(a.status, inm).to.equal(200);
            expect(a.body.length, inm).to.be.greaterThan(0);
          }
          // A reload asked for with Cache-Control: no-cache always gets the page.
          expect((await get(s.baseUrl, path(), { 'if-none-match': etag, 'cache-control': 'no-cache' })).status).to.equal(200);
        });

        it(`${page}: HEAD gets the headers of the GET and no body`, async () => {
          for (const acceptEncoding of ['', 'gzip, br']) {
            const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
            const full = await get(s.baseUrl, path(), headers);
            const head = await get(s.baseUrl, path(), headers, 'HEAD');
            expect(head.status).to.equal(200);
            expect(head.body.length).to.equal(0);
            for (const name of ['etag', 'vary', 'content-type', 'content-length', 'content-encoding', 'content-security-policy']) {
              expect(head.headers[name], name).to.equal(full.headers[name]);
            }
          }
        });

        it(`${page}: every answer keeps the security headers and gets its own request id`, async () => {
          const ids = new Set<string>();
          for (let i = 0; i < 3; i++) {
            const a = await get(s.baseUrl, path(), { 'accept-encoding': 'br' });
            expect(a.headers['content-security-policy']).to.include("default-src 'self'");
            expect(a.headers['x-content-type-options']).to.equal('nosniff');
            expect(a.headers['x-frame-options']).to.equal('SAMEORIGIN');
            expect(a.headers['set-cookie']).to.equal(undefined);
            ids.add(a.headers['x-request-id'] as string);
          }
          expect(ids.size).to.equal(3);
        });
      }

      it('counts a view for every job page answered, from memory or not', async () => {
        const job = await makeJob(s.ctx.db, { title: 'Viewed Role', status: 'ACTIVE' });
        for (let i = 0; i < 5; i++) expect((await get(s.baseUrl, `/careers/${job.public_id}`)).status).to.equal(200);
        await s.ctx.views.flush();
        const row = await s.ctx.db('jobs').where({ id: job.id }).first('views');
        expect(Number(row.views)).to.equal(5);
      });

      it('never answers an old ETag with 304 after a job write in this process', async () => {
        const { token } = await hrSession(s.ctx.db);
        const job = await makeJob(s.ctx.db, { title: 'Before Write', status: 'ACTIVE' });
        const path = `/careers/${job.public_id}`;
        const before = { list: await get(s.baseUrl, '/careers'), job: await get(s.baseUrl, path) };
        const current = await (
          await fetch(`${s.baseUrl}/api/hr/jobs/${job.id}/`, { headers: { Authorization: `Bearer ${token}` } })
        ).json();
        const put = await fetch(`${s.baseUrl}/api/hr/jobs/${job.id}/`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...current, title: 'After Write' }),
        });
        expect(put.status).to.equal(200);
        for (const [p, old] of [
          ['/careers', before.list],
          [path, before.job],
        ] as const) {
          const a = await get(s.baseUrl, p, { 'if-none-match': old.headers.etag as string, 'accept-encoding': 'gzip' });
          expect(a.status, p).to.equal(200);
          expect(a.headers.etag, p).not.to.equal(old.headers.etag);
          expect(decoded(a), p).to.include('After Write');
        }
      });
    });
  }

  describe(`public pages in two processes on one database [${kind}]`, function () {
    this.timeout(60_000);
    let a: TestServer;
    let bUrl: string;
    let closeB: () => Promise<void>;
    before(async () => {
      a = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '1' });
      // A second app with its own database connections and its own cache: another process as far
      // as caching goes.
      const ctx = createAppContext(a.testDb.config, { db: createDb(a.testDb.config) });
      const server = await listenHttp(createSite(ctx).listener, { port: 0, host: '127.0.0.1' });
      bUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      closeB = async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([ctx.views.flush().catch(() => undefined), ctx.funnel.flush().catch(() => undefined)]);
        await ctx.db.destroy();
      };
    });
    after(async () => {
      await closeB();
      await a.close();
    });

    it('the other process answers the old ETag with 304 only until its PUBLIC_CACHE_SECONDS pass, then sends the new page', async () => {
      const { token } = await hrSession(a.ctx.db);
      const job = await makeJob(a.ctx.db, { title: 'Shared Before', status: 'ACTIVE' });
      const path = `/careers/${job.public_id}`;
      const old = { list: await get(bUrl, '/careers'), job: await get(bUrl, path) };
      expect(decoded(old.job)).to.include('Shared Before');
      const current = await (await fetch(`${a.baseUrl}/api/hr/jobs/${job.id}/`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const put = await fetch(`${a.baseUrl}/api/hr/jobs/${job.id}/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...current, title: 'Shared After' }),
      });
      expect(put.status).to.equal(200);
      // The writer at once; the other process once its entries (1 s) have expired.
      for (const [p, before] of [
        ['/careers', old.list],
        [path, old.job],
      ] as const) {
        const now = await get(a.baseUrl, p, { 'if-none-match': before.headers.etag as string });
        expect(now.status, p).to.equal(200);
        expect(decoded(now), p).to.include('Shared After');
      }
      await new Promise((r) => setTimeout(r, 1100));
      for (const [p, before] of [
        ['/careers', old.list],
        [path, old.job],
      ] as const) {
        const later = await get(bUrl, p, { 'if-none-match': before.headers.etag as string, 'accept-encoding': 'br' });
        expect(later.status, p).to.equal(200);
        expect(later.headers.etag, p).not.to.equal(before.headers.etag);
        expect(decoded(later), p).to.include('Shared After');
        // and the two processes now agree on the page's ETag
        expect((await get(a.baseUrl, p)).headers.etag, p).to.equal(later.headers.etag);
      }
    });
  });
}

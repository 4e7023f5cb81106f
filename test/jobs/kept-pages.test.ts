/**
 * Issue 33: kept public pages answered before Express (src/http/kept-pages.ts), and with
 * PUBLIC_CACHE_SECONDS=0 validated against the public pages' version instead of rendered again
 * (src/db/public-version.ts). Two servers share one app context: the site's listener (kept pages
 * first, the server as `npm start` runs it) and the Express app alone, so every answer from memory
 * is compared with what Express sends for the same request: headers (all but Date and the request
 * id's value), status, body, log line and metrics. Express being skipped is seen by counting the
 * calls into it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createApp, createSite } from '../../src/app.js';
import { settleContext, type AppContext } from '../../src/context.js';
import { createAppContext } from '../../src/wiring.js';
import { listenHttp } from '../../src/http/listen.js';
import { createTestDb, databaseKinds, type DbKind, type TestDb } from '../helpers/db.js';
import { jobPayload, makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { cliSync } from '../helpers/child-server.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(baseUrl: string, target: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: target, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function decoded(a: Answer): string {
  const coding = a.headers['content-encoding'];
  const raw = coding === 'br' ? zlib.brotliDecompressSync(a.body) : coding === 'gzip' ? zlib.gunzipSync(a.body) : a.body;
  return raw.toString('utf8');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The two answers carry the same headers with the same values, but Date and the request id's value. */
function expectSameHeaders(fast: Answer, app: Answer, what: string): void {
  const names = (a: Answer) => Object.keys(a.headers).sort();
  expect(names(fast), what).to.deep.equal(names(app));
  for (const name of names(app)) {
    if (name === 'date') continue;
    if (name === 'x-request-id') {
      expect(fast.headers[name], what).to.match(UUID);
      continue;
    }
    expect(fast.headers[name], `${what}: ${name}`).to.deep.equal(app.headers[name]);
  }
}

interface Site {
  t: TestDb;
  ctx: AppContext;
  /** The site as the server runs it: kept pages first. */
  fast: string;
  /** The same context's Express app alone: every request through Express. */
  app: string;
  /** Requests the site's listener handed to its Express app so far. */
  appCalls: () => number;
  lines: Record<string, unknown>[];
  close: () => Promise<void>;
}

async function listen(listener: http.RequestListener): Promise<Server> {
  return listenHttp(listener, { port: 0, host: '127.0.0.1' });
}

const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function startSite(kind: DbKind, env: Record<string, string>): Promise<Site> {
  const t = await createTestDb(kind, { METRICS_TOKEN: 'metrics-token-0123456789abcdef', ...env });
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const ctx = createAppContext(t.config, { db: t.db, log });
  const site = createSite(ctx);
  // Express's app function calls its `handle` for every request it gets: counted here.
  let calls = 0;
  const app = site.app as unknown as { handle: (...args: unknown[]) => void };
  const handle = app.handle.bind(site.app);
  app.handle = (...args: unknown[]) => {
    calls++;
    handle(...args);
  };
  const fast = await listen(site.listener);
  const alone = await listen(createApp(ctx));
  return {
    t,
    ctx,
    fast: urlOf(fast),
    app: urlOf(alone),
    appCalls: () => calls,
    lines,
    close: async () => {
      for (const s of [fast, alone]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      await settleContext(ctx);
      await t.destroy();
    },
  };
}

/** The request log line of the answer that carried this request id. */
async function lineOf(s: Site, a: Answer): Promise<Record<string, unknown>> {
  const id = a.headers['x-request-id'];
  for (let waited = 0; waited < 2000; waited += 20) {
    const line = s.lines.find((l) => l.reqId === id);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no log line for ${id}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of databaseKinds()) {
  for (const cacheSeconds of ['60', '0']) {
    describe(`kept pages before Express, PUBLIC_CACHE_SECONDS=${cacheSeconds} [${kind}]`, function () {
      this.timeout(60_000);
      let s: Site;
      let jobPath: string;
      const pages = () => ({ list: '/careers', job: jobPath, feed: '/feeds/jobs.rss', filtered: '/careers?work_mode=REMOTE' });

      before(async () => {
        s = await startSite(kind, { PUBLIC_CACHE_SECONDS: cacheSeconds });
        const job = await makeJob(s.ctx, { title: 'Kept Engineer', status: 'ACTIVE', work_mode: 'REMOTE' });
        await makeJob(s.ctx, { title: 'Other Kept Role', status: 'ACTIVE' });
        jobPath = `/careers/${job.public_id}`;
      });
      after(() => s.close());

      /** Makes sure the page is kept (a first answer through Express), then answers `headers` from memory; fails if Express ran. */
      async function fromMemory(p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
        await request(s.fast, p);
        const before = s.appCalls();
        const a = await request(s.fast, p, headers, method);
        expect(s.appCalls(), `${method} ${p} ${JSON.stringify(headers)} went through Express`).to.equal(before);
        return a;
      }

      for (const page of ['list', 'job', 'feed', 'filtered'] as const) {
        it(`${page}: the answer from memory has Express's headers, status and body, in every encoding, for HEAD and for 304`, async () => {
          const p = pages()[page];
          const etag = (await request(s.app, p)).headers.etag as string;
          expect(etag).to.match(/^W\//);
          const cases: [string, Record<string, string>, string][] = [
            ['plain', {}, 'GET'],
            ['gzip', { 'accept-encoding': 'gzip' }, 'GET'],
            ['br', { 'accept-encoding': 'gzip, deflate, br' }, 'GET'],
            ['identity only', { 'accept-encoding': 'identity' }, 'GET'],
            ['HEAD', {}, 'HEAD'],
            ['HEAD, br', { 'accept-encoding': 'br' }, 'HEAD'],
            ['304', { 'if-none-match': etag }, 'GET'],
            ['304, br', { 'if-none-match': etag, 'accept-encoding': 'br' }, 'GET'],
            ['304 HEAD', { 'if-none-match': etag }, 'HEAD'],
            ['304 from a list', { 'if-none-match': `"other", ${etag.slice(2)}` }, 'GET'],
            ['stale tag', { 'if-none-match': 'W/"1-stale"', 'accept-encoding': 'gzip' }, 'GET'],
            ['no-cache reload', { 'if-none-match': etag, 'cache-control': 'no-cache' }, 'GET'],
          ];
          for (const [what, headers, method] of cases) {
            const fast = await fromMemory(p, headers, method);
            const app = await request(s.app, p, headers, method);
            expect(fast.status, what).to.equal(app.status);
            expect(fast.status, what).to.equal(what.startsWith('304') ? 304 : 200);
            expectSameHeaders(fast, app, `${page} ${what}`);
            expect(fast.body.equals(app.body), `${page} ${what}: body`).to.equal(true);
            if (method === 'GET' && fast.status === 200) expect(decoded(fast)).to.include(page === 'feed' ? '<rss' : 'Kept Engineer');
            // The same line in the request log: route, status and the bytes written.
            const [fastLine, appLine] = [await lineOf(s, fast), await lineOf(s, app)];
            for (const key of ['method', 'route', 'status', 'bytes', 'msg'])
              expect(fastLine[key], `${what}: ${key}`).to.equal(appLine[key]);
          }
        });
      }

      it('times each answer from memory under its route in /metrics, as Express answers are', async () => {
        const count = async () => {
          const text = await (
            await fetch(`${s.fast}/metrics`, { headers: { Authorization: 'Bearer metrics-token-0123456789abcdef' } })
          ).text();
          const line = text
            .split('\n')
            .find((l) => l.startsWith('careers_http_request_duration_seconds_count{method="GET",route="/careers/:publicId",status="200"}'));
          return Number(line?.split(' ')[1] ?? 0);
        };
        await fromMemory(jobPath);
        const before = await count();
        for (let i = 0; i < 3; i++) await fromMemory(jobPath);
        // Each fromMemory is two answers (one to be sure the page is kept).
        expect((await count()) - before).to.equal(6);
      });

      it('counts a view of the job (and the funnel its device) for each answer from memory, HEAD and 304 too, as Express does', async () => {
        const job = await makeJob(s.ctx, { title: 'Counted Role', status: 'ACTIVE' });
        const p = `/careers/${job.public_id}`;
        const phone = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' };
        await fromMemory(p, phone);
        await fromMemory(p, phone, 'HEAD');
        await fromMemory(p, { ...phone, 'if-none-match': (await request(s.fast, p)).headers.etag as string });
        // Refusing tracking: the view is counted, the funnel is not told.
        await fromMemory(p, { ...phone, dnt: '1' });
        await Promise.all([s.ctx.views.flush(), s.ctx.funnel.flush()]);
        const row = await s.ctx.db('jobs').where({ id: job.id }).first('views');
        expect(Number(row.views)).to.equal(9);
        const funnel = await s.ctx
          .db('job_funnel_counts')
          .where({ job_id: job.id, step: 'view', event: 'reached' })
          .select('device', 'count');
        const byDevice = Object.fromEntries(funnel.map((r) => [r.device, Number(r.count)]));
        // Each fromMemory's first request (no User-Agent) counts as desktop; the answers from memory as the phone they came from.
        expect(byDevice).to.deep.equal({ desktop: 5, phone: 3 });
      });

      it('asks the client to close the connection while the server stops, as Express does', async () => {
        const fresh = await startSite(kind, { PUBLIC_CACHE_SECONDS: cacheSeconds });
        try {
          await makeJob(fresh.ctx, { title: 'Stopping Role', status: 'ACTIVE' });
          await request(fresh.fast, '/careers', {}, 'GET');
          fresh.ctx.readiness.stop();
          const before = fresh.appCalls();
          const fast = await request(fresh.fast, '/careers', { connection: 'keep-alive' });
          expect(fresh.appCalls()).to.equal(before);
          const app = await request(fresh.app, '/careers', { connection: 'keep-alive' });
          expect(fast.headers.connection).to.equal('close');
          expectSameHeaders(fast, app, 'stopping');
        } finally {
          await fresh.close();
        }
      });

      it('hands everything else to Express: campaign links, other methods, bodies, HR pages and URLs never answered', async () => {
        await request(s.fast, '/careers');
        const through = async (target: string, headers: Record<string, string> = {}, method = 'GET', body?: string) => {
          const before = s.appCalls();
          const fast = await request(s.fast, target, headers, method, body);
          expect(s.appCalls(), `${method} ${target}`).to.equal(before + 1);
          return fast;
        };
        // A campaign link keeps its first touch (a cookie) every time, kept page or not.
        for (let i = 0; i < 2; i++) {
          const campaign = await through('/careers?utm_source=newsletter&utm_medium=email');
          expect(campaign.status).to.equal(200);
          expect(String(campaign.headers['set-cookie'])).to.match(/^careers_src=/);
        }
        expect(String((await through(`${jobPath}?src=board`)).headers['set-cookie'])).to.match(/^careers_src=/);
        // A URL never answered before goes through Express once, then is answered from memory.
        await through('/careers?title=Kept');
        expect(decoded(await fromMemory('/careers?title=Kept'))).to.include('Kept Engineer');
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE', 'PURGE']) {
          const fast = await through('/careers', {}, method);
          const app = await request(s.app, '/careers', {}, method);
          expect(fast.status, method).to.equal(app.status);
          expect(fast.body.toString(), method).to.equal(app.body.toString());
        }
        // A GET with a body is Express's (it drains or refuses it).
        const withBody = await through('/careers', { 'content-type': 'text/plain', 'content-length': '5' }, 'GET', 'hello');
        expect(withBody.status).to.equal(
          (await request(s.app, '/careers', { 'content-type': 'text/plain', 'content-length': '5' }, 'GET', 'hello')).status,
        );
        expect((await through('/hr/jobs')).status).to.equal(302);
        expect((await through('/careers/no-such-job')).status).to.equal(404);
        expect((await through('/careers/no-such-job')).status).to.equal(404);
      });

      it('answers hostile requests as Express does: odd Accept-Encoding and If-None-Match, a long URL, a URL too long for Node', async () => {
        const etag = (await request(s.fast, '/careers')).headers.etag as string;
        for (const acceptEncoding of [
          'gzip;q=abc',
          'br;q=-1, gzip;q=2',
          ',,,;;',
          'x'.repeat(5000),
          'gzip, gzip;q=0',
          'BR;Q=1',
          '*;q=0.5, identity;q=0',
        ]) {
          const fast = await fromMemory('/careers', { 'accept-encoding': acceptEncoding });
          const app = await request(s.app, '/careers', { 'accept-encoding': acceptEncoding });
          expect(fast.status, acceptEncoding).to.equal(app.status);
          expectSameHeaders(fast, app, acceptEncoding.slice(0, 40));
          expect(decoded(fast), acceptEncoding.slice(0, 40)).to.equal(decoded(app));
        }
        for (const inm of [
          `${etag}, ${etag}`,
          `${'W/"x", '.repeat(1000)}${etag}`,
          'W/"x", '.repeat(1000),
          '*, "a"',
          ' , ,',
          etag.replace('W/', 'w/'),
          `${etag.slice(0, -1)}`,
        ]) {
          const fast = await fromMemory('/careers', { 'if-none-match': inm });
          const app = await request(s.app, '/careers', { 'if-none-match': inm });
          expect(fast.status, inm.slice(0, 60)).to.equal(app.status);
          expectSameHeaders(fast, app, inm.slice(0, 40));
        }
        const long = `/careers?title=${'a'.repeat(100)}&${'x=1&'.repeat(2000)}`;
        const fast = await fromMemory(long, { 'accept-encoding': 'br' });
        const app = await request(s.app, long, { 'accept-encoding': 'br' });
        expect(fast.status).to.equal(app.status);
        expectSameHeaders(fast, app, 'long URL');
        // Past Node's header limit (16 KB) neither gets as far as a listener.
        const tooLong = `/careers?${'y'.repeat(20_000)}`;
        expect((await request(s.fast, tooLong)).status).to.equal(431);
        expect((await request(s.app, tooLong)).status).to.equal(431);
      });
    });
  }

  describe(`PUBLIC_CACHE_SECONDS=0: pages validated against the public pages' version [${kind}]`, function () {
    this.timeout(120_000);
    let s: Site;
    before(async () => {
      s = await startSite(kind, { PUBLIC_CACHE_SECONDS: '0' });
    });
    after(() => s.close());

    it('answers a kept page after one read of the version, and renders nothing while it has not moved', async () => {
      const job = await makeJob(s.ctx, { title: 'Unchanged Role', status: 'ACTIVE' });
      for (const p of ['/careers', `/careers/${job.public_id}`]) {
        await request(s.fast, p);
        const queries: string[] = [];
        const onQuery = (q: { sql: string }) => queries.push(q.sql);
        s.ctx.db.on('query', onQuery);
        const before = s.appCalls();
        try {
          for (let i = 0; i < 5; i++) expect((await request(s.fast, p, { 'accept-encoding': 'gzip' })).status).to.equal(200);
        } finally {
          s.ctx.db.off('query', onQuery);
        }
        expect(s.appCalls(), p).to.equal(before);
        expect(queries.length, p).to.equal(5);
        for (const sql of queries) expect(sql, p).to.match(/from [`"]public_versions[`"] where [`"]name[`"] = \?/);
      }
    });

    it('a job written through the HR API is on the pages at once, and their old ETag is no longer 304', async () => {
      const { token } = await hrSession(s.ctx.db, 'api-writer');
      const job = await makeJob(s.ctx, { title: 'Api Before', status: 'ACTIVE' });
      const p = `/careers/${job.public_id}`;
      const old = { list: await request(s.fast, '/careers'), job: await request(s.fast, p) };
      await request(s.fast, p);
      const current = await (await fetch(`${s.fast}/api/hr/jobs/${job.id}/`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const put = await fetch(`${s.fast}/api/hr/jobs/${job.id}/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...current, title: 'Api After' }),
      });
      expect(put.status).to.equal(200);
      for (const [target, before] of [
        ['/careers', old.list],
        [p, old.job],
      ] as const) {
        const now = await request(s.fast, target, { 'if-none-match': before.headers.etag as string, 'accept-encoding': 'br' });
        expect(now.status, target).to.equal(200);
        expect(decoded(now), target).to.include('Api After').and.not.include('Api Before');
      }
    });

    it('a write by careers-admin (another process: jobs seed, remove-demo) is on the pages at once', async () => {
      const env = { DATA_DIR: s.t.dataDir, ...(s.t.config.databaseUrl ? { DATABASE_URL: s.t.config.databaseUrl } : {}) };
      const countOf = (html: string) => Number(/(\d+) open position/.exec(html)?.[1]);
      const before = decoded(await request(s.fast, '/careers'));
      expect(before).not.to.include('Seeded From File');
      await request(s.fast, '/careers');
      const file = path.join(s.t.dataDir, 'jobs.json');
      fs.writeFileSync(file, JSON.stringify([jobPayload({ title: 'Seeded From File', public_id: 'seeded-from-file' })]));
      const seeded = cliSync(['jobs', 'seed', '--file', file], env);
      expect(seeded.code, seeded.err).to.equal(0);
      const withFile = decoded(await request(s.fast, '/careers'));
      expect(withFile).to.include('Seeded From File');
      expect(countOf(withFile)).to.equal(countOf(before) + 1);

      const demo = cliSync(['jobs', 'seed', '--demo'], env);
      expect(demo.code, demo.err).to.equal(0);
      const withDemo = decoded(await request(s.fast, '/careers'));
      expect(countOf(withDemo)).to.be.above(countOf(withFile));
      await request(s.fast, '/careers');
      const removed = cliSync(['jobs', 'remove-demo'], env);
      expect(removed.code, removed.err).to.equal(0);
      expect(removed.out).to.match(/^Removed \d+ demo jobs?/m);
      const after = decoded(await request(s.fast, '/careers'));
      expect(countOf(after)).to.equal(countOf(withFile));
      expect(after).to.include('Seeded From File');
    });

    it('a job whose closing date passes leaves the list and stops taking applications at once, without any write', async () => {
      const closesAt = new Date(Date.now() + 2500);
      const job = await makeJob(s.ctx, { title: 'Closing Soon Role', status: 'ACTIVE', closes_at: closesAt.toISOString() });
      const p = `/careers/${job.public_id}`;
      for (const target of ['/careers', p]) {
        await request(s.fast, target);
        const before = s.appCalls();
        const kept = decoded(await request(s.fast, target));
        expect(s.appCalls(), target).to.equal(before);
        expect(kept).to.include('Closing Soon Role');
      }
      expect(decoded(await request(s.fast, p))).to.include('Apply Now');
      await sleep(Math.max(0, closesAt.getTime() - Date.now()) + 50);
      const before = s.appCalls();
      expect(decoded(await request(s.fast, '/careers'))).not.to.include('Closing Soon Role');
      const page = decoded(await request(s.fast, p));
      expect(page).to.include('This job post has stopped taking application').and.not.include('Apply Now');
      expect(s.appCalls()).to.equal(before + 2);
    });

    it('with the database gone, a kept page is not answered from memory: Express answers as it does without one', async () => {
      const other = await startSite(kind, { PUBLIC_CACHE_SECONDS: '0' });
      try {
        await makeJob(other.ctx, { title: 'Outage Role', status: 'ACTIVE' });
        await request(other.fast, '/careers');
        await other.ctx.db.destroy();
        const before = other.appCalls();
        const fast = await request(other.fast, '/careers');
        expect(other.appCalls()).to.equal(before + 1);
        expect(fast.status).to.equal((await request(other.app, '/careers')).status);
        expect(fast.status).to.be.oneOf([500, 503]);
      } finally {
        await other.close().catch(() => undefined);
      }
    });
  });
}

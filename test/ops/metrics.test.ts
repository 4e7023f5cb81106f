/**
 * Issue 18 (operations): /metrics in the Prometheus text format, only with METRICS_TOKEN set and
 * only for `Authorization: Bearer <that token>`. Request durations carry the route pattern, never
 * the URL a client sent (no ids, no query strings); the database figures are read at scrape time.
 */
import { expect } from 'chai';
import { captureLog } from '../helpers/log.js';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrSession } from '../helpers/hr.js';
import { seedPosts, webhookJob } from '../posts/helpers.js';
import { toDbDate } from '../../src/db/codecs.js';

const TOKEN = 'metrics-token-0123456789abcdef';

for (const kind of databaseKinds()) {
  describe(`/metrics [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer | null = null;
    afterEach(async () => {
      await s?.close();
      s = null;
    });

    it('without METRICS_TOKEN is the ordinary 404 page, whatever the request says', async () => {
      s = await startTestServer(kind);
      const unknown = await fetch(`${s.baseUrl}/no-such-page`);
      const notFoundPage = await unknown.text();
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
        const res = await fetch(`${s.baseUrl}/metrics`, { headers });
        expect(res.status).to.equal(404);
        expect(res.headers.get('content-type')).to.equal(unknown.headers.get('content-type'));
        expect(res.headers.get('www-authenticate')).to.equal(null);
        expect(await res.text()).to.equal(notFoundPage);
      }
    });

    describe('with METRICS_TOKEN', () => {
      beforeEach(async () => {
        s = await startTestServer(kind, { METRICS_TOKEN: TOKEN });
      });

      const hostile: [string, Record<string, string>][] = [
        ['no Authorization header', {}],
        ['a wrong token', { authorization: 'Bearer metrics-token-0123456789abcdeX' }],
        ['the token with a character more', { authorization: `Bearer ${TOKEN}x` }],
        ['Bearer and no token', { authorization: 'Bearer' }],
        ['Bearer and spaces', { authorization: 'Bearer    ' }],
        ['Basic credentials', { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` }],
        ['the token without a scheme', { authorization: TOKEN }],
        ['two tokens', { authorization: `Bearer ${TOKEN} ${TOKEN}` }],
        ['a very long token', { authorization: `Bearer ${'A'.repeat(12_000)}` }],
        ['the token in a cookie', { cookie: `jwt=${TOKEN}` }],
      ];
      for (const [name, headers] of hostile) {
        it(`401 with WWW-Authenticate: Bearer and no metrics for ${name}`, async () => {
          const res = await fetch(`${s!.baseUrl}/metrics`, { headers });
          expect(res.status).to.equal(401);
          expect(res.headers.get('www-authenticate')).to.match(/^Bearer\b/);
          expect(res.headers.get('cache-control')).to.equal('no-store');
          const body = await res.text();
          expect(body).to.equal('Unauthorized');
        });
      }

      it('a query string does not open it', async () => {
        const res = await fetch(`${s!.baseUrl}/metrics?token=${TOKEN}&access_token=${TOKEN}`);
        expect(res.status).to.equal(401);
      });

      it('200 with the named families, route patterns and no raw URL', async () => {
        const { db } = s!.testDb;
        const { token } = await hrSession(db);
        // Outbox rows: two due application posts (one for 90 s), one delivered.
        const job = await webhookJob(db, 'https://hooks.example.com/metrics');
        const now = new Date();
        const ids = await seedPosts(db, job, 3, new Date(now.getTime() - 90_000), 'metrics');
        await db('application_posts').where('id', ids[2]).update({ status: 'SUCCESS', next_attempt_at: null });
        await db('application_posts')
          .where('id', ids[1])
          .update({ next_attempt_at: toDbDate(new Date(now.getTime() - 30_000)) });

        // Requests whose URLs hold ids and query strings, each read to its end: a compressed page's
        // last bytes (and so its 'close', where it is counted) may come after its status line.
        const statusOf = async (path: string, headers: Record<string, string> = {}) => {
          const res = await fetch(`${s!.baseUrl}${path}`, { headers });
          await res.arrayBuffer();
          return res.status;
        };
        expect(await statusOf(`/api/hr/jobs/${job.id}/?secret=s3cr3t-query`, { authorization: `Bearer ${token}` })).to.equal(200);
        expect(await statusOf('/api/hr/jobs/987654/', { authorization: `Bearer ${token}` })).to.equal(404);
        expect(await statusOf('/no/such/path/424242?email=someone%40example.com')).to.equal(404);
        expect(await statusOf('/careers/unknown-public-id-31337')).to.equal(404);

        const res = await fetch(`${s!.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        const text = await res.text();
        for (const family of [
          'careers_http_request_duration_seconds',
          'careers_applications',
          'careers_outbox_posts',
          'careers_outbox_oldest_due_seconds',
          'careers_db_pool_connections_in_use',
          'process_cpu_user_seconds_total',
          'nodejs_heap_size_used_bytes',
        ]) {
          expect(text, family).to.include(`# TYPE ${family} `);
        }
        expect(text).to.include('careers_http_request_duration_seconds_count{method="GET",route="/api/hr/jobs/:id/",status="200"} 1');
        expect(text).to.include('careers_http_request_duration_seconds_count{method="GET",route="/api/hr/jobs/:id/",status="404"} 1');
        expect(text).to.include('careers_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1');
        expect(text).to.include('route="/careers/:publicId"');
        // Names and labels only: a sample's value (CPU seconds, heap bytes) may hold any digits.
        const series = text
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => l.slice(0, l.lastIndexOf(' ')))
          .join('\n');
        for (const raw of [String(job.id) + '/', '987654', '424242', 's3cr3t', 'secret=', 'someone', 'example.com', '31337', '?']) {
          expect(series, raw).not.to.include(raw);
        }
        expect(text).to.match(/^careers_applications 3$/m);
        expect(text).to.include('careers_outbox_posts{kind="application",status="PENDING"} 2');
        expect(text).to.include('careers_outbox_posts{kind="application",status="SUCCESS"} 1');
        const oldest = Number(/^careers_outbox_oldest_due_seconds\{kind="application"\} (\S+)$/m.exec(text)?.[1]);
        expect(oldest).to.be.within(89, 120);
        expect(text).to.match(/^careers_outbox_oldest_due_seconds\{kind="form"\} 0$/m);
        expect(text).to.match(/^careers_outbox_oldest_due_seconds\{kind="email"\} 0$/m);
        expect(text).to.match(/^careers_db_pool_connections_in_use \d+$/m);
      });

      it('still answers, without the database figures, when the database is gone', async () => {
        await fetch(`${s!.baseUrl}/healthz`);
        // Through the process's log (JSON lines), not console.warn.
        const log = captureLog();
        try {
          await s!.testDb.db.destroy();
          const res = await fetch(`${s!.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
          expect(res.status).to.equal(200);
          const text = await res.text();
          expect(text).to.include('process_cpu_user_seconds_total');
          expect(text).to.include('careers_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1');
          expect(text).to.match(/^careers_applications nan$/im); // prom-client writes NaN as "Nan"
          expect(text).not.to.match(/^careers_outbox_posts\{/m);
        } finally {
          log.restore();
        }
        expect(log.lines().join('\n')).to.include('[metrics] database figures left out');
        // close() destroys the database again: a new handle for it.
        s!.testDb.db = (await import('../../src/db/knex.js')).createDb(s!.testDb.config);
      });
    });
  });
}

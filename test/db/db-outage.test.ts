/**
 * The database goes away under a running server (issue 9, item 9), for real:
 * - MySQL: the server talks to MariaDB through a TCP proxy (test/helpers/tcp-proxy.ts) that is
 *   stopped (connections cut, new ones refused), made to accept connections it never answers,
 *   or made to answer MySQL's "Too many connections"; the real MariaDB is never touched;
 * - SQLite: another process holds the write lock beyond busy_timeout (writes wait, then fail;
 *   reads go on), or the database file cannot be opened any more (everything fails).
 * While it is away, pages, the public API, the HR API, sign-in and apply answer 503 with
 * Retry-After (JSON `{detail}` under /api, an HTML page elsewhere), never 500, never a hang; an
 * apply refused before its upload was read still reaches a client that writes all before it
 * reads; the log gets about one line a second without stack traces. When the database is back,
 * the same process serves again.
 */
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { startFaultyServer, type FaultyServer } from '../helpers/db-faults.js';
import { makeJob, jobPayload } from '../helpers/factories.js';
import { writeAllThenRead } from '../helpers/raw-http.js';
import { openSqlite } from '../helpers/sqlite.js';
import { mysqlTarget, startTcpProxy, viaProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { HR_PASSWORD, hrSession, postToken } from '../helpers/hr.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { UNAVAILABLE_MESSAGES } from '../../src/http/error-handler.js';
import { DB_RETRY_AFTER_SECONDS } from '../../src/db/errors.js';
import { captureLog, logMessages } from '../helpers/log.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Public reads may be answered from the 2 s micro-cache (PUBLIC_CACHE_SECONDS) for a moment after the database went. */
const pastPublicCache = () => sleep(2500);

interface Probe {
  name: string;
  kind: 'page' | 'api';
  status: number | null;
  retryAfter: string | null;
  body: string;
}

interface Target {
  base: string;
  publicId: string;
  jobId: number;
  token: string;
  username: string;
}

/** One request of each sort a visitor, an applicant or HR makes. */
function probes(t: Target, sorts: 'all' | 'writes' | 'reads' = 'all'): Promise<Probe>[] {
  const get = async (name: string, kind: Probe['kind'], path: string, init: RequestInit = {}): Promise<Probe> => {
    const res = await fetch(`${t.base}${path}`, { redirect: 'manual', ...init });
    return { name, kind, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };
  const reads = () => [
    get('page /careers', 'page', '/careers'),
    get('page /careers/{id}', 'page', `/careers/${t.publicId}`),
    get('HR page /hr/jobs', 'page', '/hr/jobs', { headers: { cookie: `jwt=${t.token}` } }),
    get('public API /api/jobs/', 'api', '/api/jobs/'),
    get('public API /api/jobs/{id}/', 'api', `/api/jobs/${t.publicId}/`),
    get('HR API /api/hr/jobs/', 'api', '/api/hr/jobs/', { headers: { authorization: `Bearer ${t.token}` } }),
  ];
  const writes = () => [
    get('sign-in', 'api', '/api/auth/token/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: t.username, password: HR_PASSWORD }),
    }),
    get('HR API PUT job', 'api', `/api/hr/jobs/${t.jobId}/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(jobPayload({ public_id: t.publicId, title: 'Edited during the outage' })),
    }),
    // A client that writes its whole 3 MB upload before it reads, and asks to close afterwards.
    writeAllThenRead(t.base, `/api/jobs/${t.publicId}/apply/`, {
      headers: { 'Content-Type': 'multipart/form-data; boundary=OutageBoundary' },
      bodyBytes: 3 * 1024 * 1024,
      connectionClose: true,
    }).then((r) => ({
      name: `apply (${r.error ?? 'read'})`,
      kind: 'api' as const,
      status: r.status,
      retryAfter: r.headers['retry-after'] ?? null,
      body: r.body,
    })),
  ];
  return sorts === 'reads' ? reads() : sorts === 'writes' ? writes() : [...reads(), ...writes()];
}

function expectUnavailable(p: Probe): void {
  expect(p.status, `${p.name}: ${p.body.slice(0, 200)}`).to.equal(503);
  expect(p.retryAfter, p.name).to.equal(String(DB_RETRY_AFTER_SECONDS));
  expect(p.body, p.name).not.to.match(/\n\s+at /);
  if (p.kind === 'api') {
    expect(JSON.parse(p.body), p.name).to.deep.equal({ detail: UNAVAILABLE_MESSAGES.detail });
  } else {
    expect(p.body, p.name).to.include(UNAVAILABLE_MESSAGES.title).and.include(UNAVAILABLE_MESSAGES.page);
  }
}

/** Everything answers as usual: pages and API 200, sign-in 200, an application 201. */
async function expectServing(t: Target, email: string): Promise<void> {
  for (const p of await Promise.all(probes(t, 'reads'))) expect(p.status, `${p.name}: ${p.body.slice(0, 200)}`).to.equal(200);
  expect((await postToken(t.base, { username: t.username, password: HR_PASSWORD })).status).to.equal(200);
  const applied = await fetch(`${t.base}/api/jobs/${t.publicId}/apply/`, { method: 'POST', body: toFormData(validFields({ email })) });
  expect(applied.status, await applied.clone().text()).to.equal(201);
}

/** Log lines an outage of `seconds` may write: about one a second, plus the held-back count at the end. */
const maxLines = (seconds: number) => Math.ceil(seconds) + 3;

async function prepare(db: TestDb['db'], base: string, publicId: string): Promise<Target> {
  const job = await makeJob(db, { public_id: publicId });
  const username = `hr-${publicId}`;
  const { token } = await hrSession(db, username);
  return { base, publicId, jobId: job.id, token, username };
}

for (const kind of databaseKinds()) {
  describe(`database outage [${kind}]`, function () {
    this.timeout(180_000);

    describe('the server as `npm start` runs it (production)', () => {
      let t: TestDb;
      let proxy: TcpProxy | null = null;
      let server: ChildServer | null = null;
      let target: Target;

      before(async () => {
        t = await createTestDb(kind);
        let databaseUrl: Record<string, string> = {};
        if (kind === 'mysql') {
          proxy = await startTcpProxy(mysqlTarget(process.env.TEST_MYSQL_URL!));
          databaseUrl = { DATABASE_URL: viaProxy(t.config.databaseUrl!, proxy) };
        }
        const port = await freePort();
        server = runServer({ DATA_DIR: t.dataDir, ...databaseUrl, NODE_ENV: 'production', PORT: String(port), APPLY_RATE_LIMIT: '100' });
        await waitForOutput(server, `listening on port ${port}`);
        target = await prepare(t.db, `http://127.0.0.1:${port}`, 'outage-job');
      });
      after(async () => {
        if (server && server.child.exitCode === null) {
          server.child.kill('SIGTERM');
          await server.exited;
        }
        await proxy?.close();
        await t.destroy();
      });

      if (kind === 'mysql') {
        it('MariaDB unreachable: every sort of request answers 503 with Retry-After, the log gets about a line a second, and the same process serves again once it is back', async () => {
          await expectServing(target, 'before@example.com');
          await proxy!.stop();
          const stoppedAt = Date.now();
          const mark = server!.output().length;
          await pastPublicCache();

          let requests = 0;
          const until = Date.now() + 8000;
          while (Date.now() < until) {
            const round = await Promise.all(probes(target));
            round.forEach(expectUnavailable);
            requests += round.length;
          }
          await sleep(1500); // the held-back count is written at the end of its second
          const seconds = (Date.now() - stoppedAt) / 1000;
          const lines = logMessages(server!.output().slice(mark)).filter((m) => m !== 'request'); // the request log's lines aside
          expect(requests).to.be.greaterThan(50);
          expect(lines.length, lines.join('\n')).to.be.within(1, maxLines(seconds));
          for (const line of lines)
            expect(line)
              .to.match(/^\[db\] /)
              .and.not.match(/^\s+at /);
          expect(lines.join('\n')).to.match(/ECONNREFUSED|PROTOCOL_CONNECTION_LOST/);

          await proxy!.start();
          await eventually(() => expectServing(target, 'after@example.com'), 20_000);
          expect(server!.child.exitCode).to.equal(null);
          expect(await t.db('applications').where({ email: 'after@example.com' })).to.have.length(1);
        });
      } else {
        it('another process holds the write lock: writes answer 503 with Retry-After after busy_timeout, reads go on, a few log lines, and writes work again once it lets go', async () => {
          await expectServing(target, 'before@example.com');
          await sleep(6000); // the view counted above is written (after 5 s) before the lock, not during it
          const locker = openSqlite(t.config.dataDir + '/careers.sqlite');
          locker.exec('BEGIN IMMEDIATE');
          const mark = server!.output().length;
          const lockedAt = Date.now();
          try {
            const writes = await Promise.all(probes(target, 'writes'));
            writes.forEach(expectUnavailable);
            // Once no write is waiting for the lock (SQLite has one connection), reads are served.
            for (const p of await Promise.all(probes(target, 'reads'))) expect(p.status, p.name).to.equal(200);
            await sleep(1500);
          } finally {
            locker.exec('ROLLBACK');
            locker.close();
          }
          const lines = logMessages(server!.output().slice(mark)).filter((m) => m !== 'request'); // the request log's lines aside
          expect(lines.length, lines.join('\n')).to.be.within(1, maxLines((Date.now() - lockedAt) / 1000));
          for (const line of lines) expect(line).to.match(/^\[db\] /);
          expect(lines.join('\n')).to.match(/SQLITE_BUSY|KnexTimeoutError/);
          await expectServing(target, 'after@example.com');
          const job = await t.db('jobs').where({ id: target.jobId }).first();
          expect(job.title).not.to.equal('Edited during the outage');
        });
      }
    });

    describe('in process', () => {
      let f: FaultyServer;
      let target: Target;
      before(async () => {
        // No micro-cache of public pages here: they show the outage at once.
        f = await startFaultyServer(kind, { APPLY_RATE_LIMIT: '100', PUBLIC_CACHE_SECONDS: '0' });
        target = await prepare(f.s.ctx.db, f.s.baseUrl, 'inproc-job');
      });
      after(() => f.close());

      it(`${kind === 'mysql' ? 'MariaDB unreachable' : 'the database file cannot be opened (SQLITE_CANTOPEN)'}: every sort of request answers 503, a few log lines, then it serves again`, async () => {
        const log = captureLog();
        let lines: string[];
        const start = Date.now();
        try {
          await f.takeDatabaseAway();
          for (let round = 0; round < 5; round++) (await Promise.all(probes(target))).forEach(expectUnavailable);
          await sleep(1500);
          lines = log.lines();
        } finally {
          log.restore();
          await f.bringDatabaseBack();
        }
        expect(lines.length, lines.join('\n')).to.be.within(1, maxLines((Date.now() - start) / 1000));
        for (const line of lines) expect(line).to.match(/^\[db\] /);
        await eventually(() => expectServing(target, `back-${kind}@example.com`), 20_000);
      });

      it('page views counted before an outage are not lost: they are written once the database is back', async () => {
        const db = f.s.ctx.db;
        const viewsNow = async () => Number((await db('jobs').where({ id: target.jobId }).first()).views);
        await f.s.ctx.views.flush(); // views of the earlier tests' page requests
        const before = await viewsNow();
        for (let i = 0; i < 3; i++) f.s.ctx.views.count(target.jobId);
        await f.takeDatabaseAway();
        let failed: unknown = null;
        try {
          await f.s.ctx.views.flush().catch((err) => (failed = err));
        } finally {
          await f.bringDatabaseBack();
        }
        expect(failed, 'the flush during the outage failed').to.not.equal(null);
        await eventually(async () => {
          await f.s.ctx.views.flush();
          expect(await viewsNow()).to.equal(before + 3);
        }, 20_000);
      });

      if (kind === 'mysql') {
        it('MariaDB accepts connections but never answers: 503 within seconds (the pool gives up), not a hang', async () => {
          const log = captureLog();
          try {
            f.proxy!.mode = 'hang';
            f.proxy!.cutAll();
            const started = Date.now();
            const answers = await Promise.all(probes(target));
            answers.forEach(expectUnavailable);
            // The pool gives up after DATABASE_ACQUIRE_TIMEOUT_SECONDS (5 s); Knex's default would be 60 s.
            // A public page may wait for up to three reads in turn (the public version, its data, the
            // site settings: at most 1 s), so it answers within about 16 s, never a minute.
            expect(Date.now() - started).to.be.lessThan(20_000);
          } finally {
            log.restore();
            f.proxy!.mode = 'forward';
          }
          await eventually(() => expectServing(target, 'after-hang@example.com'), 20_000);
        });

        it('MariaDB has too many connections: 503, and the log names ER_CON_COUNT_ERROR', async () => {
          const log = captureLog();
          let lines: string[];
          try {
            f.proxy!.mode = 'too-many';
            f.proxy!.cutAll();
            (await Promise.all(probes(target))).forEach(expectUnavailable);
            await sleep(1500);
            lines = log.lines();
          } finally {
            log.restore();
            f.proxy!.mode = 'forward';
          }
          expect(lines.join('\n')).to.include('ER_CON_COUNT_ERROR');
          await eventually(() => expectServing(target, 'after-too-many@example.com'), 20_000);
        });
      }
    });
  });
}

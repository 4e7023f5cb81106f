/**
 * Issue 28 item 13: a database that stops answering without closing anything (a network
 * partition) answers 503 with Retry-After within the DATABASE_*_TIMEOUT_SECONDS settings, not
 * after minutes, and an application caught in it is kept or refused exactly as under a cut
 * connection. MySQL: a TCP proxy partitions the network (nothing passes, no socket closed). Both
 * databases: the acquire timeout is the setting's (a request waiting for the one busy connection).
 * The settings are checked like every other.
 */
import { expect } from 'chai';
import { loadConfig, ConfigError } from '../../config/index.js';
import { APPLY_MESSAGES } from '../../src/applicants/apply.service.js';
import { DB_RETRY_AFTER_SECONDS } from '../../src/db/errors.js';
import { UNAVAILABLE_MESSAGES } from '../../src/http/error-handler.js';
import { databaseKinds } from '../helpers/db.js';
import { startFaultyServer, type FaultyServer } from '../helpers/db-faults.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { captureLog } from '../helpers/log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIMEOUTS = { DATABASE_ACQUIRE_TIMEOUT_SECONDS: '2', DATABASE_CONNECT_TIMEOUT_SECONDS: '2', DATABASE_STATEMENT_TIMEOUT_SECONDS: '2' };

/** A request, timed; cut off after 30 s so a hang fails as a hang, not as mocha's timeout. */
async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; ms: number; retryAfter: string | null; body: any }> {
  const t0 = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    return { status: res.status, ms: Date.now() - t0, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
  } catch (err) {
    return { status: 0, ms: Date.now() - t0, retryAfter: null, body: String(err) };
  }
}

describe('DATABASE_*_TIMEOUT_SECONDS settings', () => {
  it('default to 5, 5 and 10 s, take whole seconds in range (statement 0 = no limit), and refuse anything else by name', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/x' };
    const c = loadConfig(base);
    expect([c.databaseAcquireTimeoutSeconds, c.databaseConnectTimeoutSeconds, c.databaseStatementTimeoutSeconds]).to.deep.equal([5, 5, 10]);
    const set = loadConfig({
      ...base,
      DATABASE_ACQUIRE_TIMEOUT_SECONDS: '12',
      DATABASE_CONNECT_TIMEOUT_SECONDS: ' 3 ',
      DATABASE_STATEMENT_TIMEOUT_SECONDS: '0',
    });
    expect([set.databaseAcquireTimeoutSeconds, set.databaseConnectTimeoutSeconds, set.databaseStatementTimeoutSeconds]).to.deep.equal([
      12, 3, 0,
    ]);
    const refused = (name: string, value: string) => {
      try {
        loadConfig({ ...base, [name]: value });
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        return (err as ConfigError).problems.join('\n');
      }
      return '';
    };
    for (const name of ['DATABASE_ACQUIRE_TIMEOUT_SECONDS', 'DATABASE_CONNECT_TIMEOUT_SECONDS']) {
      for (const bad of ['0', '-1', '601', '1.5', '1e3', 'ten', '99999999999999999999', '5; DROP TABLE jobs'])
        expect(refused(name, bad), `${name}=${bad}`).to.include(`${name} must be a whole number from 1 to 600`);
    }
    for (const bad of ['-1', '3601', '2.5', 'off'])
      expect(refused('DATABASE_STATEMENT_TIMEOUT_SECONDS', bad), bad).to.include(
        'DATABASE_STATEMENT_TIMEOUT_SECONDS must be a whole number from 0 to 3600',
      );
  });
});

for (const kind of databaseKinds()) {
  describe(`the acquire timeout is the setting's [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { DATABASE_ACQUIRE_TIMEOUT_SECONDS: '1', DATABASE_POOL_MAX: '1' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    it('a request waiting for the only connection, held by a long transaction, answers 503 with Retry-After after about 1 s', async () => {
      const log = captureLog();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const started = new Promise<void>((r) => (holding = r));
      const hold = s.ctx.db.transaction(async (trx) => {
        await trx('jobs').count({ n: '*' });
        holding();
        await held;
      });
      try {
        await started;
        const r = await timed(`${s.baseUrl}/api/hr/applications/`, { headers: { Authorization: `Bearer ${token}` } });
        expect(r.status, JSON.stringify(r.body)).to.equal(503);
        expect(r.retryAfter).to.equal(String(DB_RETRY_AFTER_SECONDS));
        expect(r.body).to.deep.equal({ detail: UNAVAILABLE_MESSAGES.detail });
        expect(r.ms).to.be.within(900, 3500);
      } finally {
        release();
        await hold;
        log.restore();
      }
      const again = await timed(`${s.baseUrl}/api/hr/applications/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(again.status).to.equal(200);
    });
  });

  if (kind !== 'mysql') continue;

  describe('a network partition between the server and MariaDB', function () {
    this.timeout(120_000);
    let f: FaultyServer;
    let token: string;
    const apply = (email: string) =>
      timed(`${f.s.baseUrl}/api/jobs/parted/apply/`, { method: 'POST', body: toFormData(validFields({ email })) });
    const rowFor = (email: string) => f.s.ctx.db('applications').where({ email }).first();

    before(async () => {
      f = await startFaultyServer('mysql', { APPLY_RATE_LIMIT: '0', ...TIMEOUTS });
      ({ token } = await hrSession(f.s.ctx.db));
      await makeJob(f.s.ctx, { public_id: 'parted', title: 'Parted Job' });
    });
    after(() => f.close());

    /** The proxy heals and the server takes applications again (its stuck connections were given up). */
    async function healed(email: string) {
      f.proxy!.heal();
      let r = await apply(email);
      for (let i = 0; i < 10 && r.status !== 201; i++) {
        await sleep(500);
        r = await apply(email);
      }
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    }

    it('every request answers 503 with Retry-After within the timeouts while nothing passes, and serving resumes after', async () => {
      expect((await apply('warm@example.com')).status).to.equal(201);
      const log = captureLog();
      try {
        f.proxy!.partition();
        const [a, list, b] = await Promise.all([
          apply('during@example.com'),
          timed(`${f.s.baseUrl}/api/hr/applications/`, { headers: { Authorization: `Bearer ${token}` } }),
          apply('during2@example.com'),
        ]);
        for (const r of [a, list, b]) {
          expect(r.status, JSON.stringify(r.body)).to.equal(503);
          expect(r.retryAfter).to.equal(String(DB_RETRY_AFTER_SECONDS));
          // Statement (2 s) or connect and acquire (2 s) timeouts, with the request's other work: seconds, not minutes.
          expect(r.ms).to.be.below(10_000);
        }
      } finally {
        log.restore();
      }
      await healed('after-partition@example.com');
      expect(await rowFor('during@example.com')).to.equal(undefined);
    });

    it('a COMMIT whose answer never comes: 503 "could not confirm", the application kept, as when the connection is cut after it', async () => {
      const log = captureLog();
      let r: Awaited<ReturnType<typeof apply>>;
      try {
        const fault = f.proxy!.failNext(/^\s*COMMIT\b/i, 'partition-after');
        r = await apply('kept-in-partition@example.com');
        await fault;
      } finally {
        log.restore();
      }
      expect(r.status, JSON.stringify(r.body)).to.equal(503);
      expect(r.retryAfter).to.equal(String(DB_RETRY_AFTER_SECONDS));
      expect(r.body).to.deep.equal({ detail: APPLY_MESSAGES.unconfirmed });
      expect(r.ms).to.be.below(10_000);
      await healed('after-commit-partition@example.com');
      expect(await rowFor('kept-in-partition@example.com'), 'MariaDB committed it').to.not.equal(undefined);
    });

    it('a statement that never reaches MariaDB mid-transaction: 503 unavailable, nothing kept', async () => {
      const log = captureLog();
      let r: Awaited<ReturnType<typeof apply>>;
      try {
        const fault = f.proxy!.failNext(/^insert into `application_skills`/i, 'partition-before');
        r = await apply('refused-in-partition@example.com');
        await fault;
      } finally {
        log.restore();
      }
      expect(r.status, JSON.stringify(r.body)).to.equal(503);
      expect(r.body).to.deep.equal({ detail: UNAVAILABLE_MESSAGES.detail });
      expect(r.ms).to.be.below(10_000);
      await healed('after-insert-partition@example.com');
      expect(await rowFor('refused-in-partition@example.com')).to.equal(undefined);
    });
  });
}

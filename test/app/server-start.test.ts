/**
 * The server as `npm start` runs it: a child process that migrates its database on start, fills an
 * empty development database with the demo jobs (never in production), says how to create an HR
 * user, stops with a message naming the setting at fault, and closes cleanly on SIGTERM.
 * In production it listens with the HTTP timeouts of src/http/listen.ts.
 */
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { logMessages } from '../helpers/log.js';

/** What the server said: its JSON log lines' messages, one a line. */
const said = (c: ChildServer) => logMessages(c.output()).join('\n');

/** Every line the server wrote is a JSON log line (issue 28: start and stop lines go through the logger). */
function expectOnlyJsonLines(c: ChildServer): void {
  for (const line of c.output().split('\n').filter(Boolean)) expect(() => JSON.parse(line), line).not.to.throw();
}

for (const kind of databaseKinds()) {
  describe(`server start-up [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let dbEnv: Record<string, string>;
    beforeEach(async () => {
      t = await createTestDb(kind);
      // An empty database, as on a fresh clone: the server must migrate it itself.
      await t.db.migrate.rollback(undefined, true);
      dbEnv = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
    });
    afterEach(() => t.destroy());

    it('in development migrates, seeds the demo jobs, says how to add an HR user, serves them and closes on SIGTERM', async () => {
      const port = await freePort();
      const s = runServer({ ...dbEnv, NODE_ENV: 'development', PORT: String(port) });
      await waitForOutput(s, `listening on port ${port}`);
      // The sign-in line is logged just after, and may arrive in a later chunk of the pipe (the quote ends its message).
      await waitForOutput(s, `HR sign-in: http://localhost:${port}/hrviewlogin"`);
      expect(said(s)).to.include('Applied migrations: 001_initial_schema');
      expect(said(s)).to.include('Empty database: added 12 demo jobs.');
      expect(said(s)).to.include('No HR user yet. Create one with: npx careers-admin user create --username <name>');
      // One line names the full sign-in address, and that address is the login page.
      const signIn = logMessages(s.output()).filter((l) => l.startsWith('HR sign-in: '));
      expect(signIn).to.deep.equal([`HR sign-in: http://localhost:${port}/hrviewlogin`]);
      const login = await fetch(`http://127.0.0.1:${port}/hrviewlogin`);
      expect(login.status).to.equal(200);
      expect(await login.text()).to.include('<title>HR Login</title>');
      const [{ n }] = await t.db('knex_migrations').count({ n: '*' });
      expect(Number(n)).to.be.greaterThan(0);
      const page = await fetch(`http://127.0.0.1:${port}/careers`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('View details');
      s.child.kill('SIGTERM');
      expect((await s.exited).code).to.equal(0);
      expect(said(s)).to.include('SIGTERM: closing');
      expectOnlyJsonLines(s);

      // A second start finds everything in place: nothing applied, nothing seeded again.
      const again = runServer({ ...dbEnv, NODE_ENV: 'development', PORT: String(port) });
      await waitForOutput(again, `listening on port ${port}`);
      expect(said(again)).not.to.include('Applied migrations');
      expect(said(again)).not.to.include('demo jobs');
      again.child.kill('SIGTERM');
      expect((await again.exited).code).to.equal(0);
      const [{ jobs }] = await t.db('jobs').count({ jobs: '*' });
      expect(Number(jobs)).to.equal(12);
    });

    it('in production migrates but seeds nothing; TRUST_PROXY=true is one hop and says so', async () => {
      const port = await freePort();
      const s = runServer({
        ...dbEnv,
        NODE_ENV: 'production',
        PORT: String(port),
        TRUST_PROXY: 'true',
        LOGIN_RATE_LIMIT: '2',
        PUBLIC_BASE_URL: 'https://careers.example.com',
      });
      await waitForOutput(s, `listening on port ${port}`);
      await waitForOutput(s, 'HR sign-in: https://careers.example.com/hrviewlogin"');
      expect(said(s)).to.include('Applied migrations');
      expect(said(s)).not.to.include('demo jobs');
      expect(said(s))
        .to.include('TRUST_PROXY: 1 hop (what `true` means here)')
        .and.include(
          'With a CDN or another proxy in front of that one, set TRUST_PROXY to the number of proxies (2) or to their addresses/CIDRs.',
        );
      const page = await fetch(`http://127.0.0.1:${port}/careers`);
      // An empty site says so in its own words (issue 35: the site settings' empty-site message, here its default).
      expect(await page.text()).to.include('There are no open positions right now. Please check back soon.');
      // A client writing its own X-Forwarded-For entry in front of the proxy's gets no fresh limit.
      const statuses: number[] = [];
      for (const forged of ['203.0.113.1', '203.0.113.2', '2001:db8::3']) {
        const res = await fetch(`http://127.0.0.1:${port}/api/auth/token/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `${forged}, 192.0.2.1` },
          body: JSON.stringify({ username: 'nobody', password: 'guess' }),
        });
        statuses.push(res.status);
      }
      expect(statuses).to.deep.equal([401, 401, 429]);
      // The real server has the timeouts of src/http/listen.ts (test/http/slow-clients.test.ts tries them).
      expect(page.headers.get('keep-alive')).to.equal('timeout=65');
      s.child.kill('SIGTERM');
      expect((await s.exited).code).to.equal(0);
      const [{ n }] = await t.db('jobs').count({ n: '*' });
      expect(Number(n)).to.equal(0);
    });
  });
}

describe('server start-up failures', function () {
  this.timeout(60_000);

  it('stops with exit code 1 and a message naming every bad setting', async () => {
    const s = runServer({ NODE_ENV: 'test', PORT: 'eighty', SESSION_TTL_SECONDS: 'soon', DATA_DIR: '/tmp' });
    expect((await s.exited).code).to.equal(1);
    expect(said(s)).to.include('Invalid configuration').and.include('PORT must be a whole number').and.include('SESSION_TTL_SECONDS');
    expectOnlyJsonLines(s);
    expect(said(s)).not.to.match(/\n\s+at /); // no stack trace
  });

  it('names TRUST_PROXY and the entry it does not understand', async () => {
    const s = runServer({ NODE_ENV: 'test', PORT: String(await freePort()), TRUST_PROXY: '10.0.0.0/8, proxy.internal' });
    expect((await s.exited).code).to.equal(1);
    expect(said(s)).to.include('Invalid configuration').and.include('TRUST_PROXY must be').and.include('not understood: "proxy.internal"');
    expect(said(s)).not.to.match(/\n\s+at /);
  });

  it('names DATA_DIR when it is not a writable folder', async () => {
    const s = runServer({ NODE_ENV: 'test', PORT: String(await freePort()), DATA_DIR: '/dev/null' });
    expect((await s.exited).code).to.equal(1);
    expect(said(s)).to.include('Failed to start: DATA_DIR=/dev/null must be a folder this process can write to');
  });

  it('names DATABASE_URL (without its password) when the database refuses the connection', async () => {
    const port = await freePort(); // nothing listens there
    const s = runServer({
      NODE_ENV: 'test',
      PORT: String(await freePort()),
      DATABASE_URL: `mysql://careers:s3cret@127.0.0.1:${port}/careers`,
    });
    expect((await s.exited).code).to.equal(1);
    expect(said(s)).to.include(`Failed to start: Cannot open the database (DATABASE_URL=mysql://***@127.0.0.1:${port}/careers)`);
    expect(said(s)).not.to.include('s3cret');
    expect(said(s)).not.to.match(/\n\s+at /);
  });
});

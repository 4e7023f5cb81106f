/**
 * Two server processes on one MySQL database (issue 18), as behind a load balancer: both real
 * processes (as `npm start` runs them) on two ports with the same settings, the delivery worker on
 * in both. Proves that a token from signing in on one process is good on the other (and signing
 * out on one ends it on both); that the apply rate limit is exact over both processes when one
 * address sends many applications at once to both (exactly APPLY_RATE_LIMIT taken, the rest 429
 * with Retry-After); that each application taken gets its post delivered exactly once with both
 * workers running; and that a job write through one process is on the other's public page within
 * PUBLIC_CACHE_SECONDS. The HR user comes from `careers-admin user create --password-stdin`.
 * MySQL only: SQLite is one machine, one file, and the README keeps one process on it.
 */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { makeJob, jobPayload } from '../helpers/factories.js';
import { HR_PASSWORD, signInOverHttp } from '../helpers/hr.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
import { admin, expectPostsDelivered, sleep, stopServer } from './helpers.js';

const RATE_LIMIT = 10;
const CACHE_SECONDS = 1;

for (const kind of databaseKinds().filter((k) => k === 'mysql')) {
  describe(`two server processes on one database [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let receiver: Receiver;
    const servers: ChildServer[] = [];
    const bases: string[] = [];

    before(async () => {
      t = await createTestDb(kind);
      receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }));
      const env = { DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl! };
      const created = await admin(['user', 'create', '--username', 'two-proc', '--password-stdin'], env, `${HR_PASSWORD}\n`);
      expect(created.code, created.out).to.equal(0);
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        // One service's processes: the same settings on both.
        const server = runServer({
          ...env,
          PORT: String(port),
          POSTS_WORKER: 'on',
          WEBHOOK_ALLOW_PRIVATE: 'true',
          PUBLIC_CACHE_SECONDS: String(CACHE_SECONDS),
          APPLY_RATE_LIMIT: String(RATE_LIMIT),
          APPLY_RATE_WINDOW_SECONDS: '600',
        });
        servers.push(server);
        await waitForOutput(server, `listening on port ${port}`);
        bases.push(`http://127.0.0.1:${port}`);
      }
    });
    after(async () => {
      for (const s of servers) await stopServer(s);
      await receiver?.close();
      await t?.destroy();
    });

    it('a token from signing in on one process works on the other, and signing out on the other ends it on both', async () => {
      const token = await signInOverHttp(bases[0], 'two-proc');
      const auth = { Authorization: `Bearer ${token}` };
      const me = await fetch(`${bases[1]}/api/auth/me/`, { headers: auth });
      expect(me.status).to.equal(200);
      expect((await me.json()).username).to.equal('two-proc');
      expect((await fetch(`${bases[1]}/api/hr/jobs/`, { headers: auth })).status).to.equal(200);
      expect((await fetch(`${bases[1]}/api/auth/logout/`, { method: 'POST', headers: auth })).status).to.equal(204);
      expect((await fetch(`${bases[0]}/api/auth/me/`, { headers: auth })).status).to.equal(401);
    });

    it(`one address applying to both at once: exactly APPLY_RATE_LIMIT (${RATE_LIMIT}) taken, the rest 429; each post delivered once`, async () => {
      const job = await webhookJob(t.db, receiver.url, 'two-proc-secret-0123', { public_id: 'two-proc-apply' });
      const answers = await Promise.all(
        Array.from({ length: 3 * RATE_LIMIT }, async (_, i) => {
          const email = `two-proc-${i}@example.com`;
          const res = await fetch(`${bases[i % 2]}/api/jobs/${job.public_id}/apply/`, {
            method: 'POST',
            body: toFormData(validFields({ email, resume: { data: pdfBytes(20_000), filename: 'cv.pdf', type: 'application/pdf' } })),
          });
          return { email, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
        }),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(statuses),
      ).to.have.length(RATE_LIMIT);
      expect(
        statuses.filter((s) => s === 429),
        JSON.stringify(statuses),
      ).to.have.length(2 * RATE_LIMIT);
      for (const a of answers.filter((x) => x.status === 429)) {
        expect(Number(a.retryAfter), a.body).to.be.within(1, 600);
        expect(JSON.parse(a.body)).to.have.property('detail').that.is.a('string');
      }
      const taken = answers
        .filter((a) => a.status === 201)
        .map((a) => a.email)
        .sort();
      const rows = (await t.db('applications').where('job_id', job.id).select('email')).map((r: { email: string }) => r.email).sort();
      expect(rows).to.deep.equal(taken);

      await eventually(async () => {
        const [{ n }] = await t.db('application_posts').where('job_id', job.id).where('status', 'SUCCESS').count({ n: '*' });
        expect(Number(n)).to.equal(RATE_LIMIT);
      }, 30_000);
      await sleep(1000); // a second send of any post would arrive by now
      expect(await expectPostsDelivered(t.db, receiver, job.id), 'repeated posts').to.equal(0);
      expect(receiver.received).to.have.length(RATE_LIMIT);
    });

    it("a job written through one process is on the other's public page within PUBLIC_CACHE_SECONDS", async () => {
      const job = await makeJob(t.db, { public_id: 'two-proc-page', title: 'Payroll Analyst' });
      const token = await signInOverHttp(bases[0], 'two-proc');
      const page = `${bases[0]}/careers/${job.public_id}`;
      // Process 0 serves the page from its cache, read again and again before and after the write.
      const seen: { startedAt: number; title: 'old' | 'new' }[] = [];
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const startedAt = Date.now();
          const html = await (await fetch(page)).text();
          seen.push({ startedAt, title: html.includes('Senior Payroll Analyst') ? 'new' : 'old' });
          await sleep(20);
        }
      })();
      await sleep(1500);
      expect(seen.length).to.be.greaterThan(10);
      expect(seen.every((s) => s.title === 'old')).to.equal(true);

      // The write goes to process 1, with the token process 0 gave.
      const saved = await fetch(`${bases[1]}/api/hr/jobs/${job.id}/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(jobPayload({ public_id: job.public_id, title: 'Senior Payroll Analyst' })),
      });
      expect(saved.status, await saved.clone().text()).to.equal(200);
      const writtenAt = Date.now();
      await sleep(CACHE_SECONDS * 1000 + 1500);
      polling = false;
      await poller;

      // Every read that started later than PUBLIC_CACHE_SECONDS after the write answered saw it
      // (250 ms allowed for the database read an entry is cached after).
      const late = seen.filter((s) => s.startedAt > writtenAt + CACHE_SECONDS * 1000 + 250);
      expect(late.length).to.be.greaterThan(10);
      expect(
        late.filter((s) => s.title === 'old'),
        'stale reads later than PUBLIC_CACHE_SECONDS',
      ).to.deep.equal([]);
    });
  });
}

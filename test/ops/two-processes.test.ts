/**
 * Two server processes on one MySQL database, as behind a load balancer (issue 18): a token made
 * by signing in on one works on the other; the apply rate limit is exact over both (its counters
 * are in the database); a job write on one is on the other's public page within
 * PUBLIC_CACHE_SECONDS; applications taken by both are all there. (Posts sent once by live
 * workers across processes: test/posts/processes.test.ts.) MySQL only: SQLite is one machine,
 * one file, and the README says to keep one process on it.
 */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { createHrUser, signInOverHttp } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4000, 0x20), Buffer.from('\n%%EOF\n')]);

function application(i: number): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries({ first_name: 'Two', last_name: `Proc${'abcdefghijklmnop'[i]}`, email: `two-proc-${i}@example.com`, phone: '+919876543210' })) body.set(k, v);
  body.set('resume', new Blob([PDF], { type: 'application/pdf' }), `cv-${i}.pdf`);
  return body;
}

for (const kind of databaseKinds().filter((k) => k === 'mysql')) {
  describe(`two server processes on one database [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    const servers: { server: ChildServer; base: string }[] = [];

    before(async () => {
      t = await createTestDb(kind);
      await createHrUser(t.db, 'two-proc');
      await makeJob(t.db, { public_id: 'two-proc-job', title: 'Payroll Analyst' });
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        // The same settings on both, as one service's processes share them.
        const server = runServer({ DATABASE_URL: t.config.databaseUrl!, DATA_DIR: t.dataDir, PORT: String(port), PUBLIC_CACHE_SECONDS: '1', APPLY_RATE_LIMIT: '6', APPLY_RATE_WINDOW_SECONDS: '600', POSTS_WORKER: i === 0 ? 'on' : 'off' });
        await waitForOutput(server, `listening on port ${port}`);
        servers.push({ server, base: `http://127.0.0.1:${port}` });
      }
    });
    after(async () => {
      for (const { server } of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await t?.destroy();
    });

    it('a token from one process works on the other, and signing out on one ends it on both', async () => {
      const token = await signInOverHttp(servers[0].base, 'two-proc');
      const auth = { Authorization: `Bearer ${token}` };
      expect((await fetch(`${servers[1].base}/api/hr/dashboard/`, { headers: auth })).status).to.equal(200);
      expect((await fetch(`${servers[1].base}/api/auth/logout/`, { method: 'POST', headers: auth })).status).to.equal(204);
      expect((await fetch(`${servers[0].base}/api/hr/dashboard/`, { headers: auth })).status).to.equal(401);
    });

    it('the apply rate limit is exact over both processes, and every application taken is there', async () => {
      // 12 applications from one address, alternating between the processes: exactly 6 are taken.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${servers[i % 2].base}/api/jobs/two-proc-job/apply/`, { method: 'POST', body: application(i) });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).to.have.length(6);
      expect(statuses.filter((s) => s === 429)).to.have.length(6);
      expect(Number((await t.db('applications').count({ n: '*' }).first())!.n)).to.equal(6);
    });

    it('a job write on one process is on the other\'s public page within PUBLIC_CACHE_SECONDS', async () => {
      const token = await signInOverHttp(servers[0].base, 'two-proc');
      const page = async () => (await fetch(`${servers[1].base}/careers/two-proc-job`)).text();
      expect(await page()).to.include('Payroll Analyst');
      const job = await (await fetch(`${servers[0].base}/api/hr/jobs/`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const current = await (await fetch(`${servers[0].base}/api/hr/jobs/${job.results[0].id}/`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const saved = await fetch(`${servers[0].base}/api/hr/jobs/${current.id}/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...current, title: 'Senior Payroll Analyst' }),
      });
      expect(saved.status, await saved.clone().text()).to.equal(200);
      const writtenAt = Date.now();
      let seen = false;
      while (!seen && Date.now() - writtenAt < 3000) {
        seen = (await page()).includes('Senior Payroll Analyst');
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen, 'the other process shows the new title').to.equal(true);
      // 1 s of cache, plus the time a page takes on this machine.
      expect(Date.now() - writtenAt).to.be.below(2500);
    });
  });
}

/**
 * kill -9 under a steady load of applications with files, then a restart (issue 18): every 2xx a
 * client got has its application row and its file with the bytes sent; no row points at a missing
 * file; `careers-admin files sweep` leaves no file without a row; no temporary file is left in
 * the uploads folder; every committed application has its webhook post. The one-upload case is
 * test/applicants/apply-crash.test.ts; a database cut under load is test/db/db-outage.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { makeJob } from '../helpers/factories.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { listFiles, sha256 } from '../fixtures/apply.js';

const CLIENTS = 10;

for (const kind of databaseKinds()) {
  describe(`kill -9 under a steady load of applications [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let env: Record<string, string>;
    let server: ChildServer | null = null;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}), POSTS_WORKER: 'off' };
      await makeJob(t.db, { public_id: 'load-job', webhook_enabled: true, webhook_url: 'https://hooks.example.com/load' });
    });
    after(async () => {
      server?.child.kill('SIGKILL');
      await t?.destroy();
    });

    it('loses no 2xx, leaves no row without its file and no file the sweep keeps without a row', async () => {
      const port = await freePort();
      server = runServer({ ...env, PORT: String(port) });
      await waitForOutput(server, `listening on port ${port}`);
      const base = `http://127.0.0.1:${port}`;

      // Each client applies again and again with its own 200 KB resume until the server is gone.
      const accepted = new Map<string, string>(); // email -> sha256 of the resume sent
      let sent = 0;
      let stop = false;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          const email = `load-${c}-${i}@example.com`;
          const resume = Buffer.concat([pdfBytes(200_000), Buffer.from(`%${email}\n`)]);
          const body = new FormData();
          for (const [k, v] of Object.entries({ first_name: 'Load', last_name: 'Tester', email, phone: '+919876543210' })) body.set(k, v);
          body.set('resume', new Blob([resume], { type: 'application/pdf' }), 'cv.pdf');
          sent++;
          try {
            const res = await fetch(`${base}/api/jobs/load-job/apply/`, { method: 'POST', body });
            await res.arrayBuffer();
            if (res.status === 201) accepted.set(email, sha256(resume));
          } catch {
            return; // the server is gone
          }
        }
      };
      const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
      while (accepted.size < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);
      await server.exited;
      expect(sent).to.be.above(accepted.size);

      // Restart on the same data, then check what the crash left.
      const again = await freePort();
      server = runServer({ ...env, PORT: String(again) });
      await waitForOutput(server, `listening on port ${again}`);
      const uploads = path.join(t.dataDir, 'uploads');
      const rows: { email: string; storage_key: string | null; id: number }[] = await t.db('applications as a').leftJoin('stored_files as f', 'f.id', 'a.resume_file_id').select('a.email', 'f.storage_key', 'a.id');
      const byEmail = new Map(rows.map((r) => [r.email, r]));
      for (const [email, digest] of accepted) {
        const row = byEmail.get(email);
        expect(row, `the application of ${email} (a 201) is there`).to.not.equal(undefined);
        expect(sha256(fs.readFileSync(path.join(uploads, row!.storage_key!))), email).to.equal(digest);
      }
      for (const r of rows) expect(fs.existsSync(path.join(uploads, r.storage_key!)), `file of ${r.email}`).to.equal(true);
      // Every committed application has its post (written in the same transaction).
      const posts = Number((await t.db('application_posts').count({ n: '*' }).first())!.n);
      expect(posts).to.equal(rows.length);

      server.child.kill('SIGTERM');
      await server.exited;
      server = null;
      const sweep = spawnSync(process.execPath, ['--import', 'tsx', 'bin/careers-admin.ts', 'files', 'sweep', '--older-than-minutes', '0'], { env: { ...process.env, NODE_ENV: 'test', ...env }, encoding: 'utf8', timeout: 60_000 });
      expect(sweep.status, sweep.stderr).to.equal(0);
      // After the sweep: exactly the files of the rows, nothing else (no partial or temporary file).
      const kept = rows.map((r) => r.storage_key!).sort();
      expect(listFiles(uploads).sort()).to.deep.equal(kept);
    });
  });
}

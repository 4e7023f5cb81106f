/**
 * DESIGN.md section 4: "a crash at any point leaves either the whole application (row + file +
 * outbox entry) or none of it." The server runs as a child process, as `npm start` runs it; it is
 * killed with SIGKILL (no cleanup code can run) while a resume is being uploaded. What the crash
 * leaves is a file without a row; the orphan sweep removes it (`careers-admin files sweep`, and
 * the sweep the server starts in the background), and leaves a committed application alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer as Child, cliSync } from '../helpers/child-server.js';
import { makeJob } from '../helpers/factories.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';
import { pdfBytes } from '../fixtures/resumes.js';
import {
  EMPTY,
  eventually,
  listFiles,
  rawMultipart,
  rawTextParts,
  sha256,
  tableCounts,
  toFormData,
  validFields,
} from '../fixtures/apply.js';

const cli = cliSync;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of databaseKinds()) {
  describe(`apply API: kill -9 in the middle of an upload [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let env: Record<string, string>;
    let uploads: string;
    let server: Child | null = null;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      uploads = path.join(t.dataDir, 'uploads');
      await makeJob(t.db, { public_id: 'crash-job', webhook_enabled: true, webhook_url: 'https://hooks.example.com/crash' });
    });
    afterEach(async () => {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      server = null;
    });
    after(() => t.destroy());

    it('leaves a file without a row; the sweep with grace 0 removes it and keeps the committed application whole', async () => {
      const port = await freePort();
      server = runServer({ ...env, PORT: String(port) });
      await waitForOutput(server, `listening on port ${port}`);
      const url = `http://127.0.0.1:${port}/api/jobs/crash-job/apply/`;

      // A complete application first: it must survive the crash and the sweep untouched.
      const resume = pdfBytes(200_000);
      const ok = await fetch(url, {
        method: 'POST',
        body: toFormData(validFields({ email: 'kept@example.com', resume: { data: resume, filename: 'kept.pdf' } })),
      });
      expect(ok.status, await ok.clone().text()).to.equal(201);
      const kept = listFiles(uploads);
      expect(kept).to.have.length(1);
      const countsBefore = await tableCounts(t.db);
      expect(countsBefore).to.include({ applications: 1, stored_files: 1, application_posts: 1 });

      // Then a large resume, sent slowly; the server is killed once part of it is on disk.
      const boundary = 'CrashBoundary5e4d3c';
      const text = rawMultipart(rawTextParts(validFields({ email: 'crashed@example.com' })), boundary).body;
      const prefix = Buffer.concat([
        text.subarray(0, text.length - `--${boundary}--\r\n`.length),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
      ]);
      const req = http.request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      req.on('error', () => undefined); // the connection dies with the server
      req.on('response', (res) => res.resume());
      req.write(prefix);
      req.write(pdfBytes(64 * 1024));
      const filler = Buffer.alloc(64 * 1024, 0x41);
      let partial: string | null = null;
      for (let i = 0; i < 150 && !partial; i++) {
        req.write(filler);
        await sleep(20);
        partial = listFiles(uploads).find((f) => !kept.includes(f) && fs.statSync(path.join(uploads, f)).size >= 256 * 1024) ?? null;
      }
      expect(partial, 'part of the resume reached the disk').to.be.a('string');
      server.child.kill('SIGKILL');
      expect(await server.exited).to.deep.equal({ code: null, signal: 'SIGKILL' });
      req.destroy();

      // What the crash left: the partial file, no row of the second application.
      const size = fs.statSync(path.join(uploads, partial!)).size;
      expect(size)
        .to.be.greaterThan(0)
        .and.lessThan(10 * 1024 * 1024);
      expect(listFiles(uploads).sort()).to.deep.equal([...kept, partial!].sort());
      expect(await tableCounts(t.db)).to.deep.equal(countsBefore);
      expect(await t.db('applications').where({ email: 'crashed@example.com' })).to.have.length(0);

      // The sweep, grace 0 (the server is gone, nothing is in flight).
      const r = cli(['files', 'sweep', '--older-than-minutes', '0'], env);
      expect(r.code, r.err + r.out).to.equal(0);
      expect(r.out).to.include(`removed ${partial}`);
      expect(r.out).to.include('removed 1 file with no database row');
      expect(listFiles(uploads)).to.deep.equal(kept);
      // No empty fan-out folder is left, unless the kept file shares the partial file's folder.
      const folders = fs.readdirSync(uploads).sort();
      expect(folders).to.deep.equal([...new Set(kept.map((k) => k.slice(0, 2)))]);
      expect(await tableCounts(t.db)).to.deep.equal(countsBefore);
      const row = await t.db('stored_files').first();
      expect(sha256(fs.readFileSync(path.join(uploads, row.storage_key)))).to.equal(sha256(resume));
    });

    it('a restarted server sweeps orphans older than an hour in the background and logs how many; young ones wait', async () => {
      const storage = new LocalDiskStorage(uploads);
      const before = listFiles(uploads);
      const oldKey = storage.newKey();
      const youngKey = storage.newKey();
      await storage.write(oldKey, Readable.from([pdfBytes(4096)]));
      await storage.write(youngKey, Readable.from([pdfBytes(4096)]));
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      fs.utimesSync(path.join(uploads, oldKey), twoHoursAgo, twoHoursAgo);

      // A web process with POSTS_WORKER=off does no background work: the orphan stays.
      const quiet = runServer({ ...env, PORT: String(await freePort()), LOG_LEVEL: 'info', POSTS_WORKER: 'off' });
      await waitForOutput(quiet, 'sweeps no uploads');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(quiet.output()).to.not.include('Upload sweep');
      expect(listFiles(uploads)).to.include(oldKey);
      quiet.child.kill('SIGTERM');
      expect((await quiet.exited).code).to.equal(0);

      const port = await freePort();
      // LOG_LEVEL=info: the sweep's summary is an info line (tests default to warn).
      server = runServer({ ...env, PORT: String(port), LOG_LEVEL: 'info' });
      await waitForOutput(server, 'Upload sweep: removed 1 orphaned file(s) with no database row.');
      // The server was listening without waiting for the sweep.
      expect(server.output().indexOf(`listening on port ${port}`)).to.be.greaterThan(-1);
      await eventually(() => {
        expect(listFiles(uploads).sort()).to.deep.equal([...before, youngKey].sort());
      });
      server.child.kill('SIGTERM');
      expect((await server.exited).code).to.equal(0);
      expect(await tableCounts(t.db)).not.to.deep.equal(EMPTY);
    });
  });
}

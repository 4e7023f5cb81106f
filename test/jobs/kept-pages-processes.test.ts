/**
 * Issue 33: two server processes (as `npm start` runs them) on one database with
 * PUBLIC_CACHE_SECONDS=0 see each other's job writes at once. Each keeps the pages it rendered and
 * answers them again only while the public pages' version is unchanged (src/db/public-version.ts),
 * so a job created or saved through one process's HR API is on the other's list and job page on
 * the very next request, and the old ETag is no longer answered 304 there. On MySQL and on SQLite
 * (two processes, one file).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { hrSession } from '../helpers/hr.js';
import { jobPayload } from '../helpers/factories.js';

/** A GET through node:http (fetch adds `Cache-Control: no-cache` to a conditional request, which always gets the page). */
function page(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; etag: string; html: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const html = (res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(raw) : raw).toString('utf8');
          resolve({ status: res.statusCode!, etag: String(res.headers.etag), html, headers: res.headers });
        });
      })
      .on('error', reject);
  });
}

for (const kind of databaseKinds()) {
  describe(`two server processes, PUBLIC_CACHE_SECONDS=0: a write on one is on the other's pages at once [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    const servers: ChildServer[] = [];
    const bases: string[] = [];
    let token: string;

    before(async () => {
      t = await createTestDb(kind);
      ({ token } = await hrSession(t.db, 'two-writer'));
      const env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        const server = runServer({ ...env, PORT: String(port), PUBLIC_CACHE_SECONDS: '0' });
        servers.push(server);
        await waitForOutput(server, `listening on port ${port}`);
        bases.push(`http://127.0.0.1:${port}`);
      }
    });
    after(async () => {
      for (const s of servers) {
        if (s.child.exitCode === null && s.child.signalCode === null) {
          s.child.kill('SIGTERM');
          await s.exited;
        }
      }
      await t?.destroy();
    });

    const hr = (base: string, method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('a job created, then saved, through one process is on the list and job page of the other on the next request', async () => {
      const [writer, reader] = bases;
      // The reader keeps its pages (asked twice, so the second answer is from memory).
      for (let i = 0; i < 2; i++) expect((await page(reader, '/careers')).html).not.to.include('Shared Role');
      const created = await hr(writer, 'POST', '/api/hr/jobs/', jobPayload({ title: 'Shared Role', public_id: 'shared-role' }));
      expect(created.status).to.equal(201);
      const job = await created.json();
      expect((await page(reader, '/careers')).html).to.include('Shared Role');

      const path = '/careers/shared-role';
      const before = await page(reader, path);
      expect(before.html).to.include('Shared Role');
      expect((await page(reader, path, { 'If-None-Match': before.etag })).status).to.equal(304);
      const saved = await hr(writer, 'PUT', `/api/hr/jobs/${job.id}/`, { ...job, title: 'Shared Role Renamed' });
      expect(saved.status).to.equal(200);
      const after = await page(reader, path, { 'If-None-Match': before.etag });
      expect(after.status).to.equal(200);
      expect(after.html).to.include('Shared Role Renamed');
      expect((await page(reader, '/careers')).html).to.include('Shared Role Renamed');

      // And back the other way, the job taken off the site through the reader.
      const current = await (await hr(reader, 'GET', `/api/hr/jobs/${job.id}/`)).json();
      expect((await hr(reader, 'PUT', `/api/hr/jobs/${job.id}/`, { ...current, status: 'REMOVED' })).status).to.equal(200);
      expect((await page(writer, '/careers')).html).not.to.include('Shared Role');
      expect((await page(writer, path)).status).to.equal(404);
    });

    it('answers the kept pages compressed and as 304 from either process, each with its own request id', async () => {
      for (const base of bases) {
        const first = await page(base, '/careers', { 'Accept-Encoding': 'br' });
        expect(first.headers['content-encoding']).to.equal('br');
        expect(first.html).to.include('open position');
        const again = await page(base, '/careers', { 'If-None-Match': first.etag });
        expect(again.status).to.equal(304);
        expect(again.headers['x-request-id']).to.not.equal(first.headers['x-request-id']);
      }
    });
  });
}

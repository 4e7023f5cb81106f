/**
 * Issue 18 (operations): /healthz answers while the process is up; /readyz answers 200 only while
 * the database answers within 2 s, no migration is pending and the process is not stopping.
 * Neither says why in its body, and neither is cached.
 */
import net from 'node:net';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../helpers/child-server.js';
import { createDb } from '../../src/db/knex.js';
import { Readiness } from '../../src/ops/index.js';

async function probe(base: string, path: string): Promise<{ status: number; body: string; cache: string | null; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: await res.text(), cache: res.headers.get('cache-control'), ms: Date.now() - started };
}

for (const kind of databaseKinds()) {
  describe(`health and readiness probes [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer | null = null;
    afterEach(async () => {
      await s?.close();
      s = null;
    });

    it('/healthz and /readyz answer 200 with a tiny body, not cached', async () => {
      s = await startTestServer(kind);
      const health = await probe(s.baseUrl, '/healthz');
      expect(health).to.include({ status: 200, body: 'ok', cache: 'no-store' });
      const ready = await probe(s.baseUrl, '/readyz');
      expect(ready).to.include({ status: 200, body: 'ready', cache: 'no-store' });
      const head = await fetch(`${s.baseUrl}/readyz`, { method: 'HEAD' });
      expect(head.status).to.equal(200);
    });

    it('/readyz is 503 while a migration is pending and 200 once it is applied; then it stops looking', async () => {
      s = await startTestServer(kind);
      // The server's process did not migrate this database: its last migration is undone.
      const [, undone] = await s.testDb.db.migrate.down();
      expect(undone).to.have.length(1);
      for (let i = 0; i < 2; i++) {
        const r = await probe(s.baseUrl, '/readyz');
        expect(r).to.include({ status: 503, body: 'not ready', cache: 'no-store' });
      }
      expect((await probe(s.baseUrl, '/healthz')).status).to.equal(200);
      await s.testDb.db.migrate.latest();
      expect((await probe(s.baseUrl, '/readyz')).status).to.equal(200);
      // A migration cannot appear in a running process: once all are applied, the list is not read again.
      let listed = 0;
      s.testDb.db.on('query', (q: { sql: string }) => {
        if (/knex_migrations/.test(q.sql)) listed++;
      });
      for (let i = 0; i < 3; i++) expect((await probe(s.baseUrl, '/readyz')).status).to.equal(200);
      expect(listed).to.equal(0);
    });

    it('/readyz is 503, without details, when the database pool is gone', async () => {
      let other: ReturnType<typeof createDb> | null = null;
      s = await startTestServer(kind, {}, (t) => {
        other = createDb(t.config);
        return { db: other, readiness: new Readiness(other) };
      });
      expect((await probe(s.baseUrl, '/readyz')).status).to.equal(200);
      await other!.destroy();
      const r = await probe(s.baseUrl, '/readyz');
      expect(r).to.include({ status: 503, body: 'not ready' });
      expect(r.ms).to.be.below(2500);
      expect((await probe(s.baseUrl, '/healthz')).status).to.equal(200);
    });

    it('/readyz is 503 once the process starts shutting down; /healthz stays 200 and answers ask to close the connection', async () => {
      s = await startTestServer(kind);
      expect((await probe(s.baseUrl, '/readyz')).status).to.equal(200);
      s.ctx.readiness.stop();
      expect(await probe(s.baseUrl, '/readyz')).to.include({ status: 503, body: 'not ready' });
      const health = await fetch(`${s.baseUrl}/healthz`);
      expect(health.status).to.equal(200);
      expect(health.headers.get('connection')).to.equal('close');
    });
  });
}

if (databaseKinds().includes('mysql')) {
  describe('readiness when MySQL cannot be reached', function () {
    this.timeout(60_000);
    let s: TestServer | null = null;
    let silent: net.Server | null = null;
    let sockets: net.Socket[] = [];
    afterEach(async () => {
      for (const x of sockets) x.destroy();
      sockets = [];
      await s?.close();
      s = null;
      await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
      silent = null;
    });

    const serverOn = async (port: number) =>
      startTestServer('mysql', {}, (t) => {
        const db = createDb({ ...t.config, databaseUrl: `mysql://root@127.0.0.1:${port}/careers` });
        return { db, readiness: new Readiness(db) };
      });

    it('nothing listens at its address: /readyz is 503 at once', async () => {
      s = await serverOn(await freePort());
      const r = await probe(s.baseUrl, '/readyz');
      expect(r).to.include({ status: 503, body: 'not ready' });
      expect(r.ms).to.be.below(2500);
    });

    it('it accepts connections but never answers: /readyz is 503 within about 2 s, and probes do not pile up', async () => {
      silent = net.createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
      s = await serverOn((silent.address() as net.AddressInfo).port);
      const rounds = await Promise.all([probe(s.baseUrl, '/readyz'), probe(s.baseUrl, '/readyz'), probe(s.baseUrl, '/readyz')]);
      for (const r of rounds) {
        expect(r).to.include({ status: 503, body: 'not ready' });
        expect(r.ms).to.be.within(1900, 3000);
      }
      // The three probes shared one check: one connection attempt, not three.
      expect(sockets).to.have.length(1);
    });
  });
}

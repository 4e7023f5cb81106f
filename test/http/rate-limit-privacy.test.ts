/**
 * Rate-limit rows and stored client hashes without raw addresses, on SQLite and MySQL (issue 16
 * item 10): rows are keyed by an HMAC under the server key, which is made once, race-free, and
 * shared by every process; expired windows are deleted by the sweep (server and `careers-admin
 * cron`).
 */
import { createHash, createHmac } from 'node:crypto';
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { createAppContext } from '../../src/wiring.js';
import { deleteExpiredWindows } from '../../src/db/rate-limit-store.js';
import { toDbDate } from '../../src/db/codecs.js';
import { createDb } from '../../src/db/knex.js';
import { ServerKey } from '../../src/db/server-key.js';
import { createTestDb, databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

const ADDRESS = '203.0.113.77';

for (const kind of databaseKinds()) {
  describe(`rate-limit rows and client hashes [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;

    before(async () => {
      s = await startTestServer(kind, { TRUST_PROXY: 'true', LOGIN_RATE_LIMIT: '5', APPLY_RATE_LIMIT: '5' });
    });
    after(() => s.close());

    it('keeps no raw client address or username in any rate-limit row, and keys the application hash', async () => {
      const login = await fetch(`${s.baseUrl}/api/auth/token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ADDRESS },
        body: JSON.stringify({ username: 'mallory.guess', password: 'wrong' }),
      });
      expect(login.status).to.equal(401);
      const job = await makeJob(s.ctx.db, { status: 'ACTIVE' });
      const apply = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        headers: { 'X-Forwarded-For': ADDRESS },
        body: toFormData(validFields({ email: 'hash@example.com' })),
      });
      expect(apply.status, await apply.clone().text()).to.equal(201);
      const rows = await s.ctx.db('rate_limit_hits').select('*');
      expect(rows.length).to.be.at.least(3);
      const dump = JSON.stringify(rows);
      for (const raw of [ADDRESS, '203.0.113', 'mallory.guess']) expect(dump, raw).to.not.include(raw);
      for (const r of rows) expect(r.key).to.match(/^[a-z-]+:[0-9a-f]{64}$/);
      const key = await s.ctx.serverKey.get();
      const app = await s.ctx.db('applications').where({ email: 'hash@example.com' }).first('ip_hash');
      expect(app.ip_hash).to.equal(createHmac('sha256', key).update(`apply:${ADDRESS}`).digest('hex'));
      expect(app.ip_hash).to.not.equal(createHash('sha256').update(`careers-apply:${ADDRESS}`).digest('hex'));
    });

    it('makes one server key, whichever of several processes asks first, and keeps it', async () => {
      const t = await createTestDb(kind);
      const handles = [t.db, ...Array.from({ length: 3 }, () => createDb(t.config))];
      try {
        const keys = await Promise.all(handles.flatMap((db) => [new ServerKey(db).get(), new ServerKey(db).get()]));
        expect(new Set(keys.map((k) => k.toString('hex'))).size).to.equal(1);
        expect(keys[0]).to.have.length(32);
        expect(await t.db('server_keys').select('name')).to.have.length(1);
        expect((await createAppContext(t.config, { db: t.db }).serverKey.get()).equals(keys[0])).to.equal(true);
      } finally {
        for (const db of handles.slice(1)) await db.destroy();
        await t.destroy();
      }
    });

    it('deletes ended windows in the sweep, of the server and of careers-admin cron, and keeps the others', async () => {
      const t = await createTestDb(kind);
      try {
        const seed = async () => {
          await t.db('rate_limit_hits').delete();
          await t.db('rate_limit_hits').insert([
            { key: 'login-ip:ended', hits: 3, reset_at: toDbDate(new Date(Date.now() - 60_000)) },
            { key: 'login-ip:running', hits: 1, reset_at: toDbDate(new Date(Date.now() + 600_000)) },
          ]);
        };
        await seed();
        expect(await deleteExpiredWindows(t.db, new Date())).to.equal(1);
        expect((await t.db('rate_limit_hits').pluck('key')) as string[]).to.deep.equal(['login-ip:running']);

        await seed();
        const env = {
          ...process.env,
          NODE_ENV: 'test',
          DATA_DIR: t.dataDir,
          POSTS_SWEEP_CRON: '* * * * * *',
          ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
        };
        const child = spawn(process.execPath, [CLI_ENTRY, 'cron'], { env, stdio: 'ignore' });
        try {
          for (let i = 0; i < 150; i++) {
            if ((await t.db('rate_limit_hits').pluck('key')).length === 1) break;
            await new Promise((r) => setTimeout(r, 100));
          }
        } finally {
          child.kill('SIGTERM');
        }
        expect((await t.db('rate_limit_hits').pluck('key')) as string[]).to.deep.equal(['login-ip:running']);
      } finally {
        await t.destroy();
      }
    });
  });
}

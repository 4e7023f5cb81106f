/**
 * Several worker processes on one database (`careers-admin cron`, real child processes): every
 * post is delivered, no post is sent twice by live workers, and a post claimed by a process that
 * was killed mid-delivery is sent again (once its lease has run out) with the same webhook-id.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { eventually } from '../fixtures/apply.js';
import { toDbDate } from '../../src/db/codecs.js';
import { seedPosts, startReceiver, webhookJob, type Receiver } from './helpers.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

function cron(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CLI_ENTRY, 'cron'], {
    env: { ...process.env, NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE: 'true', POSTS_SWEEP_CRON: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function stop(p: { child: ChildProcess }): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

const ids = (r: Receiver) => r.received.map((x) => String(x.headers['webhook-id']));

for (const kind of databaseKinds()) {
  describe(`posts: several worker processes (${kind})`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let receiver: Receiver;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
    });
    after(() => t.destroy());
    beforeEach(async () => {
      receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }));
    });
    afterEach(() => receiver.close());

    it('two live workers deliver every post exactly once', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const postIds = await seedPosts(t.db, job, 400, new Date(), 'two');
      const a = cron(env);
      const b = cron(env);
      try {
        await eventually(async () => {
          const [{ n }] = await t.db('application_posts').whereIn('id', postIds).where('status', 'SUCCESS').count({ n: '*' });
          expect(Number(n)).to.equal(postIds.length);
        }, 60_000);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${a.output()}\n${b.output()}`);
      } finally {
        await Promise.all([stop(a), stop(b)]);
      }
      const sent = ids(receiver);
      expect(sent).to.have.length(postIds.length);
      expect(new Set(sent).size).to.equal(postIds.length);
      expect(await t.db('post_attempts').whereIn('application_post_id', postIds).count({ n: '*' })).to.deep.equal([{ n: postIds.length }]);
      expect(a.output() + b.output()).to.not.match(/failed/);
    });

    it('a post held by a killed worker is sent again after its lease, with the same webhook-id', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const postIds = await seedPosts(t.db, job, 30, new Date(), 'kill');
      receiver.answer = () => ({ hang: true });
      const a = cron(env);
      await eventually(() => void expect(receiver.received.length).to.be.at.least(1), 30_000);
      a.child.kill('SIGKILL');
      await new Promise((resolve) => a.child.once('exit', resolve));
      const inFlight = ids(receiver);
      // Rows the dead process claimed are leased to it; the lease runs out (moved to now, not waited for).
      const leased = await t.db('application_posts').whereIn('id', postIds).whereNotNull('claim_token');
      expect(leased.length).to.be.at.least(inFlight.length);
      const leaseEnd = toDbDate(new Date());
      await t
        .db('application_posts')
        .whereIn('id', postIds)
        .whereNotNull('claim_token')
        .update({ locked_until: leaseEnd, next_attempt_at: leaseEnd });

      receiver.answer = () => ({ status: 200 });
      const b = cron(env);
      try {
        await eventually(async () => {
          const [{ n }] = await t.db('application_posts').whereIn('id', postIds).where('status', 'SUCCESS').count({ n: '*' });
          expect(Number(n)).to.equal(postIds.length);
        }, 60_000);
      } finally {
        await stop(b);
      }
      const all = ids(receiver);
      const counts = new Map<string, number>();
      for (const id of all) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(counts.size).to.equal(postIds.length);
      const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
      // A repeat only for what the killed process had in flight, each exactly twice, with the same id.
      expect(repeated.sort()).to.deep.equal([...new Set(inFlight)].sort());
      expect([...counts.values()].every((n) => n <= 2)).to.equal(true);
    });
  });
}

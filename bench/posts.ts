/**
 * Delivery benchmark of outbound posts (issue 12): the delivery engine in this process sends
 * 5,000 PENDING job webhook posts to a receiver on 127.0.0.1 (a child process answering 200 at
 * once). Prints posts per second, the p50/p95 delay from a post's creation to its delivery and
 * this process's peak RSS. Then 2,000 posts written one by one at a steady rate (200/s), each
 * waking the worker as the apply API does: the delay one post sees. Then the same number of posts split between two jobs, one whose
 * receiver never answers and one whose receiver answers at once: the fast receiver's throughput
 * must hold (per-origin connection bounds), while the hanging one's posts wait for their timeout.
 * Goal: at least 300 posts/s (aim: 1,000), and the fast receiver at 300/s or more beside the
 * hanging one.
 *
 *   node --import tsx bench/posts.ts [--count 5000] [--paced-rate 200] [--mysql]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { loadConfig } from '../config/index.js';
import { fromDbDate } from '../src/db/codecs.js';
import { applicationPostPayload, createDelivery, enqueueApplicationPost, OutboxSignal } from '../src/posts/index.js';
import { createTestDb, type TestDb } from '../test/helpers/db.js';
import { seedPosts, webhookJob } from '../test/posts/helpers.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const COUNT = Number(arg('count', '5000'));
const useMysql = process.argv.includes('--mysql');
const PACED_RATE = Number(arg('paced-rate', '200'));
if (useMysql) process.env.TEST_MYSQL_URL ??= process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/careers_test';

/** A receiver in its own process, so its work does not share this event loop: `hang` never answers. */
async function startReceiver(mode: 'ok' | 'hang'): Promise<{ url: string; child: ChildProcess }> {
  const code = `
    const http = require('node:http');
    let n = 0;
    const s = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { n++; if (${mode === 'hang'}) return; res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok'); });
    });
    s.keepAliveTimeout = 60000;
    s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
  `;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (d) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    }),
  );
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

/** Peak resident memory of this process (Linux VmHWM), in MB. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Math.round(process.memoryUsage().rss / 1048576);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function waitDelivered(t: TestDb, ids: number[]): Promise<number> {
  const started = performance.now();
  for (;;) {
    let done = 0;
    for (let i = 0; i < ids.length; i += 1000) {
      const [{ n }] = await t
        .db('application_posts')
        .whereIn('id', ids.slice(i, i + 1000))
        .where('status', 'SUCCESS')
        .count({ n: '*' });
      done += Number(n);
    }
    if (done === ids.length) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function delays(t: TestDb, ids: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await t
      .db('application_posts')
      .select('created_at', 'delivered_at')
      .whereIn('id', ids.slice(i, i + 1000));
    for (const r of rows) out.push(fromDbDate(r.delivered_at)!.getTime() - fromDbDate(r.created_at)!.getTime());
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const t = await createTestDb(useMysql ? 'mysql' : 'sqlite', { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const fast = await startReceiver('ok');
  const hanging = await startReceiver('hang');
  const results: string[] = [];
  let ok = true;
  try {
    const config = loadConfig({
      ...process.env,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      POSTS_SWEEP_CRON: 'off',
      DATA_DIR: t.dataDir,
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    });

    // 1. One fast receiver.
    const job = await webhookJob(t.db, fast.url);
    const ids = await seedPosts(t.db, job, COUNT, new Date(), 'one');
    const delivery = createDelivery({ db: t.db, config, now: () => new Date(), log: () => undefined });
    const started = performance.now();
    delivery.worker.start();
    const ms = await waitDelivered(t, ids);
    const rate = COUNT / (ms / 1000);
    const d = await delays(t, ids);
    results.push(
      `${t.kind}: ${COUNT} posts to one receiver in ${(ms / 1000).toFixed(2)} s: ${rate.toFixed(0)} posts/s; delay p50 ${percentile(d, 50)} ms, p95 ${percentile(d, 95)} ms (all created at once, ${(performance.now() - started).toFixed(0)} ms in all); peak RSS ${peakRssMb()} MB`,
    );
    if (rate < 300) ok = false;

    // 1b. Posts written one by one at a steady rate, each waking the worker as the apply API does:
    // the delay a single post sees.
    const apps = await t.db('application_posts').select('application_id').whereIn('id', ids.slice(0, 2000));
    const signal = new OutboxSignal();
    signal.subscribe(() => delivery.worker.wake());
    const perTick = Math.max(1, Math.round(PACED_RATE / 100));
    for (let i = 0; i < apps.length; i += perTick) {
      await t.db.transaction(async (trx) => {
        for (const a of apps.slice(i, i + perTick)) {
          await enqueueApplicationPost(trx, {
            applicationId: a.application_id,
            jobId: job.id,
            targetUrl: fast.url,
            payload: applicationPostPayload(job, { email: 'a@example.com', first_name: 'A', last_name: 'B', phone: '+1' }),
            now: new Date(),
          });
        }
      });
      signal.notify();
      await new Promise((r) => setTimeout(r, 10));
    }
    const pacedIds = (await t.db('application_posts').select('id').where('job_id', job.id).whereNotIn('id', ids)).map((r: { id: number }) =>
      Number(r.id),
    );
    await waitDelivered(t, pacedIds);
    const dp = await delays(t, pacedIds);
    results.push(
      `${t.kind}: ${pacedIds.length} posts written one transaction at a time at about ${PACED_RATE}/s: delay p50 ${percentile(dp, 50)} ms, p95 ${percentile(dp, 95)} ms, max ${dp[dp.length - 1]} ms`,
    );

    // 2. Half the posts to a receiver that never answers, half to the fast one, interleaved by id.
    const slowJob = await webhookJob(t.db, hanging.url);
    const fastJob = await webhookJob(t.db, fast.url);
    const half = Math.floor(COUNT / 2);
    const now = new Date();
    const slowIds = await seedPosts(t.db, slowJob, half, now, 'slow');
    const fastIds = await seedPosts(t.db, fastJob, half, now, 'fast');
    const started2 = performance.now();
    delivery.worker.wake();
    const ms2 = await waitDelivered(t, fastIds);
    const rate2 = half / (ms2 / 1000);
    const d2 = await delays(t, fastIds);
    const slowSent = await t.db('application_posts').whereIn('id', slowIds.slice(0, 1000)).whereNotNull('claim_token').count({ n: '*' });
    results.push(
      `${t.kind}: beside a hanging receiver (${half} posts waiting on it, ${Number(slowSent[0].n)} of its first 1000 claimed): ${half} posts to the fast receiver in ${(ms2 / 1000).toFixed(2)} s: ${rate2.toFixed(0)} posts/s; delay p95 ${percentile(d2, 95)} ms (${(performance.now() - started2).toFixed(0)} ms in all); peak RSS ${peakRssMb()} MB`,
    );
    if (rate2 < 300) ok = false;
    hanging.child.kill(); // the hanging sends fail now, so the worker stops at once
    await delivery.close();
  } finally {
    fast.child.kill();
    hanging.child.kill();
    await t.destroy();
  }
  for (const line of results) console.log(line);
  console.log(ok ? 'Goal met: at least 300 posts/s in both runs.' : 'Goal missed: under 300 posts/s.');
  process.exit(ok ? 0 : 1);
}

await main();

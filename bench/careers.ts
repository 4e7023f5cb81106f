/**
 * Load benchmark of the public pages (issue 2): /careers with 200 active jobs and one job page,
 * 50 connections (autocannon), against the real app AND against a bare Express + EJS server that
 * renders the same HTML from memory. Prints req/s, p99 latency and the app/bare ratios.
 * Goal: the app reaches at least half the bare server's throughput with p99 under 50 ms.
 *
 *   node --import tsx bench/careers.ts [--duration 10] [--connections 50] [--mysql] [--cache-seconds 2]
 * --cache-seconds sets PUBLIC_CACHE_SECONDS for the app (0 measures every request hitting the database).
 */
import { execFileSync, } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.js';
import { DEMO_JOBS } from '../src/jobs/demo.js';
import { root, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '50'));
const useMysql = process.argv.includes('--mysql');
const cacheSeconds = arg('cache-seconds', '2');
const mysqlBase = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';

async function prepareDatabase(env: Record<string, string>): Promise<string> {
  const config = loadConfig({ ...env, NODE_ENV: 'production' });
  const db = createDb(config);
  await db.migrate.latest();
  // 200 active jobs built from the demo texts, so pages carry realistic rich text.
  const records = Array.from({ length: 200 }, (_, i) => {
    const base = DEMO_JOBS[i % DEMO_JOBS.length] as Record<string, unknown>;
    return { ...base, public_id: `bench-${i}`, title: `${base.title} ${i}`, status: 'ACTIVE' };
  });
  await importJobs(db, validateJobRecords(records));
  await db.destroy();
  return 'bench-7';
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string): Promise<Result> {
  // Warm-up, so JIT and caches are comparable for both servers.
  await autocannon({ url, connections, duration: 2 });
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'production', POSTS_SWEEP_CRON: 'off', PUBLIC_CACHE_SECONDS: cacheSeconds };
  let dbName: string | null = null;
  if (useMysql) {
    dbName = `careers_bench_${process.pid}`;
    const admin = knexFactory({ client: 'mysql2', connection: mysqlBase });
    await admin.raw(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.destroy();
    env.DATABASE_URL = `${mysqlBase.replace(/\/$/, '')}/${dbName}`;
  }
  console.log(`Preparing ${useMysql ? 'MySQL' : 'SQLite'} database with 200 active jobs...`);
  const jobId = await prepareDatabase(env);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });

  const port = 3900 + (process.pid % 50);
  const rows: Record<string, Result> = {};
  const targets = { list: '/careers', job: `/careers/${jobId}` };

  const app = await startProcess(['dist/server.js'], { ...env, PORT: String(port) }, /listening|Careers site on/);
  for (const [name, p] of Object.entries(targets)) rows[`app ${name}`] = await load(`http://127.0.0.1:${port}${p}`);
  await stopProcess(app);

  const bare = await startProcess(['--import', 'tsx', 'bench/bare-server.ts'], { ...env, PORT: String(port) }, /listening|Careers site on/);
  for (const [name, p] of Object.entries(targets)) rows[`bare ${name}`] = await load(`http://127.0.0.1:${port}${p}`);
  await stopProcess(bare);

  console.log(`\n${connections} connections, ${duration} s per run, ${os.cpus().length} cores, ${useMysql ? 'MySQL' : 'SQLite'}, PUBLIC_CACHE_SECONDS=${cacheSeconds}`);
  console.log('target          req/s      p99 ms   errors  non-2xx');
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${name.padEnd(14)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.toFixed(1).padStart(10)} ${String(r.errors).padStart(8)} ${String(r.non2xx).padStart(8)}`);
  }
  let ok = true;
  for (const name of Object.keys(targets)) {
    const a = rows[`app ${name}`];
    const b = rows[`bare ${name}`];
    const ratio = a.rps / b.rps;
    const pass = ratio >= 0.5 && a.p99 < 50 && a.errors === 0 && a.non2xx === 0;
    ok &&= pass;
    console.log(`${name}: app/bare throughput ratio ${ratio.toFixed(2)} (goal >= 0.50), app p99 ${a.p99} ms (goal < 50) -> ${pass ? 'PASS' : 'MISS'}`);
  }
  if (dbName) {
    const admin = knexFactory({ client: 'mysql2', connection: mysqlBase });
    await admin.raw(`DROP DATABASE IF EXISTS \`${dbName}\``);
    await admin.destroy();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

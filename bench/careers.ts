/**
 * Load benchmark of the public pages (issues 2 and 19): /careers and one job page, 50 connections
 * (autocannon), the real app (`node dist/server.js`, NODE_ENV=production) side by side with the
 * true limit: bench/true-limit.ts, a bare node:http server in its own process answering the exact bytes the
 * app sent for that URL (fetched from the app just before the run, compressed when the request
 * asks for it). The EJS bare server (bench/bare-server.ts, the same templates rendered from data in
 * memory) stays as a second line. Prints req/s, p50/p99 and app/limit for every page, with the
 * public cache on and off, without and with `Accept-Encoding: gzip, br`.
 * Goals (ratio to the limit, same run): cache on >= 0.85x with p99 < 20 ms; cache off >= 0.35x
 * with p99 < 40 ms; compressed no slower than uncompressed relative to their limits. Issue 21: the
 * list filtered by a department and the three job feeds within 5 % of the list page's ratio, held
 * on server CPU per request (the limit's over the app's, median of the rounds), which the
 * machine's noise moves far less than the rates.
 *
 *   node --import tsx bench/careers.ts [--duration 5] [--connections 50] [--mysql] [--jobs 30,200]
 *        [--cache-seconds 2,0] [--rounds 1] [--profile DIR]
 * --rounds N loads every page N times (all pages once per round, so a drift of the machine spreads
 * over all of them) and reports the round with each one's median ratio, and every round's ratio.
 * --jobs lists how many active jobs to fill the database with, one run each; --cache-seconds the
 * PUBLIC_CACHE_SECONDS values to run the app with (0: every request reads the database and renders);
 * --profile DIR measures nothing against the limit: it runs each page, cache setting and encoding
 * on its own app process with V8's CPU profiler (files in DIR) and prints where each microsecond of
 * a request goes (bench/cpu-profile.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.service.js';
import { DEMO_JOBS } from '../src/jobs/lib/demo.js';
import { summariseProfile } from './cpu-profile.js';
import { cpuSeconds, freePort, root, startProcess, startTrueLimit, stopProcess, createMysqlDatabase, dropMysqlDatabase } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '5'));
/** Each page's app/limit pair is loaded this many times, all pages once per round; the median ratio counts. */
const rounds = Number(arg('rounds', '1'));
const connections = Number(arg('connections', '50'));
const useMysql = process.argv.includes('--mysql');
const jobCounts = arg('jobs', '30,200').split(',').map(Number);
const cacheSettings = arg('cache-seconds', '2,0').split(',');
const profileDir = arg('profile', '');
const mysqlBase = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/?$/, '/');

const ENCODINGS = { plain: '', 'gzip, br': 'gzip, br' } as const;
const GOALS = { cached: { ratio: 0.85, p99: 20 }, uncached: { ratio: 0.35, p99: 40 } };
const JOB_PATH = '/careers/bench-7';
/** The pages measured; those after the first two are held to the list page's ratio (issue 21: within 5 %). */
const PAGES: Record<string, string> = {
  list: '/careers',
  job: JOB_PATH,
  'list, one department': '/careers?department=Engineering',
  'feed rss': '/feeds/jobs.rss',
  'feed json': '/feeds/jobs.json',
  'feed indeed': '/feeds/indeed.xml',
};
const LIKE_THE_LIST = 0.95;

/** A fresh database (SQLite in a temp dir or a new MySQL database) with `count` active jobs built from the demo texts. */
async function prepareDatabase(count: number): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'production', POSTS_SWEEP_CRON: 'off' };
  const dbName = `careers_bench_${process.pid}_${count}`;
  if (useMysql) {
    await createMysqlDatabase(mysqlBase, dbName);
    env.DATABASE_URL = `${mysqlBase}${dbName}`;
  }
  const db = createDb(loadConfig(env));
  await db.migrate.latest();
  const records = Array.from({ length: count }, (_, i) => {
    const base = DEMO_JOBS[i % DEMO_JOBS.length] as Record<string, unknown>;
    return { ...base, public_id: `bench-${i}`, title: `${base.title} ${i}`, status: 'ACTIVE' };
  });
  await importJobs(db, validateJobRecords(records));
  await db.destroy();
  return {
    env,
    drop: async () => {
      if (useMysql) {
        await dropMysqlDatabase(mysqlBase, dbName);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  /** The server process's CPU per answered request (µs), when its pid was given. */
  cpuUs: number;
}

/** User + system CPU seconds a process has used so far. */
function busySeconds(pid: number): number {
  const { user, system } = cpuSeconds(pid);
  return user + system;
}

async function load(url: string, acceptEncoding: string, pid?: number): Promise<Result & { answered: number }> {
  const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
  const warm = await autocannon({ url, connections, duration: 2, headers }); // JIT and caches alike for both servers
  const cpu0 = pid ? busySeconds(pid) : 0;
  const r = await autocannon({ url, connections, duration, headers });
  const cpuUs = pid ? ((busySeconds(pid) - cpu0) / Math.max(r.requests.total, 1)) * 1e6 : Number.NaN;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.errors + r.timeouts + r.non2xx,
    cpuUs,
    answered: warm.requests.total + r.requests.total,
  };
}

const rows: string[] = [];
let allPass = true;

function report(label: string, app: Result, limit: Result, goal: { ratio: number; p99: number } | null): number {
  const ratio = app.rps / limit.rps;
  const pass = !goal || (ratio >= goal.ratio && app.p99 < goal.p99 && app.bad === 0);
  if (goal) allPass &&= pass;
  const fmt = (r: Result) => `${r.rps.toFixed(0).padStart(6)} ${r.p50.toFixed(0).padStart(4)} ${r.p99.toFixed(0).padStart(4)}`;
  const verdict = goal ? `${pass ? 'PASS' : 'MISS'} (>= ${goal.ratio}x, p99 < ${goal.p99} ms)` : '';
  rows.push(`${label.padEnd(40)} ${fmt(app)} | ${fmt(limit)} ${ratio.toFixed(2).padStart(6)}x ${String(app.bad).padStart(5)}  ${verdict}`);
  return ratio;
}

/** One app process per page, cache setting and encoding under the CPU profiler; prints its summary. */
async function profileApp(env: Record<string, string>, cacheSeconds: string, jobs: number): Promise<void> {
  for (const [page, p] of Object.entries(PAGES)) {
    for (const [encodingName, acceptEncoding] of Object.entries(ENCODINGS)) {
      const label = `${jobs}-jobs-cache-${cacheSeconds}-${page}-${encodingName.replace(/\W+/g, '')}`;
      const dir = path.join(profileDir, label);
      const port = await freePort();
      const app = await startProcess(['--cpu-prof', '--cpu-prof-dir', dir, 'dist/server.js'], {
        ...env,
        PORT: String(port),
        PUBLIC_CACHE_SECONDS: cacheSeconds,
      });
      const r = await load(`http://127.0.0.1:${port}${p}`, acceptEncoding);
      await stopProcess(app);
      const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
      rows.push(
        `${jobs} jobs, cache ${Number(cacheSeconds) > 0 ? `${cacheSeconds} s` : 'off'}, ${page}, ${encodingName}: ${r.rps.toFixed(0)} req/s under the profiler`,
      );
      rows.push(...summariseProfile(file, r.answered).map((line) => `    ${line}`));
    }
  }
}

async function runApp(env: Record<string, string>, cacheSeconds: string, jobs: number): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startProcess(['dist/server.js'], { ...env, PORT: String(port), PUBLIC_CACHE_SECONDS: cacheSeconds });
  const limit = await startTrueLimit(base, Object.values(PAGES), Object.values(ENCODINGS));
  const cached = Number(cacheSeconds) > 0;
  try {
    const runs = new Map<string, { a: Result; l: Result }[]>();
    for (let round = 0; round < rounds; round++) {
      for (const [page, p] of Object.entries(PAGES)) {
        for (const [encodingName, acceptEncoding] of Object.entries(ENCODINGS)) {
          const a = await load(`${base}${p}`, acceptEncoding, app.pid);
          const l = await load(`${limit.baseUrl}${p}`, acceptEncoding, limit.child.pid);
          runs.set(`${page}|${encodingName}`, [...(runs.get(`${page}|${encodingName}`) ?? []), { a, l }]);
        }
      }
    }
    const listRatios: Record<string, number> = {};
    const listCpuRatios: Record<string, number> = {};
    const cpuRatio = (r: { a: Result; l: Result }) => r.l.cpuUs / r.a.cpuUs;
    const medianRound = (all: { a: Result; l: Result }[], ratio: (r: { a: Result; l: Result }) => number) =>
      [...all].sort((x, y) => ratio(x) - ratio(y))[Math.floor((all.length - 1) / 2)];
    for (const page of Object.keys(PAGES)) {
      const ratios: number[] = [];
      for (const encodingName of Object.keys(ENCODINGS)) {
        const all = runs.get(`${page}|${encodingName}`)!;
        const { a, l } = medianRound(all, (r) => r.a.rps / r.l.rps);
        const label = `${jobs} jobs, cache ${cached ? `${cacheSeconds} s` : 'off'}, ${page}, ${encodingName}`;
        const eachRound = () =>
          rounds > 1 && rows.push(`${''.padEnd(40)} median of rounds ${all.map((r) => `${(r.a.rps / r.l.rps).toFixed(2)}x`).join(', ')}`);
        // Server CPU per request, which the machine's noise moves far less than the rates: the
        // limit's as a share of the app's (1.0: the app spends no more than sending the bytes).
        const byCpu = medianRound(all, cpuRatio);
        const cpu = cpuRatio(byCpu);
        const cpuLine = (extra = '') =>
          rows.push(
            `${''.padEnd(40)} CPU per request: app ${byCpu.a.cpuUs.toFixed(0)} µs, limit ${byCpu.l.cpuUs.toFixed(0)} µs; limit/app ${cpu.toFixed(2)} (median)${extra}`,
          );
        if (page === 'list' || page === 'job') {
          const ratio = report(label, a, l, cached ? GOALS.cached : GOALS.uncached);
          eachRound();
          cpuLine();
          if (page === 'list') {
            listRatios[encodingName] = ratio;
            listCpuRatios[encodingName] = cpu;
          }
          ratios.push(ratio);
        } else {
          const ratio = report(label, a, l, null);
          eachRound();
          // Issue 21's goal, held on the CPU ratio: the rates' ratio wanders by more than 5 % between rounds.
          const pass = cpu >= listCpuRatios[encodingName] * LIKE_THE_LIST && all.every((r) => r.a.bad === 0);
          allPass &&= pass;
          cpuLine(` vs the list's ${listCpuRatios[encodingName].toFixed(2)} -> ${pass ? 'PASS' : 'MISS'} (within 5 %)`);
          rows.push(`${''.padEnd(40)} rate ratio ${ratio.toFixed(2)}x vs the list's ${listRatios[encodingName].toFixed(2)}x`);
          ratios.push(ratio);
        }
      }
      const [plain, compressed] = ratios;
      const pass = compressed >= plain * 0.95; // within the runs' noise
      allPass &&= pass;
      rows.push(
        `${''.padEnd(40)} compressed ${compressed.toFixed(2)}x vs plain ${plain.toFixed(2)}x of their limits -> ${pass ? 'PASS' : 'MISS'} (no slower)`,
      );
    }
  } finally {
    await stopProcess(limit.child);
    await stopProcess(app);
  }
}

/** The second line: the same templates rendered from data in memory (no database, headers or compression). */
async function runEjsBare(env: Record<string, string>, jobs: number): Promise<void> {
  const port = await freePort();
  const bare = await startProcess(['--import', 'tsx', 'bench/bare-server.ts'], { ...env, PORT: String(port) }, /listening/);
  const limit = await startTrueLimit(`http://127.0.0.1:${port}`, Object.values(PAGES), ['']);
  try {
    for (const [page, p] of Object.entries(PAGES).slice(0, 2)) {
      report(
        `${jobs} jobs, EJS bare server, ${page}, plain`,
        await load(`http://127.0.0.1:${port}${p}`, ''),
        await load(`${limit.baseUrl}${p}`, ''),
        null,
      );
    }
  } finally {
    await stopProcess(limit.child);
    await stopProcess(bare);
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  for (const jobs of jobCounts) {
    console.log(`Preparing ${useMysql ? 'MySQL' : 'SQLite'} with ${jobs} active jobs...`);
    const { env, drop } = await prepareDatabase(jobs);
    try {
      if (profileDir) {
        for (const cacheSeconds of cacheSettings) await profileApp(env, cacheSeconds, jobs);
      } else {
        for (const cacheSeconds of cacheSettings) await runApp(env, cacheSeconds, jobs);
        await runEjsBare(env, jobs);
      }
    } finally {
      await drop();
    }
  }
  console.log(
    `\n${connections} connections, ${duration} s per run after 2 s warm-up, ${os.cpus().length} cores, ${useMysql ? 'MySQL' : 'SQLite'}`,
  );
  if (!profileDir) console.log(`${'run'.padEnd(40)} ${'app/s'.padStart(6)}  p50  p99 | ${'limit'.padStart(6)}  p50  p99  app/limit  bad`);
  for (const row of rows) console.log(row);
  process.exitCode = allPass ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

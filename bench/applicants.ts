/**
 * Applicants benchmark (issue 11): 1,000 jobs and 200,000 applications (realistic names, emails,
 * phones, statuses and days over two years). Against the real server (`node dist/server.js`,
 * NODE_ENV=production) it loads each scenario with autocannon (10 connections, an HR Bearer
 * token or the jwt cookie for pages) and computes p95 from every response's own latency:
 * the list with each filter, all of them together and `detailed=true`; searches by a common
 * name, a name and surname, an email, phone digits and a prefix nobody has; one application;
 * its resume; and the two HTML pages. Goal: p95 < 50 ms each (issue 19; it was 150 ms).
 * Then it purges the oldest 50,000 applications (rows in one transaction, then their 50,000 files)
 * in a child process and reports the time and the child's peak RSS.
 *
 *   node --import tsx bench/applicants.ts [--mysql] [--duration 10] [--connections 10]
 *        [--applications 200000] [--jobs 1000] [--purge 50000] [--only list,search,...]
 *        [--keep] [--reuse <data dir | mysql url>] [--profile DIR]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 * --keep leaves the database in place (and skips the purge, which would empty a quarter of it);
 * --reuse measures a kept database again: no build, no migration timing, no purge.
 * --profile DIR runs the server under V8's CPU profiler (file in DIR) and prints where the CPU
 * time of a request went (bench/cpu-profile.ts): use it with --only and one scenario.
 * Beside the latencies it prints the CPU each request cost the server and, on MySQL, the database
 * server (µs per request), which a busy machine moves far less than the latencies.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.service.js';
import { DEMO_JOBS } from '../src/jobs/lib/demo.js';
import { removeApplications } from '../src/applicants/retention.service.js';
import { LocalDiskStorage } from '../src/storage/storage.js';
import { createStorage } from '../src/storage/create.js';
import { insertApplications, realisticApplications, rng } from '../test/helpers/applications.js';
import { hrSession } from '../test/helpers/hr.js';
import { summariseProfile } from './cpu-profile.js';
import { root, startProcess, stopProcess, createMysqlDatabase, dropMysqlDatabase } from './lib.js';
import { type CpuLoadResult, cpuColumns, databaseServerPid, loadUrlWithCpu } from './load-cpu.js';
import { processLog } from '../src/log/logger.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '10'));
const totalApplications = Number(arg('applications', '200000'));
const jobCount = Number(arg('jobs', '1000'));
const purgeCount = Number(arg('purge', '50000'));
const useMysql = process.argv.includes('--mysql');
const only = arg('only', '');
const keep = process.argv.includes('--keep');
const reuse = arg('reuse', '');
const profileDir = arg('profile', '');
const mysqlBase = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/?$/, '/');
const GOAL_MS = 50;

const elapsed = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s`;

/** Jobs from the demo texts, applications spread unevenly (weights 1..10) over two years. */
async function prepare(db: Knex): Promise<void> {
  await db.migrate.latest();
  const r = rng(7);
  const records = Array.from({ length: jobCount }, (_, i) => {
    const base = DEMO_JOBS[i % DEMO_JOBS.length] as Record<string, unknown>;
    return { ...base, public_id: `ap-bench-${i}`, title: `${base.title} ${i}`, status: r() < 0.8 ? 'ACTIVE' : 'INACTIVE' };
  });
  let t = process.hrtime.bigint();
  await importJobs(db, validateJobRecords(records));
  console.log(`  ${jobCount} jobs in ${elapsed(t)}`);
  const jobs: { id: number }[] = await db('jobs').select('id').orderBy('id');
  const weights = jobs.map(() => 1 + Math.floor(r() * 10));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w * totalApplications) / sum));
  counts[0] += totalApplications - counts.reduce((a, b) => a + b, 0);
  t = process.hrtime.bigint();
  const until = new Date('2026-11-01T00:00:00Z');
  for (const [i, job] of jobs.entries()) {
    // No answers: this bench is about the list, search and retention; bench/hr.ts covers answers.
    await insertApplications(
      db,
      Number(job.id),
      realisticApplications(counts[i], [], { seed: 5000 + i, emailTag: `j${job.id}`, until, days: 730 }),
      [],
      { batchSize: 2500 },
    );
  }
  console.log(`  ${totalApplications.toLocaleString('en-US')} applications in ${elapsed(t)}`);
}

/** Gives the `n` oldest applications real resume files (valid keys, small files), for the purge. */
async function realFiles(db: Knex, uploads: string, n: number): Promise<void> {
  const storage = new LocalDiskStorage(uploads);
  const rows: { id: number }[] = await db('applications as a')
    .join('stored_files as f', 'f.id', 'a.resume_file_id')
    .orderBy('a.created_at')
    .limit(n)
    .select('f.id');
  const body = Buffer.alloc(2048, 0x25);
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000).map((row) => ({ id: Number(row.id), key: storage.newKey() }));
    for (const c of chunk) {
      fs.mkdirSync(path.join(uploads, c.key.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(uploads, c.key), body);
    }
    await db.raw(
      `UPDATE stored_files SET storage_key = CASE id ${chunk.map(() => 'WHEN ? THEN ?').join(' ')} END WHERE id IN (${chunk.map(() => '?').join(', ')})`,
      [...chunk.flatMap((c) => [c.id, c.key]), ...chunk.map((c) => c.id)],
    );
  }
}

/** The child process of the purge: removes the applications older than `cutoff`, prints JSON. */
async function purgeChild(env: Record<string, string>, cutoff: string): Promise<void> {
  const config = loadConfig({ ...env });
  const db = createDb(config);
  const t = process.hrtime.bigint();
  const result = await removeApplications(
    { db, storage: createStorage(config), now: () => new Date(), log: processLog() },
    { createdBefore: new Date(cutoff) },
    { action: 'purge' },
  );
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  await db.destroy();
  console.log(
    JSON.stringify({
      seconds,
      applications: result.applications,
      files: result.files,
      filesLeft: result.filesLeft.length,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

async function main(): Promise<void> {
  const reusing = reuse !== '';
  const dataDir = reusing && !reuse.startsWith('mysql:') ? reuse : fs.mkdtempSync(path.join(os.tmpdir(), 'careers-applicants-bench-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    POSTS_SWEEP_CRON: 'off',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
  };
  let dbName: string | null = null;
  if (reuse.startsWith('mysql:')) {
    env.DATABASE_URL = reuse;
  } else if (useMysql && !reusing) {
    dbName = `careers_apbench_${process.pid}`;
    await createMysqlDatabase(mysqlBase, dbName);
    env.DATABASE_URL = `${mysqlBase}${dbName}`;
  }
  const label = env.DATABASE_URL ? 'MySQL (MariaDB)' : 'SQLite';
  // The bench's own handle loads and migrates: no statement timeout (as `careers-admin migrate` runs).
  const db = createDb(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' }));
  let migrationTime = '(not timed: reused database)';
  let t: bigint;
  if (reusing) {
    await db.migrate.latest();
    console.log(
      `Reusing ${label} at ${reuse}: ${Number((await db('applications').count({ n: '*' }))[0].n).toLocaleString('en-US')} applications`,
    );
  } else {
    if (!env.DATABASE_URL) await db.raw('PRAGMA cache_size = -262144');
    console.log(`Preparing ${label}: ${jobCount} jobs, ${totalApplications.toLocaleString('en-US')} applications...`);
    const t0 = process.hrtime.bigint();
    await prepare(db);
    const words = Number((await db('application_search_words').count({ n: '*' }))[0].n);
    console.log(`  ready in ${elapsed(t0)} (${words.toLocaleString('en-US')} search words)`);
    // Migration 005 again, on the full table: its backfill is what an existing site goes through.
    // Every later migration is rolled back first and applied again after it, untimed.
    while ((await db.migrate.currentVersion()) >= '005') await db.migrate.down();
    t = process.hrtime.bigint();
    await db.migrate.up();
    migrationTime = elapsed(t);
    await db.migrate.latest();
    console.log(`  migration 005 (backfill of ${totalApplications.toLocaleString('en-US')} applications) in ${migrationTime}`);
  }

  // What the scenarios look for: a middle-sized job, one applicant's email and phone, and a
  // real PDF for the resume download.
  const job = (await db('applications').select('job_id').count({ n: '*' }).groupBy('job_id').orderBy('n', 'desc').offset(500).first()) as {
    job_id: number;
  };
  const one = (await db('applications').where('job_id', job.job_id).orderBy('id').first('id', 'email', 'phone', 'resume_file_id')) as {
    id: number;
    email: string;
    phone: string;
    resume_file_id: number;
  };
  const storage = new LocalDiskStorage(path.join(dataDir, 'uploads'));
  const resumeKey = storage.newKey();
  fs.mkdirSync(path.join(dataDir, 'uploads', resumeKey.slice(0, 2)), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'uploads', resumeKey), Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(150_000, 0x20)]));
  await db('stored_files').where({ id: one.resume_file_id }).update({ storage_key: resumeKey, size: 150_009 });
  const { token } = await hrSession(db, `bench-hr-${process.pid}`, 86_400);
  const cutoffRow = (await db('applications')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .offset(purgeCount)
    .first('created_at')) as { created_at: unknown };
  const cutoff = new Date(
    cutoffRow.created_at instanceof Date ? cutoffRow.created_at : `${String(cutoffRow.created_at).replace(' ', 'T')}Z`,
  );
  const purging = purgeCount > 0 && !keep && !reusing;
  if (purging) {
    t = process.hrtime.bigint();
    await realFiles(db, path.join(dataDir, 'uploads'), purgeCount);
    console.log(`  ${purgeCount.toLocaleString('en-US')} resume files written for the purge in ${elapsed(t)}`);
  }
  await db.destroy();

  const email = encodeURIComponent(one.email);
  const phoneTail = one.phone.slice(-7);
  const scenarios: [string, string, 'api' | 'page'][] = [
    ['list', '/api/hr/applications/', 'api'],
    ['list job', `/api/hr/applications/?job_id=${job.job_id}`, 'api'],
    ['list status', '/api/hr/applications/?status=ARCHIVED', 'api'],
    ['list days', '/api/hr/applications/?date_from=2026-03-01&date_to=2026-03-31', 'api'],
    [
      'list all filters',
      `/api/hr/applications/?job_id=${job.job_id}&status=NEW&date_from=2025-11-01&date_to=2026-10-31&ordering=created_at`,
      'api',
    ],
    ['list detailed p.3', '/api/hr/applications/?detailed=true&page=3', 'api'],
    ['sort name', '/api/hr/applications/?ordering=name', 'api'],
    ['sort name p.40', '/api/hr/applications/?ordering=-name&page=40', 'api'],
    ['sort status+name', '/api/hr/applications/?status=NEW&ordering=name', 'api'],
    ['sort job+email', `/api/hr/applications/?job_id=${job.job_id}&ordering=email`, 'api'],
    ['sort days+status', '/api/hr/applications/?date_from=2026-03-01&date_to=2026-03-31&ordering=-status', 'api'],
    ['search name', '/api/hr/applications/?q=sharma', 'api'],
    ['search name+name', '/api/hr/applications/?q=asha%20sharma&detailed=true', 'api'],
    ['search name+status', '/api/hr/applications/?q=patel&status=REVIEWED', 'api'],
    ['search email', `/api/hr/applications/?q=${email}`, 'api'],
    ['search phone', `/api/hr/applications/?q=${phoneTail}`, 'api'],
    ['search none', '/api/hr/applications/?q=zzyzx', 'api'],
    ['detail', `/api/hr/applications/${one.id}/`, 'api'],
    ['resume (150 KB)', `/api/hr/applications/${one.id}/resume/`, 'api'],
    ['page list', `/hr/applicants?q=sharma`, 'page'],
    ['page detail', `/hr/applicants/${one.id}?job_id=${job.job_id}`, 'page'],
    ['page detail sort name', `/hr/applicants/${one.id}?ordering=name`, 'page'],
  ];
  const picked = only ? scenarios.filter(([name]) => only.split(',').some((o) => name.startsWith(o))) : scenarios;

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = 3990 + (process.pid % 9);
  const profiling = profileDir
    ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `applicants-${process.pid}.cpuprofile`]
    : [];
  const server = await startProcess([...profiling, 'dist/server.js'], { ...env, PORT: String(port) });
  const results: [string, string, CpuLoadResult][] = [];
  const dbPid = env.DATABASE_URL ? databaseServerPid() : null;
  for (const [name, url, kind] of picked) {
    console.log(`Loading ${name}: ${url}`);
    const headers: Record<string, string> = kind === 'api' ? { Authorization: `Bearer ${token}` } : { Cookie: `jwt=${token}` };
    results.push([name, url, await loadUrlWithCpu(`http://127.0.0.1:${port}${url}`, headers, connections, duration, server.pid!, dbPid)]);
  }
  await stopProcess(server);

  console.log(
    `\n${label}, ${os.cpus().length} cores, ${connections} connections, ${duration} s per scenario; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('scenario               req/s   p50 ms   p95 ms   max ms  errors non-2xx app µs/r  db µs/r  goal');
  let ok = true;
  for (const [name, , r] of results) {
    const pass = r.p95 < GOAL_MS && r.errors === 0 && r.non2xx === 0;
    ok &&= pass;
    console.log(
      `${name.padEnd(20)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(0).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(7)} ${cpuColumns(r)}  p95 < ${GOAL_MS} ms ${pass ? 'PASS' : 'MISS'}`,
    );
  }
  console.log(`migration 005 on ${totalApplications.toLocaleString('en-US')} applications: ${migrationTime}`);
  if (profileDir) {
    console.log(`\nCPU profile of the server over ${results.map(([name]) => name).join(', ')} (warm-up included):`);
    for (const line of summariseProfile(
      path.join(profileDir, `applicants-${process.pid}.cpuprofile`),
      results.reduce((n, [, , r]) => n + r.answered, 0),
    ))
      console.log(`  ${line}`);
  }
  if (!purging) {
    if (keep || reusing) console.log(`\nKept: ${env.DATABASE_URL ?? dataDir} (measure again with --reuse ${env.DATABASE_URL ?? dataDir})`);
    else await dropData(dbName, dataDir);
    process.exitCode = ok ? 0 : 1;
    return;
  }

  console.log(`\nPurging the ${purgeCount.toLocaleString('en-US')} oldest applications (applied before ${cutoff.toISOString()}) ...`);
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bench/applicants.ts', '--purge-child', JSON.stringify(env), cutoff.toISOString()],
    { cwd: root, encoding: 'utf8' },
  );
  const purge = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    applications: number;
    files: number;
    filesLeft: number;
    maxRssMb: number;
  };
  console.log(
    `purge: ${purge.applications.toLocaleString('en-US')} applications and ${purge.files.toLocaleString('en-US')} files in ${purge.seconds.toFixed(1)} s (${purge.filesLeft} files left), peak RSS ${purge.maxRssMb.toFixed(0)} MB`,
  );

  await dropData(dbName, dataDir);
  process.exitCode = ok ? 0 : 1;
}

async function dropData(dbName: string | null, dataDir: string): Promise<void> {
  if (dbName) {
    await dropMysqlDatabase(mysqlBase, dbName);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const childAt = process.argv.indexOf('--purge-child');
(childAt > 0 ? purgeChild(JSON.parse(process.argv[childAt + 1]), process.argv[childAt + 2]) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});

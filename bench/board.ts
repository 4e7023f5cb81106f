/**
 * Board benchmark (issue 20): a job with 5,000 applications (realistic names, 90 days) spread
 * over its stages (about half still in Applied, the rest in Screen, Interview, Offer, Hired and
 * Rejected), beside 20 other jobs of 1,000 each. Against the real server (`node dist/server.js`,
 * NODE_ENV=production) it loads GET /api/hr/jobs/{id}/board/ with autocannon (10 connections, an
 * HR Bearer token) and computes p95 from every response's own latency: the whole board, with a
 * status filter, with a search, a column's "show more", and the board page. Goal: p95 < 50 ms each.
 *
 *   node --import tsx bench/board.ts [--mysql] [--fresh] [--duration 10] [--connections 10] [--applications 5000]
 *        [--keep] [--reuse <data dir | mysql url>] [--profile DIR] [--only name,...]
 * --fresh starts the server with STAMPED_CACHE_OFF=board: every request computes its board
 * (by default a board is kept while its stamp is unchanged, as a working day mostly reads).
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 * --keep leaves the database in place; --reuse measures a kept one again (no preparing).
 * --profile DIR runs the server under V8's CPU profiler and prints where a request's CPU time went
 * (bench/cpu-profile.ts); --only picks scenarios by name prefix.
 * Beside the latencies it prints the CPU each request cost the server and, on MySQL, the database
 * server (µs per request), which a busy machine moves far less than the latencies.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { changePipeline } from '../src/pipeline/service.js';
import { insertApplications, realisticApplications, rng } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import fs from 'node:fs';
import { root, startProcess, stopProcess, benchStore } from './lib.js';
import { type CpuLoadResult, cpuColumns, databaseServerPid, loadUrlWithCpu } from './load-cpu.js';
import { summariseProfile } from './cpu-profile.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '10'));
const total = Number(arg('applications', '5000'));
const useMysql = process.argv.includes('--mysql');
const fresh = process.argv.includes('--fresh');
const keep = process.argv.includes('--keep');
const reuse = arg('reuse', '');
const profileDir = arg('profile', '');
const only = arg('only', '');
const GOAL_MS = 50;

const elapsed = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s`;

/** The big job and its first stage's id; other jobs' applications around it, so the indexes are not the job's alone. */
async function prepare(db: Knex): Promise<{ jobId: number; appliedId: number }> {
  await db.migrate.latest();
  const until = new Date('2026-11-01T00:00:00Z');
  for (let i = 0; i < 20; i++) {
    const other = await makeJob(db, { title: `Other job ${i}`, public_id: `board-other-${i}` });
    await insertApplications(db, other.id, realisticApplications(1000, [], { seed: 100 + i, emailTag: `o${i}`, until }), [], {
      batchSize: 2500,
    });
  }
  const job = await makeJob(db, { title: 'Board bench job', public_id: 'board-bench' });
  await insertApplications(db, job.id, realisticApplications(total, [], { seed: 42, emailTag: 'board', until }), [], { batchSize: 2500 });
  const stages: { id: number; name: string }[] = await db('job_stages').where({ job_id: job.id }).orderBy('position').select('id', 'name');
  const ids: number[] = (await db('applications').where({ job_id: job.id }).orderBy('id').select('id')).map((r: { id: number }) =>
    Number(r.id),
  );
  // Spread them as a real pipeline is: most early on, a few far along, some rejected.
  const r = rng(9);
  const groups = new Map<string, number[]>();
  for (const id of ids) {
    const x = r();
    const key = x < 0.5 ? '' : x < 0.7 ? 'Screen' : x < 0.8 ? 'Interview' : x < 0.83 ? 'Offer' : x < 0.85 ? 'Hired' : 'Rejected';
    if (key) groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  const deps = { db, now: () => new Date() };
  for (const [key, group] of groups) {
    for (let i = 0; i < group.length; i += 500) {
      const chunk = group.slice(i, i + 500);
      if (key === 'Rejected') await changePipeline(deps, chunk, { kind: 'outcome', outcome: 'REJECTED', reason: 'Not a fit' }, null);
      else await changePipeline(deps, chunk, { kind: 'stage', stage: stages.find((s) => s.name === key)!.id }, null);
    }
  }
  return { jobId: job.id, appliedId: stages[0].id };
}

/** The kept job and its first stage's id (--reuse). */
async function kept(db: Knex): Promise<{ jobId: number; appliedId: number }> {
  const job = await db('jobs').where({ public_id: 'board-bench' }).first('id');
  if (!job) throw new Error('No board bench job in that database (prepare one with --keep).');
  const stage = await db('job_stages').where({ job_id: job.id }).orderBy('position').first('id');
  return { jobId: Number(job.id), appliedId: Number(stage.id) };
}

async function main(): Promise<void> {
  const store = reuse
    ? {
        env: {
          DATA_DIR: reuse.startsWith('mysql:') ? fs.mkdtempSync(`${os.tmpdir()}/careers-board-bench-`) : reuse,
          NODE_ENV: 'production',
          POSTS_SWEEP_CRON: 'off',
          PUBLIC_BASE_URL: 'http://127.0.0.1',
          ...(reuse.startsWith('mysql:') ? { DATABASE_URL: reuse } : {}),
        } as Record<string, string>,
        label: reuse.startsWith('mysql:') ? 'MySQL (MariaDB)' : 'SQLite',
        remove: async () => {},
      }
    : await benchStore('board', useMysql);
  const { env, label } = store;
  // The bench's own handle loads and migrates: no statement timeout (as `careers-admin migrate` runs).
  const db = createDb(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' }));
  const t0 = process.hrtime.bigint();
  let where: { jobId: number; appliedId: number };
  if (reuse) {
    await db.migrate.latest();
    where = await kept(db);
    console.log(`Reusing ${label} at ${reuse}`);
  } else {
    console.log(`Preparing ${label}: a job of ${total.toLocaleString('en-US')} applications beside 20 of 1,000 ...`);
    where = await prepare(db);
  }
  const { jobId, appliedId } = where;
  const counts = await db('applications')
    .where({ job_id: jobId })
    .select('outcome', 'stage_id')
    .count({ n: '*' })
    .groupBy('outcome', 'stage_id');
  console.log(
    `  ready in ${elapsed(t0)}; the job's (outcome, stage) counts: ${counts.map((c: Record<string, unknown>) => `${c.outcome ?? c.stage_id}=${c.n}`).join(' ')}`,
  );
  const { token } = await hrSession(db, `bench-hr-${process.pid}`, 86_400);
  await db.destroy();

  const board = `/api/hr/jobs/${jobId}/board/`;
  const all: [string, string, 'api' | 'page'][] = [
    ['board', board, 'api'],
    ['board status', `${board}?status=REVIEWED`, 'api'],
    ['board search', `${board}?q=sharma`, 'api'],
    ['board search+status', `${board}?q=asha%20sharma&status=REVIEWED`, 'api'],
    ['show more (Applied)', `${board}?column=${appliedId}&offset=100`, 'api'],
    ['page', `/hr/jobs/${jobId}/board`, 'page'],
  ];
  const scenarios = only ? all.filter(([name]) => only.split(',').some((o) => name.startsWith(o))) : all;

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = 3980 + (process.pid % 9);
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `board-${process.pid}.cpuprofile`] : [];
  const server = await startProcess([...profiling, 'dist/server.js'], {
    ...env,
    PORT: String(port),
    ...(fresh ? { STAMPED_CACHE_OFF: 'board' } : {}),
  });
  const results: [string, CpuLoadResult][] = [];
  const dbPid = env.DATABASE_URL ? databaseServerPid() : null;
  try {
    for (const [name, url, kind] of scenarios) {
      console.log(`Loading ${name}: ${url}`);
      const headers: Record<string, string> = kind === 'api' ? { Authorization: `Bearer ${token}` } : { Cookie: `jwt=${token}` };
      results.push([name, await loadUrlWithCpu(`http://127.0.0.1:${port}${url}`, headers, connections, duration, server.pid!, dbPid)]);
    }
  } finally {
    await stopProcess(server);
  }

  console.log(
    `\n${label}${fresh ? ' (--fresh: no kept boards)' : ''}, ${os.cpus().length} cores, ${connections} connections, ${duration} s per scenario; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('scenario                 req/s   p50 ms   p95 ms   max ms  errors non-2xx app µs/r  db µs/r  goal');
  let ok = true;
  for (const [name, r] of results) {
    const pass = r.p95 < GOAL_MS && r.errors === 0 && r.non2xx === 0;
    ok &&= pass;
    console.log(
      `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(0).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(7)} ${cpuColumns(r)}  p95 < ${GOAL_MS} ms ${pass ? 'PASS' : 'MISS'}`,
    );
  }
  if (profileDir) {
    console.log(`\nCPU profile of the server over ${results.map(([name]) => name).join(', ')} (warm-up included):`);
    const answered = results.reduce((n, [, r]) => n + r.answered, 0);
    for (const line of summariseProfile(path.join(profileDir, `board-${process.pid}.cpuprofile`), answered)) console.log(`  ${line}`);
  }
  if (keep || reuse)
    console.log(`\nKept: ${env.DATABASE_URL ?? env.DATA_DIR} (measure again with --reuse ${env.DATABASE_URL ?? env.DATA_DIR})`);
  else await store.remove();
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

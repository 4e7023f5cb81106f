/**
 * Board benchmark (issue 20): a job with 5,000 applications (realistic names, 90 days) spread
 * over its stages (about half still in Applied, the rest in Screen, Interview, Offer, Hired and
 * Rejected), beside 20 other jobs of 1,000 each. Against the real server (`node dist/server.js`,
 * NODE_ENV=production) it loads GET /api/hr/jobs/{id}/board/ with autocannon (10 connections, an
 * HR Bearer token) and computes p95 from every response's own latency: the whole board, with a
 * status filter, with a search, a column's "show more", and the board page. Goal: p95 < 50 ms each.
 *
 *   node --import tsx bench/board.ts [--mysql] [--fresh] [--duration 10] [--connections 10] [--applications 5000]
 * --fresh starts the server with STAMPED_CACHE_OFF=board: every request computes its board
 * (by default a board is kept while its stamp is unchanged, as a working day mostly reads).
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { changePipeline } from '../src/pipeline/service.js';
import { insertApplications, realisticApplications, rng } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import { type LoadResult, loadUrl, root, startProcess, stopProcess, benchStore } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '10'));
const total = Number(arg('applications', '5000'));
const useMysql = process.argv.includes('--mysql');
const fresh = process.argv.includes('--fresh');
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

async function main(): Promise<void> {
  const store = await benchStore('board', useMysql);
  const { env, label } = store;
  const db = createDb(loadConfig({ ...env }));
  console.log(`Preparing ${label}: a job of ${total.toLocaleString('en-US')} applications beside 20 of 1,000 ...`);
  const t0 = process.hrtime.bigint();
  const { jobId, appliedId } = await prepare(db);
  const counts = await db('applications')
    .where({ job_id: jobId })
    .select('outcome', 'stage_id')
    .count({ n: '*' })
    .groupBy('outcome', 'stage_id');
  console.log(
    `  ready in ${elapsed(t0)}; the job's (outcome, stage) counts: ${counts.map((c: Record<string, unknown>) => `${c.outcome ?? c.stage_id}=${c.n}`).join(' ')}`,
  );
  const { token } = await hrSession(db, 'bench-hr', 86_400);
  await db.destroy();

  const board = `/api/hr/jobs/${jobId}/board/`;
  const scenarios: [string, string, 'api' | 'page'][] = [
    ['board', board, 'api'],
    ['board status', `${board}?status=REVIEWED`, 'api'],
    ['board search', `${board}?q=sharma`, 'api'],
    ['board search+status', `${board}?q=asha%20sharma&status=REVIEWED`, 'api'],
    ['show more (Applied)', `${board}?column=${appliedId}&offset=100`, 'api'],
    ['page', `/hr/jobs/${jobId}/board`, 'page'],
  ];

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = 3980 + (process.pid % 9);
  const server = await startProcess(['dist/server.js'], { ...env, PORT: String(port), ...(fresh ? { STAMPED_CACHE_OFF: 'board' } : {}) });
  const results: [string, LoadResult][] = [];
  try {
    for (const [name, url, kind] of scenarios) {
      console.log(`Loading ${name}: ${url}`);
      const headers: Record<string, string> = kind === 'api' ? { Authorization: `Bearer ${token}` } : { Cookie: `jwt=${token}` };
      results.push([name, await loadUrl(`http://127.0.0.1:${port}${url}`, headers, connections, duration)]);
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
  console.log('scenario                 req/s   p50 ms   p95 ms   max ms  errors non-2xx  goal');
  let ok = true;
  for (const [name, r] of results) {
    const pass = r.p95 < GOAL_MS && r.errors === 0 && r.non2xx === 0;
    ok &&= pass;
    console.log(
      `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(0).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(7)}  p95 < ${GOAL_MS} ms ${pass ? 'PASS' : 'MISS'}`,
    );
  }
  await store.remove();
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

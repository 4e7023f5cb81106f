/**
 * Rich text on the read path (issue 9 item 5): one ACTIVE job whose description is the costliest
 * text the save rules let through (100,000 characters, nested at most 20 deep), and a second whose
 * description was stored before the nesting limit existed (thousands of nested tags). Loads
 * GET /api/jobs/{id}/, GET /api/hr/jobs/{id}/ and the job page with autocannon and prints req/s
 * and p99. Run it against this tree and against an older one (--root) to compare:
 *
 *   node --import tsx bench/rich-text.ts [--mysql] [--duration 10] [--connections 10] [--root DIR]
 *
 * The database is prepared with this tree's code (the schema is the same); the server runs from
 * --root (default: this tree) as `node --import tsx src/server.ts`, NODE_ENV=production, the default
 * 2 s public cache. DIR needs its node_modules and built island bundles (scripts/build.mjs --islands).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../config/index.js';
import { insertUser } from '../src/users/repo.js';
import { createSession } from '../src/users/repo.js';
import { createMysqlDatabase, dropMysqlDatabase } from './lib.js';
import { createDb } from '../src/db/knex.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.service.js';
import { JOB_LIMITS } from '../src/jobs/schema.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, sanitizeRichText } from '../src/shared/sanitize.js';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '10'));
const serverRoot = path.resolve(arg('root', here));
const useMysql = process.argv.includes('--mysql');
const mysqlBase = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';

/** Repeats `block` up to the save limit. */
const fill = (block: string) => block.repeat(Math.floor(JOB_LIMITS.richText / block.length));

/**
 * The costliest description the save rules accept, of the shapes tried (nested lists, 20 nested
 * marks, links, line breaks, alternating marks): short links, which the sanitiser writes out three
 * times longer (target and rel), so a read-side parse has 300,000 characters to go through.
 */
const WORST_ALLOWED = fill('<a href=http://a>x</a>');
/** The example: 14,000 nested bold tags, which the sanitiser kept before the limit. */
const DEEP_LEGACY = sanitizeRichText('<b>x'.repeat(14_000));

/** The HR token and the numeric id of each job by public id. */
async function prepare(env: Record<string, string>): Promise<{ token: string; ids: Record<string, number> }> {
  const db = createDb(loadConfig({ ...env, NODE_ENV: 'production' }));
  await db.migrate.latest();
  const [worst] = validateJobRecords([
    {
      public_id: 'worst-allowed',
      title: 'Worst allowed',
      location: 'Berlin',
      job_type: 'FULL_TIME',
      work_mode: 'ONSITE',
      status: 'ACTIVE',
      description: WORST_ALLOWED,
    },
  ]);
  const [deep] = validateJobRecords([
    {
      public_id: 'deep-legacy',
      title: 'Deep legacy',
      location: 'Berlin',
      job_type: 'FULL_TIME',
      work_mode: 'ONSITE',
      status: 'ACTIVE',
      description: '<p>placeholder</p>',
    },
  ]);
  await importJobs(db, [worst, deep]);
  // Written as a job saved before the nesting limit would have stored it.
  await db('jobs').where({ public_id: 'deep-legacy' }).update({ description: DEEP_LEGACY });
  const userId = await insertUser(db, 'bench-hr', 'not-used-for-sign-in');
  const { token } = await createSession(db, userId, 3600, new Date());
  const ids = Object.fromEntries((await db('jobs').select('public_id', 'id')).map((r) => [r.public_id, Number(r.id)]));
  await db.destroy();
  return { token, ids };
}

function start(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start')), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (/listening/.test(d.toString())) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function load(url: string, headers: Record<string, string>) {
  await autocannon({ url, headers, connections, duration: 2 }); // warm-up
  const r = await autocannon({ url, headers, connections, duration });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-bench-rich-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'production', POSTS_SWEEP_CRON: 'off' };
  let dbName: string | null = null;
  if (useMysql) {
    dbName = `careers_bench_rich_${process.pid}`;
    await createMysqlDatabase(mysqlBase, dbName);
    env.DATABASE_URL = `${mysqlBase.replace(/\/$/, '')}/${dbName}`;
  }
  const stored = sanitizeRichText(WORST_ALLOWED);
  console.log(
    `worst allowed: ${WORST_ALLOWED.length} characters sent, ${stored.length} stored, depth ${richTextDepth(stored)} (limit ${RICH_TEXT_MAX_DEPTH})`,
  );
  console.log(`deep legacy:   ${DEEP_LEGACY.length} characters stored, depth ${richTextDepth(DEEP_LEGACY)}`);
  const { token, ids } = await prepare(env);
  const port = 3950 + (process.pid % 40);
  const server = await start(env, port);
  const base = `http://127.0.0.1:${port}`;
  const rows: [string, Awaited<ReturnType<typeof load>>][] = [];
  try {
    for (const id of ['worst-allowed', 'deep-legacy']) {
      rows.push([`${id} GET /api/jobs/{id}/`, await load(`${base}/api/jobs/${id}/`, {})]);
      rows.push([`${id} GET /api/hr/jobs/{id}/`, await load(`${base}/api/hr/jobs/${ids[id]}/`, { Authorization: `Bearer ${token}` })]);
      rows.push([`${id} GET /careers/{id}`, await load(`${base}/careers/${id}`, {})]);
    }
  } finally {
    await stop(server);
    if (dbName) {
      await dropMysqlDatabase(mysqlBase, dbName);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\nserver from ${serverRoot}; ${useMysql ? 'MySQL' : 'SQLite'}; ${connections} connections, ${duration} s per run, ${os.cpus().length} cores`,
  );
  console.log(`${'target'.padEnd(40)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'non-2xx'.padStart(8)}`);
  for (const [name, r] of rows) {
    console.log(
      `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} ${r.p99.toFixed(0).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)}`,
    );
  }
  process.exitCode = rows.every(([, r]) => r.errors === 0 && r.non2xx === 0) ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

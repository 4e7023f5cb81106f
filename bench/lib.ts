/** What every benchmark here does the same way: a free port, the server in its own process, its memory, percentiles, a load run. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import knexFactory from 'knex';

/** The project folder: servers run from here, as `npm start` does. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** `node <args>` from the project folder, resolved once its output matches `ready` (the server's start-up line). */
export function startProcess(args: string[], env: Record<string, string>, ready = /Careers site on/): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), 60_000);
    const onData = (d: Buffer) => {
      if (ready.test(d.toString())) {
        clearTimeout(timer);
        // Later output (a request log line each) is drained without being looked at: the bench
        // process is also the load generator.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The p-th percentile of ascending values; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** User and system CPU seconds a process (or `/proc/{pid}/task/{tid}`: one thread) has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuSeconds(pid: number, thread?: number): { user: number; system: number } {
  const file = thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`;
  const fields = fs.readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** A process's resident memory now, in MB (from /proc). */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** A process's peak resident memory (MB) while `work` runs, sampled every 50 ms. */
export async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  try {
    return { result: await work(), peakMb: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** Headers the true limit does not copy: they belong to the connection or the moment. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * Fetches each path from the running app with each Accept-Encoding value (and `headers`), then
 * starts bench/true-limit.ts answering those exact responses from memory on its own port.
 */
export async function startTrueLimit(
  appBaseUrl: string,
  paths: string[],
  acceptEncodings: string[],
  headers: Record<string, string> = {},
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const captured = [];
  for (const p of paths) {
    for (const acceptEncoding of acceptEncodings) {
      const res = await rawGet(`${appBaseUrl}${p}`, { ...headers, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) });
      const kept = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !PER_CONNECTION.has(k)));
      captured.push({ path: p, acceptEncoding, status: res.status, headers: kept, body: res.body.toString('base64') });
    }
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'true-limit-')), 'responses.json');
  fs.writeFileSync(file, JSON.stringify(captured));
  const port = await freePort();
  const child = await startProcess(
    ['--import', 'tsx', 'bench/true-limit.ts'],
    { PORT: String(port), TRUE_LIMIT_RESPONSES: file },
    /true limit listening/,
  );
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

/** One GET as sent on the wire: the body is kept as received (still compressed), unlike fetch. */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const flat = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
          resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
        });
      })
      .on('error', reject);
  });
}

export interface LoadResult {
  /** Answers in the measured run. */
  requests: number;
  /** Every answer, the warm-up's too (what a CPU profile of the server covers). */
  answered: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/**
 * autocannon on one URL after a 2 s warm-up, recording every response's own latency (ms), so p95
 * is exact (autocannon itself reports p97.5 and p99).
 */
export async function loadUrl(url: string, headers: Record<string, string>, connections: number, duration: number): Promise<LoadResult> {
  const warm = await autocannon({ url, connections, duration: 2, headers });
  const latencies: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    answered: warm.requests.total + latencies.length,
    rps: r.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** A fresh MySQL database for one bench run, on the server at `base` (a URL ending in '/'). */
export async function createMysqlDatabase(base: string, name: string): Promise<void> {
  const admin = knexFactory({ client: 'mysql2', connection: base });
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
}

export async function dropMysqlDatabase(base: string, name: string): Promise<void> {
  const admin = knexFactory({ client: 'mysql2', connection: base });
  await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.destroy();
}

/**
 * A bench's own store: a fresh data folder and, with `mysql`, a fresh database on BENCH_MYSQL_URL
 * (default mysql://root@127.0.0.1:3306/; MariaDB 10.6+ or MySQL 8). `env` is what the bench's
 * config and servers are given (production, no cron sweep, the extras passed); `remove()` drops
 * the database and the folder.
 */
export async function benchStore(
  name: string,
  mysql: boolean,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string>; label: string; dataDir: string; remove: () => Promise<void> }> {
  const base = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/?$/, '/');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `careers-${name}-bench-`));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    POSTS_SWEEP_CRON: 'off',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    ...extra,
  };
  const dbName = mysql ? `careers_${name.replace(/\W/g, '')}bench_${process.pid}` : null;
  if (dbName) {
    await createMysqlDatabase(base, dbName);
    env.DATABASE_URL = `${base}${dbName}`;
  }
  return {
    env,
    label: mysql ? 'MySQL (MariaDB)' : 'SQLite',
    dataDir,
    remove: async () => {
      if (dbName) await dropMysqlDatabase(base, dbName);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

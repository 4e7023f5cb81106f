/**
 * Start-up cost of the built bundles (dist/): the CPU (user + system) and the wall time of
 * `careers-admin` commands from start to exit, and of `node dist/server.js` from start to its
 * "Careers site on" line, each the median of --runs runs. Beside them, the true limit: `node`
 * starting and exiting with nothing to load. Build first (`npm run build`).
 *
 *   node --import tsx bench/startup.ts [--runs 15]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, root } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('runs', '15'));
const CLI = path.join(root, 'dist/careers-admin.js');
const SERVER = path.join(root, 'dist/server.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-startup-'));
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'info' };

interface Sample {
  cpuMs: number;
  wallMs: number;
}

/** CPU of a running process (user + system, its threads included) from /proc, in ms (Linux counts in 1/100 s). */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One run of `node args` to its exit, measured by /usr/bin/time. */
function timeCommand(args: string[]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%x %U %S %e', process.execPath, ...args], { env, cwd: root, encoding: 'utf8' });
  const [code, user, system, wall] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  if (code !== 0) throw new Error(`careers-admin ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return { cpuMs: (user + system) * 1000, wallMs: wall * 1000 };
}

/** One start of the server, to its "Careers site on" line; then it is stopped. */
async function timeServer(): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER], { env: { ...env, PORT: String(port) }, cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const sample = await new Promise<Sample>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it started:\n${out}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('Careers site on')) resolve({ cpuMs: cpuOf(child.pid!), wallMs: performance.now() - started });
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return sample;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name: string, once: () => Sample | Promise<Sample>): Promise<void> {
  await once(); // file cache warm
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const cpu = median(samples.map((s) => s.cpuMs));
  const wall = median(samples.map((s) => s.wallMs));
  console.log(`${name.padEnd(44)} ${String(Math.round(cpu)).padStart(6)} ms CPU ${String(Math.round(wall)).padStart(6)} ms wall`);
}

execFileSync(process.execPath, [CLI, 'migrate'], { env, stdio: 'ignore' });
execFileSync(process.execPath, [CLI, 'jobs', 'seed', '--demo'], { env, stdio: 'ignore' });
const workbook = path.join(dataDir, 'applicants.xlsx');

console.log(`median of ${runs} runs each, SQLite`);
await measure('true limit: node -e ""', () => timeCommand(['-e', '']));
for (const args of [
  ['--version'],
  ['migrate', 'status'],
  ['user', 'list'],
  ['jobs', 'list'],
  ['doctor', '--json'],
  ['export', 'applicants', '--force', '--quiet', '--out', workbook],
]) {
  await measure(`careers-admin ${args.slice(0, 2).join(' ')}`, () => timeCommand([CLI, ...args]));
}
await measure('node dist/server.js to "Careers site on"', timeServer);
fs.rmSync(dataDir, { recursive: true, force: true });

/**
 * Start-up cost of the built bundles (dist/): the CPU (user + system) and the wall time of
 * `careers-admin` commands from start to exit, and of `node dist/server.js` from start to its
 * "Careers site on" line, each the median of --runs runs. Beside them, the true limit: `node`
 * starting and exiting with nothing to load. Build first (`npm run build`).
 *
 *   node --import tsx bench/startup.ts [--runs 15]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, freePort, percentile, root, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('runs', '15'));
const CLI = path.join(root, 'dist/careers-admin.js');
const SERVER = path.join(root, 'dist/server.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-startup-'));
const settings: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'info' };
const env = { ...process.env, ...settings };

interface Sample {
  cpuMs: number;
  wallMs: number;
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
  const started = performance.now();
  const child = await startProcess([SERVER], { ...settings, PORT: String(await freePort()) });
  const wallMs = performance.now() - started;
  const cpu = cpuSeconds(child.pid!);
  await stopProcess(child);
  return { cpuMs: (cpu.user + cpu.system) * 1000, wallMs };
}

const median = (xs: number[]) =>
  percentile(
    xs.toSorted((a, b) => a - b),
    50,
  );

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

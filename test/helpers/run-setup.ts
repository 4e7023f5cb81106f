/**
 * Mocha global fixtures (`.mocharc.json` requires this file): what a test run sets up once, in
 * mocha's own process, before any test file is loaded (the bundles, built when stale; the run's
 * id, which test processes started after it inherit), and takes down at its end (the run's MySQL
 * databases and SQLite templates). With `--parallel` every worker process inherits the run's id,
 * so the teardown finds what each of them made.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropRunDatabases } from './db.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the bundles (dist/ and public/assets/) are built from. */
const SOURCES = ['src', 'config', 'bin', 'migrations', 'islands', 'scripts/build.mjs', 'scripts/node-bundle.mjs'];

/** The newest modification time under `p` (a file or a folder), in ms. */
function newest(p: string): number {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/**
 * Tests start the server and the CLI from dist/ and pages load public/assets/ (as `npm start`
 * and the installed CLI do): they are built again when a source is newer than the last build, so
 * `npx mocha <file>` after an edit runs what was edited.
 */
function buildIfStale(): void {
  const built = Math.min(newest(path.join(ROOT, 'dist/server.js')), newest(path.join(ROOT, 'public/assets/manifest.json')));
  if (built >= Math.max(...SOURCES.map((s) => newest(path.join(ROOT, s))))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

export function mochaGlobalSetup(): void {
  buildIfStale();
  // Worker threads and document parser children start from these fresh bundles, not from the source under tsx (src/documents/thread.ts).
  process.env.CAREERS_BUNDLE_DIR ??= path.join(ROOT, 'dist');
  process.env.CAREERS_TEST_RUN ??= randomBytes(3).toString('hex');
}

export async function mochaGlobalTeardown(): Promise<void> {
  await dropRunDatabases();
}

let fileStartedAt = 0;
let cpuAtStart = process.cpuUsage();
const cpuMs = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);

/**
 * With TEST_FILE_TIMES=<path>, every test file's wall time is appended to that file as a JSON line
 * (`{"file": ..., "ms": ..., "cpuMs": ...}`; root hooks run once per file under `--parallel`): which
 * files a run waits for, and the CPU their test process spent on them (the app they start in it
 * included; child processes, Chromium and the database server not).
 */
export const mochaHooks = {
  beforeAll(): void {
    fileStartedAt = performance.now();
    cpuAtStart = process.cpuUsage();
  },
  afterAll(this: Mocha.Context): void {
    const out = process.env.TEST_FILE_TIMES;
    const file = this.test?.parent?.suites.find((s) => s.file)?.file;
    if (!out || !file) return;
    fs.appendFileSync(
      out,
      `${JSON.stringify({ file: path.relative(ROOT, file), ms: Math.round(performance.now() - fileStartedAt), cpuMs: cpuMs(process.cpuUsage(cpuAtStart)) })}\n`,
    );
  },
};

/**
 * Mocha root hooks (`.mocharc.json` requires this file): what one test process sets up once (the
 * bundles built when stale) and takes down at its end, and the count of tests per database (from the `[sqlite]`/`[mysql]` in
 * their titles) printed as the run's last line, which `.ci/run` repeats in its summary.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'mocha';
import { dropTestDatabases } from './db.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the bundles (dist/ and public/assets/) are built from. */
const SOURCES = ['src', 'config', 'bin', 'migrations', 'islands', 'scripts/build.mjs'];

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

const counts = { sqlite: 0, mysql: 0, neither: 0, failed: 0 };

export const mochaHooks = {
  beforeAll(): void {
    buildIfStale();
  },
  afterEach(this: Context): void {
    const test = this.currentTest;
    if (!test || test.state === 'pending') return;
    if (test.state === 'failed') counts.failed++;
    const title = test.fullTitle();
    if (title.includes('[mysql]')) counts.mysql++;
    else if (title.includes('[sqlite]')) counts.sqlite++;
    else counts.neither++;
  },
  async afterAll(): Promise<void> {
    await dropTestDatabases();
    console.log(`Tests run per database: sqlite ${counts.sqlite}, mysql ${counts.mysql}, no database named ${counts.neither}; failed ${counts.failed}`);
  },
};

#!/usr/bin/env node
/**
 * The test files `npm test` runs, longest first: mocha's parallel runner hands files to its workers
 * in the order given, so a long file started last would keep the whole run waiting for it. The
 * order comes from test/file-times.json (seconds per file, from a run with TEST_FILE_TIMES); a file
 * not in it yet counts as DEFAULT_SECONDS.
 *
 *   node scripts/test-files.mjs                      prints the files, space-separated
 *   node scripts/test-files.mjs --record TIMES.jsonl rewrites test/file-times.json from a run's times
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TIMES = path.join(ROOT, 'test/file-times.json');
const DEFAULT_SECONDS = 30;

const files = fs
  .readdirSync(path.join(ROOT, 'test'), { recursive: true })
  .map((f) => `test/${f.split(path.sep).join('/')}`)
  .filter((f) => f.endsWith('.test.ts'));

if (process.argv[2] === '--record') {
  const seconds = {};
  for (const line of fs.readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean)) {
    const { file, ms } = JSON.parse(line);
    if (files.includes(file)) seconds[file] = Math.max(seconds[file] ?? 0, Math.round(ms / 1000));
  }
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(TIMES, `${JSON.stringify(sorted, null, 2)}\n`);
} else {
  const seconds = fs.existsSync(TIMES) ? JSON.parse(fs.readFileSync(TIMES, 'utf8')) : {};
  const time = (f) => seconds[f] ?? DEFAULT_SECONDS;
  console.log(files.sort((a, b) => time(b) - time(a) || a.localeCompare(b)).join(' '));
}

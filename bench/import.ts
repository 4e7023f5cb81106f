/**
 * Candidate import benchmark (issue 35): a CSV of 10,000 rows (a Greenhouse-style export: names,
 * email, phone, source, job, stage, applied date, notes) checked with a dry run, as
 * `careers-admin import candidates --dry-run` and the upload run it: the file parsed in its own
 * thread, every row checked with the apply rules, jobs and existing applications looked up.
 * Goal: < 30 s. Then the same file written for real (for reference).
 *
 *   node --import tsx bench/import.ts [--mysql] [--rows 10000]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrations.js';
import { importCandidates } from '../src/imports/index.js';
import { processLog } from '../src/log/logger.js';
import { createStorage } from '../src/storage/create.js';
import { makeJob } from '../test/helpers/factories.js';
import { benchStore } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const mysql = process.argv.includes('--mysql');
const rows = Number(arg('rows', '10000'));
const GOAL_S = 30;

function csvOf(n: number): Buffer {
  const lines = ['Candidate ID,First Name,Last Name,Email,Phone,Source,Job,Current Stage,Applied On,Notes'];
  const stages = ['Applied', 'Screen', 'Interview', 'Phone Screen'];
  for (let i = 0; i < n; i++) {
    const phone = `+1415${String(2_000_000 + i).padStart(7, '0')}`;
    const job = i % 2 ? 'Data Analyst' : 'Payroll Lead';
    lines.push(
      `${i},Ann${String.fromCharCode(97 + (i % 26))},Lee,ann.${i}@example.com,${phone},LinkedIn,${job},${stages[i % 4]},2026-0${1 + (i % 9)}-1${i % 10},"Met at the fair, row ${i}"`,
    );
  }
  return Buffer.from(lines.join('\n'));
}

async function main(): Promise<void> {
  const store = await benchStore('import', mysql, { PHONE_RULE: 'international' });
  const config = loadConfig({ ...store.env });
  const db = createDb(config);
  try {
    await migrateLatest(db);
    await makeJob(db, { title: 'Data Analyst', status: 'ACTIVE' });
    await makeJob(db, { title: 'Payroll Lead', status: 'ACTIVE' });
    const csv = csvOf(rows);
    const deps = { db, storage: createStorage(config), config, now: () => new Date(), log: processLog() };
    const run = async (dryRun: boolean) => {
      const t = process.hrtime.bigint();
      const report = await importCandidates(deps, { csv, resumes: null, jobId: null, dryRun, partial: false, userId: null });
      return { seconds: Number(process.hrtime.bigint() - t) / 1e9, report };
    };
    const dry = await run(true);
    const real = await run(false);
    console.log(`\n${store.label}, ${rows.toLocaleString('en-US')} rows (${(csv.length / 1e6).toFixed(1)} MB)`);
    console.log(
      `dry run: ${dry.seconds.toFixed(2)} s, ${dry.report.imported.length} would import, ${dry.report.refused.length} refused  goal < ${GOAL_S} s ${dry.seconds < GOAL_S ? 'PASS' : 'MISS'}`,
    );
    console.log(`written: ${real.seconds.toFixed(2)} s, ${real.report.imported.length} imported (reference)`);
  } finally {
    await db.destroy();
    await store.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

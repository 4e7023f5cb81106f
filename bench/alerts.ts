/**
 * Job alert digests benchmark (issue 35): "a daily alert digest for 10,000 subscribers queued in
 * < 10 s". A fresh database with 100 open jobs in 5 departments and N confirmed daily alerts
 * (filters spread over the departments, work modes and keywords; each knows the jobs open when it
 * was confirmed, as confirming records), then 20 new jobs; times one `sendDigests` run (what
 * ALERTS_CRON and `careers-admin alerts send` do): claiming the due alerts, matching, filling the
 * digest template, signing the links and writing the emails to the outbox. Nothing is delivered.
 * Prints the figure; exits 1 when over the goal.
 *
 *   node --import tsx bench/alerts.ts [--subscribers 10000] [--mysql]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { toDbDate } from '../src/db/codecs.js';
import { ServerKey } from '../src/db/server-key.js';
import { sendDigests } from '../src/alerts/index.js';
import { makeJob } from '../test/helpers/factories.js';
import { benchStore } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const subscribers = Number(arg('subscribers', '10000'));
const useMysql = process.argv.includes('--mysql');
const GOAL_MS = 10_000;
const DEPARTMENTS = ['Engineering', 'Sales', 'Design', 'Support', 'Finance'];
const MODES = ['ONSITE', 'HYBRID', 'REMOTE'];
const WORDS = ['', '', 'engineer', 'senior', 'manager'];

async function main(): Promise<void> {
  const store = await benchStore('alerts', useMysql, { SMTP_URL: 'smtp://127.0.0.1:9', COMPANY_NAME: 'Bench Corp' });
  const config = loadConfig({ ...store.env });
  const db = createDb(config);
  try {
    console.log(`Preparing ${store.label}: 100 open jobs, ${subscribers.toLocaleString('en-US')} confirmed daily alerts ...`);
    await db.migrate.latest();
    const title = (i: number) => `${['Senior', 'Junior', 'Lead'][i % 3]} ${['Engineer', 'Manager', 'Analyst', 'Designer'][i % 4]} ${i}`;
    const old: { id: number; department: string; work_mode: string; title: string }[] = [];
    for (let i = 0; i < 100; i++) {
      const department = DEPARTMENTS[i % 5];
      const work_mode = MODES[i % 3];
      const job = await makeJob(db, { title: title(i), department, work_mode, location: 'Berlin, Germany' });
      old.push({ id: job.id, department, work_mode, title: job.title });
    }
    const now = new Date();
    const at = toDbDate(new Date(now.getTime() - 2 * 86_400_000));
    const expires = toDbDate(new Date(now.getTime() + 300 * 86_400_000));
    const rows = Array.from({ length: subscribers }, (_, i) => ({
      email: `subscriber${i}@example.com`,
      department: i % 3 ? DEPARTMENTS[i % 5] : '',
      location: i % 4 ? '' : 'Berlin',
      work_mode: i % 2 ? '' : MODES[i % 3],
      keywords: WORDS[i % 5],
      frequency: 'daily',
      status: 'ACTIVE',
      consent_text: 'I agree to receive emails from Bench Corp about new jobs matching my filters.',
      consent_at: at,
      confirmed_at: at,
      expires_at: expires,
      last_run_at: at,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500) await db('job_alerts').insert(rows.slice(i, i + 500));
    // What confirming recorded: the jobs open then that match (never sent); 500 rows a statement (SQLite's compound SELECT limit).
    const alerts: { id: number; department: string; work_mode: string; keywords: string }[] = await db('job_alerts').select(
      'id',
      'department',
      'work_mode',
      'keywords',
    );
    const known: { alert_id: number; job_id: number; sent: number; created_at: string }[] = [];
    for (const a of alerts)
      for (const j of old)
        if (
          (!a.department || a.department === j.department) &&
          (!a.work_mode || a.work_mode === j.work_mode) &&
          (!a.keywords || j.title.toLowerCase().includes(a.keywords))
        )
          known.push({ alert_id: Number(a.id), job_id: j.id, sent: 0, created_at: at });
    for (let i = 0; i < known.length; i += 500) await db('job_alert_jobs').insert(known.slice(i, i + 500));
    for (let i = 0; i < 20; i++)
      await makeJob(db, { title: title(100 + i), department: DEPARTMENTS[i % 5], work_mode: MODES[i % 3], location: 'Berlin, Germany' });
    console.log(`${known.length.toLocaleString('en-US')} known jobs recorded; 20 new jobs. Running the digests ...`);
    const started = performance.now();
    const run = await sendDigests({ db, config, now: () => new Date(), serverKey: new ServerKey(db) });
    const ms = performance.now() - started;
    const emails = Number((await db('email_posts').where({ template: 'job_alert_digest' }).count({ n: '*' }).first())!.n);
    console.log(
      `${store.label}: ${run.checked.toLocaleString('en-US')} alerts due, ${run.queued.toLocaleString('en-US')} digests queued (${emails.toLocaleString('en-US')} in the outbox) with ${run.jobs.toLocaleString('en-US')} jobs in ${(ms / 1000).toFixed(2)} s (goal < ${GOAL_MS / 1000} s for 10,000)`,
    );
    process.exitCode = ms < GOAL_MS ? 0 : 1;
  } finally {
    await db.destroy();
    await store.remove();
  }
}

main().catch((err) => {
  // A failed statement's text can be megabytes of rows: its start says enough.
  console.error(String(err instanceof Error ? (err.stack ?? err.message) : err).slice(0, 2000));
  process.exit(1);
});

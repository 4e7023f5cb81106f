/**
 * Timeline benchmark (issues 20 and 33): the history of one application with 200 entries, among
 * 5,000 applications whose own histories (30,000 audit entries, 5,000 notes, 10,000 emails and
 * webhook posts with their attempts) fill the same tables. Against the real server (`node
 * dist/server.js`, NODE_ENV=production) it first pages the timeline to its end over HTTP (200
 * entries, each once), then loads with autocannon (10 connections, an HR Bearer token; the jwt
 * cookie for the page) and computes p95 from every response's own latency:
 * `timeline first page` (GET /api/hr/applications/{id}/timeline/: the newest 50, what the
 * applicant page loads), `timeline older page` (its `next`: the 50 after them, what "Show older"
 * loads), `notes` (the first page of its 40 notes) and `page detail` (/hr/applicants/{id}).
 * Goal: p95 < 50 ms each, on SQLite and MySQL.
 *
 *   node --import tsx bench/timeline.ts [--mysql] [--duration 10] [--connections 10] [--applications 5000]
 *        [--explain] [--profile DIR]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 * --explain prints the query plans of the first two pages' statements before loading.
 * --profile DIR loads only the first page, on a server under V8's CPU profiler (the .cpuprofile in
 * DIR), and prints where a request's CPU time goes (bench/cpu-profile.ts) instead of the goal table.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { toDbDate } from '../src/db/codecs.js';
import { insertApplications, realisticApplications } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import { summariseProfile } from './cpu-profile.js';
import { type LoadResult, loadUrl, root, startProcess, stopProcess, benchStore } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '10'));
const totalApplications = Number(arg('applications', '5000'));
const useMysql = process.argv.includes('--mysql');
const explain = process.argv.includes('--explain');
const profileDir = arg('profile', '');
const GOAL_MS = 50;

type Row = Record<string, unknown>;

async function insertChunked(db: Knex, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db(table).insert(rows.slice(i, i + 500));
}

async function maxId(db: Knex, table: string): Promise<number> {
  return Number(((await db(table).max({ m: 'id' }).first()) as { m: unknown }).m ?? 0);
}

/**
 * The history of one application, in the shapes the app writes: `statuses` status changes and
 * `stages` stage changes (audit entries), `notes` notes (each an audit entry, `edited` of them
 * edited once more), `emails` emails with one delivered attempt each, and `hooks` webhook posts
 * with a failed attempt, then a delivered one. Entries on its timeline (an email is one entry,
 * carrying its delivery): statuses + stages + notes + edited + emails + 3 * hooks (and 1 for the
 * application).
 */
interface Batch {
  audits: Row[];
  notes: Row[];
  emails: Row[];
  hooks: Row[];
  attempts: Row[];
  /** The last id given in each table. */
  ids: { note: number; email: number; hook: number };
}

async function newBatch(db: Knex): Promise<Batch> {
  return {
    audits: [],
    notes: [],
    emails: [],
    hooks: [],
    attempts: [],
    ids: { note: await maxId(db, 'application_notes'), email: await maxId(db, 'email_posts'), hook: await maxId(db, 'application_posts') },
  };
}

/** Writes the rows, parents before the attempts that point at them. */
async function writeBatch(db: Knex, b: Batch): Promise<void> {
  await insertChunked(db, 'application_notes', b.notes);
  await insertChunked(db, 'audit_log', b.audits);
  await insertChunked(db, 'email_posts', b.emails);
  await insertChunked(db, 'application_posts', b.hooks);
  await insertChunked(db, 'post_attempts', b.attempts);
}

function history(
  b: Batch,
  app: { id: number; job_id: number },
  userId: number,
  n: { statuses: number; stages: number; notes: number; edited: number; emails: number; hooks: number },
  start: number,
): void {
  let t = start;
  // Each event a minute after the one before.
  const at = () => {
    t += 60_000;
    return toDbDate(new Date(t));
  };
  const { audits, notes, emails, hooks, attempts } = b;
  const statuses = ['NEW', 'REVIEWED', 'ARCHIVED'];
  for (let i = 0; i < n.statuses; i++)
    audits.push({
      user_id: userId,
      action: 'status',
      entity: 'application',
      entity_id: app.id,
      details: JSON.stringify({ from: statuses[i % 3], to: statuses[(i + 1) % 3] }),
      created_at: at(),
    });
  const stages = ['Applied', 'Screen', 'Interview', 'Offer'];
  for (let i = 0; i < n.stages; i++)
    audits.push({
      user_id: userId,
      action: 'stage',
      entity: 'application',
      entity_id: app.id,
      details: JSON.stringify({ from: stages[i % 4], to: stages[(i + 1) % 4] }),
      created_at: at(),
    });
  const firstNote = b.ids.note + 1;
  b.ids.note += n.notes;
  for (let i = 0; i < n.notes; i++) {
    const created = at();
    notes.push({
      id: firstNote + i,
      application_id: app.id,
      user_id: userId,
      text: `Note ${i}: ${'Spoke with the candidate about the role, salary and notice period. '.repeat(3)}`,
      created_at: created,
      updated_at: created,
    });
    audits.push({
      user_id: userId,
      action: 'note_added',
      entity: 'application',
      entity_id: app.id,
      details: JSON.stringify({ note_id: firstNote + i }),
      created_at: created,
    });
  }
  for (let i = 0; i < n.edited; i++)
    audits.push({
      user_id: userId,
      action: 'note_edited',
      entity: 'application',
      entity_id: app.id,
      details: JSON.stringify({ note_id: firstNote + i }),
      created_at: at(),
    });
  const firstEmail = b.ids.email + 1;
  b.ids.email += n.emails;
  for (let i = 0; i < n.emails; i++) {
    const created = at();
    const sent = at();
    const html = `<!doctype html><html><body>${'<p>Thank you for applying. Our team reviews every application.</p>'.repeat(20)}</body></html>`;
    emails.push({
      id: firstEmail + i,
      application_id: app.id,
      template: 'applicant_confirmation',
      payload: JSON.stringify({
        to: `person${app.id}@example.com`,
        subject: `Update ${i} on your application`,
        text: 'Thank you. '.repeat(100),
        html,
      }),
      status: 'SUCCESS',
      attempts: 1,
      delivered_at: sent,
      created_at: created,
      updated_at: sent,
    });
    attempts.push({ email_post_id: firstEmail + i, status: 'SUCCESS', duration_ms: 40, created_at: sent });
  }
  const firstHook = b.ids.hook + 1;
  b.ids.hook += n.hooks;
  for (let i = 0; i < n.hooks; i++) {
    const created = at();
    const failed = at();
    const sent = at();
    hooks.push({
      id: firstHook + i,
      application_id: app.id,
      job_id: app.job_id,
      target_url: 'https://hooks.example.com/careers',
      payload: '{}',
      message_id: `msg_bench_${firstHook + i}`,
      status: 'SUCCESS',
      status_code: 200,
      attempts: 2,
      delivered_at: sent,
      created_at: created,
      updated_at: sent,
    });
    attempts.push({
      application_post_id: firstHook + i,
      status: 'FAILED',
      status_code: 503,
      error: 'Service Unavailable',
      duration_ms: 80,
      created_at: failed,
    });
    attempts.push({ application_post_id: firstHook + i, status: 'SUCCESS', status_code: 200, duration_ms: 60, created_at: sent });
  }
}

async function prepare(db: Knex, userId: number): Promise<number> {
  await db.migrate.latest();
  const job = await makeJob(db, { title: 'Payroll Specialist', public_id: 'timeline-bench' });
  const until = new Date('2026-06-01T00:00:00Z');
  await insertApplications(db, job.id, realisticApplications(totalApplications, [], { seed: 20, emailTag: 'tl', until, days: 365 }), [], {
    batchSize: 2500,
  });
  const apps: { id: number; job_id: number }[] = await db('applications').select('id', 'job_id').orderBy('id');
  // Everyone else has a short history: 6 audit entries, a note, an email and a webhook post.
  const start = Date.parse('2026-06-02T00:00:00Z');
  const batch = await newBatch(db);
  for (const app of apps.slice(1))
    history(batch, app, userId, { statuses: 3, stages: 2, notes: 1, edited: 0, emails: 1, hooks: 1 }, start + app.id * 1000);
  // The one measured: 1 (applied) + 59 + 30 + 40 + 10 + 30 + 3 * 10 = 200 entries.
  history(
    batch,
    apps[0],
    userId,
    { statuses: 59, stages: 30, notes: 40, edited: 10, emails: 30, hooks: 10 },
    Date.parse('2026-07-01T00:00:00Z'),
  );
  await writeBatch(db, batch);
  return apps[0].id;
}

/** The plans of the statements the first two pages run (`--explain`), read from the query log of a call of each in this process. */
async function explainPages(db: Knex, appId: number): Promise<void> {
  const { loadTimeline } = await import('../src/timeline/service.js');
  const { ServerKey } = await import('../src/db/server-key.js');
  const serverKey = new ServerKey(db);
  await serverKey.get();
  const queries: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings: unknown[] }) => queries.push(q);
  db.on('query', listen);
  const first = await loadTimeline({ db, serverKey }, appId);
  await loadTimeline({ db, serverKey }, appId, first.cursor);
  db.off('query', listen);
  const mysql = db.client.config.client === 'mysql2';
  for (const q of queries) {
    console.log(`\n${q.sql.slice(0, 160)}${q.sql.length > 160 ? ' ...' : ''}`);
    if (mysql) {
      const [rows] = await db.raw(`EXPLAIN ${q.sql}`, q.bindings as Knex.RawBinding[]);
      for (const r of rows) console.log(`  ${r.id} ${r.select_type} ${r.table} ${r.type} key=${r.key} rows=${r.rows} ${r.Extra ?? ''}`);
    } else {
      const rows = await db.raw(`EXPLAIN QUERY PLAN ${q.sql}`, q.bindings as Knex.RawBinding[]);
      for (const r of rows) console.log(`  ${r.detail}`);
    }
  }
  console.log('');
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const store = await benchStore('timeline', useMysql, {
    POSTS_WORKER: 'off',
  });
  const { env, label } = store;
  // The bench's own handle loads and migrates: no statement timeout (as `careers-admin migrate` runs).
  const db = createDb(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' }));
  let appId: number;
  let token: string;
  try {
    await db.migrate.latest();
    const session = await hrSession(db, 'bench-hr', 86_400);
    token = session.token;
    const t = process.hrtime.bigint();
    appId = await prepare(db, session.userId);
    const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0].n).toLocaleString('en-US');
    console.log(
      `${label}: ${await count('applications')} applications, ${await count('audit_log')} audit entries, ${await count('application_notes')} notes, ${await count('email_posts')} emails, ${await count('application_posts')} webhook posts, ${await count('post_attempts')} attempts in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s`,
    );
    if (explain) await explainPages(db, appId);
  } finally {
    await db.destroy();
  }

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = 3980 + (process.pid % 9);
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [];
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const before = new Set(profileDir ? fs.readdirSync(profileDir) : []);
  const server = await startProcess([...profiling, 'dist/server.js'], { ...env, PORT: String(port) });
  const results: [string, LoadResult, string][] = [];
  try {
    // The whole timeline, page by page as "Show older" reads it: 200 entries, each once.
    const sizes: number[] = [];
    const api = async (url: string) => {
      const text = await (await fetch(`http://127.0.0.1:${port}${url}`, { headers: { Authorization: `Bearer ${token}` } })).text();
      sizes.push(Buffer.byteLength(text));
      return JSON.parse(text) as { count: number; next: string | null; results: { id: string }[] };
    };
    const first = `/api/hr/applications/${appId}/timeline/`;
    const pages = [await api(first)];
    while (pages.at(-1)!.next && pages.length < 20) {
      const next = new URL(pages.at(-1)!.next!);
      pages.push(await api(next.pathname + next.search));
    }
    const ids = pages.flatMap((p) => p.results.map((e) => e.id));
    console.log(
      `The measured timeline: ${ids.length} entries in ${pages.length} pages of ${pages.map((p) => p.count).join(', ')} (${sizes.map((b) => `${(b / 1024).toFixed(1)} KB`).join(', ')} of JSON)`,
    );
    if (ids.length !== 200 || new Set(ids).size !== 200)
      throw new Error(`expected 200 different timeline entries, got ${ids.length} (${new Set(ids).size} different)`);
    const second = new URL(pages[0].next!);
    const scenarios: [string, string, 'api' | 'page'][] = [
      ['timeline first page', first, 'api'],
      ['timeline older page', second.pathname + second.search, 'api'],
      ['notes', `/api/hr/applications/${appId}/notes/`, 'api'],
      ['page detail', `/hr/applicants/${appId}`, 'page'],
    ];
    for (const [name, url, kind] of profileDir ? scenarios.slice(0, 1) : scenarios) {
      console.log(`Loading ${name}: ${url.slice(0, 100)}`);
      const r = await loadUrl(
        `http://127.0.0.1:${port}${url}`,
        kind === 'api' ? { Authorization: `Bearer ${token}` } : { Cookie: `jwt=${token}` },
        connections,
        duration,
      );
      results.push([name, r, loadAverage()]);
    }
  } finally {
    await stopProcess(server);
    await store.remove();
  }

  console.log(`\n${label}, ${os.cpus().length} cores, ${connections} connections, ${duration} s per scenario`);
  if (profileDir) {
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && !before.has(f))!;
    const [name, r] = results[0];
    console.log(`${name} under the CPU profiler: ${r.rps.toFixed(0)} req/s, p95 ${r.p95.toFixed(1)} ms (load average ${results[0][2]})`);
    for (const line of summariseProfile(path.join(profileDir, file), r.answered)) console.log(`  ${line}`);
    return;
  }
  console.log('scenario                req/s   p50 ms   p95 ms   max ms  errors non-2xx  goal               load average');
  let ok = true;
  for (const [name, r, load] of results) {
    const pass = r.p95 < GOAL_MS && r.errors === 0 && r.non2xx === 0;
    ok &&= pass;
    console.log(
      `${name.padEnd(21)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(0).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(7)}  p95 < ${GOAL_MS} ms ${pass ? 'PASS' : 'MISS'}  ${load}`,
    );
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

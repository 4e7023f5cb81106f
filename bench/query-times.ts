/**
 * Where a read's database time goes (issue 33): runs the applicants bench's and the board bench's
 * reads in-process, one at a time, on a database they kept (`--keep`), and prints for each the
 * median and p90 of the whole read, and every statement it sent with its median time and how often
 * it ran per read; `--explain` adds each statement's plan (EXPLAIN QUERY PLAN on SQLite, ANALYZE
 * FORMAT=JSON's access paths on MariaDB).
 *
 *   node --import tsx bench/query-times.ts --reuse <data dir | mysql url> [--runs 30] [--only name,...] [--explain]
 *
 * The reads are the services the API routes call (listApplicants, getApplicant, loadBoard with
 * and without the kept columns), so the figures are the database's and the query code's share of
 * a request, without HTTP, Express and JSON.
 */
import os from 'node:os';
import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { createDb, isMysql } from '../src/db/knex.js';
import { ReadCache } from '../src/db/read-cache.js';
import { getApplicant, listApplicants } from '../src/applicants/reads.service.js';
import { applicantNeighbours } from '../src/applicants/reads.service.js';
import { applicantFilters, applicantListQuerySchema } from '../src/applicants/review.schema.js';
import { jobStages, listStageNames, loadBoard, rejectionReasons } from '../src/pipeline/service.js';
import { listJobChoices } from '../src/jobs/index.js';
import { listSourcesSeen } from '../src/applicants/reads.service.js';
import { applicantViewers } from '../src/teams/index.js';
import { boardQuerySchema } from '../src/pipeline/schema.js';
import { percentile } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const reuse = arg('reuse', '');
const runs = Number(arg('runs', '30'));
const only = arg('only', '');
const explain = process.argv.includes('--explain');

interface Statement {
  sql: string;
  bindings: unknown[];
  ms: number;
}

/** Every statement `db` sends while `work` runs, with its time. */
async function traced<T>(db: Knex, work: () => Promise<T>): Promise<{ result: T; statements: Statement[]; ms: number }> {
  const started = new Map<string, { sql: string; bindings: unknown[]; at: bigint }>();
  const statements: Statement[] = [];
  const onQuery = (q: { __knexQueryUid: string; sql: string; bindings?: unknown[] }) =>
    started.set(q.__knexQueryUid, { sql: q.sql, bindings: q.bindings ?? [], at: process.hrtime.bigint() });
  const onDone = (_r: unknown, q: { __knexQueryUid: string }) => {
    const s = started.get(q.__knexQueryUid);
    if (s) statements.push({ sql: s.sql, bindings: s.bindings, ms: Number(process.hrtime.bigint() - s.at) / 1e6 });
  };
  db.on('query', onQuery).on('query-response', onDone);
  const t = process.hrtime.bigint();
  try {
    const result = await work();
    return { result, statements, ms: Number(process.hrtime.bigint() - t) / 1e6 };
  } finally {
    db.removeListener('query', onQuery).removeListener('query-response', onDone);
  }
}

/** The SQL with its IN lists shortened, so reads of different ids count as one statement. */
const shape = (sql: string) => sql.replace(/\((\?, )+\?\)/g, '(?…)').replace(/\s+/g, ' ');

async function plan(db: Knex, s: Statement): Promise<string[]> {
  if (!isMysql(db)) {
    const rows: { detail: string }[] = await db.raw(`EXPLAIN QUERY PLAN ${s.sql}`, s.bindings as Knex.RawBinding[]);
    return rows.map((r) => r.detail);
  }
  const [rows] = await db.raw(`ANALYZE FORMAT=JSON ${s.sql}`, s.bindings as Knex.RawBinding[]);
  const json = JSON.parse(Object.values(rows[0] as Record<string, string>)[0]);
  const lines: string[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, any>;
    if (n.table_name) {
      lines.push(
        `${n.table_name}: ${n.access_type} ${n.key ?? ''} rows ${n.r_rows ?? n.rows} (${n.r_total_time_ms?.toFixed?.(2) ?? '?'} ms)${n.using_index ? ' index only' : ''}${n.attached_condition ? ` where ${String(n.attached_condition).slice(0, 120)}` : ''}`,
      );
    }
    for (const v of Object.values(n)) walk(v);
  };
  walk(json);
  return [`total ${json.query_block?.r_total_time_ms?.toFixed?.(2) ?? '?'} ms`, ...lines];
}

async function measure(db: Knex, name: string, read: () => Promise<unknown>): Promise<void> {
  await read();
  await read();
  const times: number[] = [];
  const bySql = new Map<string, { times: number[]; example: Statement }>();
  for (let i = 0; i < runs; i++) {
    const { statements, ms } = await traced(db, read);
    times.push(ms);
    for (const s of statements) {
      const key = shape(s.sql);
      const seen = bySql.get(key) ?? { times: [], example: s };
      seen.times.push(s.ms);
      bySql.set(key, seen);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`\n${name}: median ${percentile(times, 50).toFixed(2)} ms, p90 ${percentile(times, 90).toFixed(2)} ms (${runs} runs)`);
  for (const [sql, { times: t, example }] of bySql) {
    t.sort((a, b) => a - b);
    console.log(`  ${(t.length / runs).toFixed(1)}x ${percentile(t, 50).toFixed(2).padStart(7)} ms  ${sql.slice(0, 400)}`);
    if (explain) for (const line of await plan(db, example)) console.log(`              ${line}`);
  }
}

async function main(): Promise<void> {
  if (!reuse) throw new Error('--reuse <data dir | mysql url> (a database a bench kept with --keep)');
  const env: Record<string, string> = { NODE_ENV: 'production', DATA_DIR: reuse.startsWith('mysql:') ? os.tmpdir() : reuse };
  if (reuse.startsWith('mysql:')) env.DATABASE_URL = reuse;
  const db = createDb(loadConfig(env));
  const cache = new ReadCache(0);
  const freshCache = new ReadCache(0, new Set(['board']));
  const reads: [string, () => Promise<unknown>][] = [];
  const list = (query: Record<string, string>) => {
    const q = applicantListQuerySchema.parse(query);
    return () => listApplicants({ db, cache }, applicantFilters(q), Number(query.page ?? 1), 25, q.detailed);
  };
  const boardJob = await db('jobs').where({ public_id: 'board-bench' }).first('id');
  if (boardJob) {
    const jobId = Number(boardJob.id);
    const applied = await db('job_stages').where({ job_id: jobId }).orderBy('position').first('id');
    const board = (query: Record<string, string>, c: ReadCache) => () =>
      loadBoard({ db, cache: c }, jobId, boardQuerySchema.parse(query)).then((b) => JSON.stringify(b.board));
    for (const [label, c] of [
      ['', cache],
      [' (fresh)', freshCache],
    ] as const) {
      reads.push(
        [`board${label}`, board({}, c)],
        [`board status${label}`, board({ status: 'REVIEWED' }, c)],
        [`board search${label}`, board({ q: 'sharma' }, c)],
        [`board search+status${label}`, board({ q: 'asha sharma', status: 'REVIEWED' }, c)],
        [`show more (Applied)${label}`, board({ column: String(applied.id), offset: '100' }, c)],
      );
    }
  } else {
    const job = (await db('applications')
      .select('job_id')
      .count({ n: '*' })
      .groupBy('job_id')
      .orderBy('n', 'desc')
      .offset(500)
      .first()) as {
      job_id: number;
    };
    const one = (await db('applications').where('job_id', job.job_id).orderBy('id').first('id', 'email', 'phone')) as {
      id: number;
      email: string;
      phone: string;
    };
    const detail = async (query: Record<string, string>) => {
      const app = await getApplicant({ db, cache }, Number(one.id));
      const q = applicantListQuerySchema.parse(query);
      return applicantNeighbours({ db, cache }, applicantFilters(q), app);
    };
    reads.push(
      ['list', list({})],
      ['list job', list({ job_id: String(job.job_id) })],
      ['list status', list({ status: 'ARCHIVED' })],
      ['list days', list({ date_from: '2026-03-01', date_to: '2026-03-31' })],
      [
        'list all filters',
        list({ job_id: String(job.job_id), status: 'NEW', date_from: '2025-11-01', date_to: '2026-10-31', ordering: 'created_at' }),
      ],
      ['list detailed p.3', list({ detailed: 'true', page: '3' })],
      ['sort name', list({ ordering: 'name' })],
      ['sort name p.40', list({ ordering: '-name', page: '40' })],
      ['sort status+name', list({ status: 'NEW', ordering: 'name' })],
      ['sort job+email', list({ job_id: String(job.job_id), ordering: 'email' })],
      ['sort days+status', list({ date_from: '2026-03-01', date_to: '2026-03-31', ordering: '-status' })],
      ['search name', list({ q: 'sharma' })],
      ['search name+name', list({ q: 'asha sharma', detailed: 'true' })],
      ['search name+status', list({ q: 'patel', status: 'REVIEWED' })],
      ['search email', list({ q: one.email })],
      ['search phone', list({ q: one.phone.slice(-7) })],
      ['search none', list({ q: 'zzyzx' })],
      ['page list (its list)', list({ q: 'sharma', detailed: 'true' })],
      ['detail', () => getApplicant({ db, cache }, Number(one.id))],
      ['page detail (with neighbours in the job)', () => detail({ job_id: String(job.job_id) })],
      ['page detail sort name', () => detail({ ordering: 'name' })],
      ['page list (its selectors)', () => Promise.all([listJobChoices(db), listStageNames({ db }), listSourcesSeen({ db })])],
      [
        'page detail (the rest)',
        () => Promise.all([jobStages({ db }, Number(job.job_id)), rejectionReasons({ db }), applicantViewers(db, Number(one.id))]),
      ],
    );
  }
  const picked = only ? reads.filter(([name]) => only.split(',').some((o) => name.startsWith(o))) : reads;
  console.log(
    `${isMysql(db) ? 'MySQL (MariaDB)' : 'SQLite'} at ${reuse}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const [name, read] of picked) await measure(db, name, read);
  await db.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

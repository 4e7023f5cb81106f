/**
 * Bulk rejection benchmark (issue 20): HR rejects 500 applications with a reason and the
 * rejection email in one request (`POST /api/hr/applications/emails/bulk/`). Against the real
 * server (`node dist/server.js`, NODE_ENV=production, its delivery worker on), with SMTP_URL
 * pointing at a real SMTP server started here (smtp-server), beside 20 jobs of 1,000 applications
 * each. Each round rejects the 500 newest applications of another job and times the answer, one
 * request at a time as HR would send them; the emails are then delivered while the next rounds
 * run, and the time until the SMTP server has all of them is printed too. Goal: every answer < 2 s.
 *
 *   node --import tsx bench/bulk-reject.ts [--mysql] [--rounds 5]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { insertApplications, realisticApplications } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import { benchStore, percentile, root, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', '5'));
const useMysql = process.argv.includes('--mysql');
const JOBS = 20;
const PER_JOB = 1000;
const BULK = 500;
const GOAL_MS = 2000;

/** An SMTP server that accepts everything and counts the messages. */
async function startSmtp(): Promise<{ port: number; received: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      stream.on('end', () => {
        count += 1;
        cb();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const smtp = await startSmtp();
  const store = await benchStore('bulk-reject', useMysql, {
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    COMPANY_NAME: 'Bench Corp',
  });
  const { env, label } = store;
  const db = createDb(loadConfig({ ...env }));
  console.log(`Preparing ${label}: ${JOBS} jobs of ${PER_JOB.toLocaleString('en-US')} applications ...`);
  await db.migrate.latest();
  const until = new Date('2026-11-01T00:00:00Z');
  const jobIds: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const job = await makeJob(db, { title: `Bulk bench job ${i}`, public_id: `bulk-bench-${i}` });
    await insertApplications(db, job.id, realisticApplications(PER_JOB, [], { seed: 300 + i, emailTag: `b${i}`, until }), [], {
      batchSize: 2500,
    });
    jobIds.push(job.id);
  }
  const template = Number((await db('email_templates').where({ purpose: 'rejection' }).first('id')).id);
  const picks: number[][] = [];
  for (let r = 0; r < rounds; r++) {
    const rows: { id: number }[] = await db('applications')
      .where({ job_id: jobIds[r % JOBS] })
      .orderBy('created_at', 'desc')
      .limit(BULK)
      .select('id');
    picks.push(rows.map((x) => Number(x.id)));
  }
  const { token } = await hrSession(db, 'bench-hr', 86_400);
  await db.destroy();

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = 3990 + (process.pid % 9);
  const server = await startProcess(['dist/server.js'], { ...env, PORT: String(port) });
  const times: number[] = [];
  let failures = 0;
  let deliveredMs = Number.NaN;
  try {
    const started = performance.now();
    for (const [r, ids] of picks.entries()) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/hr/applications/emails/bulk/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ids, template_id: template, outcome: 'REJECTED', reason: 'Position filled' }),
      });
      const body = (await res.json()) as { queued?: number };
      const ms = performance.now() - t0;
      times.push(ms);
      if (res.status !== 200 || body.queued !== BULK) failures += 1;
      console.log(`  round ${r + 1}: HTTP ${res.status}, ${body.queued ?? 0} emails queued, answered in ${ms.toFixed(0)} ms`);
    }
    const want = picks.length * BULK;
    while (smtp.received() < want && performance.now() - started < 300_000) await new Promise((resolve) => setTimeout(resolve, 100));
    if (smtp.received() >= want) deliveredMs = performance.now() - started;
  } finally {
    await stopProcess(server);
    await smtp.close();
  }

  const sorted = [...times].sort((a, b) => a - b);
  const worst = sorted.at(-1)!;
  const pass = worst < GOAL_MS && failures === 0;
  console.log(
    `\n${label}, ${os.cpus().length} cores, ${rounds} rounds of ${BULK} beside ${(JOBS * PER_JOB).toLocaleString('en-US')} applications; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `answer: median ${percentile(sorted, 50).toFixed(0)} ms, worst ${worst.toFixed(0)} ms (goal < ${GOAL_MS} ms) ${pass ? 'PASS' : 'MISS'}`,
  );
  console.log(
    Number.isNaN(deliveredMs)
      ? `delivery: only ${smtp.received()} of ${rounds * BULK} emails reached the SMTP server in 300 s`
      : `delivery: all ${rounds * BULK} emails reached the SMTP server ${(deliveredMs / 1000).toFixed(1)} s after the first request`,
  );
  await store.remove();
  process.exitCode = pass ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

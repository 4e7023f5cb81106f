/**
 * Hostile previews (issue 28, items 1 and 2): what a crafted resume costs the server. Against the
 * real server (`node dist/server.js`, NODE_ENV=production) it applies with three resumes: a real
 * DOC, a 2 KB DOC whose sector chain loops, and a 5 KB DOCX of 500,000 empty paragraphs; then,
 * for each, HR asks for the preview `--rounds` times while a client polls /healthz every 50 ms.
 * It prints each preview's answer and time, the slowest /healthz, and the server's RSS before and
 * at its peak (from /proc). Goal: /healthz within 1 s throughout, the hostile ones 422, the
 * server alive after.
 *
 *   node --import tsx bench/hostile-preview.ts [--mysql] [--rounds 3]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import { toFormData, validFields } from '../test/fixtures/apply.js';
import { DOC_SAMPLE_PATH, emptyParagraphsDocxBytes, loopingDocBytes } from '../test/fixtures/resumes.js';
import { benchStore, freePort, peakRss, root, rssMb, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', '3'));
const useMysql = process.argv.includes('--mysql');
const HEALTH_GOAL_MS = 1000;

const RESUMES = {
  'real DOC': { data: fs.readFileSync(DOC_SAMPLE_PATH), filename: 'cv.doc', type: 'application/msword' },
  'looping DOC': { data: loopingDocBytes(), filename: 'cv.doc', type: 'application/msword' },
  'DOCX, 500,000 paragraphs': {
    data: emptyParagraphsDocxBytes(500_000),
    filename: 'cv.docx',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
};

/** Polls `url` every 50 ms while `work` runs; the slowest answer in ms (Infinity if one failed). */
async function slowestWhile<T>(url: string, work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let slowestMs = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      const t = performance.now();
      const ok = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.ok,
        () => false,
      );
      slowestMs = Math.max(slowestMs, ok ? performance.now() - t : Number.POSITIVE_INFINITY);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return { result: await work(), slowestMs };
  } finally {
    running = false;
    await poll;
  }
}

async function main(): Promise<void> {
  const store = await benchStore('hostile', useMysql, {
    POSTS_WORKER: 'off',
    APPLY_RATE_LIMIT: '0',
  });
  const { env, label } = store;
  const db = createDb(loadConfig({ ...env }));
  let token: string;
  try {
    await db.migrate.latest();
    token = (await hrSession(db, 'bench-hr', 86_400)).token;
    await makeJob(db, { title: 'Hostile Bench', public_id: 'hostile-bench' });
  } finally {
    await db.destroy();
  }

  console.log('Building dist/ ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(['dist/server.js'], { ...env, PORT: String(port) });
  let ok = true;
  try {
    const ids: Record<string, number> = {};
    for (const [name, resume] of Object.entries(RESUMES)) {
      const email = `${name.replace(/\W+/g, '-').toLowerCase()}@bench.example`;
      const res = await fetch(`${base}/api/jobs/hostile-bench/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, resume })),
      });
      if (res.status !== 201) throw new Error(`apply with the ${name}: ${res.status} ${await res.text()}`);
      const list = (await (
        await fetch(`${base}/api/hr/applications/?q=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { results: { id: number; email: string }[] };
      ids[name] = list.results.find((r) => r.email === email)!.id;
    }
    console.log(`\n${label}, ${os.cpus().length} cores, server RSS ${rssMb(server.pid!).toFixed(0)} MB after start and three applications`);
    console.log('resume                      round  status  preview ms  slowest /healthz ms  RSS before  peak RSS MB');
    for (const [name, id] of Object.entries(ids)) {
      for (let round = 1; round <= rounds; round++) {
        const before = rssMb(server.pid!);
        const t = performance.now();
        const {
          result: { result: status, slowestMs },
          peakMb,
        } = await peakRss(server.pid!, () =>
          slowestWhile(
            `${base}/healthz`,
            async () =>
              (await fetch(`${base}/api/hr/applications/${id}/resume/preview/`, { headers: { Authorization: `Bearer ${token}` } })).status,
          ),
        );
        const ms = performance.now() - t;
        const expected = name === 'real DOC' ? 200 : 422;
        ok &&= status === expected && slowestMs < HEALTH_GOAL_MS;
        console.log(
          `${name.padEnd(27)} ${String(round).padStart(5)} ${String(status).padStart(7)} ${ms.toFixed(0).padStart(11)} ${slowestMs.toFixed(0).padStart(20)} ${before.toFixed(0).padStart(11)} ${peakMb.toFixed(0).padStart(12)}`,
        );
      }
    }
    const alive =
      server.exitCode === null &&
      (await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
    ok &&= alive;
    console.log(
      `\nServer alive after: ${alive ? 'yes' : 'NO'}; RSS now ${rssMb(server.pid!).toFixed(0)} MB. Goal: /healthz < ${HEALTH_GOAL_MS} ms throughout, hostile previews 422: ${ok ? 'PASS' : 'MISS'}`,
    );
  } finally {
    await stopProcess(server);
    await store.remove();
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

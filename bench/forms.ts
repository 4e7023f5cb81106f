/**
 * Benchmark of public form submissions (issue 17), side by side with the apply API in one run:
 * the real server in a child process (the `npm start` bundle, NODE_ENV=production, rate limits off,
 * a fresh SQLite or MySQL database, cron off) takes N applications and then N form submissions,
 * each with its own 1 MB PDF, over C keep-alive connections. Prints each one's rate and p50/p99,
 * the server's peak RSS, and verifies that every 2xx left exactly one row and one file on disk.
 * Then it exports 50,000 entries (GET .../entries/export/) and times exceljs writing the same
 * rows from memory in this process (the limit), with the peak RSS of a freshly started server
 * that serves only the export.
 *
 *   node --import tsx bench/forms.ts [--count 2000] [--concurrency 20] [--entries 50000] [--mysql]
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { loadConfig } from '../config/index.js';
import { toDbDate, toDbJson } from '../src/db/codecs.js';
import { createDb } from '../src/db/knex.js';
import { ReadCache } from '../src/db/read-cache.js';
import { createForm, parseFormInput } from '../src/forms/manage.service.js';
import { createJob, parseJobInput } from '../src/jobs/service.js';
import { createHrUser, liveToken } from '../test/helpers/hr.js';
import { freePort, peakRss, percentile, root, rssMb, startProcess, stopProcess, createMysqlDatabase, dropMysqlDatabase } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const COUNT = Number(arg('count', '2000'));
const CONCURRENCY = Number(arg('concurrency', '20'));
const ENTRIES = Number(arg('entries', '50000'));
const SIZE = 1024 * 1024;
const useMysql = process.argv.includes('--mysql');
const mysqlBase = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';

/** Sends `count` multipart bodies over `concurrency` keep-alive sockets; answers rate, p50, p99 and statuses. */
async function load(
  url: string,
  body: (i: number) => Buffer[],
  boundary: string,
): Promise<{ rate: number; p50: number; p99: number; ok: number; statuses: Map<number, number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const post = (parts: Buffer[]) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': parts.reduce((n, p) => n + p.length, 0) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      for (const p of parts.slice(0, -1)) req.write(p);
      req.end(parts[parts.length - 1]);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < COUNT; i = next++) {
        const t0 = performance.now();
        const status = await post(body(i)).catch(() => 0);
        latencies.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rate: COUNT / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ok: statuses.get(201) ?? 0, statuses };
}

async function main(): Promise<void> {
  // The server as `npm start` runs it: the bundle, built from the current source.
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-bench-forms-'));
  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    APPLY_RATE_LIMIT: '0',
    FORM_RATE_LIMIT: '0',
    POSTS_SWEEP_CRON: 'off',
    POSTS_WORKER: 'off',
  };
  let dbName: string | null = null;
  if (useMysql) {
    dbName = `careers_bench_forms_${process.pid}`;
    await createMysqlDatabase(mysqlBase, dbName);
    env.DATABASE_URL = `${mysqlBase.replace(/\/$/, '')}/${dbName}`;
  }
  const db = createDb(loadConfig({ ...env }));
  let server: ChildProcess | null = null;
  try {
    await db.migrate.latest();
    await createJob(
      { db, cache: new ReadCache(0) },
      parseJobInput({
        public_id: 'bench-apply',
        title: 'Bench',
        location: 'Pune',
        job_type: 'FULL_TIME',
        work_mode: 'REMOTE',
        status: 'ACTIVE',
      }),
    );
    const form = await createForm(
      { db, now: () => new Date() },
      parseFormInput(
        {
          public_id: 'bench-form',
          title: 'Bench form',
          status: 'ACTIVE',
          sections: [
            {
              title: 'One',
              fields: [
                { name: 'full_name', label: 'Name', field_type: 'short_text', required: true },
                { name: 'email', label: 'Email', field_type: 'email', required: true },
                { name: 'cv', label: 'CV', field_type: 'file', required: true, allowed_extensions: ['pdf'] },
              ],
            },
          ],
        },
        true,
      ),
      null,
    );
    const token = await liveToken(db, await createHrUser(db, 'bench'));
    server = await startProcess(['dist/server.js'], env);
    const pid = server.pid!;

    const boundary = '----CareersBenchForms7MA4YWxkTrZu0gW';
    const pdf = Buffer.alloc(SIZE, 0x20);
    Buffer.from('%PDF-1.4\n', 'latin1').copy(pdf);
    Buffer.from('\n%%EOF\n', 'latin1').copy(pdf, SIZE - 7);
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const fileHead = (name: string, i: number) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="cv-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const end = Buffer.from(`\r\n--${boundary}--\r\n`);

    const apply = await peakRss(pid, () =>
      load(
        `http://127.0.0.1:${port}/api/jobs/bench-apply/apply/`,
        (i) => [
          Buffer.from(
            part('first_name', 'Bench') +
              part('last_name', 'Applicant') +
              part('email', `a${i}@bench.example.com`) +
              part('phone', '+919876543210') +
              fileHead('resume', i),
          ),
          pdf,
          end,
        ],
        boundary,
      ),
    );
    const forms = await peakRss(pid, () =>
      load(
        `http://127.0.0.1:${port}/api/forms/bench-form/submit/`,
        (i) => [
          Buffer.from(part('values', JSON.stringify({ full_name: 'Bench Visitor', email: `f${i}@bench.example.com` })) + fileHead('cv', i)),
          pdf,
          end,
        ],
        boundary,
      ),
    );
    const line = (name: string, r: typeof apply) =>
      `${name.padEnd(18)} ${r.result.rate.toFixed(1).padStart(7)}/s  p50 ${r.result.p50.toFixed(0)} ms  p99 ${r.result.p99.toFixed(0)} ms  2xx ${r.result.ok}/${COUNT}  peak RSS ${r.peakMb.toFixed(0)} MB`;
    console.log(line('apply API', apply));
    console.log(line('form submissions', forms));
    console.log(`forms / apply rate: ${(forms.result.rate / apply.result.rate).toFixed(2)}x`);

    // Every 2xx has its entry and its file; nothing else was kept.
    const entries = Number(((await db('form_entries').count({ n: '*' }).first()) as { n: unknown }).n);
    const entryFiles = Number(((await db('form_entry_files').count({ n: '*' }).first()) as { n: unknown }).n);
    const onDisk = fs.readdirSync(path.join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const verified = entries === forms.result.ok && entryFiles === entries && onDisk === apply.result.ok + entries;
    console.log(
      `verified: ${entries} entries, ${entryFiles} entry files, ${onDisk} files on disk (apply ${apply.result.ok} + forms ${entries}): ${verified ? 'OK' : 'MISMATCH'}`,
    );

    // The export: 50,000 entries (SQLite takes at most 500 rows per INSERT), against exceljs writing the same rows from memory.
    const have = entries;
    const at = toDbDate(new Date());
    for (let i = have; i < ENTRIES; i += 400) {
      const rows = Array.from({ length: Math.min(400, ENTRIES - i) }, (_, k) => ({
        form_id: form.id,
        data: toDbJson({ full_name: `Visitor ${i + k}`, email: `v${i + k}@bench.example.com` }),
        created_at: at,
      }));
      await db('form_entries').insert(rows);
    }
    // A fresh server for the export, so its peak RSS is the export's and not the upload load's.
    await stopProcess(server);
    server = await startProcess(['dist/server.js'], env);
    const exportPid = server.pid!;
    const idleMb = rssMb(exportPid);
    const exportOnce = async () => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/hr/forms/${form.id}/entries/export/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const bytes = (await res.arrayBuffer()).byteLength;
      return { ms: performance.now() - t0, bytes, status: res.status };
    };
    // The peak RSS of the first export on the fresh server, then of a second one right after; the
    // time is the second's (the limit runs warm too).
    const cold = await peakRss(exportPid, exportOnce);
    const exported = await peakRss(exportPid, exportOnce);
    const limit = await (async () => {
      const t0 = performance.now();
      const sink = new PassThrough();
      let bytes = 0;
      sink.on('data', (c: Buffer) => (bytes += c.length));
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
      const sheet = book.addWorksheet('Entries');
      sheet.addRow(['Entry ID', 'Submitted At (UTC)', 'Name', 'Email', 'CV']).commit();
      const now = new Date();
      for (let i = 0; i < ENTRIES; i++) sheet.addRow([i + 1, now, `Visitor ${i}`, `v${i}@bench.example.com`, '']).commit();
      sheet.commit();
      await book.commit();
      return { ms: performance.now() - t0, bytes };
    })();
    console.log(
      `export of ${ENTRIES} entries: HTTP ${exported.result.status}, ${(exported.result.bytes / 1048576).toFixed(1)} MB in ${(exported.result.ms / 1000).toFixed(2)} s warm (${(cold.result.ms / 1000).toFixed(2)} s cold); server peak RSS ${cold.peakMb.toFixed(0)} MB in the first export on a fresh server (${idleMb.toFixed(0)} MB before), ${exported.peakMb.toFixed(0)} MB in a second one right after`,
    );
    console.log(
      `exceljs from memory (the limit): ${(limit.bytes / 1048576).toFixed(1)} MB in ${(limit.ms / 1000).toFixed(2)} s; export / limit: ${(exported.result.ms / limit.ms).toFixed(2)}x`,
    );
  } finally {
    if (server) await stopProcess(server);
    await db.destroy();
    if (dbName) {
      await dropMysqlDatabase(mysqlBase, dbName);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

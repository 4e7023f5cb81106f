/**
 * Offer PDFs (issue 34): rendering and storing a 3-page offer letter (pdfkit, then the storage's
 * durable write and its SHA-256), as sending an offer does, 10 at a time. Prints the p95 of one
 * render-and-store (goal < 300 ms) and the process's RSS growth over the run (goal < 50 MB), and
 * exits non-zero when a goal is missed.
 *
 *   node --expose-gc --import tsx bench/offer-pdf.ts [--count 500] [--concurrency 10]
 *
 * A fresh SQLite database and upload folder in a temporary directory, removed at the end. The
 * letter is the default template's paragraphs repeated until the PDF has exactly 3 pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrations.js';
import { toDbDate } from '../src/db/codecs.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.service.js';
import { createStorage } from '../src/storage/create.js';
import { findOffer } from '../src/offers/repo.js';
import { renderAndStorePdf } from '../src/offers/service.js';
import { insertApplications } from '../test/helpers/applications.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const count = Number(arg('count', '500'));
const concurrency = Number(arg('concurrency', '10'));
const GOAL_P95_MS = 300;
const GOAL_RSS_MB = 50;

const PARAGRAPH =
  '<p>We are delighted to offer you the position of <strong>{job_title}</strong> at {company_name}. Your base pay will be ' +
  '<strong>{base_pay} {currency} per {pay_period}</strong>, starting {start_date}, with <em>{benefits}</em>.</p>' +
  '<ul><li>Bonus: {bonus}</li><li>Equity: {equity}</li></ul>';

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'offer-pdf-'));
  const config = loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', COMPANY_NAME: 'Acme Corporation' });
  const db = createDb(config);
  try {
    await migrateLatest(db);
    const [job] = validateJobRecords([
      {
        public_id: 'bench',
        title: 'Backend Engineer',
        location: 'Berlin',
        job_type: 'FULL_TIME',
        work_mode: 'ONSITE',
        status: 'ACTIVE',
        description: '<p>x</p>',
      },
    ]);
    await importJobs(db, [job]);
    const jobId = Number((await db('jobs').first('id')).id);
    await insertApplications(db, jobId, [{ first_name: 'José', last_name: 'Müller', email: 'jose@example.com', phone: '+15550100' }], []);
    const appId = Number((await db('applications').first('id')).id);
    const storage = createStorage(config);
    const deps = { db, config, storage };
    const now = toDbDate(new Date());
    const [offerId] = await db('offers').insert({
      application_id: appId,
      job_id: jobId,
      status: 'approved',
      version: 1,
      base_pay: 72000,
      salary_period: 'YEAR',
      currency: 'EUR',
      start_date: '2027-03-01',
      expires_on: '2027-02-01',
      bonus: '10% yearly target bonus',
      equity: '1,000 options vesting over 4 years',
      benefits: '30 days of paid leave, pension, health insurance',
      letter: PARAGRAPH,
      created_at: now,
      updated_at: now,
    });
    // Paragraphs until the PDF has 3 pages.
    let paragraphs = 1;
    for (;;) {
      await db('offers')
        .where({ id: offerId })
        .update({ letter: PARAGRAPH.repeat(paragraphs) });
      const made = await renderAndStorePdf(deps, (await findOffer(db, Number(offerId)))!, null);
      const pages = (await PDFDocument.load(await readKey(storage, made.key))).getPageCount();
      await storage.remove(made.key);
      if (pages >= 3) {
        if (pages > 3) paragraphs -= 1;
        break;
      }
      paragraphs += 1;
    }
    await db('offers')
      .where({ id: offerId })
      .update({ letter: PARAGRAPH.repeat(paragraphs) });
    const offer = (await findOffer(db, Number(offerId)))!;
    const check = await renderAndStorePdf(deps, offer, null);
    const pages = (await PDFDocument.load(await readKey(storage, check.key))).getPageCount();
    console.log(`letter: ${paragraphs} paragraphs, ${pages} pages, ${(check.bytes / 1024).toFixed(1)} KiB`);

    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const rssBefore = process.memoryUsage().rss;
    const times: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        const start = process.hrtime.bigint();
        await renderAndStorePdf(deps, offer, null);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const wall = Date.now() - started;
    gc?.();
    const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    times.sort((a, b) => a - b);
    const p95 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)];
    console.log(
      `${count} PDFs, ${concurrency} concurrent, in ${(wall / 1000).toFixed(1)} s: p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms (goal < ${GOAL_P95_MS}), RSS growth ${growthMb.toFixed(1)} MB (goal < ${GOAL_RSS_MB})${gc ? '' : ' (run with --expose-gc for a steadier figure)'}`,
    );
    if (pages !== 3 || p95 >= GOAL_P95_MS || growthMb >= GOAL_RSS_MB) process.exitCode = 1;
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function readKey(storage: ReturnType<typeof createStorage>, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

await main();

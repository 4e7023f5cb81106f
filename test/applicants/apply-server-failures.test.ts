/**
 * All or nothing when the server fails: each failure is injected for real (a table that is gone, a
 * disk that fails half-way, a database that fails under the service or picks a deadlock victim)
 * and afterwards no row and no file may remain. Also the per-IP rate limit. Client failures:
 * apply-client-failures.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { LocalDiskStorage, type FileStorage } from '../../src/storage/storage.js';
import { submitApplication } from '../../src/applicants/apply.service.js';
import type { ReceivedForm } from '../../src/http/multipart.js';
import { pdfBytes } from '../fixtures/resumes.js';
import {
  APPLICATION_TABLES,
  EMPTY,
  eventually,
  listFiles,
  sha256,
  tableCounts,
  toFormData,
  uploadsRoot,
  validFields,
} from '../fixtures/apply.js';
import { captureLog } from '../helpers/log.js';
import { processLog } from '../../src/log/logger.js';

/** A disk that fails after `failAfter` bytes of a file (the partial file must still go). */
class FailingStorage implements FileStorage {
  constructor(
    private readonly inner: LocalDiskStorage,
    private readonly failAfter: number,
  ) {}
  newKey(): string {
    return this.inner.newKey();
  }
  write(key: string, source: Readable): Promise<void> {
    let seen = 0;
    const failAfter = this.failAfter;
    const faulty = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        seen += chunk.length;
        if (seen > failAfter) cb(Object.assign(new Error('No space left on device (injected)'), { code: 'ENOSPC' }));
        else cb(null, chunk);
      },
    });
    source.on('error', (err) => faulty.destroy(err));
    return this.inner.write(key, source.pipe(faulty));
  }
  read(key: string): Promise<Readable> {
    return this.inner.read(key);
  }
  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }
  remove(key: string): Promise<void> {
    return this.inner.remove(key);
  }
  idle(): Promise<void> {
    return this.inner.idle();
  }
}

/** Silences the error log of an expected 500 (the handler logs the cause; that is correct). */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const log = captureLog();
  try {
    return await fn();
  } finally {
    log.restore();
  }
}

for (const kind of databaseKinds()) {
  describe(`apply API: all or nothing under failure [${kind}]`, function () {
    this.timeout(60_000);

    describe('database failures inside the transaction', () => {
      let s: TestServer;
      let root: string;
      let checkboxQuestion: number;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
        root = uploadsRoot(s.ctx);
        const job = await makeJob(s.ctx.db, {
          public_id: 'choices-job',
          questions: [
            { text: 'Name a colour', answer_type: 'short_text', required: true },
            { text: 'Pick', answer_type: 'checkbox', options: ['A', 'B'] },
          ],
        });
        checkboxQuestion = job.questions[1].id;
        await makeJob(s.ctx.db, { public_id: 'webhook-job', webhook_enabled: true, webhook_url: 'https://hooks.example.com/y' });
        // Throwaway database: the last inserts of each transaction will fail.
        await s.ctx.db.schema.dropTable('application_answer_choices');
        await s.ctx.db.schema.dropTable('post_attempts'); // its foreign key would keep application_posts
        await s.ctx.db.schema.dropTable('application_posts');
      });
      after(() => s.close());

      async function counts() {
        const all = await Promise.all(
          APPLICATION_TABLES.filter((t) => t !== 'application_answer_choices' && t !== 'application_posts').map(
            async (t) => [t, Number(((await s.ctx.db(t).count({ n: '*' }).first()) as any).n)] as const,
          ),
        );
        return Object.fromEntries(all);
      }

      it('the checkbox choice insert fails after the application, answers and file rows: everything is rolled back, the file removed', async () => {
        const answers = JSON.stringify([
          { question_id: checkboxQuestion - 1, answer: 'Blue' },
          { question_id: checkboxQuestion, answer: ['A'] },
        ]);
        const res = await quietly(() =>
          fetch(`${s.baseUrl}/api/jobs/choices-job/apply/`, {
            method: 'POST',
            body: toFormData(validFields({ answers, resume: { data: pdfBytes(2_000_000), filename: 'cv.pdf' } })),
          }),
        );
        expect(res.status).to.equal(500);
        expect(await res.json()).to.deep.equal({ detail: 'A server error occurred.' });
        expect(await counts()).to.deep.equal({
          applications: 0,
          stored_files: 0,
          application_experiences: 0,
          application_education: 0,
          application_skills: 0,
          application_answers: 0,
        });
        expect(listFiles(root)).to.deep.equal([]);
        expect(fs.readdirSync(root)).to.deep.equal([]);
      });

      it('the outbox insert fails last: nothing of the application remains', async () => {
        const res = await quietly(() =>
          fetch(`${s.baseUrl}/api/jobs/webhook-job/apply/`, { method: 'POST', body: toFormData(validFields()) }),
        );
        expect(res.status).to.equal(500);
        expect(await counts()).to.deep.equal({
          applications: 0,
          stored_files: 0,
          application_experiences: 0,
          application_education: 0,
          application_skills: 0,
          application_answers: 0,
        });
        expect(listFiles(root)).to.deep.equal([]);
        expect(fs.readdirSync(root)).to.deep.equal([]);
      });
    });

    describe('storage failure half-way through the file', () => {
      let s: TestServer;
      let dir: string;
      before(async () => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-failing-storage-'));
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' }, { storage: new FailingStorage(new LocalDiskStorage(dir), 1024 * 1024) });
        await makeJob(s.ctx.db, { public_id: 'disk-job' });
      });
      after(async () => {
        await s.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });

      it('answers 500 without details, keeps no partial file and no row', async () => {
        const res = await quietly(() =>
          fetch(`${s.baseUrl}/api/jobs/disk-job/apply/`, {
            method: 'POST',
            body: toFormData(validFields({ resume: { data: pdfBytes(3_000_000), filename: 'cv.pdf' } })),
          }),
        );
        expect(res.status).to.equal(500);
        expect(await res.json()).to.deep.equal({ detail: 'A server error occurred.' });
        await eventually(async () => {
          expect(listFiles(dir)).to.deep.equal([]);
          expect(fs.readdirSync(dir)).to.deep.equal([]);
          expect(await tableCounts(s.ctx.db)).to.deep.equal(EMPTY);
        });
        // A small file passes the same disk.
        const ok = await fetch(`${s.baseUrl}/api/jobs/disk-job/apply/`, { method: 'POST', body: toFormData(validFields()) });
        expect(ok.status).to.equal(201);
        expect(listFiles(dir)).to.have.length(1);
      });
    });

    describe('the service with an injected database that fails', () => {
      let s: TestServer;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      });
      after(() => s.close());

      it('removes the received file and passes the error on', async () => {
        const job = await makeJob(s.ctx.db, { public_id: 'svc-job' });
        const storage = s.ctx.storage;
        const key = storage.newKey();
        const data = pdfBytes(10_000);
        await storage.write(key, Readable.from([data]));
        const form: ReceivedForm = {
          fields: new Map(Object.entries(validFields()).filter((e): e is [string, string] => typeof e[1] === 'string')),
          repeated: new Set(),
          files: new Map([
            [
              'resume',
              {
                key,
                clientName: 'cv.pdf',
                clientType: 'application/pdf',
                size: data.length,
                sha256: sha256(data),
                head: data.subarray(0, 8),
                tail: Buffer.alloc(0),
              },
            ],
          ]),
        };
        const broken = new Proxy(s.ctx.db, {
          get(target, prop, receiver) {
            if (prop === 'transaction') return () => Promise.reject(new Error('connection lost (injected)'));
            return Reflect.get(target, prop, receiver);
          },
        });
        let caught: unknown = null;
        await submitApplication({ db: broken, storage, now: () => new Date(), log: processLog() }, job, form).catch(
          (err) => (caught = err),
        );
        expect((caught as Error)?.message).to.equal('connection lost (injected)');
        expect(await storage.exists(key)).to.equal(false);
        expect(await tableCounts(s.ctx.db)).to.deep.equal(EMPTY);
      });

      it('runs the transaction again when the database picks it as a deadlock victim', async () => {
        const job = await makeJob(s.ctx.db, { public_id: 'svc-deadlock' });
        const storage = s.ctx.storage;
        const key = storage.newKey();
        const data = pdfBytes(10_000);
        await storage.write(key, Readable.from([data]));
        const form: ReceivedForm = {
          fields: new Map(
            Object.entries(validFields({ email: 'deadlock@example.com' })).filter((e): e is [string, string] => typeof e[1] === 'string'),
          ),
          repeated: new Set(),
          files: new Map([
            [
              'resume',
              {
                key,
                clientName: 'cv.pdf',
                clientType: 'application/pdf',
                size: data.length,
                sha256: sha256(data),
                head: data.subarray(0, 8),
                tail: Buffer.alloc(0),
              },
            ],
          ]),
        };
        let calls = 0;
        const flaky = new Proxy(s.ctx.db, {
          get(target, prop, receiver) {
            if (prop === 'transaction') {
              return (fn: any) =>
                ++calls === 1
                  ? Promise.reject(Object.assign(new Error('Deadlock found (injected)'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 }))
                  : target.transaction(fn);
            }
            return Reflect.get(target, prop, receiver);
          },
        });
        const outcome = await submitApplication({ db: flaky, storage, now: () => new Date(), log: processLog() }, job, form);
        expect(outcome.kind).to.equal('created');
        expect(calls).to.equal(2);
        expect(await storage.exists(key)).to.equal(true);
        expect((await tableCounts(s.ctx.db)).applications).to.equal(1);
      });
    });

    describe('rate limit', () => {
      let s: TestServer;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '3', APPLY_RATE_WINDOW_SECONDS: '600' });
        await makeJob(s.ctx.db, { public_id: 'limited' });
      });
      after(() => s.close());

      it('answers 429 with a readable message after the limit, whatever the earlier answers were', async () => {
        const url = `${s.baseUrl}/api/jobs/limited/apply/`;
        expect((await fetch(url, { method: 'POST', body: toFormData(validFields({ email: 'one@example.com' })) })).status).to.equal(201);
        expect((await fetch(url, { method: 'POST', body: toFormData(validFields({ email: 'bad' })) })).status).to.equal(400);
        expect((await fetch(url, { method: 'POST', body: toFormData(validFields({ email: 'two@example.com' })) })).status).to.equal(201);
        const res = await fetch(url, {
          method: 'POST',
          body: toFormData(validFields({ email: 'three@example.com', resume: { data: pdfBytes(5_000_000), filename: 'cv.pdf' } })),
        });
        expect(res.status).to.equal(429);
        expect(await res.json()).to.deep.equal({ detail: 'Too many applications. Please try again in 10 minutes.' });
        // The window's seconds left: 600 at once, a little less on a slow machine.
        expect(Number(res.headers.get('retry-after'))).to.be.within(590, 600);
        expect((await tableCounts(s.ctx.db)).applications).to.equal(2);
        expect(listFiles(uploadsRoot(s.ctx))).to.have.length(2);
      });
    });
  });
}

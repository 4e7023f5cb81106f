/**
 * All or nothing: each failure is injected for real (a client that hangs up mid-upload, a table
 * that is gone, a disk that fails half-way, a file that crosses 10 MB or turns out to be something
 * else) and afterwards no row and no file may remain. Also the per-IP rate limit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { Readable, Transform } from 'node:stream';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { LocalDiskStorage, type FileStorage } from '../../src/storage/storage.js';
import { submitApplication } from '../../src/applicants/service.js';
import type { ReceivedForm } from '../../src/http/multipart.js';
import { MESSAGES } from '../../src/shared/application-rules.js';
import { exeBytes, pdfBytes } from '../fixtures/resumes.js';
import { APPLICATION_TABLES, eventually, listFiles, rawMultipart, rawTextParts, sha256, tableCounts, toFormData, uploadsRoot, validFields } from '../fixtures/apply.js';

const EMPTY = Object.fromEntries(APPLICATION_TABLES.map((t) => [t, 0]));

/** A disk that fails after `failAfter` bytes of a file (the partial file must still go). */
class FailingStorage implements FileStorage {
  constructor(private readonly inner: LocalDiskStorage, private readonly failAfter: number) {}
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
  read(key: string): Readable {
    return this.inner.read(key);
  }
  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }
  remove(key: string): Promise<void> {
    return this.inner.remove(key);
  }
}

/** Silences the error log of an expected 500 (the handler logs the cause; that is correct). */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => undefined;
  try {
    return await fn();
  } finally {
    console.error = original;
  }
}

/**
 * Streams a multipart body over a raw socket (chunked HTTP/1.1 written by hand, so backpressure
 * is the socket's own and sending may go on after the answer, as a hostile client would):
 * `prefix`, then the file's bytes from `fileChunks`, then `suffix`. Resolves with the answer (if
 * any), how much had been sent when it arrived, and whether the server cut the connection.
 */
async function streamUpload(
  url: string,
  opts: { contentType: string; prefix: Buffer; fileChunks: () => Iterable<Buffer>; suffix: Buffer; abortWhen?: (sent: number) => boolean; stopOnResponse?: boolean },
): Promise<{ status: number | null; body: any; sentAtResponse: number; sent: number; cut: boolean }> {
  const u = new URL(url);
  const socket = net.connect(Number(u.port), u.hostname);
  await once(socket, 'connect');
  let sent = 0;
  let sentAtResponse = -1;
  let received = Buffer.alloc(0);
  let response: { status: number; body: string } | null = null;
  let cut = false;
  let closed = false;
  socket.on('data', (d: Buffer) => {
    received = Buffer.concat([received, d]);
    const headEnd = received.indexOf('\r\n\r\n');
    if (response || headEnd === -1) return;
    const head = received.subarray(0, headEnd).toString('latin1');
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (received.length >= headEnd + 4 + length) {
      response = { status: Number(head.split(' ')[1]), body: received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') };
      sentAtResponse = sent;
    }
  });
  socket.on('error', () => {
    cut = true;
  });
  socket.on('close', () => {
    closed = true;
  });
  const write = async (b: Buffer) => {
    if (closed) return false;
    sent += b.length;
    const framed = Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
    if (!socket.write(framed)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    }
    return !closed;
  };
  socket.write(`POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: ${opts.contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  await write(opts.prefix);
  let stopped = false;
  for (const chunk of opts.fileChunks()) {
    if ((opts.stopOnResponse && response) || !(await write(chunk))) {
      stopped = true;
      break;
    }
    if (opts.abortWhen?.(sent)) {
      socket.destroy();
      return { status: null, body: null, sentAtResponse, sent, cut };
    }
  }
  if (!stopped && !closed) {
    await write(opts.suffix);
    socket.write('0\r\n\r\n');
  }
  // Wait for the answer (or the end of the connection).
  for (let i = 0; i < 200 && !response && !closed; i++) await new Promise((r) => setTimeout(r, 25));
  socket.destroy();
  const r = response as { status: number; body: string } | null;
  return { status: r?.status ?? null, body: r ? JSON.parse(r.body) : null, sentAtResponse, sent, cut: cut || (closed && !stopped) };
}

function* chunks(total: number, size = 256 * 1024, first?: Buffer): Iterable<Buffer> {
  const filler = Buffer.alloc(size, 0x41);
  let left = total;
  if (first) {
    yield first;
    left -= first.length;
  }
  while (left > 0) {
    const n = Math.min(size, left);
    yield n === size ? filler : filler.subarray(0, n);
    left -= n;
  }
}

/** The text parts, then the opening of the resume part; the file's bytes and the closing follow. */
function splitBody(email: string, filename = 'cv.pdf') {
  const boundary = 'StreamBoundary9f8e7d';
  const text = rawMultipart(rawTextParts(validFields({ email })), boundary).body;
  const prefix = Buffer.concat([
    text.subarray(0, text.length - `--${boundary}--\r\n`.length),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, prefix, suffix: Buffer.from(`\r\n--${boundary}--\r\n`) };
}

for (const kind of databaseKinds()) {
  describe(`apply API: all or nothing under failure [${kind}]`, function () {
    this.timeout(60_000);

    describe('client and upload failures', () => {
      let s: TestServer;
      let root: string;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
        root = uploadsRoot(s.ctx);
        await makeJob(s.ctx.db, { public_id: 'job-1', webhook_enabled: true, webhook_url: 'https://hooks.example.com/x' });
      });
      after(() => s.close());
      const url = () => `${s.baseUrl}/api/jobs/job-1/apply/`;

      async function expectEmpty() {
        await eventually(async () => {
          expect(listFiles(root)).to.deep.equal([]);
          // Not even an empty fan-out folder.
          expect(fs.readdirSync(root)).to.deep.equal([]);
          expect(await tableCounts(s.ctx.db)).to.deep.equal(EMPTY);
        });
      }

      it('the client hangs up in the middle of the resume: the partial file is removed, no row', async () => {
        const body = splitBody('abort1@example.com');
        const result = await streamUpload(url(), {
          ...body,
          fileChunks: () => chunks(8 * 1024 * 1024, 256 * 1024, pdfBytes(1024)),
          // Hang up once the server has started writing the file to disk.
          abortWhen: (sent) => sent > 3 * 1024 * 1024 && listFiles(root).length > 0,
        });
        expect(result.status).to.equal(null);
        await expectEmpty();
      });

      it('the client hangs up after the whole resume, before the form ends: the complete file is removed', async () => {
        const boundary = 'AfterFileBoundary';
        const filePart = rawMultipart([{ disposition: 'form-data; name="resume"; filename="cv.pdf"', type: 'application/pdf', body: pdfBytes(1024 * 1024) }], boundary).body;
        const prefix = filePart.subarray(0, filePart.length - `--${boundary}--\r\n`.length);
        const req = http.request(url(), { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
        req.on('error', () => undefined);
        req.write(prefix);
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nAs`);
        // Wait for the complete file on disk, then go away.
        await eventually(() => {
          const files = listFiles(root);
          expect(files).to.have.length(1);
          expect(fs.statSync(path.join(root, files[0])).size).to.equal(1024 * 1024);
        });
        req.destroy();
        await expectEmpty();
      });

      it('a resume that crosses 10 MB is refused while it is still being sent; the client reads the answer; the file is removed', async () => {
        const body = splitBody('big@example.com');
        const result = await streamUpload(url(), { ...body, fileChunks: () => chunks(120 * 1024 * 1024, 256 * 1024, pdfBytes(1024)), stopOnResponse: true });
        expect(result.status).to.equal(400);
        expect(result.body).to.deep.equal({ resume: [MESSAGES.resumeSize] });
        // Answered long before the client had sent it all. Loopback is fast and socket buffers hold
        // a few MB, so on a busy machine the client has pushed 30-40 MB by the time the answer
        // arrives; a server that waited for the whole body would be at 120 MB.
        expect(result.sentAtResponse).to.be.greaterThan(10 * 1024 * 1024);
        expect(result.sentAtResponse).to.be.lessThan(60 * 1024 * 1024);
        await expectEmpty();
      });

      it('a client that keeps sending after the refusal is cut off', async () => {
        const body = splitBody('endless@example.com');
        const result = await streamUpload(url(), { ...body, fileChunks: () => chunks(400 * 1024 * 1024, 1024 * 1024, pdfBytes(1024)) });
        expect(result.status).to.equal(400);
        expect(result.body).to.deep.equal({ resume: [MESSAGES.resumeSize] });
        expect(result.cut).to.equal(true);
        expect(result.sent).to.be.lessThan(120 * 1024 * 1024);
        await expectEmpty();
      });

      it('a resume whose first bytes are not PDF/DOC/DOCX is refused at once, before the rest arrives', async () => {
        const body = splitBody('exe@example.com', 'cv.pdf');
        const result = await streamUpload(url(), { ...body, fileChunks: () => chunks(9 * 1024 * 1024, 256 * 1024, exeBytes(4096)), stopOnResponse: true });
        expect(result.status).to.equal(400);
        expect(result.body).to.deep.equal({ resume: [MESSAGES.resumeType] });
        expect(result.sentAtResponse).to.be.lessThan(9 * 1024 * 1024);
        await expectEmpty();
      });

      it('the server still takes a valid application on the same database afterwards', async () => {
        const res = await fetch(url(), { method: 'POST', body: toFormData(validFields({ email: 'after@example.com' })) });
        expect(res.status).to.equal(201);
        expect(listFiles(root)).to.have.length(1);
        expect((await tableCounts(s.ctx.db)).applications).to.equal(1);
      });
    });

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
        await s.ctx.db.schema.dropTable('application_posts');
      });
      after(() => s.close());

      async function counts() {
        const all = await Promise.all(
          APPLICATION_TABLES.filter((t) => t !== 'application_answer_choices' && t !== 'application_posts').map(async (t) => [t, Number(((await s.ctx.db(t).count({ n: '*' }).first()) as any).n)] as const),
        );
        return Object.fromEntries(all);
      }

      it('the checkbox choice insert fails after the application, answers and file rows: everything is rolled back, the file removed', async () => {
        const answers = JSON.stringify([{ question_id: checkboxQuestion - 1, answer: 'Blue' }, { question_id: checkboxQuestion, answer: ['A'] }]);
        const res = await quietly(() => fetch(`${s.baseUrl}/api/jobs/choices-job/apply/`, { method: 'POST', body: toFormData(validFields({ answers, resume: { data: pdfBytes(2_000_000), filename: 'cv.pdf' } })) }));
        expect(res.status).to.equal(500);
        expect(await res.json()).to.deep.equal({ detail: 'A server error occurred.' });
        expect(await counts()).to.deep.equal({ applications: 0, stored_files: 0, application_experiences: 0, application_education: 0, application_skills: 0, application_answers: 0 });
        expect(listFiles(root)).to.deep.equal([]);
        expect(fs.readdirSync(root)).to.deep.equal([]);
      });

      it('the outbox insert fails last: nothing of the application remains', async () => {
        const res = await quietly(() => fetch(`${s.baseUrl}/api/jobs/webhook-job/apply/`, { method: 'POST', body: toFormData(validFields()) }));
        expect(res.status).to.equal(500);
        expect(await counts()).to.deep.equal({ applications: 0, stored_files: 0, application_experiences: 0, application_education: 0, application_skills: 0, application_answers: 0 });
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
        const res = await quietly(() => fetch(`${s.baseUrl}/api/jobs/disk-job/apply/`, { method: 'POST', body: toFormData(validFields({ resume: { data: pdfBytes(3_000_000), filename: 'cv.pdf' } })) }));
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
          file: { key, clientName: 'cv.pdf', clientType: 'application/pdf', size: data.length, sha256: sha256(data), head: data.subarray(0, 8), tail: Buffer.alloc(0) },
        };
        const broken = new Proxy(s.ctx.db, {
          get(target, prop, receiver) {
            if (prop === 'transaction') return () => Promise.reject(new Error('connection lost (injected)'));
            return Reflect.get(target, prop, receiver);
          },
        });
        let caught: unknown = null;
        await submitApplication({ db: broken, storage, now: () => new Date() }, job, form).catch((err) => (caught = err));
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
          fields: new Map(Object.entries(validFields({ email: 'deadlock@example.com' })).filter((e): e is [string, string] => typeof e[1] === 'string')),
          repeated: new Set(),
          file: { key, clientName: 'cv.pdf', clientType: 'application/pdf', size: data.length, sha256: sha256(data), head: data.subarray(0, 8), tail: Buffer.alloc(0) },
        };
        let calls = 0;
        const flaky = new Proxy(s.ctx.db, {
          get(target, prop, receiver) {
            if (prop === 'transaction') {
              return (fn: any) => (++calls === 1 ? Promise.reject(Object.assign(new Error('Deadlock found (injected)'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 })) : target.transaction(fn));
            }
            return Reflect.get(target, prop, receiver);
          },
        });
        const outcome = await submitApplication({ db: flaky, storage, now: () => new Date() }, job, form);
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
        const res = await fetch(url, { method: 'POST', body: toFormData(validFields({ email: 'three@example.com', resume: { data: pdfBytes(5_000_000), filename: 'cv.pdf' } })) });
        expect(res.status).to.equal(429);
        expect(await res.json()).to.deep.equal({ detail: 'Too many applications. Please try again in 10 minutes.' });
        expect(res.headers.get('retry-after')).to.equal('600');
        expect((await tableCounts(s.ctx.db)).applications).to.equal(2);
        expect(listFiles(uploadsRoot(s.ctx))).to.have.length(2);
      });
    });
  });
}

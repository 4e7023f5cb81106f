/**
 * Slow clients (issue 9, item 6) against the server's timeouts (src/http/listen.ts): the server
 * has the production values; the clients meet them scaled down tenfold (`timeScale`: every
 * deadline and Node's checking interval in proportion), so the 20 s headers deadline is watched in
 * 2 s.
 *
 * At the same time: a client sending its headers one byte at a time, one that connects and sends
 * nothing, one that stops just before the end of its headers (each must be answered 408 and cut
 * off at the headers deadline after it connected); a kept-alive connection left idle longer than
 * the headers timeout (it must still serve its next request); and an applicant uploading slowly
 * but steadily for longer than the headers timeout (the application must go through).
 */
import net from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { HTTP_TIMEOUTS } from '../../src/http/listen.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { rawMultipart, rawTextParts, tableCounts, validFields } from '../fixtures/apply.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SCALE = 10;
/** The headers deadline the slow clients meet, in seconds. */
const HEADERS_S = HTTP_TIMEOUTS.headersTimeoutMs / 1000 / SCALE;

interface Watched {
  socket: net.Socket;
  /** Everything the server sent. */
  received: () => string;
  /** Seconds from connecting to the server closing the connection (null while open). */
  closedAfter: () => number | null;
}

async function connect(baseUrl: string): Promise<Watched> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  const start = Date.now();
  let data = '';
  let closedAt: number | null = null;
  socket.on('data', (d) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closedAt = Date.now()));
  return { socket, received: () => data, closedAfter: () => (closedAt === null ? null : (closedAt - start) / 1000) };
}

/** Sends `text` one byte every `everyMs` until the server closes the connection; returns how many bytes went out. */
async function dribble(w: Watched, text: string, everyMs: number): Promise<number> {
  let i = 0;
  while (w.closedAfter() === null && i < text.length) {
    w.socket.write(text[i++]);
    await sleep(everyMs);
  }
  return i;
}

async function waitClosed(w: Watched, maxSeconds: number): Promise<void> {
  const until = Date.now() + maxSeconds * 1000;
  while (w.closedAfter() === null && Date.now() < until) await sleep(10);
}

/** Status codes of the answers in what a connection received, in order. */
const statuses = (received: string) => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

for (const kind of databaseKinds()) {
  describe(`slow clients against the production timeouts [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;

    before(async () => {
      // Node's checking interval scaled too: 25 ms, so a cut-off comes within 0.25 s (real: 2.5 s) of its deadline.
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' }, {}, { connectionsCheckingIntervalMs: 250, timeScale: SCALE });
      await makeJob(s.ctx.db, { public_id: 'slow-job' });
    });
    after(() => s.close());

    it('the server has the documented timeouts and announces the keep-alive one', async () => {
      const real = await startTestServer(kind);
      try {
        expect(real.server.headersTimeout).to.equal(20_000);
        expect(real.server.requestTimeout).to.equal(600_000);
        expect(real.server.keepAliveTimeout).to.equal(65_000);
        // The whole request may take longer than the headers; Node refuses the opposite.
        expect(real.server.requestTimeout).to.be.greaterThan(real.server.headersTimeout);
        const res = await fetch(`${real.baseUrl}/api/jobs/`);
        expect(res.headers.get('keep-alive')).to.equal('timeout=65');
        expect(s.server.headersTimeout, 'the scaled server below').to.equal(HEADERS_S * 1000);
      } finally {
        await real.close();
      }
    });

    it('cuts off headers sent byte by byte, silent and stalled connections at the headers deadline; keeps an idle kept-alive connection and a slow upload', async () => {
      const host = new URL(s.baseUrl).host;
      const slowHeaders = `GET /careers HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${'x'.repeat(200)}\r\n\r\n`;

      // 1. Headers one byte every 20 ms: they would take 5 s (real: 50 s).
      const loris = await connect(s.baseUrl);
      const lorisSent = dribble(loris, slowHeaders, 20);
      // 2. Connects and sends nothing.
      const silent = await connect(s.baseUrl);
      // 3. Everything but the blank line that ends the headers, then nothing.
      const stalled = await connect(s.baseUrl);
      stalled.socket.write(`GET /careers HTTP/1.1\r\nHost: ${host}\r\n`);

      // 4. A kept-alive connection: one request, idle for longer than the headers timeout, another.
      const idle = await connect(s.baseUrl);
      idle.socket.write(`GET /api/jobs/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const idleDone = (async () => {
        await sleep((HEADERS_S + 0.4) * 1000);
        idle.socket.write(`GET /api/jobs/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        await waitClosed(idle, 20);
      })();

      // 5. An application whose 400 KB resume arrives over about 2.5 s (real: 25 s).
      const boundary = 'SlowUploadBoundary';
      const resume = pdfBytes(400 * 1024);
      const body = rawMultipart(
        [
          ...rawTextParts(validFields({ email: 'slow@example.com' })),
          { disposition: 'form-data; name="resume"; filename="slow.pdf"', type: 'application/pdf', body: resume },
        ],
        boundary,
      ).body;
      const upload = await connect(s.baseUrl);
      upload.socket.write(
        `POST /api/jobs/slow-job/apply/ HTTP/1.1\r\nHost: ${host}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      const uploadDone = (async () => {
        const piece = Math.ceil(body.length / 25);
        for (let at = 0; at < body.length && upload.closedAfter() === null; at += piece) {
          upload.socket.write(body.subarray(at, at + piece));
          await sleep(100);
        }
        await waitClosed(upload, 30);
      })();

      await Promise.all([waitClosed(loris, 60), waitClosed(silent, 60), waitClosed(stalled, 60), idleDone, uploadDone]);

      for (const [name, w] of [
        ['byte by byte', loris],
        ['silent', silent],
        ['stalled', stalled],
      ] as const) {
        expect(w.received(), name).to.match(/^HTTP\/1\.1 408 Request Timeout\r\n/);
        expect(w.received(), name).to.include('Connection: close');
        // Not before the deadline; within a generous margin after it (a loaded machine is slow).
        expect(w.closedAfter(), name).to.be.within(HEADERS_S - 0.1, HEADERS_S + 1);
      }
      expect(await lorisSent).to.be.lessThan(slowHeaders.length);

      expect(statuses(idle.received()), 'kept-alive connection').to.deep.equal([200, 200]);
      expect(statuses(upload.received()), upload.received().slice(0, 300)).to.deep.equal([201]);
      expect(upload.closedAfter()).to.be.greaterThan(HEADERS_S);
      const row = await s.ctx.db('applications').where({ email: 'slow@example.com' }).first();
      expect(row, 'the slow application was stored').to.not.equal(undefined);
      expect((await tableCounts(s.ctx.db)).stored_files).to.equal(1);
    });
  });
}

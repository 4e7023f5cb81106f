/**
 * Issue 18 (operations): stopping the server as `npm start` runs it (a child process). On SIGTERM
 * /readyz answers 503 at once; requests and uploads in flight get SHUTDOWN_TIMEOUT_SECONDS; at the
 * deadline the connections still open are cut, and an upload cut there leaves no row and no file;
 * a second signal exits at once (143 for SIGTERM, 130 for SIGINT). `careers-admin cron` waits for
 * posts being sent the same way.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer, CLI_ENTRY } from '../helpers/child-server.js';
import { logMessages } from '../helpers/log.js';
import { makeJob } from '../helpers/factories.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { eventually, listFiles, rawMultipart, rawTextParts, validFields } from '../fixtures/apply.js';
import { seedPosts, startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
import { ConfigError, loadConfig } from '../../config/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BOUNDARY = 'ShutdownBoundary9f8e7d';

/** An application whose resume is sent slowly, 64 KB at a time, until `finish()` or the server cuts it. */
function slowUpload(url: string, email: string) {
  const text = rawMultipart(rawTextParts(validFields({ email })), BOUNDARY).body;
  const prefix = Buffer.concat([
    text.subarray(0, text.length - `--${BOUNDARY}--\r\n`.length),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
  ]);
  const req = http.request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
  const outcome = new Promise<{ status: number | null; connection: string | null; error: string | null }>((resolve) => {
    req.on('error', (err) => resolve({ status: null, connection: null, error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null, connection: res.headers.connection ?? null, error: null }));
    });
  });
  req.write(prefix);
  req.write(pdfBytes(64 * 1024));
  let stopped = false;
  const pump = (async () => {
    const filler = Buffer.alloc(64 * 1024, 0x41);
    while (!stopped && !req.destroyed) {
      req.write(filler);
      await sleep(100);
    }
  })();
  return {
    outcome,
    async finish() {
      stopped = true;
      await pump;
      req.end(`\r\n--${BOUNDARY}--\r\n`);
    },
    stop() {
      stopped = true;
      req.destroy();
    },
  };
}

/** A request whose headers are half sent: its connection is busy, so the server keeps it open. */
async function halfSentRequest(port: number, requestPath: string) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  let answer = '';
  socket.on('data', (d) => (answer += d));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`GET ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  return {
    socket,
    async complete(): Promise<string> {
      socket.write('\r\n');
      await Promise.race([closed, sleep(5000)]);
      return answer;
    },
  };
}

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

for (const kind of databaseKinds()) {
  describe(`stopping the server [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let uploads: string;
    let server: ChildServer | null = null;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      uploads = path.join(t.dataDir, 'uploads');
      await makeJob(t.db, { public_id: 'slow-job' });
    });
    afterEach(async () => {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      server = null;
    });
    after(() => t.destroy());

    async function start(extra: Record<string, string>): Promise<number> {
      const port = await freePort();
      server = runServer({ ...env, PORT: String(port), ...extra });
      await waitForOutput(server, `listening on port ${port}`);
      return port;
    }

    it('SIGTERM: /readyz is 503 at once, an upload still running at SHUTDOWN_TIMEOUT_SECONDS=2 is cut, leaving no row and no file', async () => {
      const port = await start({ SHUTDOWN_TIMEOUT_SECONDS: '2' });
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).to.equal(200);
      const upload = slowUpload(`${base}/api/jobs/slow-job/apply/`, 'cut@example.com');
      await eventually(() => void expect(listFiles(uploads).length).to.equal(1), 20_000);
      const probe = await halfSentRequest(port, '/readyz');

      const signalled = Date.now();
      server!.child.kill('SIGTERM');
      await waitForOutput(server!, 'SIGTERM: closing');
      const answer = await probe.complete();
      expect(answer).to.match(/^HTTP\/1\.1 503 /);
      expect(answer).to.match(/\r\nconnection: close\r\n/i);
      expect(answer).to.match(/\r\n\r\nnot ready$/);
      expect(await connects(port), 'no new connections').to.equal(false);

      const { code } = await server!.exited;
      const took = Date.now() - signalled;
      upload.stop();
      expect(code, server!.output()).to.equal(0);
      expect(took).to.be.within(1800, 2000 + 2500);
      expect(server!.output()).to.include('SHUTDOWN_TIMEOUT_SECONDS (2 s) reached: closing the connections still open');
      const outcome = await upload.outcome;
      expect(outcome.status).to.equal(null);
      expect(listFiles(uploads)).to.deep.equal([]);
      expect(await t.db('applications').where({ email: 'cut@example.com' })).to.have.length(0);
      expect(await t.db('stored_files').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    });

    it('SIGTERM: an upload that ends before the deadline is answered and kept; the process exits as soon as it is done', async () => {
      const port = await start({ SHUTDOWN_TIMEOUT_SECONDS: '20' });
      const upload = slowUpload(`http://127.0.0.1:${port}/api/jobs/slow-job/apply/`, 'kept@example.com');
      await eventually(() => void expect(listFiles(uploads).length).to.equal(1), 20_000);
      server!.child.kill('SIGTERM');
      await waitForOutput(server!, 'SIGTERM: closing');
      await sleep(500);
      const finished = Date.now();
      await upload.finish();
      const outcome = await upload.outcome;
      expect(outcome.status, server!.output()).to.equal(201);
      const { code } = await server!.exited;
      expect(code).to.equal(0);
      expect(Date.now() - finished).to.be.below(5000);
      expect(await t.db('applications').where({ email: 'kept@example.com' })).to.have.length(1);
      expect(listFiles(uploads)).to.have.length(1);
      await t.db('applications').where({ email: 'kept@example.com' }).update({ email: 'kept-done@example.com' });
    });

    for (const [signal, exitCode] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      it(`a second ${signal} exits at once with code ${exitCode}`, async () => {
        const port = await start({ SHUTDOWN_TIMEOUT_SECONDS: '60' });
        const busy = await halfSentRequest(port, '/healthz');
        server!.child.kill(signal);
        await waitForOutput(server!, `${signal}: closing (waiting up to 60 s`);
        const again = Date.now();
        server!.child.kill(signal);
        const { code } = await server!.exited;
        expect(code).to.equal(exitCode);
        expect(Date.now() - again).to.be.below(1500);
        expect(server!.output()).to.include(`${signal} again: exiting now`);
        busy.socket.destroy();
      });
    }
  });

  describe(`stopping careers-admin cron [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let receiver: Receiver;
    let child: ChildProcess | null = null;
    let out = '';

    beforeEach(async () => {
      t = await createTestDb(kind);
      receiver = await startReceiver(() => ({ hang: true }));
      await seedPosts(t.db, await webhookJob(t.db, receiver.url), 2);
    });
    afterEach(async () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child = null;
      await receiver.close();
      await t.destroy();
    });

    function cron(extra: Record<string, string>) {
      out = '';
      child = spawn(process.execPath, [CLI_ENTRY, 'cron'], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          WEBHOOK_ALLOW_PRIVATE: 'true',
          POSTS_SWEEP_CRON: 'off',
          DATA_DIR: t.dataDir,
          ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
          ...extra,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
      return exited;
    }

    it('a send that hangs past SHUTDOWN_TIMEOUT_SECONDS=1 ends the process with code 1 after the deadline', async () => {
      const exited = cron({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
      await eventually(() => void expect(receiver.received.length).to.be.at.least(1), 30_000);
      const signalled = Date.now();
      child!.kill('SIGTERM');
      const code = await exited;
      expect(code, out).to.equal(1);
      expect(Date.now() - signalled).to.be.within(900, 4000);
      expect(out).to.include('SIGTERM: stopping (waiting up to 1 s for posts being sent');
      expect(out).to.include('SHUTDOWN_TIMEOUT_SECONDS (1 s) reached with posts still being sent');
    });

    it('a second SIGTERM exits at once with code 143', async () => {
      const exited = cron({ SHUTDOWN_TIMEOUT_SECONDS: '60' });
      await eventually(() => void expect(receiver.received.length).to.be.at.least(1), 30_000);
      child!.kill('SIGTERM');
      await eventually(() => void expect(out).to.include('SIGTERM: stopping'), 10_000);
      const again = Date.now();
      child!.kill('SIGTERM');
      expect(await exited).to.equal(143);
      expect(Date.now() - again).to.be.below(1500);
    });
  });
}

describe('SHUTDOWN_TIMEOUT_SECONDS and METRICS_TOKEN settings', function () {
  this.timeout(60_000);
  const problems = (env: Record<string, string>): string => {
    try {
      loadConfig({ NODE_ENV: 'test', ...env });
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
    return '';
  };

  it('defaults to 30 s and no metrics', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.shutdownTimeoutSeconds).to.equal(30);
    expect(config.metricsToken).to.equal(null);
    expect(loadConfig({ NODE_ENV: 'test', SHUTDOWN_TIMEOUT_SECONDS: ' 5 ' }).shutdownTimeoutSeconds).to.equal(5);
  });

  for (const bad of ['0', '-1', '1.5', '2s', 'thirty', '3601', '1e3', '99999999999999999999']) {
    it(`refuses SHUTDOWN_TIMEOUT_SECONDS="${bad}", naming it`, () => {
      expect(problems({ SHUTDOWN_TIMEOUT_SECONDS: bad })).to.include(
        `SHUTDOWN_TIMEOUT_SECONDS must be a whole number from 1 to 3600 (got "${bad}")`,
      );
    });
  }

  for (const [name, bad] of [
    ['too short', 'short-token'],
    ['a space inside', 'metrics token with spaces'],
    ['a quote', 'abcdefghijklmnop"q'],
    ['too long', 'x'.repeat(257)],
  ]) {
    it(`refuses a METRICS_TOKEN with ${name}, without echoing it`, () => {
      const message = problems({ METRICS_TOKEN: bad });
      expect(message).to.include('METRICS_TOKEN must be 16 to 256 characters');
      expect(message).not.to.include(bad);
    });
  }

  it('the server stops at start with exit code 1 and names SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const s = runServer({
      PORT: String(await freePort()),
      DATA_DIR: fs.mkdtempSync('/tmp/careers-shutdown-'),
      SHUTDOWN_TIMEOUT_SECONDS: '0',
    });
    expect((await s.exited).code).to.equal(1);
    // A JSON log line (issue 28): its message holds the text.
    expect(logMessages(s.output()).join('\n'))
      .to.include('Invalid configuration')
      .and.include('SHUTDOWN_TIMEOUT_SECONDS must be a whole number from 1 to 3600 (got "0")');
    expect(s.output()).not.to.match(/\n\s+at /);
  });
});

/**
 * Answers sent before the request body is read reach a client that is still sending (issue 9,
 * item 9): the apply route refuses before it reads the upload (job removed or inactive, rate
 * limited, not multipart), the HR API guard refuses before it parses JSON. The client here writes
 * its whole body before it reads, as most HTTP libraries do; with `Connection: close` the server
 * used to close with the body unread and the client got EPIPE instead of the answer.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { writeAllThenRead } from '../helpers/raw-http.js';
import { listFiles, rawMultipart, rawTextParts, tableCounts, uploadsRoot, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { DRAIN_LIMIT } from '../../src/http/unread-body.js';
import { MESSAGES } from '../../src/shared/application-rules.js';

const MB = 1024 * 1024;
const MULTIPART = { 'Content-Type': 'multipart/form-data; boundary=EarlyBoundary' };

for (const kind of databaseKinds()) {
  describe(`answers before the body is read reach the client [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      await makeJob(s.ctx.db, { public_id: 'gone', status: 'REMOVED' });
      await makeJob(s.ctx.db, { public_id: 'closed', status: 'INACTIVE' });
    });
    after(() => s.close());

    const apply = (publicId: string) => `/api/jobs/${publicId}/apply/`;

    for (const connectionClose of [true, false]) {
      for (const chunked of [false, true]) {
        const how = `${connectionClose ? 'Connection: close' : 'keep-alive'}, ${chunked ? 'chunked' : 'Content-Length'}`;

        it(`a removed job: 404 read after sending 8 MB slowly (${how})`, async () => {
          const r = await writeAllThenRead(s.baseUrl, apply('gone'), {
            headers: MULTIPART,
            bodyBytes: 8 * MB,
            chunkBytes: 256 * 1024,
            delayMs: 5,
            chunked,
            connectionClose,
          });
          expect(r.error).to.equal(null);
          expect(r.sent).to.equal(8 * MB);
          expect(r.status).to.equal(404);
          expect(JSON.parse(r.body)).to.deep.equal({ detail: 'This job post has been removed.' });
          if (connectionClose) expect(r.headers.connection).to.equal('close');
        });
      }
    }

    it('an inactive job: 400 with its detail (Connection: close)', async () => {
      const r = await writeAllThenRead(s.baseUrl, apply('closed'), { headers: MULTIPART, bodyBytes: 6 * MB, connectionClose: true });
      expect(r.error).to.equal(null);
      expect(r.status).to.equal(400);
      expect(JSON.parse(r.body)).to.deep.equal({ detail: 'This job post has stopped taking application.' });
    });

    it('not multipart: 415 (Connection: close)', async () => {
      const r = await writeAllThenRead(s.baseUrl, apply('closed'), {
        headers: { 'Content-Type': 'application/octet-stream' },
        bodyBytes: 6 * MB,
        connectionClose: true,
      });
      // The job is checked first: closed, so 400; an open job would be 415. Either way, answered.
      expect(r.error).to.equal(null);
      expect(r.status).to.equal(400);
      const job = await makeJob(s.ctx.db, { public_id: 'open-415' });
      const r2 = await writeAllThenRead(s.baseUrl, apply(job.public_id), {
        headers: { 'Content-Type': 'application/octet-stream' },
        bodyBytes: 6 * MB,
        connectionClose: true,
      });
      expect(r2.error).to.equal(null);
      expect(r2.status).to.equal(415);
      expect(JSON.parse(r2.body)).to.deep.equal({ detail: 'Send the application as multipart/form-data.' });
    });

    it('the HR API guard refuses a signed-out 5 MB JSON body: 401 read after sending it (Connection: close)', async () => {
      const r = await writeAllThenRead(s.baseUrl, '/api/hr/jobs/', {
        headers: { 'Content-Type': 'application/json' },
        head: Buffer.from('{"title":"'),
        bodyBytes: 5 * MB,
        connectionClose: true,
      });
      expect(r.error).to.equal(null);
      expect(r.status).to.equal(401);
      expect(JSON.parse(r.body)).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
    });

    it('rate limited: 429 with Retry-After read after sending the upload (Connection: close)', async () => {
      const limited = await startTestServer(kind, { APPLY_RATE_LIMIT: '1', APPLY_RATE_WINDOW_SECONDS: '600' });
      try {
        await makeJob(limited.ctx.db, { public_id: 'gone', status: 'REMOVED' });
        const first = await writeAllThenRead(limited.baseUrl, apply('gone'), {
          headers: MULTIPART,
          bodyBytes: 4 * MB,
          connectionClose: true,
        });
        expect(first.status).to.equal(404);
        const r = await writeAllThenRead(limited.baseUrl, apply('gone'), { headers: MULTIPART, bodyBytes: 4 * MB, connectionClose: true });
        expect(r.error).to.equal(null);
        expect(r.status).to.equal(429);
        expect(Number(r.headers['retry-after'])).to.be.within(1, 600);
        expect(JSON.parse(r.body).detail).to.match(/^Too many applications/);
      } finally {
        await limited.close();
      }
    });

    it('a refusal in the middle of the upload (the resume crosses 10 MB) is read too (Connection: close)', async () => {
      await makeJob(s.ctx.db, { public_id: 'open-big' });
      const boundary = 'EarlyBoundary';
      const text = rawMultipart(rawTextParts(validFields({ email: 'big@example.com' })), boundary).body;
      const head = Buffer.concat([
        text.subarray(0, text.length - `--${boundary}--\r\n`.length),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        pdfBytes(4096),
      ]);
      const r = await writeAllThenRead(s.baseUrl, apply('open-big'), {
        headers: MULTIPART,
        head,
        bodyBytes: 16 * MB,
        chunkBytes: 128 * 1024,
        delayMs: 5,
        connectionClose: true,
      });
      expect(r.error).to.equal(null);
      expect(r.status).to.equal(400);
      expect(JSON.parse(r.body)).to.deep.equal({ resume: [MESSAGES.resumeSize] });
    });

    it(`a client that goes on past ${DRAIN_LIMIT / MB} MB after an early answer is cut off`, async () => {
      const r = await writeAllThenRead(s.baseUrl, '/api/hr/jobs/', {
        headers: { 'Content-Type': 'application/json' },
        bodyBytes: 200 * MB,
        chunkBytes: MB,
        connectionClose: true,
      });
      expect(r.error).to.be.oneOf(['EPIPE', 'ECONNRESET']);
      expect(r.sent)
        .to.be.greaterThan(DRAIN_LIMIT - MB)
        .and.lessThan(120 * MB);
    });

    it('nothing was stored, and the server still answers', async () => {
      expect(listFiles(uploadsRoot(s.ctx))).to.deep.equal([]);
      expect((await tableCounts(s.ctx.db)).applications).to.equal(0);
      expect((await fetch(`${s.baseUrl}/api/jobs/`)).status).to.equal(200);
    });
  });
}

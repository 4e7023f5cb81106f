/**
 * The database goes away for 5 s under load (issue 18; "MariaDB restarts"), MySQL only: a real
 * server process talks to MariaDB through the test TCP proxy (test/helpers/tcp-proxy.ts), which is
 * stopped (every connection cut, new ones refused) and started again while 20 clients apply
 * without pause with 200 KB PDFs. The real MariaDB is never stopped: other suites and people use
 * it, and a cut proxy is what the server sees of a restart. Proves that during the cut every
 * application is answered 503 with Retry-After and `{detail}` (never a 500, never a hang, the
 * process stays up), that the same process takes applications again within seconds of the
 * database coming back, and that no 201 is lost (row, stored file, bytes equal to what was sent;
 * each application whole with its outbox row; the sweep leaves only files with rows). The
 * outage answers themselves, sort by sort, are test/db/db-outage.test.ts's subject.
 */
import path from 'node:path';
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { mysqlTarget, startTcpProxy, viaProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { UNAVAILABLE_MESSAGES } from '../../src/http/error-handler.js';
import { DB_RETRY_AFTER_SECONDS } from '../../src/db/errors.js';
import { APPLY_MESSAGES } from '../../src/applicants/apply.service.js';
import { startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
import { admin, expectFilesMatchRows, expectNothingLost, sleep, startApplyLoad, stopServer, summary, type Sent } from './helpers.js';

const CUT_MS = 5000;

for (const kind of databaseKinds().filter((k) => k === 'mysql')) {
  describe(`the database cut for 5 s under a load of applications [${kind}]`, function () {
    this.timeout(240_000);
    let t: TestDb;
    let proxy: TcpProxy;
    let receiver: Receiver;
    let server: ChildServer | null = null;

    before(async () => {
      t = await createTestDb(kind);
      proxy = await startTcpProxy(mysqlTarget(process.env.TEST_MYSQL_URL!));
      receiver = await startReceiver();
    });
    after(async () => {
      await stopServer(server, 'SIGKILL');
      await proxy?.close();
      await receiver?.close();
      await t?.destroy();
    });

    it('answers 503 with Retry-After while it is away, serves again once it is back, and loses no 201', async () => {
      const job = await webhookJob(t.db, receiver.url, 'cut-secret-0123456789', { public_id: 'cut-load' });
      const uploads = path.join(t.dataDir, 'uploads');
      const port = await freePort();
      server = runServer({
        DATA_DIR: t.dataDir,
        DATABASE_URL: viaProxy(t.config.databaseUrl!, proxy),
        PORT: String(port),
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      await waitForOutput(server, `listening on port ${port}`);

      const load = startApplyLoad({
        baseUrl: `http://127.0.0.1:${port}`,
        publicId: job.public_id,
        clients: 20,
        resumeBytes: 200_000,
        tag: 'cut',
      });
      let sent: Sent[];
      let cutAt = 0;
      let restoredAt = 0;
      try {
        await sleep(2000);
        await load.waitFor(201, 40);
        cutAt = Date.now();
        await proxy.stop();
        await sleep(CUT_MS);
        restoredAt = Date.now();
        await proxy.start();
        await load.waitFor(201, 40, restoredAt, 30_000);
      } finally {
        sent = await load.stop();
      }
      const figures = summary(sent);

      // Every answer is a 201 or a 503 with Retry-After and {detail}; the process never went away.
      expect(
        sent.filter((s) => s.status !== 201 && s.status !== 503).map((s) => `${s.status ?? s.error} ${s.body.slice(0, 200)}`),
        figures,
      ).to.deep.equal([]);
      const unavailable = sent.filter((s) => s.status === 503);
      for (const s of unavailable) {
        expect(s.retryAfter, s.email).to.equal(String(DB_RETRY_AFTER_SECONDS));
        // The usual outage answer, or (a COMMIT cut mid-way) "could not confirm that your application was saved".
        expect([UNAVAILABLE_MESSAGES.detail, APPLY_MESSAGES.unconfirmed], s.body).to.include(JSON.parse(s.body).detail);
      }
      expect(server.child.exitCode, server.output()).to.equal(null);

      // Requests made while the database was away: all 503 (none a 201), and there were many.
      const during = sent.filter((s) => s.startedAt >= cutAt + 500 && s.endedAt <= restoredAt);
      expect(during.length, figures).to.be.at.least(20);
      expect(during.filter((s) => s.status !== 503).length, figures).to.equal(0);

      // Service resumed: the first request made after the database came back and answered 201.
      const recovered = Math.min(...sent.filter((s) => s.status === 201 && s.startedAt >= restoredAt).map((s) => s.endedAt));
      expect(recovered - restoredAt, `time to recover; ${figures}`).to.be.below(15_000);

      await expectNothingLost(t.db, uploads, job.id, sent, { webhook: true });
      expect((await stopServer(server))?.code, server.output()).to.equal(0);
      server = null;
      const swept = await admin(['files', 'sweep', '--older-than-minutes', '0'], {
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl!,
      });
      expect(swept.code, swept.out).to.equal(0);
      await expectFilesMatchRows(t.db, uploads);
    });
  });
}

/**
 * kill -9 under load (issue 18): a real server process (as `npm start` runs it) takes a steady
 * stream of applications from 20 clients at once, each with a 200 KB PDF of its own, and is
 * killed with SIGKILL in the middle of it, then started again on the same data while the clients
 * go on. Proves that nothing the server answered 201 to is lost (row, stored file, bytes equal to
 * what was sent), no row points at a missing file, what the crash left is only files without a
 * row, which `careers-admin files sweep --older-than-minutes 0` removes (no file without a row, no
 * temporary file in DATA_DIR/uploads), and every committed application's post reaches the
 * job's webhook after the restart, once per webhook-id (a repeat only for a post the killed
 * process had in flight, with the same webhook-id and body). A post claimed by the killed process
 * is sent again when its 60 s lease ends: the test moves those leases' end to now rather than
 * waiting a minute (as test/posts/processes.test.ts does).
 */
import path from 'node:path';
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { freePort, runServer, waitForOutput, type ChildServer } from '../helpers/child-server.js';
import { eventually } from '../fixtures/apply.js';
import { toDbDate } from '../../src/db/codecs.js';
import { startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
import {
  admin,
  expectFilesMatchRows,
  expectNothingLost,
  expectPostsDelivered,
  sleep,
  startApplyLoad,
  stopServer,
  summary,
  type Sent,
} from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`kill -9 under a load of applications [${kind}]`, function () {
    this.timeout(240_000);
    let t: TestDb;
    let receiver: Receiver;
    let server: ChildServer | null = null;

    before(async () => {
      t = await createTestDb(kind);
      receiver = await startReceiver(() => ({ status: 200, delayMs: 20 }));
    });
    after(async () => {
      await stopServer(server, 'SIGKILL');
      await receiver?.close();
      await t?.destroy();
    });

    it('keeps every application it answered 201 to, with its file and its post; the sweep leaves only files with rows', async () => {
      const job = await webhookJob(t.db, receiver.url, 'load-secret-0123456789', { public_id: 'kill-load' });
      const uploads = path.join(t.dataDir, 'uploads');
      const port = await freePort();
      const env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      const serverEnv = { ...env, PORT: String(port), WEBHOOK_ALLOW_PRIVATE: 'true' };
      server = runServer(serverEnv);
      await waitForOutput(server, `listening on port ${port}`);

      const load = startApplyLoad({
        baseUrl: `http://127.0.0.1:${port}`,
        publicId: job.public_id,
        clients: 20,
        resumeBytes: 200_000,
        tag: `kill-${kind}`,
      });
      let sent: Sent[];
      let killedAt = 0;
      let restartedAt = 0;
      let inFlightPosts = 0;
      try {
        // Steady state first: a few seconds and plenty of applications taken.
        await sleep(3000);
        await load.waitFor(201, 40);
        killedAt = Date.now();
        expect(await stopServer(server, 'SIGKILL')).to.deep.equal({ code: null, signal: 'SIGKILL' });

        // While it is down: posts the dead process had claimed keep their lease; end it now.
        const now = toDbDate(new Date());
        inFlightPosts = await t
          .db('application_posts')
          .where('job_id', job.id)
          .whereNotNull('claim_token')
          .update({ locked_until: now, next_attempt_at: now });

        restartedAt = Date.now();
        server = runServer(serverEnv);
        await waitForOutput(server, `listening on port ${port}`);
        // Service is back: the clients (which never stopped) get 201s again.
        await load.waitFor(201, 40, restartedAt);
      } finally {
        sent = await load.stop();
      }
      const figures = summary(sent);
      const cut = sent.filter((s) => s.startedAt < killedAt && s.endedAt >= killedAt && s.status === null);
      expect(cut.length, `requests in flight when the server was killed; ${figures}`).to.be.at.least(1);
      const firstBack = Math.min(...sent.filter((s) => s.status === 201 && s.startedAt >= restartedAt).map((s) => s.endedAt));
      expect(firstBack - restartedAt, `time from the restart to the first 201; ${figures}`).to.be.below(30_000);
      // Every answer was a 201, or no answer at all (the server was gone).
      expect(
        sent.filter((s) => s.status !== 201 && s.status !== null).map((s) => `${s.status} ${s.body}`),
        figures,
      ).to.deep.equal([]);

      await expectNothingLost(t.db, uploads, job.id, sent, { webhook: true });

      // Every committed application's post is delivered after the restart.
      await eventually(async () => {
        const [{ n }] = await t.db('application_posts').where('job_id', job.id).whereNot('status', 'SUCCESS').count({ n: '*' });
        expect(Number(n)).to.equal(0);
      }, 60_000);
      const repeats = await expectPostsDelivered(t.db, receiver, job.id);
      expect(repeats, 'repeats beyond the posts the killed process had in flight').to.be.at.most(inFlightPosts);

      expect((await stopServer(server))?.code, server.output()).to.equal(0);
      server = null;

      // What the crash left: files without a row only; the sweep removes them all.
      const swept = await admin(['files', 'sweep', '--older-than-minutes', '0'], env);
      expect(swept.code, swept.out).to.equal(0);
      await expectFilesMatchRows(t.db, uploads);
      await expectNothingLost(t.db, uploads, job.id, sent, { webhook: true });
    });
  });
}

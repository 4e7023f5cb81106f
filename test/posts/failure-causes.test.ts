/**
 * Failed deliveries name their cause, on SQLite and MySQL (issue 16 item 13): connection refused,
 * reset, host not found, timed out, a refused private address, in the stored error and the log
 * line; a receiver that keeps failing is summarised per origin once a minute. And (item 11): an
 * erase during a send skips that post's attempt without losing the others saved with it.
 */
import net from 'node:net';
import { expect } from 'chai';
import { DEFAULT_RETRY_SCHEDULE } from '../../config/index.js';
import { PostsWorker } from '../../src/posts/lib/engine.js';
import { createHttpSender, type HttpSender, type LookupAll } from '../../src/posts/lib/http-sender.js';
import { applicationPostKind } from '../../src/posts/lib/kinds.js';
import { removeApplications } from '../../src/applicants/index.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { seedPosts, startReceiver, webhookJob, type Receiver } from './helpers.js';
import { processLog } from '../../src/log/logger.js';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const kind of databaseKinds()) {
  describe(`posts failure causes and removed posts [${kind}]`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let clock: Date;
    let logs: string[];
    const senders: HttpSender[] = [];

    function worker(opts: { allowPrivate?: boolean; lookup?: LookupAll; totalTimeoutMs?: number } = {}) {
      const sender = createHttpSender({
        allowPrivate: opts.allowPrivate ?? true,
        lookup: opts.lookup,
        totalTimeoutMs: opts.totalTimeoutMs,
      });
      senders.push(sender);
      return new PostsWorker({
        db: t.db,
        now: () => clock,
        kinds: [applicationPostKind(t.db, sender, () => clock)],
        schedule: DEFAULT_RETRY_SCHEDULE,
        random: () => 0.5,
        log: (l) => logs.push(l),
      });
    }
    const errorOf = async (id: number) => (await t.db('application_posts').where('id', id).first()).error_message;

    before(async () => {
      t = await createTestDb(kind);
    });
    after(async () => {
      await Promise.all(senders.splice(0).map((s) => s.close()));
      await t.destroy();
    });
    beforeEach(() => {
      clock = new Date();
      logs = [];
    });

    it('names a refused connection, a reset, an unknown host, a time-out and a refused address, stored and logged', async () => {
      const refusedPort = await closedPort();
      const resetter = net.createServer((socket) => socket.once('data', () => socket.destroy()));
      await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
      const silentServer = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
      try {
        const cases: [string, () => PostsWorker, string][] = [
          [`http://127.0.0.1:${refusedPort}/hook`, () => worker(), 'Connection refused'],
          [`http://127.0.0.1:${(resetter.address() as net.AddressInfo).port}/hook`, () => worker(), 'Connection reset'],
          [
            'http://no-such-host.example/hook',
            () => worker({ lookup: (_h, _o, cb) => cb(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []) }),
            'Host not found',
          ],
          [`http://127.0.0.1:${(silentServer.address() as net.AddressInfo).port}/hook`, () => worker({ totalTimeoutMs: 500 }), 'Timed out'],
          ['http://127.0.0.1:9/hook', () => worker({ allowPrivate: false }), 'Refused: 127.0.0.1 is not a public address'],
        ];
        for (const [url, make, cause] of cases) {
          logs = [];
          const job = await webhookJob(t.db, url);
          const [id] = await seedPosts(t.db, job, 1, clock);
          await make().runDue();
          expect(await errorOf(id), url).to.equal(cause);
          expect(
            logs.filter((l) => l.includes(`application post ${id}: attempt 1 failed (${cause}); next at `)),
            logs.join('\n'),
          ).to.have.length(1);
          expect(logs.join('\n')).to.not.include('no answer');
        }
      } finally {
        resetter.close();
        silentServer.close();
      }
    });

    it('summarises a receiver that keeps failing once a minute, by cause, beside the line per attempt', async () => {
      const port = await closedPort();
      const job = await webhookJob(t.db, `http://127.0.0.1:${port}/hook`);
      const w = worker();
      await seedPosts(t.db, job, 3, clock, 'sa');
      await w.runDue();
      expect(logs.filter((l) => l.includes('failed attempts in the last'))).to.have.length(0);
      expect(logs.filter((l) => l.includes('attempt 1 failed (Connection refused)'))).to.have.length(3);
      clock = new Date(clock.getTime() + 61_000);
      await seedPosts(t.db, job, 2, clock, 'sb');
      await w.runDue();
      const summaries = logs.filter((l) => l.includes('failed attempts in the last'));
      expect(summaries).to.deep.equal([`[posts] http://127.0.0.1:${port}: 4 failed attempts in the last 1 min (4 Connection refused)`]);
    });

    it('skips the attempt of a post erased during its send and saves the others of the batch', async () => {
      const receiver: Receiver = await startReceiver(() => ({ status: 200, delayMs: 400 }));
      try {
        const job = await webhookJob(t.db, receiver.url);
        const ids = await seedPosts(t.db, job, 4, clock, 'er');
        const erased = await t
          .db('application_posts as p')
          .join('applications as a', 'a.id', 'p.application_id')
          .where('p.id', ids[0])
          .first('a.email');
        const run = worker().runDue();
        for (let i = 0; i < 100 && receiver.received.length < ids.length; i++) await new Promise((r) => setTimeout(r, 20));
        expect(receiver.received).to.have.length(ids.length);
        // The applicant is erased while the four posts are in flight.
        const storage = new LocalDiskStorage(`${t.dataDir}/uploads`);
        const removed = await removeApplications(
          { db: t.db, storage, now: () => clock, log: processLog() },
          { email: erased.email },
          { action: 'erase' },
        );
        expect(removed.applications).to.equal(1);
        await run;
        expect(await t.db('application_posts').where('id', ids[0]).first()).to.equal(undefined);
        const rest = await t.db('application_posts').whereIn('id', ids.slice(1)).orderBy('id');
        expect(rest.map((r) => [r.status, Number(r.attempts)])).to.deep.equal([
          ['SUCCESS', 1],
          ['SUCCESS', 1],
          ['SUCCESS', 1],
        ]);
        expect(await t.db('post_attempts').whereIn('application_post_id', ids.slice(1))).to.have.length(3);
        expect(
          logs.some((l) => /1 application post attempt\(s\) not saved: their posts were removed meanwhile/.test(l)),
          logs.join('\n'),
        ).to.equal(true);
      } finally {
        await receiver.close();
      }
    });
  });
}

/**
 * The delivery engine against a real HTTP receiver on 127.0.0.1, on SQLite and MySQL: payload and
 * Standard Webhooks signature as a receiver checks them, attempts, failures, timeouts, redirects,
 * 410, 429 with Retry-After, the retry schedule on a fake clock, the job's current webhook.
 */
import { expect } from 'chai';
import { DEFAULT_RETRY_SCHEDULE, loadConfig } from '../../config/index.js';
import { PostsWorker } from '../../src/posts/lib/engine.js';
import { createHttpSender, type HttpSender } from '../../src/posts/lib/http-sender.js';
import { applicationPostKind, WEBHOOK_OFF } from '../../src/posts/lib/kinds.js';
import { fromDbDate, toDbDate } from '../../src/db/codecs.js';
import { createDelivery } from '../../src/posts/index.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { seedPosts, silent, startReceiver, verifyStandardWebhook, webhookJob, type Receiver } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`posts delivery (${kind})`, () => {
    let t: TestDb;
    let receiver: Receiver;
    let clock: Date;
    const senders: HttpSender[] = [];
    const now = () => clock;

    function worker(opts: { schedule?: number[]; totalTimeoutMs?: number } = {}) {
      const sender = createHttpSender({ allowPrivate: true, totalTimeoutMs: opts.totalTimeoutMs });
      senders.push(sender);
      return new PostsWorker({
        db: t.db,
        now,
        kinds: [applicationPostKind(t.db, sender, now)],
        schedule: opts.schedule ?? DEFAULT_RETRY_SCHEDULE,
        random: () => 0.5,
        log: silent,
      });
    }
    const post = async (id: number) => t.db('application_posts').where('id', id).first();
    const attempts = async (id: number) => t.db('post_attempts').where('application_post_id', id).orderBy('id');

    before(async () => {
      t = await createTestDb(kind);
    });
    after(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      clock = new Date();
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await Promise.all(senders.splice(0).map((s) => s.close()));
      await receiver.close();
    });

    it('posts the stored payload, signed as Standard Webhooks says, and records the attempt', async () => {
      const job = await webhookJob(t.db, receiver.url, 's3cret');
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      expect(receiver.received).to.have.length(1);
      const got = receiver.received[0];
      expect(got.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(got.body)).to.deep.equal({
        job_public_id: job.public_id,
        email: `p0-${job.id}@example.com`,
        first_name: 'First0',
        second_name: 'Last0',
        phone: '+919000000000',
        secret_key: 's3cret',
      });
      expect(verifyStandardWebhook('s3cret', got.headers, got.body)).to.equal(true);
      expect(verifyStandardWebhook('other', got.headers, got.body)).to.equal(false);
      const row = await post(id);
      expect(got.headers['webhook-id']).to.equal(row.message_id).and.match(/^msg_/);
      expect(row).to.include({ status: 'SUCCESS', status_code: 200, attempts: 1, next_attempt_at: null, locked_until: null });
      const [a] = await attempts(id);
      expect(a).to.include({ status: 'SUCCESS', status_code: 200 });
      expect(a.duration_ms).to.be.a('number');
    });

    it('signs with the decoded bytes of a whsec_ secret, and sends no signature without a secret', async () => {
      const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
      const signed = await webhookJob(t.db, receiver.url, secret);
      const plain = await webhookJob(t.db, receiver.url, null);
      await seedPosts(t.db, signed, 1, clock, 's');
      await seedPosts(t.db, plain, 1, clock, 'n');
      await worker().runDue();
      const bySecret = receiver.received.find((r) => JSON.parse(r.body).secret_key === secret)!;
      expect(verifyStandardWebhook(secret, bySecret.headers, bySecret.body)).to.equal(true);
      const unsigned = receiver.received.find((r) => JSON.parse(r.body).secret_key === '')!;
      expect(unsigned.headers['webhook-signature']).to.equal(undefined);
      expect(unsigned.headers['webhook-id']).to.match(/^msg_/);
    });

    it('a failure is FAILED at once with its next attempt 5 s later; the retry carries the same webhook-id', async () => {
      let fail = true;
      receiver.answer = () => (fail ? { status: 500, body: 'database down\n  try later' } : { status: 204 });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      const w = worker();
      await w.runDue();
      let row = await post(id);
      expect(row).to.include({ status: 'FAILED', status_code: 500, attempts: 1, error_message: 'database down try later' });
      expect(fromDbDate(row.next_attempt_at)!.getTime() - clock.getTime()).to.equal(5000);
      // Not due yet: nothing is sent.
      await w.runDue();
      expect(receiver.received).to.have.length(1);
      fail = false;
      clock = new Date(clock.getTime() + 5000);
      await w.runDue();
      row = await post(id);
      expect(row).to.include({ status: 'SUCCESS', status_code: 204, attempts: 2, error_message: null, next_attempt_at: null });
      expect(receiver.received[1].headers['webhook-id']).to.equal(receiver.received[0].headers['webhook-id']);
      expect((await attempts(id)).map((a: any) => a.status)).to.deep.equal(['FAILED', 'SUCCESS']);
    });

    it('follows the retry schedule on a fake clock, then stays FAILED with no next attempt', async () => {
      receiver.answer = () => ({ status: 502 });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      const w = worker({ schedule: [5, 300, 1800] });
      const gaps: number[] = [];
      for (let i = 0; i < 4; i++) {
        await w.runDue();
        const row = await post(id);
        expect(row.attempts).to.equal(i + 1);
        const next = fromDbDate(row.next_attempt_at);
        if (!next) break;
        gaps.push(next.getTime() - clock.getTime());
        clock = next;
      }
      expect(gaps).to.deep.equal([5000, 300_000, 1_800_000]);
      expect(await post(id)).to.include({ status: 'FAILED', attempts: 4, next_attempt_at: null });
      expect(receiver.received).to.have.length(4);
    });

    it('does not follow a redirect: it is a failure, and the other URL gets nothing', async () => {
      receiver.answer = (r) => (r.path === '/hook' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      expect(receiver.received.map((r) => r.path)).to.deep.equal(['/hook']);
      const row = await post(id);
      expect(row).to.include({ status: 'FAILED', status_code: 302 });
      expect(row.error_message).to.match(/^Redirect not followed/);
      expect(row.next_attempt_at).to.not.equal(null);
    });

    it('410 Gone stops the retries', async () => {
      receiver.answer = () => ({ status: 410, body: 'gone' });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      expect(await post(id)).to.include({ status: 'FAILED', status_code: 410, attempts: 1, next_attempt_at: null });
    });

    it('honours Retry-After on 429 and 503 (seconds and HTTP date)', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const [a, b] = await seedPosts(t.db, job, 2, clock);
      const date = new Date(clock.getTime() + 3_600_000).toUTCString();
      receiver.answer = (r) =>
        JSON.parse(r.body).first_name === 'First0'
          ? { status: 429, headers: { 'retry-after': '120' } }
          : { status: 503, headers: { 'retry-after': date } };
      await worker().runDue();
      const gap = async (id: number) => fromDbDate((await post(id)).next_attempt_at)!.getTime() - clock.getTime();
      expect(await gap(a)).to.equal(120_000);
      expect(Math.abs((await gap(b)) - 3_600_000)).to.be.below(1000);
    });

    it('falls back to the schedule for a bad, zero or past Retry-After; never waits less than the schedule', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const bad = ['-5', '0', '5.5', '10, 20', '1e3', new Date(clock.getTime() - 60_000).toUTCString(), '2026-01-01T00:00:00Z'];
      const ids = await seedPosts(t.db, job, bad.length + 1, clock);
      const valueFor = (first: string) => (Number(first.slice(5)) < bad.length ? bad[Number(first.slice(5))] : '7200');
      receiver.answer = (r) => ({ status: 503, headers: { 'retry-after': valueFor(JSON.parse(r.body).first_name) } });
      await worker().runDue();
      expect(receiver.received).to.have.length(ids.length);
      const gaps = await Promise.all(ids.map(async (id) => fromDbDate((await post(id)).next_attempt_at)!.getTime() - clock.getTime()));
      // The schedule's first step is 5 s (random 0.5: no jitter); a valid 7200 s asks for longer.
      expect(gaps).to.deep.equal([...bad.map(() => 5000), 7_200_000]);
    });

    it("sends the job's current secret in secret_key and the signature: a retry after a rotation is consistent", async () => {
      let fail = true;
      receiver.answer = () => (fail ? { status: 500 } : { status: 200 });
      const job = await webhookJob(t.db, receiver.url, 'first-secret-0123456789');
      const [id] = await seedPosts(t.db, job, 1, clock);
      expect(String((await post(id)).payload)).to.not.include('secret');
      const w = worker();
      await w.runDue();
      expect(JSON.parse(receiver.received[0].body).secret_key).to.equal('first-secret-0123456789');
      await t.db('jobs').where({ id: job.id }).update({ webhook_secret: 'rotated-secret-0123456789' });
      fail = false;
      clock = new Date(clock.getTime() + 5000);
      await w.runDue();
      const retry = receiver.received[1];
      const body = JSON.parse(retry.body);
      expect(Object.keys(body)).to.deep.equal(['job_public_id', 'email', 'first_name', 'second_name', 'phone', 'secret_key']);
      expect(body.secret_key).to.equal('rotated-secret-0123456789');
      expect(verifyStandardWebhook('rotated-secret-0123456789', retry.headers, retry.body)).to.equal(true);
      expect((await post(id)).status).to.equal('SUCCESS');
      expect(String((await post(id)).payload)).to.not.include('secret');
    });

    it('a receiver that does not answer in time is a failure (total time limit), and the attempt says so', async () => {
      receiver.answer = () => ({ hang: true });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      const started = Date.now();
      await worker({ totalTimeoutMs: 400 }).runDue();
      expect(Date.now() - started).to.be.below(3000);
      const row = await post(id);
      expect(row).to.include({ status: 'FAILED', status_code: null, error_message: 'Timed out' });
      expect((await attempts(id))[0].duration_ms).to.be.at.least(350);
    });

    it('reads at most 4 KB of the answer and keeps only its start', async () => {
      receiver.answer = () => ({ status: 500, body: 'x'.repeat(200_000) });
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      const row = await post(id);
      expect(row.error_message.length).to.be.at.most(500);
      expect((await attempts(id))[0].error.length).to.be.at.most(500);
    });

    it("goes to the job's current URL, and not at all once HR turned the webhook off", async () => {
      receiver.answer = () => ({ status: 500 });
      const other = await startReceiver();
      try {
        const job = await webhookJob(t.db, receiver.url);
        const [id] = await seedPosts(t.db, job, 1, clock);
        const w = worker();
        await w.runDue();
        await t.db('jobs').where('id', job.id).update({ webhook_url: other.url });
        clock = new Date(clock.getTime() + 10_000);
        await w.runDue();
        expect(other.received).to.have.length(1);
        expect(await post(id)).to.include({ status: 'SUCCESS', attempts: 2 });

        const [id2] = await seedPosts(t.db, job, 1, clock, 'off');
        await t.db('jobs').where('id', job.id).update({ webhook_enabled: false });
        await w.runDue();
        expect(other.received).to.have.length(1);
        expect(await post(id2)).to.include({ status: 'FAILED', error_message: WEBHOOK_OFF, attempts: 0, next_attempt_at: null });
        expect(await attempts(id2)).to.have.length(0);
      } finally {
        await other.close();
      }
    });

    it('attempts past POSTS_ATTEMPT_RETENTION_DAYS are removed by the sweep; younger ones stay', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      await t.db('post_attempts').insert({
        application_post_id: id,
        status: 'FAILED',
        status_code: 500,
        error: null,
        duration_ms: 1,
        created_at: toDbDate(new Date(clock.getTime() - 91 * 86_400_000)),
      });
      const config = loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: t.dataDir,
        POSTS_ATTEMPT_RETENTION_DAYS: '90',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      });
      const delivery = createDelivery({ db: t.db, config, now, log: silent });
      try {
        expect(await delivery.purge()).to.equal(1);
      } finally {
        await delivery.close();
      }
      expect((await attempts(id)).map((a: any) => a.status)).to.deep.equal(['SUCCESS']);
    });

    it('attempts go when their post goes', async () => {
      const job = await webhookJob(t.db, receiver.url);
      const [id] = await seedPosts(t.db, job, 1, clock);
      await worker().runDue();
      expect(await attempts(id)).to.have.length(1);
      await t.db('application_posts').where('id', id).delete();
      expect(await attempts(id)).to.have.length(0);
    });
  });
}

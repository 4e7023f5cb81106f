/** careers-admin posts list | retry as an admin runs them: child processes on a real database. */
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { seedPosts, startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
// Asynchronous runs: the receiver in this process must answer while the CLI runs.
import { runCli as cli } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`careers-admin posts [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let receiver: Receiver;
    let failedIds: number[];
    let jobPublicId: string;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      receiver = await startReceiver(() => ({ status: 200 }));
      const job = await webhookJob(t.db, receiver.url);
      jobPublicId = job.public_id;
      failedIds = await seedPosts(t.db, job, 3, new Date('2026-01-10T00:00:00Z'));
      await t
        .db('application_posts')
        .whereIn('id', failedIds)
        .update({ status: 'FAILED', status_code: 500, attempts: 8, next_attempt_at: null });
      await t.db('application_posts').where('id', failedIds[0]).update({ created_at: '2025-12-01 00:00:00.000' });
    });
    after(async () => {
      await receiver.close();
      await t.destroy();
    });

    it('lists posts, filtered by status and job; refuses a bad status', async () => {
      const all = await cli(['posts', 'list', '--status', 'failed'], env);
      expect(all.code, all.err).to.equal(0);
      const lines = all.out.trim().split('\n');
      // Aligned columns, as in user list: each column starts where its header does.
      expect(lines[0]).to.match(/^ID +STATUS +CODE +ATTEMPTS +JOB +CREATED \(UTC\) +NEXT ATTEMPT \(UTC\) +ERROR$/);
      expect(lines).to.have.length(4);
      expect(lines[1]).to.match(/^\d+ +FAILED +500 +8 +/);
      for (const line of lines.slice(1)) expect(line.indexOf('FAILED')).to.equal(lines[0].indexOf('STATUS'));
      expect((await cli(['posts', 'list', '--status', 'SUCCESS'], env)).out).to.equal('No posts.\n');
      const bad = await cli(['posts', 'list', '--status', 'LOST'], env);
      expect(bad.code).to.equal(2);
      expect(bad.err).to.include('--status must be SUCCESS, FAILED or PENDING');
      // --job: the numeric id or the public id HR sees; one naming no job stops.
      const byPublicId = await cli(['posts', 'list', '--job', jobPublicId], env);
      expect(byPublicId.code, byPublicId.err).to.equal(0);
      expect(byPublicId.out.trim().split('\n')).to.have.length(4);
      const none = await cli(['posts', 'list', '--job', '99999'], env);
      expect(none.code).to.equal(1);
      expect(none.err).to.include('--job: no job 99999.');
      expect((await cli(['posts', 'list', '--job', 'no-such-job'], env)).err).to.include('--job: no job with the public id "no-such-job".');
    });

    it("shows a receiver's stored answer with its control, escape and bidi characters escaped, never raw", async () => {
      const hostile = 'red\x1b[31m title\x1b]0;pwned\x07 cr\r bidi\u202e del\x7f c1\u009b';
      await t.db('application_posts').where('id', failedIds[1]).update({ error_message: hostile });
      const r = await cli(['posts', 'list', '--status', 'FAILED'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.not.match(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
      expect(r.out).to.include('red\\x1b[31m title\\x1b]0;pwned\\x07 cr\\x0d bidi\\u202e del\\x7f c1\\x9b');
      // An error message quoting input goes through the same escaping.
      const bad = await cli(['applicants', 'purge', '--older-than', '\x1b[2J', '--dry-run'], env);
      expect(bad.code).to.equal(2);
      expect(bad.err).to.not.include('\x1b');
      expect(bad.err).to.include('\\x1b[2J');
      // commander's own messages echo the option as typed: escaped too.
      const unknown = await cli(['posts', 'list', '--\x1b[31mx'], env);
      expect(unknown.code).to.equal(2);
      expect(unknown.err).to.not.include('\x1b');
      expect(unknown.err).to.include('\\x1b[31mx');
    });

    it('retry: needs --id or --all-failed; --dry-run changes nothing; --since picks newer posts; delivers them', async () => {
      const usage = await cli(['posts', 'retry'], env);
      expect(usage.code).to.equal(2);
      expect(usage.err).to.include('Give either --id N or --all-failed.');
      const dry = await cli(['posts', 'retry', '--all-failed', '--since', '2026-01-01', '--dry-run'], env);
      expect(dry.code, dry.err).to.equal(0);
      expect(dry.out).to.equal(`Would retry 2 posts: ${failedIds.slice(1).join(', ')}\n`);
      expect(receiver.received).to.have.length(0);
      const run = await cli(['posts', 'retry', '--all-failed', '--since', '2026-01-01'], env);
      expect(run.code, run.err).to.equal(0);
      expect(run.out).to.include('Retried 2 posts: 2 delivered, 0 failed.');
      expect(receiver.received).to.have.length(2);
      const one = await cli(['posts', 'retry', '--id', String(failedIds[0])], env);
      expect(one.out).to.include('Retried 1 post: 1 delivered, 0 failed.');
      const none = await cli(['posts', 'retry', '--id', String(failedIds[0])], env);
      expect(none.out).to.include(`Post ${failedIds[0]} is not a failed post whose job has its webhook on: nothing to retry.`);
      const badDate = await cli(['posts', 'retry', '--all-failed', '--since', 'yesterday'], env);
      expect(badDate.code).to.equal(2);
    });
  });
}

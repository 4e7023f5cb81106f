/** Migration 007: stored webhook payloads lose their secret_key; the sender adds the current one. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { fromDbJson } from '../../src/db/codecs.js';
import { seedPosts, webhookJob } from '../posts/helpers.js';

for (const kind of databaseKinds()) {
  describe(`migration 007: payloads without the secret [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('removes secret_key from payloads stored before it and keeps the other keys', async () => {
      const job = await webhookJob(t.db, 'https://hooks.example.com/in', 'old-secret-0123456789');
      const [id, other] = await seedPosts(t.db, job, 2);
      while ((await migrationStatus(t.db)).applied.includes('007_outbox_payload_without_secret')) await t.db.migrate.down();
      const old = {
        job_public_id: job.public_id,
        email: 'a@example.com',
        first_name: 'A',
        second_name: 'B',
        phone: '+15550100',
        secret_key: 'old-secret-0123456789',
      };
      await t
        .db('application_posts')
        .where('id', id)
        .update({ payload: JSON.stringify(old) });
      await t.db('application_posts').where('id', other).update({ payload: 'not json with "secret_key"' });
      await t.db.migrate.latest();
      const { secret_key: _gone, ...rest } = old;
      expect(fromDbJson((await t.db('application_posts').where('id', id).first()).payload, {})).to.deep.equal(rest);
      expect((await t.db('application_posts').where('id', other).first()).payload).to.equal('not json with "secret_key"');
      const raw = (await t.db('application_posts').select('payload')).map((r) => String(r.payload)).join('\n');
      expect(raw).to.not.include('old-secret-0123456789');
    });
  });
}

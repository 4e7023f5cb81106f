/** Migration 006: webhook ids for posts written before it, the email outbox and the attempts table; down and up again. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { seedPosts, webhookJob } from '../posts/helpers.js';

for (const kind of databaseKinds()) {
  describe(`migration 006: post delivery [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('gives posts written before it a stable webhook id, and rolls back and applies again', async () => {
      const job = await webhookJob(t.db, 'https://hooks.example.com/in');
      const [id] = await seedPosts(t.db, job, 1);
      while ((await migrationStatus(t.db)).applied.includes('006_post_delivery')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('post_attempts')).to.equal(false);
      expect(await t.db.schema.hasTable('email_posts')).to.equal(false);
      expect(await t.db.schema.hasColumn('application_posts', 'message_id')).to.equal(false);
      await t.db.migrate.latest();
      expect((await t.db('application_posts').where('id', id).first()).message_id).to.equal(`msg_app_${id}`);
      expect(await t.db.schema.hasColumn('form_posts', 'claim_token')).to.equal(true);
      expect(await t.db.schema.hasTable('post_attempts')).to.equal(true);
    });
  });
}

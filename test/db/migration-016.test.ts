/**
 * Migration 016 (email templates): the three default templates (and 034's, 043's and 047's two each), and on `email_posts` who sent an
 * email and from which template; rolling back keeps every email and its delivery attempts (on
 * SQLite the columns are dropped in place, never by rebuilding the table), and it applies again.
 */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';

for (const kind of databaseKinds()) {
  describe(`migration 016: email templates [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('writes the defaults and the sender columns, and rolls back keeping emails and their attempts', async () => {
      const job = await makeJob(t.db);
      await insertApplications(
        t.db,
        job.id,
        [{ first_name: 'Old', last_name: 'Mail', email: 'old.mail@example.com', phone: '+919999999999', status: 'NEW' }],
        [],
      );
      const app = await t.db('applications').first('id');
      const now = '2026-01-01 00:00:00.000';
      const [postId] = await t.db('email_posts').insert({
        application_id: app.id,
        template: 'applicant_confirmation',
        payload: '{"to":"old.mail@example.com","subject":"s","text":"t","html":"h"}',
        status: 'SUCCESS',
        attempts: 1,
        created_at: now,
        updated_at: now,
        delivered_at: now,
      });
      await t.db('post_attempts').insert({ email_post_id: postId, status: 'SUCCESS', status_code: 250, duration_ms: 5, created_at: now });

      expect((await t.db('email_templates').orderBy('id').select('name', 'purpose')).map((r: any) => [r.name, r.purpose])).to.deep.equal([
        ['Application received', 'receipt'],
        ['Rejection', 'rejection'],
        ['Interview invitation', 'interview'],
        // Migration 034's (issue 32).
        ['Interview reminder', 'reminder_candidate'],
        ['Interview reminder for interviewers', 'reminder_interviewer'],
        // Migration 043's (issue 35).
        ['Job alert confirmation', 'alert_confirm'],
        ['Job alert digest', 'alert_digest'],
        // Migration 047's (issue 35).
        ['Talent pool invitation', 'pool_invite'],
        ['Talent pool consent request', 'pool_consent'],
      ]);
      for (const column of ['sent_by', 'template_id', 'template_name'])
        expect(await t.db.schema.hasColumn('email_posts', column), column).to.equal(true);

      while ((await migrationStatus(t.db)).applied.includes('016_email_templates')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('email_templates')).to.equal(false);
      expect(await t.db.schema.hasColumn('email_posts', 'sent_by')).to.equal(false);
      expect(await t.db('email_posts').where({ id: postId }).first()).to.include({ status: 'SUCCESS' });
      expect(await t.db('post_attempts').where({ email_post_id: postId })).to.have.length(1);

      await t.db.migrate.latest();
      expect(Number((await t.db('email_templates').count({ n: '*' }))[0].n)).to.equal(9);
      expect(await t.db('post_attempts').where({ email_post_id: postId })).to.have.length(1);
    });
  });
}

/**
 * Migration 034: the interview reminder templates (issue 32). Up from the migration before it on a
 * database where HR already named a template "Interview reminder": both reminders are written,
 * sent at 24 h and 1 h, that name kept for HR's and the reminder's numbered; the other templates
 * have no reminder times (nor do 043's and 047's, whose invitation is numbered the same way past HR's
 * "talent pool INVITATION"). Down removes the two templates and the columns and keeps HR's; up again.
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

for (const kind of databaseKinds()) {
  describe(`migration 034: reminder templates [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    const down = async () => {
      while ((await migrationStatus(t.db)).applied.includes('034_reminder_templates')) await t.db.migrate.down();
    };
    const templates = async () =>
      (await t.db('email_templates').orderBy('id').select()).map((r) => [
        r.name,
        r.purpose,
        r.remind_24h === null ? null : Boolean(Number(r.remind_24h)),
        r.remind_1h === null ? null : Boolean(Number(r.remind_1h)),
      ]);

    it('writes the two reminder templates into an existing database, and down removes them and their columns', async () => {
      await down();
      expect(await t.db.schema.hasColumn('email_templates', 'remind_24h')).to.equal(false);
      const now = toDbDate(new Date());
      await t
        .db('email_templates')
        .insert({ name: 'interview REMINDER', subject: 's', body: 'b', purpose: null, created_at: now, updated_at: now });
      // And one named as migration 047's invitation (issue 35).
      await t
        .db('email_templates')
        .insert({ name: 'talent pool INVITATION', subject: 's', body: 'b', purpose: null, created_at: now, updated_at: now });
      await t.db.migrate.latest();
      expect(await templates()).to.deep.equal([
        ['Application received', 'receipt', null, null],
        ['Rejection', 'rejection', null, null],
        ['Interview invitation', 'interview', null, null],
        ['interview REMINDER', null, null, null],
        ['talent pool INVITATION', null, null, null],
        ['Interview reminder 2', 'reminder_candidate', true, true],
        ['Interview reminder for interviewers', 'reminder_interviewer', true, true],
        // Migration 043's (issue 35).
        ['Job alert confirmation', 'alert_confirm', null, null],
        ['Job alert digest', 'alert_digest', null, null],
        // Migration 047's (issue 35).
        ['Talent pool invitation 2', 'pool_invite', null, null],
        ['Talent pool consent request', 'pool_consent', null, null],
      ]);
      const candidate = await t.db('email_templates').where({ purpose: 'reminder_candidate' }).first();
      expect(candidate.subject).to.equal('Reminder: your interview for {job_title} at {company_name} starts in {hours_before}');
      expect(candidate.body).to.include('When: {interview_time}\nWhere: {interview_place}\nWith: {interviewers}');
      const interviewer = await t.db('email_templates').where({ purpose: 'reminder_interviewer' }).first();
      expect(interviewer.body).to.include('Your interview kit and scorecard: {scorecard_link}');

      await down();
      expect((await t.db('email_templates').orderBy('id').select('name')).map((r) => r.name)).to.deep.equal([
        'Application received',
        'Rejection',
        'Interview invitation',
        'interview REMINDER',
        'talent pool INVITATION',
      ]);
      for (const column of ['remind_24h', 'remind_1h'])
        expect(await t.db.schema.hasColumn('email_templates', column), column).to.equal(false);
      await t.db.migrate.latest();
      expect((await templates()).map((r) => r[1])).to.deep.equal([
        'receipt',
        'rejection',
        'interview',
        null,
        null,
        'reminder_candidate',
        'reminder_interviewer',
        'alert_confirm',
        'alert_digest',
        'pool_invite',
        'pool_consent',
      ]);
    });
  });
}

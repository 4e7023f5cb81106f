/**
 * Migration 031: the stage-transition ledger, backfilled from the audit log. Up from the migration
 * before it with applications and their audit entries (moves, a rejection, a rejected application
 * moved back: one row for its stage and outcome entries, status entries making none, another
 * application's entries left alone), then down.
 */
import { expect } from 'chai';
import { fromDbDate, toDbDate } from '../../src/db/codecs.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`migration 031: stage_transitions [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it("backfills each application's entry and its stage and outcome changes from the audit log, and rolls back", async () => {
      // Made first: the job factory writes what later migrations add (the public pages' version, 035).
      const job = await makeJob(t.db, {});
      while ((await migrationStatus(t.db)).applied.includes('031_stage_transitions')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('stage_transitions')).to.equal(false);

      const created = new Date('2026-02-01T08:00:00.000Z');
      await insertApplications(
        t.db,
        job.id,
        ['moved', 'untouched', 'rejected-back'].map((n) => ({
          first_name: n,
          last_name: 'X',
          email: `${n}@example.com`,
          phone: '+15550000000',
          created_at: created,
        })),
        [],
      );
      const ids = Object.fromEntries((await t.db('applications').select('id', 'first_name')).map((r) => [r.first_name, Number(r.id)]));
      const stages = (await t.db('job_stages').where('job_id', job.id).orderBy('position').select('id')).map((r) => Number(r.id));
      const user = Number(
        (
          await t
            .db('hr_users')
            .insert({ username: 'm031', password_hash: 'x', created_at: toDbDate(created), updated_at: toDbDate(created), role: 'admin' })
        )[0],
      );
      const time = (h: number) => toDbDate(new Date(created.getTime() + h * 3600_000));
      const audit = (id: number, action: string, details: unknown, h: number, userId: number | null = user) => ({
        entity: 'application',
        entity_id: id,
        action,
        details: JSON.stringify(details),
        user_id: userId,
        created_at: time(h),
      });
      await t.db('audit_log').insert([
        audit(ids.moved, 'stage', { from: 'Applied', to: 'Screen', from_id: stages[0], to_id: stages[1] }, 1),
        audit(ids.moved, 'status', { from: 'NEW', to: 'REVIEWED' }, 1),
        audit(ids.moved, 'stage', { from: 'Screen', to: 'Hired', from_id: stages[1], to_id: stages[4] }, 5, null),
        audit(ids['rejected-back'], 'outcome', { from: null, to: 'REJECTED', reason: 'Withdrew', stage: 'Applied' }, 2),
        // Moved out of Rejected into Interview: a stage and an outcome entry of one change.
        audit(ids['rejected-back'], 'stage', { from: 'Applied', to: 'Interview', from_id: stages[0], to_id: stages[2] }, 3),
        audit(ids['rejected-back'], 'outcome', { from: 'REJECTED', to: null, reason: null, stage: 'Interview' }, 3),
        // Not an application's entry: left alone.
        { entity: 'job', entity_id: job.id, action: 'stages', details: '{}', user_id: user, created_at: time(4) },
      ]);
      await t.db.migrate.latest();

      const rows = (await t.db('stage_transitions').orderBy('id')).map((r) => ({
        app: Object.keys(ids).find((k) => ids[k] === Number(r.application_id)),
        job: Number(r.job_id),
        from: r.from_stage_id === null ? null : stages.indexOf(Number(r.from_stage_id)),
        to: stages.indexOf(Number(r.to_stage_id)),
        outcome: r.outcome,
        reason: r.reason,
        hours: (fromDbDate(r.at)!.getTime() - created.getTime()) / 3600_000,
        by: r.by_user_id === null ? null : Number(r.by_user_id) === user,
      }));
      expect(rows).to.deep.equal([
        { app: 'moved', job: job.id, from: null, to: 0, outcome: null, reason: null, hours: 0, by: null },
        { app: 'moved', job: job.id, from: 0, to: 1, outcome: null, reason: null, hours: 1, by: true },
        { app: 'moved', job: job.id, from: 1, to: 4, outcome: null, reason: null, hours: 5, by: null },
        { app: 'untouched', job: job.id, from: null, to: 0, outcome: null, reason: null, hours: 0, by: null },
        { app: 'rejected-back', job: job.id, from: null, to: 0, outcome: null, reason: null, hours: 0, by: null },
        { app: 'rejected-back', job: job.id, from: 0, to: 0, outcome: 'REJECTED', reason: 'Withdrew', hours: 2, by: true },
        { app: 'rejected-back', job: job.id, from: 0, to: 2, outcome: null, reason: null, hours: 3, by: true },
      ]);

      // Erasing an application takes its history with it.
      await t.db('applications').where('id', ids.untouched).delete();
      expect((await t.db('stage_transitions').where('application_id', ids.untouched)).length).to.equal(0);

      while ((await migrationStatus(t.db)).applied.includes('031_stage_transitions')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('stage_transitions')).to.equal(false);
    });
  });
}

/**
 * Migration 032: HR digests keep their kind of period. Up from the migration before it with digests
 * written under the old key (an hourly day, a lone midnight row), then both kinds beginning at the
 * same midnight, then down.
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

for (const kind of databaseKinds()) {
  describe(`migration 032: digest period [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    const row = (period_start: string) => ({
      recipient: 'hr@acme.example',
      period_start: toDbDate(new Date(period_start)),
      applications: 1,
      created_at: toDbDate(new Date()),
    });
    const periods = async () =>
      Object.fromEntries(
        (await t.db('hr_notify_digests').orderBy('id').select('period_start', 'period')).map((r, i) => [i, String(r.period)]),
      );

    it('takes a lone midnight row as daily and every other as hourly; both kinds may then begin at one time; down keeps the hourly one', async () => {
      while ((await migrationStatus(t.db)).applied.includes('032_digest_period')) await t.db.migrate.down();
      await t.db('hr_notify_digests').insert([
        row('2026-03-01T00:00:00Z'), // hourly: 01:00 of the same day follows
        row('2026-03-01T01:00:00Z'),
        row('2026-03-05T00:00:00Z'), // daily: alone that day
      ]);
      await t.db.migrate.latest();
      expect(await periods()).to.deep.equal({ 0: 'hourly', 1: 'hourly', 2: 'daily' });

      await t.db('hr_notify_digests').insert({ ...row('2026-03-01T00:00:00Z'), period: 'daily' });
      let error: unknown;
      await t
        .db('hr_notify_digests')
        .insert({ ...row('2026-03-01T00:00:00Z'), period: 'daily' })
        .catch((e) => {
          error = e;
        });
      expect(String(error), 'the same kind and start twice').to.match(/unique|duplicate/i);

      while ((await migrationStatus(t.db)).applied.includes('032_digest_period')) await t.db.migrate.down();
      expect(await t.db.schema.hasColumn('hr_notify_digests', 'period')).to.equal(false);
      expect(await t.db('hr_notify_digests').count({ n: '*' })).to.deep.equal([{ n: 3 }]);
      await t.db.migrate.latest();
    });
  });
}

/**
 * Migration 039 (issue 34): `pay_rules` with its 40 defaults (the EU's 27 member states, Ontario,
 * the 12 US states with posting laws), one rule per place, and `job_approvals`, gone with its job.
 * Down drops both tables and keeps the jobs; up again writes the defaults again.
 */
import { expect } from 'chai';
import { migrationStatus } from '../../src/db/migrations.js';
import { makeJob } from '../helpers/factories.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { toDbDate } from '../../src/db/codecs.js';

for (const kind of databaseKinds()) {
  describe(`migration 039: pay rules and job approvals [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    const down = async () => {
      while ((await migrationStatus(t.db)).applied.includes('039_pay_rules')) await t.db.migrate.down();
    };

    it('writes the default rules, keeps one rule per place, and down drops both tables and nothing else', async () => {
      const job = await makeJob(t.db, { title: 'Kept', public_id: 'kept' });
      await down();
      expect(await t.db.schema.hasTable('pay_rules')).to.equal(false);
      expect(await t.db.schema.hasTable('job_approvals')).to.equal(false);
      expect((await t.db('jobs').select('public_id')).map((r) => r.public_id)).to.deep.equal(['kept']);

      await t.db.migrate.latest();
      const rules = await t.db('pay_rules').orderBy('id').select();
      expect(rules).to.have.length(40);
      expect(rules.filter((r) => r.region_code === '')).to.have.length(27);
      expect(
        rules
          .filter((r) => r.country === 'US')
          .map((r) => r.region_code)
          .sort(),
      ).to.deep.equal(['CA', 'CO', 'DC', 'HI', 'IL', 'MA', 'MD', 'MN', 'NJ', 'NY', 'VT', 'WA']);
      const ontario = rules.find((r) => r.region_code === 'ON');
      expect(Number(ontario.max_width)).to.equal(50000);
      expect(ontario).to.include({ country: 'CA', width_unit: 'AMOUNT', salary_period: 'YEAR' });
      expect(rules.every((r) => Boolean(Number(r.range_required)))).to.equal(true);

      // One rule per place, the unique index's answer even past the service.
      const now = toDbDate(new Date());
      let error: unknown;
      await t
        .db('pay_rules')
        .insert({ label: 'Again', country: 'DE', created_at: now, updated_at: now })
        .catch((e) => {
          error = e;
        });
      expect(String(error)).to.match(/unique|duplicate/i);

      // An approval goes with its job.
      await t.db('job_approvals').insert({ job_id: job.id, state: 'PENDING', requested_status: 'ACTIVE', requested_at: now });
      await t.db('jobs').where({ id: job.id }).delete();
      expect(await t.db('job_approvals').count({ n: '*' }).first()).to.satisfy((x: { n: unknown }) => Number(x.n) === 0);

      await down();
      await t.db.migrate.latest();
      expect(await t.db('pay_rules').count({ n: '*' }).first()).to.satisfy((x: { n: unknown }) => Number(x.n) === 40);
    });
  });
}

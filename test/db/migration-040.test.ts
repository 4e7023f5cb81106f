/**
 * Migration 040 (issue 34): the offers' tables, the default offer template and the default approval
 * chain (one approval by any admin) on a fresh install; an offer and its approvals go with their
 * application; one chain per scope; down drops the four tables and nothing else; up again writes
 * the defaults again.
 */
import { expect } from 'chai';
import { migrationStatus } from '../../src/db/migrations.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser } from '../helpers/hr.js';
import { insertApplications } from '../helpers/applications.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { toDbDate } from '../../src/db/codecs.js';

const TABLES = ['offers', 'offer_approvals', 'offer_approval_chains', 'offer_templates'];

for (const kind of databaseKinds()) {
  describe(`migration 040: offers [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('writes the defaults, keeps one chain per scope, and an offer goes with its application', async () => {
      const templates = await t.db('offer_templates').select();
      expect(templates).to.have.length(1);
      expect(templates[0].name).to.equal('Standard offer letter');
      expect(Boolean(Number(templates[0].is_default))).to.equal(true);
      expect(templates[0].body).to.include('{first_name}').and.include('{base_pay}');
      const chains = await t.db('offer_approval_chains').select();
      expect(chains).to.have.length(1);
      expect(chains[0]).to.include({ scope: 'default', job_id: null, mode: 'ANY', approver_ids: null });
      expect(Number(chains[0].required)).to.equal(1);
      const now = toDbDate(new Date());
      let error: unknown;
      await t
        .db('offer_approval_chains')
        .insert({ scope: 'default', mode: 'ORDER', required: 1, updated_at: now })
        .catch((e) => {
          error = e;
        });
      expect(String(error)).to.match(/unique|duplicate/i);

      const job = await makeJob(t.db, { title: 'Kept', public_id: 'kept' });
      await insertApplications(t.db, job.id, [{ first_name: 'A', last_name: 'B', email: 'a@example.com', phone: '+15550100' }], []);
      const appId = Number((await t.db('applications').first('id')).id);
      const userId = await createHrUser(t.db, 'adm');
      const [offerId] = await t.db('offers').insert({
        application_id: appId,
        job_id: job.id,
        status: 'pending_approval',
        version: 1,
        base_pay: 1234.5,
        salary_period: 'YEAR',
        currency: 'EUR',
        start_date: '2027-01-01',
        expires_on: '2026-12-31',
        letter: '<p>x</p>',
        created_at: now,
        updated_at: now,
      });
      await t.db('offer_approvals').insert({ offer_id: offerId, version: 1, position: 0, approver_id: userId, created_at: now });
      expect(Number((await t.db('offers').first('base_pay')).base_pay)).to.equal(1234.5);
      await t.db('applications').where({ id: appId }).delete();
      expect(await t.db('offers').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      expect(await t.db('offer_approvals').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    });

    it('down drops the four tables and nothing else; up writes the defaults again', async () => {
      // Later migrations go first, as a rollback to before 040 takes them.
      while ((await migrationStatus(t.db)).applied.includes('040_offers')) await t.db.migrate.down();
      for (const table of TABLES) expect(await t.db.schema.hasTable(table), table).to.equal(false);
      expect((await t.db('jobs').select('public_id')).map((r) => r.public_id)).to.deep.equal(['kept']);
      expect(await t.db.schema.hasTable('pay_rules')).to.equal(true);
      await t.db.migrate.latest();
      expect(await t.db('offer_templates').count({ n: '*' })).to.deep.equal([{ n: 1 }]);
      expect(await t.db('offer_approval_chains').count({ n: '*' })).to.deep.equal([{ n: 1 }]);
    });
  });
}

/**
 * Migration 042 (issue 35): `site_settings`, one row (id 1) with every setting unset (the defaults
 * apply) and room for a logo larger than a 64 KB BLOB on MySQL; its updater goes to null with the
 * user. Down drops the table and nothing else; up again writes the empty row again.
 */
import { expect } from 'chai';
import { migrationStatus } from '../../src/db/migrations.js';
import { createHrUser } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

for (const kind of databaseKinds()) {
  describe(`migration 042: site settings [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('writes one row with nothing set, keeps a 1 MB logo, and down drops the table and nothing else', async () => {
      const rows = await t.db('site_settings').select();
      expect(rows).to.have.length(1);
      const [row] = rows;
      expect(Number(row.id)).to.equal(1);
      for (const [k, v] of Object.entries(row)) if (k !== 'id') expect(v, k).to.equal(null);

      const logo = Buffer.alloc(1024 * 1024, 7);
      const user = await createHrUser(t.db, 'settings.keeper');
      await t
        .db('site_settings')
        .where({ id: 1 })
        .update({ logo, logo_png: logo, logo_type: 'image/png', logo_hash: 'a'.repeat(24), updated_by: user });
      const back = await t.db('site_settings').where({ id: 1 }).first('logo', 'updated_by');
      expect(Buffer.from(back.logo).equals(logo)).to.equal(true);
      await t.db('hr_users').where({ id: user }).delete();
      expect((await t.db('site_settings').where({ id: 1 }).first('updated_by')).updated_by).to.equal(null);

      await makeJob(t.db, { title: 'Kept', public_id: 'kept' });
      while ((await migrationStatus(t.db)).applied.includes('042_site_settings')) await t.db.migrate.down();
      expect(await t.db.schema.hasTable('site_settings')).to.equal(false);
      expect((await t.db('jobs').select('public_id')).map((r) => r.public_id)).to.deep.equal(['kept']);

      await t.db.migrate.latest();
      const again = await t.db('site_settings').select('id', 'logo');
      expect(again.map((r) => [Number(r.id), r.logo])).to.deep.equal([[1, null]]);
    });
  });
}

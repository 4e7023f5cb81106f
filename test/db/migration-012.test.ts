/** Migration 012: every HR user made before roles becomes an admin; the links table comes and goes with it. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';

for (const kind of databaseKinds()) {
  describe(`migration 012: user roles [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('makes every existing user an admin, and rolls back and applies again', async () => {
      while ((await migrationStatus(t.db)).applied.includes('012_user_roles')) await t.db.migrate.down();
      expect(await t.db.schema.hasColumn('hr_users', 'role')).to.equal(false);
      expect(await t.db.schema.hasTable('hr_user_links')).to.equal(false);
      const now = new Date();
      for (const [username, active] of [['old.one', true], ['old.two', false]] as const) {
        await t.db('hr_users').insert({ username, password_hash: 'scrypt$x', is_active: active, created_at: now, updated_at: now });
      }
      await t.db.migrate.latest();
      const rows = await t.db('hr_users').orderBy('username').select('username', 'role');
      expect(rows).to.deep.equal([{ username: 'old.one', role: 'admin' }, { username: 'old.two', role: 'admin' }]);
      expect(await t.db.schema.hasTable('hr_user_links')).to.equal(true);
      // A row written without a role (older code) is an admin too, as the CLI makes them.
      await t.db('hr_users').insert({ username: 'no.role', password_hash: 'scrypt$x', is_active: true, created_at: now, updated_at: now });
      expect((await t.db('hr_users').where({ username: 'no.role' }).first()).role).to.equal('admin');
    });
  });
}

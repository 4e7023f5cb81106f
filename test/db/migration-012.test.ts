/** Migration 012: every HR user made before roles becomes an admin; the links table comes and goes with it. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { hrSession } from '../helpers/hr.js';

for (const kind of databaseKinds()) {
  describe(`migration 012: user roles [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('makes every existing user an admin, and rolls back and applies again', async () => {
      await hrSession(t.db, 'signed.in');
      while ((await migrationStatus(t.db)).applied.includes('012_user_roles')) await t.db.migrate.down();
      expect(await t.db.schema.hasColumn('hr_users', 'role')).to.equal(false);
      // Rolling back keeps every user and session (SQLite drops the column in place, no cascade).
      expect(await t.db('hr_users').pluck('username')).to.deep.equal(['signed.in']);
      expect(await t.db('hr_sessions').count({ n: '*' })).to.deep.equal([{ n: 1 }]);
      await t.db('hr_users').where({ username: 'signed.in' }).delete();
      expect(await t.db.schema.hasTable('hr_user_links')).to.equal(false);
      const now = new Date();
      for (const [username, active] of [
        ['old.one', true],
        ['old.two', false],
      ] as const) {
        await t.db('hr_users').insert({ username, password_hash: 'scrypt$x', is_active: active, created_at: now, updated_at: now });
      }
      await t.db.migrate.latest();
      const rows = await t.db('hr_users').orderBy('username').select('username', 'role');
      expect(rows).to.deep.equal([
        { username: 'old.one', role: 'admin' },
        { username: 'old.two', role: 'admin' },
      ]);
      expect(await t.db.schema.hasTable('hr_user_links')).to.equal(true);
      // A row written without a role (older code) is an admin too, as the CLI makes them.
      await t.db('hr_users').insert({ username: 'no.role', password_hash: 'scrypt$x', is_active: true, created_at: now, updated_at: now });
      expect((await t.db('hr_users').where({ username: 'no.role' }).first()).role).to.equal('admin');
    });
  });
}

/** Migration 008: applications.email compares bytes on MySQL (utf8mb4_bin); down restores the folding collation. */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { migrationStatus } from '../../src/db/migrations.js';

for (const kind of databaseKinds()) {
  describe(`migration 008: exact email match [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('compares application emails byte for byte, and rolls back and applies again', async () => {
      const collation = async () =>
        kind === 'mysql' ? (await t.db.raw("SHOW FULL COLUMNS FROM applications WHERE Field = 'email'"))[0][0].Collation : 'BINARY';
      expect(await collation()).to.equal(kind === 'mysql' ? 'utf8mb4_bin' : 'BINARY');
      while ((await migrationStatus(t.db)).applied.includes('008_email_exact_match')) await t.db.migrate.down();
      expect(await collation()).to.equal(kind === 'mysql' ? 'utf8mb4_unicode_ci' : 'BINARY');
      await t.db.migrate.latest();
      expect(await collation()).to.equal(kind === 'mysql' ? 'utf8mb4_bin' : 'BINARY');
    });
  });
}

/**
 * Issue 34: APPLICATION_RETENTION_DAYS is the age `careers-admin applicants purge` takes when no
 * --older-than is given; without either the purge is a usage error.
 */
import { expect } from 'chai';
import { cliSync } from '../helpers/child-server.js';
import { insertApplications } from '../helpers/applications.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';

for (const kind of databaseKinds()) {
  describe(`applicants purge with APPLICATION_RETENTION_DAYS [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      const job = await makeJob(t.db, { title: 'Kept a while' });
      const day = 86_400_000;
      await insertApplications(t.db, job.id, [{ first_name: 'Old', last_name: 'One', email: 'old@example.com', phone: '+15550101' }], [], {
        now: new Date(Date.now() - 40 * day),
      });
      await insertApplications(t.db, job.id, [{ first_name: 'New', last_name: 'One', email: 'new@example.com', phone: '+15550102' }], [], {
        now: new Date(Date.now() - 10 * day),
      });
    });
    after(() => t.destroy());

    it('purges what is older than the retention period without --older-than, and asks for one without either', () => {
      const none = cliSync(['applicants', 'purge', '--dry-run'], env);
      expect(none.code).to.equal(2);
      expect(none.err).to.include('Give --older-than <age> (e.g. 180d), or set APPLICATION_RETENTION_DAYS to purge what is older than it.');
      const r = cliSync(['applicants', 'purge', '--dry-run'], { ...env, APPLICATION_RETENTION_DAYS: '30' });
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.match(/^Dry run: would remove 1 application with \d+ files? \(job \d+: 1\)\./);
      // --older-than still wins.
      const both = cliSync(['applicants', 'purge', '--older-than', '5d', '--dry-run'], { ...env, APPLICATION_RETENTION_DAYS: '30' });
      expect(both.out).to.match(/^Dry run: would remove 2 applications/);
    });
  });
}

/** careers-admin files sweep as an admin runs it: a child process on a real database and DATA_DIR. */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { listFiles } from '../fixtures/apply.js';
import { toDbDate } from '../../src/db/codecs.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';
import { cliSync } from '../helpers/child-server.js';

const cli = cliSync;

const HOUR = 60 * 60 * 1000;

for (const kind of databaseKinds()) {
  describe(`careers-admin files sweep [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let uploads: string;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      uploads = path.join(t.dataDir, 'uploads');
    });
    after(() => t.destroy());

    it('says so when there is no uploads folder yet', () => {
      const r = cli(['files', 'sweep'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include(`No uploads folder at ${uploads}: nothing to sweep.`);
      expect(fs.existsSync(uploads)).to.equal(false);
    });

    it('removes files without a row older than 60 minutes by default, prints each, keeps the rest', async () => {
      const storage = new LocalDiskStorage(uploads);
      const put = async (ageMs: number, row: boolean) => {
        const key = storage.newKey();
        await storage.write(key, Readable.from([Buffer.from(key)]));
        const when = new Date(Date.now() - ageMs);
        fs.utimesSync(path.join(uploads, key), when, when);
        if (row)
          await t.db('stored_files').insert({
            storage_key: key,
            original_name: 'cv.pdf',
            content_type: 'application/pdf',
            size: 34,
            sha256: '0'.repeat(64),
            created_at: toDbDate(new Date()),
          });
        return key;
      };
      const withRow = await put(5 * HOUR, true);
      const old1 = await put(2 * HOUR, false);
      const old2 = await put(61 * 60 * 1000, false);
      const young = await put(10 * 60 * 1000, false);

      let r = cli(['files', 'sweep'], env);
      expect(r.code, r.err).to.equal(0);
      const removed = r.out
        .split('\n')
        .filter((l) => l.startsWith('removed '))
        .map((l) => l.slice('removed '.length))
        .sort();
      expect(removed).to.deep.equal([old1, old2].sort());
      expect(r.out).to.include(`Checked 4 files in ${uploads}: removed 2 files with no database row and`);
      expect(r.out).to.include('1 file without a row kept: changed in the last 60 minutes.');
      expect(listFiles(uploads)).to.deep.equal([withRow, young].sort());

      // A shorter grace takes the young orphan too.
      r = cli(['files', 'sweep', '--older-than-minutes', '5'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include(`removed ${young}`);
      expect(listFiles(uploads)).to.deep.equal([withRow]);
      expect(fs.readdirSync(uploads)).to.deep.equal([withRow.slice(0, 2)]);

      // Nothing left to do.
      r = cli(['files', 'sweep', '--older-than-minutes', '0'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Checked 1 file in').and.include('removed 0 files with no database row and 0 empty folders.');
    });

    it('refuses a bad --older-than-minutes with exit code 2', () => {
      for (const bad of ['abc', '-5', '1.5', '']) {
        const r = cli(['files', 'sweep', '--older-than-minutes', bad], env);
        expect(r.code, `${bad}: ${r.out}`).to.equal(2);
        expect(r.err).to.include('--older-than-minutes must be a whole number of minutes');
      }
    });

    it('asks for the migrations first on an empty database', async () => {
      const empty = await createTestDb(kind);
      try {
        await empty.db.migrate.rollback(undefined, true);
        const r = cli(['files', 'sweep'], {
          DATA_DIR: empty.dataDir,
          ...(empty.config.databaseUrl ? { DATABASE_URL: empty.config.databaseUrl } : {}),
        });
        expect(r.code).to.equal(1);
        expect(r.err).to.include('Error: The database has no tables yet: run "careers-admin migrate" first.');
      } finally {
        await empty.destroy();
      }
    });
  });
}

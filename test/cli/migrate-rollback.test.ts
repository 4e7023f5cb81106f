/**
 * Issue 28 item 12: `careers-admin migrate rollback` undoes one migration by default, even on a
 * database made in one batch (where "the last batch" was every migration: every table dropped);
 * `--to NAME` undoes the ones after NAME, newest first, and NAME stays applied; `--all` undoes
 * every one. The question (and the refusal without a terminal) lists every migration that would
 * be undone and says whether data would be dropped.
 */
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { UNDO_DROPS, migrationSource, migrationStatus } from '../../src/db/migrations.js';
import { makeJob } from '../helpers/factories.js';
import { cliSync } from '../helpers/child-server.js';

const cli = cliSync;

describe('migration undo descriptions', () => {
  it('say for every migration what undoing it drops (null: no data)', async () => {
    expect(Object.keys(UNDO_DROPS).sort()).to.deep.equal(await migrationSource.getMigrations([]));
  });
});

for (const kind of databaseKinds()) {
  describe(`careers-admin migrate rollback: one migration, --to, --all [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let env: Record<string, string>;
    let all: string[];
    const applied = async () => (await migrationStatus(t.db)).applied;
    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      all = await migrationSource.getMigrations([]);
      await makeJob(t.db, { title: 'Survivor', public_id: 'survivor' });
    });
    after(() => t.destroy());

    it('undoes only the latest migration of a database made in one batch, keeping every table and row', async () => {
      expect(await applied()).to.deep.equal(all);
      const latest = all[all.length - 1];
      // Without a terminal: refused, and the refusal lists what would be undone.
      let r = cli(['migrate', 'rollback'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include('pass --yes to roll back without asking');
      expect(r.err).to.include('Roll back this migration:');
      // What the latest migration's undo drops, whichever it is.
      const drops = UNDO_DROPS[latest];
      expect(r.err).to.include(drops === null ? `  ${latest}: no data dropped` : `  ${latest}: drops ${drops}`);
      expect(r.err).to.include(drops === null ? 'No data is dropped' : 'Data will be dropped with them. This cannot be undone.');
      expect(await applied()).to.deep.equal(all);
      r = cli(['migrate', 'rollback', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out.trim()).to.equal(`Rolled back ${latest}`);
      expect(await applied()).to.deep.equal(all.slice(0, -1));
      expect(await t.db.schema.hasTable('jobs')).to.equal(true);
      expect((await t.db('jobs').select('public_id')).map((j) => j.public_id)).to.deep.equal(['survivor']);
      expect(cli(['migrate'], env).code).to.equal(0);
      expect(await applied()).to.deep.equal(all);
    });

    it('--to NAME lists every migration after NAME, newest first, says data goes, and leaves NAME applied', async () => {
      const to = '019_applicant_sort_indexes';
      const after = all.slice(all.indexOf(to) + 1).reverse();
      let r = cli(['migrate', 'rollback', '--to', to], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include(`Roll back these ${after.length} migrations, newest first:`);
      const listed = r.err
        .split('\n')
        .filter((l) => /^ {2}\d{3}_/.test(l))
        .map((l) => l.trim().split(':')[0]);
      expect(listed).to.deep.equal(after);
      expect(r.err).to.include("  021_job_funnel_counts: drops table job_funnel_counts (the apply funnel's counts)");
      expect(r.err).to.include('Data will be dropped with them. This cannot be undone.');
      expect(await applied()).to.deep.equal(all);
      r = cli(['migrate', 'rollback', '--to', to, '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out.trim()).to.equal(`Rolled back ${after.join(', ')}`);
      expect(await applied()).to.deep.equal(all.slice(0, all.indexOf(to) + 1));
      expect(await t.db.schema.hasTable('job_funnel_counts')).to.equal(false);
      expect(await t.db.schema.hasTable('tracking_links')).to.equal(false);
      expect(await t.db('jobs').count({ n: '*' }).first()).to.satisfy((x: { n: unknown }) => Number(x.n) === 1);
      // NAME already the latest: nothing to do, no question.
      r = cli(['migrate', 'rollback', '--to', to], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out.trim()).to.equal('Nothing to roll back.');
      expect(cli(['migrate'], env).code).to.equal(0);
      expect(await applied()).to.deep.equal(all);
    });

    it('refuses a --to that names no applied migration, hostile text, or --to with --all, changing nothing', async () => {
      for (const name of ['999_nope', "'; DROP TABLE jobs; --", '019_applicant_sort_indexes.ts', '../../etc/passwd', 'x'.repeat(5000)]) {
        const r = cli(['migrate', 'rollback', '--to', name, '--yes'], env);
        expect(r.code, name).to.equal(2);
        expect(r.err, name).to.include('is not an applied migration');
      }
      let r = cli(['migrate', 'rollback', '--to', '   ', '--yes'], env);
      expect(r.code).to.equal(2);
      r = cli(['migrate', 'rollback', '--to', '019_applicant_sort_indexes', '--all', '--yes'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include('not both');
      r = cli(['migrate', 'status', '--all'], env);
      expect(r.code).to.equal(2);
      expect(await applied()).to.deep.equal(all);
      expect(await t.db.schema.hasTable('jobs')).to.equal(true);
    });

    it('--all undoes every migration, after a question that names each and says data goes', async () => {
      let r = cli(['migrate', 'rollback', '--all'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include(`Roll back these ${all.length} migrations, newest first:`);
      expect(r.err).to.include('  001_initial_schema: drops every table');
      r = cli(['migrate', 'rollback', '--all', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(await applied()).to.deep.equal([]);
      expect(await t.db.schema.hasTable('jobs')).to.equal(false);
      expect(cli(['migrate', 'rollback', '--yes'], env).out.trim()).to.equal('Nothing to roll back.');
      expect(cli(['migrate'], env).code).to.equal(0);
      expect(await applied()).to.deep.equal(all);
    });
  });
}

/** careers-admin doctor as an admin runs it: a healthy database, an empty DATA_DIR, a broken setting, an overdue outbox. */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../helpers/sqlite.js';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { enqueueEmails } from '../../src/posts/repo.js';
import { runCli, type CliResult } from './helpers.js';

interface Report {
  ok: boolean;
  checks: { name: string; ok: boolean; detail: string; fix: string | null }[];
}

/** `doctor --json`'s report; output that is not one JSON object fails with what was printed. */
function parseReport(r: CliResult): Report {
  try {
    return JSON.parse(r.out) as Report;
  } catch {
    throw new Error(`doctor --json did not print one JSON object:\n${r.out}\nstderr:\n${r.err}`);
  }
}

for (const kind of databaseKinds()) {
  describe(`careers-admin doctor [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' };
    });
    after(() => t.destroy());

    it('a healthy installation: every check OK, exit 0; --json is one object', async () => {
      const [text, json] = await Promise.all([runCli(['doctor'], env), runCli(['doctor', '--json'], env)]);
      expect(text.code, text.out + text.err).to.equal(0);
      for (const name of [
        'configuration',
        'database',
        'migrations',
        'storage',
        'smtp',
        'outbox application_posts',
        'outbox email_posts',
        'outbox form_posts',
      ]) {
        expect(text.out).to.match(new RegExp(`^OK +${name}: `, 'm'));
      }
      expect(text.out).to.not.include('FAIL');
      expect(json.code).to.equal(0);
      const report = parseReport(json);
      expect(report.ok).to.equal(true);
      expect(report.checks.map((c) => c.name)).to.include.members(['database', 'migrations', 'storage']);
      expect(report.checks.every((c) => c.ok && c.fix === null)).to.equal(true);
    });

    it('an overdue post: its outbox fails with the fix', async () => {
      const long = new Date(Date.now() - 3600_000);
      await enqueueEmails(
        t.db,
        null,
        [{ template: 'hr_notification', message: { to: 'hr@example.com', subject: 'New applicant', text: 'Hello', html: '<p>Hello</p>' } }],
        long,
      );
      const r = await runCli(['doctor', '--json'], env);
      expect(r.code).to.equal(1);
      const outbox = parseReport(r).checks.find((c) => c.name === 'outbox email_posts')!;
      expect(outbox.ok).to.equal(false);
      expect(outbox.detail).to.match(/oldest due post waiting 60 min/);
      expect(outbox.fix).to.include('careers-admin cron');
      await t.db('email_posts').delete();
    });

    if (kind === 'sqlite') {
      it('another process holding the write lock (statistics to refresh): still only the JSON report on stdout, exit 0', async () => {
        await t.db.raw('DELETE FROM sqlite_stat1');
        const writer = openSqlite(path.join(t.dataDir, 'careers.sqlite'));
        try {
          writer.exec('BEGIN IMMEDIATE');
          const r = await runCli(['doctor', '--json'], env);
          expect(r.code, r.out + r.err).to.equal(0);
          expect(parseReport(r).ok).to.equal(true);
        } finally {
          writer.close();
        }
      });
    }
  });
}

describe('careers-admin doctor: nothing to work on', function () {
  this.timeout(60_000);

  it('a fresh SQLite site (the README order: doctor right after install): the database is not created yet, exit 0, nothing created', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-doctor-'));
    try {
      // DATA_DIR itself not made yet either, as after `npm ci` and `cp .env.example .env`.
      const dataDir = path.join(dir, 'data');
      const r = await runCli(['doctor'], { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', STORAGE_URL: '' });
      expect(r.code, r.out + r.err).to.equal(0);
      expect(r.out).to.match(/^OK +database: .*careers\.sqlite not created yet: run `careers-admin migrate` or start the server once/m);
      expect(r.out).to.not.match(/^FAIL/m);
      const json = await runCli(['doctor', '--json'], { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', STORAGE_URL: '' });
      expect(json.code).to.equal(0);
      const report = parseReport(json);
      expect(report.ok).to.equal(true);
      expect(report.checks.find((c) => c.name === 'database')).to.include({ ok: true, fix: null });
      expect(report.checks.some((c) => c.name === 'migrations')).to.equal(false);
      expect(fs.readdirSync(dir)).to.deep.equal([]);
      // Then the README's next step creates it, and doctor finds it migrated.
      expect((await runCli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: '' })).code).to.equal(0);
      const after = await runCli(['doctor'], { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', STORAGE_URL: '' });
      expect(after.code, after.out).to.equal(0);
      expect(after.out).to.match(/^OK +migrations: \d+ applied, none pending$/m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a database file without tables: every migration pending, still nothing created', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-doctor-'));
    try {
      fs.writeFileSync(path.join(dir, 'careers.sqlite'), '');
      const r = await runCli(['doctor', '--json'], { DATA_DIR: dir, DATABASE_URL: '' });
      expect(r.code).to.equal(1);
      const migrations = parseReport(r).checks.find((c) => c.name === 'migrations')!;
      expect(migrations).to.include({ ok: false, fix: 'run careers-admin migrate' });
      expect(migrations.detail).to.match(/^\d+ pending/);
      expect(fs.readdirSync(dir).filter((f) => !f.startsWith('careers.sqlite'))).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a broken setting: names the variable, exit 1', async () => {
    const r = await runCli(['doctor'], { PORT: 'abc', DATA_DIR: os.tmpdir() });
    expect(r.code).to.equal(1);
    expect(r.out).to.match(/^FAIL +configuration: PORT must be a whole number/m);
  });
});

/**
 * Retention on SQLite and MySQL: removeApplications (purge by age, status and job; erase by email)
 * deletes every row of an application in one transaction, then its files; a failure half-way
 * through the rows changes nothing; a failure removing files leaves only files without a row,
 * which the orphan sweep removes; the dashboard and insights stay exact. And the CLI around it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadDashboard, loadJobInsights } from '../../src/applicants/reads.service.js';
import { removeApplications } from '../../src/applicants/retention.service.js';
import { ReadCache } from '../../src/db/read-cache.js';
import { LocalDiskStorage, type FileStorage } from '../../src/storage/storage.js';
import { sweepOrphanFiles } from '../../src/storage/sweep.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { day } from './helpers.js';
import { cliSync } from '../helpers/child-server.js';
import { processLog } from '../../src/log/logger.js';

const CHILD_TABLES = [
  'application_answers',
  'application_answer_choices',
  'application_skills',
  'application_experiences',
  'application_education',
  'application_search_words',
  'application_posts',
  'application_notes',
];

async function counts(db: Knex): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ['applications', 'stored_files', ...CHILD_TABLES]) out[t] = Number((await db(t).count({ n: '*' }))[0].n);
  return out;
}

/** Gives every stored_files row a real file in `storage`. */
async function realFiles(db: Knex, storage: LocalDiskStorage): Promise<void> {
  for (const f of await db('stored_files').select('id')) {
    const key = storage.newKey();
    await storage.write(key, Readable.from([Buffer.from(`file ${f.id}`)]));
    await db('stored_files').where({ id: f.id }).update({ storage_key: key });
  }
}

async function missingFiles(db: Knex, storage: FileStorage): Promise<string[]> {
  const missing: string[] = [];
  for (const r of await db('stored_files').select('storage_key')) if (!(await storage.exists(r.storage_key))) missing.push(r.storage_key);
  return missing;
}

const cli = cliSync;

for (const kind of databaseKinds()) {
  describe(`applicants retention [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let storage: LocalDiskStorage;
    let jobs: { a: number; b: number };
    const now = new Date('2026-06-01T00:00:00Z');
    const deps = () => ({ db: t.db, storage, now: () => now, log: processLog() });
    const readDeps = () => ({ db: t.db, cache: cache });
    let cache: ReadCache;

    beforeEach(async () => {
      t = await createTestDb(kind);
      storage = new LocalDiskStorage(path.join(t.dataDir, 'uploads'));
      cache = new ReadCache(0);
      const q = [
        { text: 'Stack', answer_type: 'checkbox', required: false, order: 0, options: ['Go', 'TS'], placeholder: '', help_text: '' },
      ];
      const a = await makeJob(t.db, { title: 'A', questions: q });
      const b = await makeJob(t.db, { title: 'B' });
      jobs = { a: a.id, b: b.id };
      const person = (i: number, created: string, status: 'NEW' | 'ARCHIVED', email = `p${i}@example.com`) => ({
        first_name: `P${i}`,
        last_name: 'Tester',
        email,
        phone: `+9198765432${String(i).padStart(2, '0')}`,
        status,
        created_at: day(created),
        skills: ['Go'],
        experiences: [{ company: 'X', role: 'Y', start: '2020-01', end: '', notice_period: '', salary: '', description: '' }],
        education: [{ school: 'S', degree: 'D', field: 'F', start: '2015-01', end: '2019-01' }],
        answers: { [a.questions[0].id]: ['Go', 'TS'] },
      });
      await insertApplications(
        t.db,
        a.id,
        [
          person(1, '2025-01-01', 'ARCHIVED'),
          person(2, '2025-02-01', 'NEW'),
          person(3, '2026-05-01', 'NEW'),
          person(4, '2025-03-01', 'NEW', 'same@example.com'),
        ],
        a.questions,
      );
      await insertApplications(
        t.db,
        b.id,
        [person(5, '2025-01-15', 'ARCHIVED'), person(6, '2026-05-20', 'NEW', 'SAME@example.com')].map((p) => ({ ...p, answers: {} })),
        [],
      );
      await t.db('application_posts').insert({
        application_id: 1,
        job_id: a.id,
        target_url: 'https://example.com/h',
        payload: '{}',
        status: 'SUCCESS',
        attempts: 1,
        created_at: '2025-01-01 00:00:00.000',
        updated_at: '2025-01-01 00:00:00.000',
      });
      // Application 1's history: a note and a status change (issue 20); they go with it.
      await t.db('application_notes').insert({
        application_id: 1,
        user_id: null,
        text: 'Call back Monday.',
        created_at: '2025-01-02 00:00:00.000',
        updated_at: '2025-01-02 00:00:00.000',
      });
      await t.db('audit_log').insert({
        user_id: null,
        action: 'status',
        entity: 'application',
        entity_id: 1,
        details: '{"from":"NEW","to":"ARCHIVED"}',
        created_at: '2025-01-02 00:00:00.000',
      });
      await realFiles(t.db, storage);
    });
    afterEach(() => t.destroy());

    it('purges old applications with every row of theirs and their files; the dashboard and insights follow', async () => {
      const dash = await loadDashboard(readDeps());
      expect(dash.total_applicants).to.equal(6);
      const insights = await loadJobInsights(readDeps(), jobs.a);
      expect(insights.analytics.total_applicants).to.equal(4);
      const before = await counts(t.db);
      const result = await removeApplications(
        deps(),
        { createdBefore: new Date('2025-06-01T00:00:00Z'), jobId: jobs.a },
        { action: 'purge' },
      );
      expect(result).to.deep.include({ applications: 3, files: 3, filesLeft: [] });
      expect([...result.byJob]).to.deep.equal([[jobs.a, 3]]);
      const after = await counts(t.db);
      expect(after.applications).to.equal(3);
      expect(after.stored_files).to.equal(3);
      expect(after.application_posts).to.equal(0);
      expect(after.application_notes).to.equal(0);
      expect(await t.db('audit_log').where({ entity: 'application', entity_id: 1 })).to.deep.equal([]);
      expect(after.application_answer_choices).to.equal(before.application_answer_choices - 6);
      expect(await missingFiles(t.db, storage)).to.deep.equal([]);
      expect([...(await sweepOrphanFiles(t.db, storage, { olderThanMs: 0 })).removed]).to.deep.equal([]);
      // Cached totals (same cache) are exact after the deletion.
      expect((await loadDashboard(readDeps())).total_applicants).to.equal(3);
      expect((await loadJobInsights(readDeps(), jobs.a)).analytics.total_applicants).to.equal(1);
      expect((await loadJobInsights(readDeps(), jobs.a)).analytics.questions[0].stats).to.deep.include({ answered: 1 });
      const audit = await t.db('audit_log').where({ entity: 'application', action: 'purge' });
      expect(JSON.parse(audit[0].details)).to.deep.equal({
        count: 3,
        created_before: '2025-06-01T00:00:00.000Z',
        status: null,
        job_id: jobs.a,
      });
    });

    it('purges by status across jobs, and erases one applicant by email (any case) in every job', async () => {
      const archived = await removeApplications(deps(), { createdBefore: now, status: 'ARCHIVED' }, { action: 'purge' });
      expect(archived.applications).to.equal(2);
      const erased = await removeApplications(deps(), { email: 'same@example.com' }, { action: 'erase' });
      expect(erased.applications).to.equal(2);
      expect(await t.db('applications').pluck('email')).to.have.members(['p2@example.com', 'p3@example.com']);
      const audit = await t.db('audit_log').where({ action: 'erase' }).first();
      expect(audit.details).to.not.include('same@');
    });

    it('changes nothing when a statement fails half-way through the rows', async () => {
      // A trigger refuses to delete application 4, after its children and other rows went.
      if (kind === 'mysql') {
        await t.db.raw(
          "CREATE TRIGGER fail_delete BEFORE DELETE ON applications FOR EACH ROW BEGIN IF OLD.id = 4 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected'; END IF; END",
        );
      } else {
        await t.db.raw(
          "CREATE TRIGGER fail_delete BEFORE DELETE ON applications WHEN OLD.id = 4 BEGIN SELECT RAISE(ABORT, 'injected'); END",
        );
      }
      const before = await counts(t.db);
      const files = fs.readdirSync(path.join(t.dataDir, 'uploads'), { recursive: true }).length;
      let failure: unknown = null;
      await removeApplications(deps(), { createdBefore: now }, { action: 'purge' }).catch((err) => (failure = err));
      expect(String(failure)).to.include('injected');
      expect(await counts(t.db)).to.deep.equal(before);
      expect(fs.readdirSync(path.join(t.dataDir, 'uploads'), { recursive: true }).length).to.equal(files);
      expect(await missingFiles(t.db, storage)).to.deep.equal([]);
      expect((await loadDashboard(readDeps())).total_applicants).to.equal(6);
    });

    it('leaves files it could not remove to the orphan sweep; no row points at a missing file', async () => {
      let calls = 0;
      const flaky: FileStorage = Object.assign(Object.create(storage), {
        remove: (key: string) => (++calls % 2 === 0 ? Promise.reject(new Error('disk busy')) : storage.remove(key)),
      });
      const result = await removeApplications(
        { db: t.db, storage: flaky, now: () => now, log: processLog() },
        { createdBefore: now },
        { action: 'purge' },
      );
      expect(result.applications).to.equal(6);
      expect(result.filesLeft).to.have.length(3);
      expect(await missingFiles(t.db, storage)).to.deep.equal([]);
      const swept = await sweepOrphanFiles(t.db, storage, { olderThanMs: 0 });
      expect(swept.removed).to.have.members(result.filesLeft);
    });

    it('erases exactly the address given: never one a collation folds to it (ß, full-width letters)', async () => {
      const lookalike = (i: number, email: string) => ({
        first_name: `L${i}`,
        last_name: 'Alike',
        email,
        phone: '+919800000001',
        status: 'NEW' as const,
        created_at: day('2026-01-01'),
      });
      await insertApplications(
        t.db,
        jobs.b,
        [
          lookalike(1, 'strasse@example.com'),
          lookalike(2, 'straße@example.com'),
          lookalike(3, 'ｓtrasse@example.com'),
          lookalike(4, 'strasse\u0301@example.com'),
        ],
        [],
      );
      const before = Number((await t.db('applications').count({ n: '*' }).first())!.n);
      const env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      const r = cli(['applicants', 'erase', '--email', '  Strasse@Example.COM ', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Removed 1 application');
      const left = (await t.db('applications').where('last_name', 'Alike').orderBy('first_name').select('email')).map((x) => x.email);
      expect(left).to.deep.equal(['straße@example.com', 'ｓtrasse@example.com', 'strasse\u0301@example.com']);
      expect(Number((await t.db('applications').count({ n: '*' }).first())!.n)).to.equal(before - 1);
      // The CLI takes the apply form's own email rule.
      for (const bad of ['straße@example.com', 'a@b', 'two@@example.com'])
        expect(cli(['applicants', 'erase', '--email', bad, '--yes'], env).code, bad).to.equal(2);
    });

    it('leaves no byte of an erased address or name in the SQLite files (database, WAL, shared memory)', async function () {
      if (kind !== 'sqlite') this.skip();
      const address = 'erase-me-7f3a@example.com';
      const person = {
        first_name: 'Quillon',
        last_name: 'Zyxwvutsrq',
        email: address,
        phone: '+919811122233',
        status: 'NEW' as const,
        created_at: day('2026-02-01'),
      };
      await insertApplications(t.db, jobs.b, [person], []);
      const id = Number((await t.db('applications').where({ email: address }).first('id')).id);
      const payload = JSON.stringify({ email: address, first_name: person.first_name, second_name: person.last_name });
      await t.db('application_posts').insert({
        application_id: id,
        job_id: jobs.b,
        target_url: 'https://example.com/h',
        payload,
        status: 'FAILED',
        attempts: 1,
        created_at: '2026-02-01 00:00:00.000',
        updated_at: '2026-02-01 00:00:00.000',
      });
      await t.db('email_posts').insert({
        application_id: id,
        template: 'applicant_confirmation',
        payload: JSON.stringify({ to: address, subject: 'Hi', text: `Dear ${person.first_name} ${person.last_name}`, html: '' }),
        status: 'SUCCESS',
        attempts: 1,
        created_at: '2026-02-01 00:00:00.000',
        updated_at: '2026-02-01 00:00:00.000',
      });
      const files = () =>
        fs
          .readdirSync(t.dataDir)
          .filter((f) => f.startsWith('careers.sqlite'))
          .map((f) => fs.readFileSync(path.join(t.dataDir, f)));
      expect(files().some((b) => b.includes(address))).to.equal(true);
      const env = { DATA_DIR: t.dataDir };
      const r = cli(['applicants', 'erase', '--email', address, '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      for (const needle of [address, 'Zyxwvutsrq', 'Quillon', '919811122233']) {
        expect(
          files().some((b) => b.includes(needle)),
          needle,
        ).to.equal(false);
      }
    });

    it('empties the write-ahead log after an erase in a process that stays up, its connection open', async function () {
      if (kind !== 'sqlite') this.skip();
      const person = {
        first_name: 'Wendeline',
        last_name: 'Qoxbrvzt',
        email: 'erase-me-too-9c1d@example.com',
        phone: '+919811122244',
        status: 'NEW' as const,
        created_at: day('2026-02-01'),
      };
      await insertApplications(t.db, jobs.b, [person], []);
      const files = () =>
        fs
          .readdirSync(t.dataDir)
          .filter((f) => f.startsWith('careers.sqlite'))
          .map((f) => fs.readFileSync(path.join(t.dataDir, f)));
      expect(files().some((b) => b.includes(person.email))).to.equal(true);
      await removeApplications(deps(), { email: person.email }, { action: 'erase' });
      for (const needle of [person.email, 'Qoxbrvzt', 'Wendeline'])
        expect(
          files().some((b) => b.includes(needle)),
          needle,
        ).to.equal(false);
    });

    it('careers-admin applicants purge and erase: dry run, confirmation, --yes, bad options', () => {
      const env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      let r = cli(['applicants', 'purge', '--older-than', '90d', '--status', 'archived', '--dry-run'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include(`Dry run: would remove 2 applications with 2 files (job ${jobs.a}: 1, job ${jobs.b}: 1).`);
      // The dry run lists them: id, applied time, job title.
      const listed = r.out.trim().split('\n').slice(1);
      expect(listed[0]).to.match(/^ID\s+APPLIED \(UTC\)\s+JOB$/);
      expect(listed.slice(1)).to.have.length(2);
      for (const line of listed.slice(1)) expect(line).to.match(/^\d+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+\S/);
      r = cli(['applicants', 'purge', '--older-than', '90d', '--status', 'ARCHIVED'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include('pass --yes');
      r = cli(['applicants', 'purge', '--older-than', '90d', '--status', 'ARCHIVED', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Removed 2 applications with 2 files');
      r = cli(['applicants', 'erase', '--email', 'Same@Example.com', '--yes'], env);
      expect(r.out).to.include('Removed 2 applications with 2 files');
      r = cli(['applicants', 'erase', '--email', 'nobody@example.com', '--yes'], env);
      expect(r.out).to.include('No applications, form entries or job alerts match: nothing to remove.');
      for (const args of [
        ['--older-than', 'soon'],
        ['--older-than', '0d'],
        ['--older-than', '5d', '--status', 'HIRED'],
        ['--older-than', '5d', '--job', '1.0'],
      ]) {
        expect(cli(['applicants', 'purge', ...args], env).code, args.join(' ')).to.equal(2);
      }
      expect(cli(['applicants', 'erase', '--email', 'not-an-email'], env).code).to.equal(2);
      // --job is an id or a public id: one that names no job stops (exit 1) before anything is removed.
      const noJob = cli(['applicants', 'purge', '--older-than', '5d', '--job', 'no-such-job', '--yes'], env);
      expect(noJob.code).to.equal(1);
      expect(noJob.err).to.include('--job: no job with the public id "no-such-job".');
      expect(cli(['applicants', 'purge', '--older-than', '0d', '--dry-run'], env).err).to.include(
        '--older-than must be a positive whole number and a unit, such as 1d or 180d',
      );
      // Past the supported range: a usage error, never 'Invalid time value'.
      for (const age of ['999999y', '101y', '1300mo', '999999w']) {
        const tooOld = cli(['applicants', 'purge', '--older-than', age, '--dry-run'], env);
        expect(tooOld.code, age).to.equal(2);
        expect(tooOld.err, age).to.include(`--older-than must be at most 100 years (got "${age}")`).and.not.include('Invalid time value');
      }
      expect(cli(['applicants', 'purge', '--older-than', '100y', '--dry-run'], env).code).to.equal(0);
    });
  });
}

/**
 * careers-admin export as an admin runs it: the real bin in a temp working folder, on a real
 * database; every workbook is opened with exceljs and read back.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { everyFieldForm } from '../forms/helpers.js';
import { seedPosts, webhookJob } from '../posts/helpers.js';
import { createForm, parseFormInput } from '../../src/forms/manage.service.js';
import { enqueueFormPost } from '../../src/posts/repo.js';
import { runCli } from './helpers.js';

async function readRows(file: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

for (const kind of databaseKinds()) {
  describe(`careers-admin export [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let dir: string;
    let jobId: number;
    let formId: number;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' };
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-export-'));
      const job = await makeJob(t.db, {
        title: 'Data Engineer',
        questions: [{ text: 'Why us?', answer_type: 'short_text', required: false }],
      });
      jobId = job.id;
      const app = (first: string, status: 'NEW' | 'ARCHIVED', day: string) => ({
        first_name: first,
        last_name: 'Rao',
        email: `${first}@example.com`,
        phone: '+919876543210',
        status,
        created_at: new Date(`${day}T10:00:00Z`),
        answers: { [job.questions[0].id]: `${first} likes data` },
        resume_name: null,
      });
      await insertApplications(t.db, job.id, [app('Asha', 'NEW', '2026-02-01'), app('Bala', 'ARCHIVED', '2026-02-02')], job.questions);
      await seedPosts(t.db, await webhookJob(t.db, 'https://hooks.example.com/x'), 3, new Date('2025-06-01T00:00:00Z'));
      const form = await createForm({ db: t.db, now: () => new Date() }, parseFormInput(everyFieldForm(), true), null);
      formId = form.id;
      const now = new Date();
      const [entryId] = await t.db('form_entries').insert({
        form_id: form.id,
        data: JSON.stringify({ full_name: 'Asha Rao', email: 'asha@example.com', shift: 'Morning' }),
        created_at: now,
      });
      await enqueueFormPost(t.db, {
        formId: form.id,
        entryId: Number(entryId),
        targetUrl: 'https://hooks.example.com/f',
        payload: { name: 'Asha Rao' },
        now,
      });
    });
    after(async () => {
      await t.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("applicants --job: the insights workbook, under the screen's file name in the working folder", async () => {
      const r = await runCli(['export', 'applicants', '--job', String(jobId)], env, dir);
      const file = path.join(dir, `applicants_job_${jobId}.xlsx`);
      expect(r.code, r.err).to.equal(0);
      // No terminal: no progress bar, only the one line.
      expect(r.err).to.equal('');
      expect(r.out).to.equal(`${file}: 2 rows\n`);
      const rows = await readRows(file);
      expect(rows[0]).to.deep.equal([
        'ID',
        'First Name',
        'Last Name',
        'Email',
        'Phone',
        'Status',
        'Stage',
        'Outcome',
        'Rejection Reason',
        'Applied At (UTC)',
        'Skills',
        'Experience',
        'Education',
        'Resume',
        'Source',
        'Why us?',
      ]);
      expect(rows.slice(1).map((x) => [x[1], x[15]])).to.deep.equal([
        ['Asha', 'Asha likes data'],
        ['Bala', 'Bala likes data'],
      ]);
      // Nothing else left behind (no temporary file).
      expect(fs.readdirSync(dir)).to.deep.equal([path.basename(file)]);
    });

    it('applicants without --job: the filtered list with a job column; --quiet prints nothing', async () => {
      const out = path.join(dir, 'new.xlsx');
      const r = await runCli(
        ['export', 'applicants', '--status', 'new', '--from', '2026-01-01', '--to', '2026-12-31', '--out', out, '--quiet'],
        env,
        dir,
      );
      expect(r.code, r.err).to.equal(0);
      expect(r.out + r.err).to.equal('');
      const rows = await readRows(out);
      expect(rows[0]).to.include.members(['ID', 'Status', 'Job']);
      expect(rows.slice(1).map((x) => [x[1], x[5], x[10]])).to.deep.equal([['Asha', 'NEW', 'Data Engineer']]);
    });

    it('posts, entries and form-posts: the screens’ workbooks', async () => {
      const posts = await runCli(['export', 'posts', '--status', 'pending', '--out', 'posts.xlsx'], env, dir);
      expect(posts.code, posts.err).to.equal(0);
      expect(posts.out).to.equal(`${path.join(dir, 'posts.xlsx')}: 3 rows\n`);
      const postRows = await readRows(path.join(dir, 'posts.xlsx'));
      expect(postRows[0]).to.deep.equal([
        'ID',
        'First Name',
        'Last Name',
        'Email',
        'Phone',
        'Job ID',
        'Status',
        'Code',
        'Time (UTC)',
        'Attempts',
        'Next Attempt (UTC)',
        'Error',
      ]);
      expect(postRows.slice(1).map((x) => x[6])).to.deep.equal(['PENDING', 'PENDING', 'PENDING']);

      const entries = await runCli(['export', 'entries', '--form', String(formId)], env, dir);
      expect(entries.code, entries.err).to.equal(0);
      const entryRows = await readRows(path.join(dir, `form_${formId}_entries.xlsx`));
      expect(entryRows[0]).to.deep.equal([
        'Entry ID',
        'Submitted At (UTC)',
        'Full name',
        'Email',
        'Age',
        'About you',
        'Shift',
        'Days',
        'City',
        'CV',
      ]);
      expect(entryRows[1].slice(2, 4)).to.deep.equal(['Asha Rao', 'asha@example.com']);

      const formPosts = await runCli(['export', 'form-posts', '--form', String(formId), '--status', 'PENDING'], env, dir);
      expect(formPosts.code, formPosts.err).to.equal(0);
      const formPostRows = await readRows(path.join(dir, `form_${formId}_posts_PENDING.xlsx`));
      expect(formPostRows[0]).to.deep.equal([
        'ID',
        'Entry ID',
        'Status',
        'Status Code',
        'Error Message',
        'Created (UTC)',
        'Attempts',
        'Next Attempt (UTC)',
      ]);
      expect(formPostRows).to.have.length(2);
    });

    it('never replaces a file without --force; an unknown job or form is said plainly', async () => {
      const file = path.join(dir, 'keep.xlsx');
      fs.writeFileSync(file, 'precious');
      const r = await runCli(['export', 'posts', '--status', 'SUCCESS', '--out', file], env, dir);
      expect(r.code).to.equal(1);
      expect(r.err).to.include(`${file} already exists: give --force`);
      expect(fs.readFileSync(file, 'utf8')).to.equal('precious');
      const forced = await runCli(['export', 'applicants', '--job', '99999', '--out', file, '--force'], env, dir);
      expect(forced.code).to.equal(1);
      expect(forced.err).to.include('--job: no job 99999.');
      expect(fs.readFileSync(file, 'utf8')).to.equal('precious');
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
    });
  });
}

describe('careers-admin export: bad option values', function () {
  this.timeout(60_000);
  it("exit 2 with the feature's own message, before any database is opened", async () => {
    const env = { DATA_DIR: path.join(os.tmpdir(), 'careers-export-nowhere'), DATABASE_URL: '' };
    const cases: [string[], string][] = [
      [['export', 'applicants', '--job', '1.0'], '--job: Give a job id or a public id, as shown in Manage Jobs. (got "1.0")'],
      [['export', 'applicants', '--status', 'hired'], '--status: Select a valid status: NEW, REVIEWED or ARCHIVED. (got "hired")'],
      [['export', 'posts', '--status', 'LOST'], '--status: Status must be one of SUCCESS, FAILED, PENDING. (got "LOST")'],
      [['export', 'entries', '--form', '0'], '--form: A valid form id is required. (got "0")'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    results.forEach((r, i) => {
      expect(r.code, cases[i][0].join(' ')).to.equal(2);
      expect(r.err).to.include(cases[i][1]);
    });
  });
});

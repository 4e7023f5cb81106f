/**
 * Bringing candidates in (issue 35) on both databases: a Greenhouse and a Lever candidate export
 * import as they are (upload over HTTP, admins only), rows checked with the apply rules, a person
 * who applied already merged, all or nothing unless partial, a dry run writing nothing; the CLI
 * with a resumes folder (files judged like uploads); hostile and broken files answered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../cli/helpers.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import type { Job } from '../../src/jobs/index.js';
import type { ImportReport } from '../../src/imports/types.js';

const GREENHOUSE = [
  'Candidate ID,First Name,Last Name,Company,Title,Email,Phone,Source,Recruiter,Job,Current Stage,Status,Applied On,Notes',
  '101,Maria,García,Initech,Analyst,maria.garcia@example.com,+1 415-555-0101,LinkedIn,Rita,Data Analyst,Screen,Active,2026-03-05,"Strong SQL, ""great"" references"',
  '102,Tom,Berg,,,tom.berg@example.com,+1 (415) 555-0102,Referral,Rita,Data Analyst,Phone Screen,Active,03/06/2026,',
  '103,Ana,Lima,,,ana.lima@example.com,+1 415 555 0103,Job board,Rita,payroll-lead,,Active,2026-03-07 09:30,',
].join('\r\n');

const LEVER = [
  'Name,Email,Phone,Location,Stage,Origin,Sources,Posting,Created At (GMT),Applied At (GMT)',
  'Kenji Sato,kenji.sato@example.com,+14155550104,Berlin,Applied,applied,Company website,Payroll Lead,2026-02-01 10:00:00,2026-02-01 10:00:00',
  'Lea Roth,lea.roth@example.com,+14155550105,Berlin,Interview,sourced,LinkedIn,Payroll Lead,2026-02-02 11:00:00,2026-02-02 11:00:00',
].join('\n');

for (const kind of databaseKinds()) {
  describe(`import candidates [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let admin: string;
    let recruiter: string;
    let jobs: Job[];

    const upload = async (csv: string | Buffer, fields: Record<string, string> = {}, token = admin) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      body.set('file', new Blob([typeof csv === 'string' ? csv : new Uint8Array(csv)]), 'candidates.csv');
      const res = await fetch(`${s.baseUrl}/api/hr/imports/candidates/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body,
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const count = async () => Number((await s.ctx.db('applications').count({ n: '*' }).first())!.n);

    before(async () => {
      s = await startTestServer(kind, { PHONE_RULE: 'international', APPLY_RATE_LIMIT: '0' });
      admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'import.admin'));
      recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'import.recruiter', { role: 'recruiter' }));
      jobs = [
        await makeJob(s.ctx.db, { title: 'Data Analyst', status: 'ACTIVE' }),
        await makeJob(s.ctx.db, { title: 'Payroll Lead', public_id: 'payroll-lead', status: 'ACTIVE' }),
      ];
    });
    after(() => s.close());

    it('checks a Greenhouse export in a dry run, then imports it as it is: stages, dates, sources and notes', async () => {
      const before = await count();
      const dry = await upload(GREENHOUSE, { dry_run: 'true' });
      expect(dry.status).to.equal(200);
      const report: ImportReport = dry.body;
      expect(report).to.deep.include({ rows: 3, dry_run: true, written: false });
      expect(report.imported.map((r) => [r.line, r.email, r.job])).to.deep.equal([
        [2, 'maria.garcia@example.com', 'Data Analyst'],
        [3, 'tom.berg@example.com', 'Data Analyst'],
        [4, 'ana.lima@example.com', 'Payroll Lead'],
      ]);
      expect(report.imported[1].note).to.equal('stage “Phone Screen” is not on the job: put in Applied');
      expect(await count()).to.equal(before);

      const done = await upload(GREENHOUSE);
      expect(done.status).to.equal(201);
      expect(done.body.written).to.equal(true);
      expect(await count()).to.equal(before + 3);
      const maria = await s.ctx
        .db('applications as a')
        .join('job_stages as s', 's.id', 'a.stage_id')
        .where('a.email', 'maria.garcia@example.com')
        .first('a.id', 'a.first_name', 'a.last_name', 'a.phone', 'a.source', 'a.created_at', 's.name as stage', 'a.person_id');
      expect(maria).to.deep.include({
        first_name: 'Maria',
        last_name: 'García',
        phone: '+14155550101',
        source: 'LinkedIn',
        stage: 'Screen',
      });
      expect(maria.person_id).to.be.a('number');
      expect(
        new Date(maria.created_at instanceof Date ? maria.created_at : `${String(maria.created_at).replace(' ', 'T')}Z`).toISOString(),
      ).to.equal('2026-03-05T00:00:00.000Z');
      const notes = await fetch(`${s.baseUrl}/api/hr/applications/${maria.id}/notes/`, { headers: { authorization: `Bearer ${admin}` } });
      expect((await notes.json()).results[0].text).to.equal('Strong SQL, "great" references');
      // The list shows them like any other.
      const list = await fetch(`${s.baseUrl}/api/hr/applications/?q=garcia`, { headers: { authorization: `Bearer ${admin}` } });
      expect((await list.json()).results.map((r: { email: string }) => r.email)).to.deep.equal(['maria.garcia@example.com']);

      // Again: everyone applied already, so every row is merged (and its notes go to the application).
      const again = await upload(GREENHOUSE);
      expect(again.body.merged.map((r: { application_id: number }) => r.application_id)).to.include(maria.id);
      expect(again.body.imported).to.deep.equal([]);
      expect(await count()).to.equal(before + 3);
    });

    it('imports a Lever export into the job its Posting names, with one Name column', async () => {
      const done = await upload(LEVER);
      expect(done.status).to.equal(201);
      const lea = await s.ctx
        .db('applications as a')
        .join('job_stages as s', 's.id', 'a.stage_id')
        .where('a.email', 'lea.roth@example.com')
        .first('a.first_name', 'a.last_name', 'a.job_id', 's.name as stage', 'a.source');
      expect(lea).to.deep.equal({ first_name: 'Lea', last_name: 'Roth', job_id: jobs[1].id, stage: 'Interview', source: 'sourced' });
    });

    it('writes nothing when a row is refused, unless partial; says why per row', async () => {
      const csv = [
        'First Name,Last Name,Email,Phone,Job,Applied On',
        'Ok,Person,ok.person@example.com,+14155550110,Data Analyst,2026-01-01',
        'Bad,Email,not-an-email,+14155550111,Data Analyst,2026-01-01',
        'X1,Digits,digits@example.com,+14155550112,Data Analyst,2026-01-01',
        'No,Job,no.job@example.com,+14155550113,Astronaut,2026-01-01',
        'Future,Date,future@example.com,+14155550114,Data Analyst,2999-01-01',
        'Bad,Date,bad.date@example.com,+14155550115,Data Analyst,yesterday',
        'Bad,Phone,bad.phone@example.com,12,Data Analyst,2026-01-01',
        'Ok,Person,ok.person@example.com,+14155550110,Data Analyst,2026-01-01',
      ].join('\n');
      const before = await count();
      const stopped = await upload(csv);
      expect(stopped.status).to.equal(200);
      expect(stopped.body.written).to.equal(false);
      expect(stopped.body.refused.map((r: { line: number; reason: string }) => [r.line, r.reason])).to.deep.equal([
        [3, "email: Provided email isn't valid."],
        [4, stopped.body.refused[1].reason],
        [5, 'No job “Astronaut”: name a job by its title or public id.'],
        [6, 'The applied date is in the future.'],
        [7, 'The applied date is not a date this import reads (2026-03-05, 2026-03-05 14:30, 03/05/2026).'],
        [8, 'phone: Provided phone number is not valid for the chosen country.'],
        [9, 'The same email and job as line 2.'],
      ]);
      expect(stopped.body.refused[1].reason).to.match(/^first name: /);
      expect(await count()).to.equal(before);
      const partial = await upload(csv, { partial: 'true' });
      expect([partial.status, partial.body.imported.length, partial.body.refused.length]).to.deep.equal([201, 1, 7]);
      expect(await count()).to.equal(before + 1);
    });

    it('answers broken and hostile uploads, and only to admins', async () => {
      expect((await upload(GREENHOUSE, {}, recruiter)).status).to.equal(403);
      expect((await fetch(`${s.baseUrl}/api/hr/imports/candidates/`, { method: 'POST' })).status).to.equal(401);
      const noEmail = await upload('Name,Phone\nA B,+14155550120');
      expect(noEmail).to.deep.equal({ status: 400, body: { detail: 'The file has no email column: name one "Email".' } });
      const binary = await upload(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));
      expect(binary.status).to.equal(400);
      const tooMany = await upload(`Name,Email\n${Array.from({ length: 10_001 }, (_, i) => `A B,a${i}@example.com`).join('\n')}`);
      expect(tooMany).to.deep.equal({ status: 400, body: { detail: 'The file has more than 10000 rows.' } });
      const broken = await upload('Name,Email\n"A B,a@example.com\n');
      expect(broken.status).to.equal(400);
      expect(broken.body.detail).to.match(/^The file is not a CSV file this import can read: /);
      expect((await upload(GREENHOUSE, { job_id: 'abc' })).body).to.deep.equal({ job_id: ['job_id must be the id of a job.'] });
      expect((await upload(GREENHOUSE, { job_id: '999999' })).body).to.deep.equal({
        detail: 'No job “999999”: name a job by its title or public id.',
      });
      const notMultipart = await fetch(`${s.baseUrl}/api/hr/imports/candidates/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
        body: GREENHOUSE,
      });
      expect(notMultipart.status).to.equal(415);
      const empty = await upload('');
      expect(empty.status).to.equal(400);
    });

    it('imports from the CLI with a resumes folder, judging each file like an upload', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
      const pdf = (await import('../fixtures/apply.js')).validFields().resume as { data: Buffer };
      fs.writeFileSync(path.join(dir, 'zoe.pdf'), pdf.data);
      fs.writeFileSync(path.join(dir, 'fake.pdf'), '<html>not a pdf</html>');
      const csv = path.join(dir, 'people.csv');
      fs.writeFileSync(
        csv,
        [
          'First Name,Last Name,Email,Phone,Resume',
          'Zoe,Park,zoe.park@example.com,+14155550130,zoe.pdf',
          'Yan,Li,yan.li@example.com,+14155550131,fake.pdf',
          'Xi,Wu,xi.wu@example.com,+14155550132,../etc/passwd',
          'Vic,Mo,vic.mo@example.com,+14155550133,missing.pdf',
        ].join('\n'),
      );
      const env = {
        DATA_DIR: s.testDb.dataDir,
        PHONE_RULE: 'international',
        ...(s.ctx.config.databaseUrl ? { DATABASE_URL: s.ctx.config.databaseUrl } : {}),
      };
      const stopped = await runCli(['import', 'candidates', '--file', csv, '--resumes', dir, '--job', String(jobs[0].id)], env);
      expect(stopped.code, stopped.err).to.equal(1);
      expect(stopped.out).to.include('line 3 (yan.li@example.com): refused: resume: Only PDF, DOC, or DOCX files are allowed');
      expect(stopped.out).to.include('line 4 (xi.wu@example.com): refused: A resume is named by its file name alone.');
      expect(stopped.out).to.include('line 5 (vic.mo@example.com): refused: No resume file “missing.pdf” in the resumes folder.');
      expect(stopped.err).to.include('Nothing was imported');
      const done = await runCli(['import', 'candidates', '--file', csv, '--resumes', dir, '--job', String(jobs[0].id), '--partial'], env);
      expect(done.code, done.err).to.equal(0);
      expect(done.out).to.include('Imported: 1 new application; merged into existing applications: 0; refused: 3.');
      const zoe = await s.ctx
        .db('applications as a')
        .join('stored_files as f', 'f.id', 'a.resume_file_id')
        .where('a.email', 'zoe.park@example.com')
        .first('f.content_type', 'f.original_name');
      expect(zoe).to.deep.equal({ content_type: 'application/pdf', original_name: 'zoe.pdf' });
      const resume = await fetch(
        `${s.baseUrl}/api/hr/applications/${(await s.ctx.db('applications').where('email', 'zoe.park@example.com').first('id')).id}/resume/`,
        {
          headers: { authorization: `Bearer ${admin}` },
        },
      );
      expect(resume.status).to.equal(200);
      expect(Buffer.from(await resume.arrayBuffer()).equals(pdf.data)).to.equal(true);
      expect((await runCli(['import', 'candidates', '--file', path.join(dir, 'nope.csv')], env)).code).to.equal(2);
      fs.rmSync(dir, { recursive: true, force: true });
      // A person who applied through the site and then comes in an import is one person.
      await fetch(`${s.baseUrl}/api/jobs/${jobs[1].public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: 'zoe.park@example.com', phone: '+14155550130', first_name: 'Zoe', last_name: 'Park' })),
      });
      const people = await s.ctx.db('applications').where('email', 'zoe.park@example.com').distinct('person_id');
      expect(people).to.have.length(1);
    });
  });
}

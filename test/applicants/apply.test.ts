/**
 * POST /api/jobs/{publicId}/apply/ over real HTTP, what is kept: a full application with every
 * answer type, DOC/DOCX resumes, number answers, hostile strings and file names, job states,
 * duplicates, the honeypot. Refusals of bad input: apply-validation.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import type { TestServer } from '../helpers/server.js';
import type { Job } from '../../src/jobs/types.js';
import { fromDbDate, fromDbJson } from '../../src/db/codecs.js';
import { docBytes, docxBytes, pdfBytes } from '../fixtures/resumes.js';
import {
  APPLY_NOW as NOW,
  applyCalls,
  listFiles,
  rawMultipart,
  rawTextParts,
  sha256,
  startApplyServer,
  validFields,
  type FullJobQuestions,
} from '../fixtures/apply.js';

for (const kind of databaseKinds()) {
  describe(`apply API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let job: Job;
    let root: string;
    let q: FullJobQuestions;
    before(async () => {
      ({ s, job, root, q } = await startApplyServer(kind));
    });
    after(() => s.close());
    const { apply, applyRaw, fullAnswers, fullFields, state, expectRefused } = applyCalls(() => ({ s, root, q }));

    it('accepts a full application and stores every part of it, with the outbox row, in the documented format', async () => {
      const resume = pdfBytes(300_000);
      const res = await apply(
        'full-1',
        fullFields({
          email: 'Full.Applicant@Example.COM',
          resume: { data: resume, filename: 'Full Résumé.pdf', type: 'text/plain' },
          professional_experiences: JSON.stringify([
            {
              company: 'Initech',
              role: 'Engineer',
              start: '2019-04',
              end: '2022-08',
              notice_period: '30 days',
              salary: '20 LPA',
              description: 'TPS reports',
            },
            { company: 'Globex', role: 'Lead', start: '2022-09', end: '', notice_period: '', salary: '', description: '' },
          ]),
          skills: JSON.stringify(['TypeScript', ' typescript ', '', 'Node.js', 'SQL']),
        }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.equal({ detail: 'Application submitted.' });

      const db = s.ctx.db;
      const app = await db('applications').where({ email: 'full.applicant@example.com' }).first();
      expect(app).to.include({ job_id: job.id, first_name: 'Asha', last_name: "D'Souza-Rao", phone: '+919876543210', status: 'NEW' });
      expect(app.ip_hash).to.match(/^[a-f0-9]{64}$/);
      expect(fromDbDate(app.created_at)!.toISOString()).to.equal(NOW.toISOString());

      const file = await db('stored_files').where({ id: app.resume_file_id }).first();
      expect(file).to.include({ original_name: 'Full Résumé.pdf', content_type: 'application/pdf', sha256: sha256(resume) });
      expect(Number(file.size)).to.equal(resume.length);
      expect(file.storage_key).to.match(/^[a-f0-9]{2}\/[a-f0-9]{32}$/);
      const onDisk = fs.readFileSync(path.join(root, file.storage_key));
      expect(sha256(onDisk)).to.equal(sha256(resume));

      const exps = await db('application_experiences').where({ application_id: app.id }).orderBy('position');
      expect(exps.map((e: any) => [e.position, e.company, e.role, e.start, e.end, e.notice_period, e.salary, e.description])).to.deep.equal(
        [
          [0, 'Initech', 'Engineer', '2019-04', '2022-08', '30 days', '20 LPA', 'TPS reports'],
          [1, 'Globex', 'Lead', '2022-09', null, '', '', null],
        ],
      );
      const edu = await db('application_education').where({ application_id: app.id }).orderBy('position');
      expect(edu.map((e: any) => [e.position, e.school, e.degree, e.field, e.start, e.end])).to.deep.equal([
        [0, 'IIT Bombay', 'B.Tech', 'Computer Science', '2015-07', '2019-05'],
      ]);
      const skills = await db('application_skills').where({ application_id: app.id }).orderBy('position');
      expect(skills.map((k: any) => k.name)).to.deep.equal(['TypeScript', 'Node.js', 'SQL']);

      const answers = await db('application_answers').where({ application_id: app.id }).orderBy('question_id');
      const byQ = new Map(answers.map((a: any) => [Number(a.question_id), a]));
      expect(answers).to.have.length(5);
      const short: any = byQ.get(q.short);
      expect(short).to.include({ answer: '"Because of the mission"', answer_key: 'because of the mission', answer_number: null });
      expect(short.question_text).to.equal('<p>Why <b>us</b>?</p>');
      expect(byQ.get(q.long)).to.include({
        answer: JSON.stringify('Line one\nLine two'),
        answer_key: 'line one\nline two',
        question_text: 'Tell us more',
      });
      const num: any = byQ.get(q.num);
      expect(fromDbJson(num.answer, null)).to.equal(7.5);
      expect(num.answer).to.equal('7.5');
      expect(num.answer_key).to.equal('7.5');
      expect(Number(num.answer_number)).to.equal(7.5);
      expect(byQ.get(q.single)).to.include({ answer: '"Yes"', answer_key: 'Yes', answer_number: null });
      const multi: any = byQ.get(q.multi);
      expect(multi).to.include({ answer: '["Remote","Onsite"]', answer_key: null, answer_number: null });
      const choices = await db('application_answer_choices').where({ answer_id: multi.id }).orderBy('id');
      expect(choices.map((c: any) => [Number(c.question_id), c.choice])).to.deep.equal([
        [q.multi, 'Remote'],
        [q.multi, 'Onsite'],
      ]);

      const posts = await db('application_posts').where({ application_id: app.id });
      expect(posts).to.have.length(1);
      expect(posts[0]).to.include({ job_id: job.id, target_url: 'https://hooks.example.com/apply', status: 'PENDING', attempts: 0 });
      expect(fromDbDate(posts[0].next_attempt_at)!.toISOString()).to.equal(NOW.toISOString());
      expect(JSON.parse(posts[0].payload)).to.deep.equal({
        job_public_id: 'full-1',
        email: 'full.applicant@example.com',
        first_name: 'Asha',
        second_name: "D'Souza-Rao",
        phone: '+919876543210',
      });
      // The secret is added at send time: the outbox never holds it.
      expect(posts[0].payload).to.not.include('s3cret-0123456789');
    });

    it('accepts DOC and DOCX resumes and records the type found in the bytes, not the one sent', async () => {
      for (const [i, data, name, type] of [
        [1, docBytes(), 'old.doc', 'application/msword'],
        [2, docxBytes(), 'new.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        // The central directory lies beyond the tail kept in memory, so it is read back from storage.
        [3, docxBytes(600_000), 'big.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ] as const) {
        const res = await apply(
          'plain-1',
          validFields({ email: `doc${i}@example.com`, resume: { data, filename: name, type: 'application/pdf' } }),
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const app = await s.ctx
          .db('applications')
          .where({ email: `doc${i}@example.com` })
          .first();
        const file = await s.ctx.db('stored_files').where({ id: app.resume_file_id }).first();
        expect(file.content_type).to.equal(type);
        expect(sha256(fs.readFileSync(path.join(root, file.storage_key)))).to.equal(sha256(data));
      }
    });

    it('accepts a job without questions; no answer rows and no outbox row when the webhook is off', async () => {
      const res = await apply('plain-1', validFields({ email: 'plain@example.com', answers: undefined, education: undefined, skills: '' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const app = await s.ctx.db('applications').where({ email: 'plain@example.com' }).first();
      expect(await s.ctx.db('application_answers').where({ application_id: app.id })).to.have.length(0);
      expect(await s.ctx.db('application_education').where({ application_id: app.id })).to.have.length(0);
      expect(await s.ctx.db('application_posts').where({ application_id: app.id })).to.have.length(0);
    });

    it('stores no row for an optional question left empty, and takes numbers sent as JSON numbers', async () => {
      const res = await apply(
        'full-1',
        fullFields({
          email: 'optional@example.com',
          answers: JSON.stringify([
            { question_id: q.short, answer: 'x' },
            { question_id: q.long, answer: '   ' },
            { question_id: String(q.num), answer: -3 },
            { question_id: q.single, answer: 'No' },
            { question_id: q.multi, answer: [] },
          ]),
        }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const app = await s.ctx.db('applications').where({ email: 'optional@example.com' }).first();
      const answers = await s.ctx.db('application_answers').where({ application_id: app.id });
      expect(answers.map((a: any) => Number(a.question_id)).sort((a: number, b: number) => a - b)).to.deep.equal([
        q.short,
        q.num,
        q.single,
      ]);
      const num = answers.find((a: any) => Number(a.question_id) === q.num);
      expect([num.answer, num.answer_key, Number(num.answer_number)]).to.deep.equal(['-3', '-3', -3]);
    });

    it("accepts number answers in every form <input type=number> sends, and stores answer_number at the column's scale", async () => {
      const cases: [string | number, string, number][] = [
        ['.5', '0.5', 0.5],
        ['-.5', '-0.5', -0.5],
        ['1e3', '1000', 1000],
        ['2.5E-1', '0.25', 0.25],
        ['007', '7', 7],
        ['  12  ', '12', 12],
        ['-0', '0', 0],
        ['999999999999999', '999999999999999', 999999999999999],
        // More decimals than DECIMAL(20,4) holds: the answer keeps them, answer_number is rounded on both databases.
        ['123.456789', '123.456789', 123.4568],
        ['1e-7', '1e-7', 0],
        [2.5, '2.5', 2.5],
      ];
      for (const [i, [sent, answer, stored]] of cases.entries()) {
        const email = `number-${i}@example.com`;
        const res = await apply(
          'full-1',
          fullFields({ email, answers: JSON.stringify(fullAnswers().map((a) => (a.question_id === q.num ? { ...a, answer: sent } : a))) }),
        );
        expect(res.status, `${JSON.stringify(sent)}: ${JSON.stringify(res.body)}`).to.equal(201);
        const app = await s.ctx.db('applications').where({ email }).first();
        const row = await s.ctx.db('application_answers').where({ application_id: app.id, question_id: q.num }).first();
        expect([row.answer, row.answer_key, Number(row.answer_number)], JSON.stringify(sent)).to.deep.equal([answer, answer, stored]);
      }
    });

    it('keeps shaping the phone to its digits: control characters go with the separators', async () => {
      const res = await apply('plain-1', validFields({ email: 'phone-nul@example.com', phone: '+91 98765\u000043210\u0007' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const app = await s.ctx.db('applications').where({ email: 'phone-nul@example.com' }).first();
      expect(app.phone).to.equal('+919876543210');
    });

    describe('hostile strings and file names', () => {
      it('stores SQL and HTML in free text verbatim (as data), strips brackets from names, keeps unknown fields out', async () => {
        const sql = "Robert'); DROP TABLE applications;--";
        const html = '<img src=x onerror=alert(1)><script>alert(2)</script>';
        const res = await apply(
          'full-1',
          fullFields({
            first_name: '<Asha>',
            email: 'hostile@example.com',
            professional_experiences: JSON.stringify([
              { company: sql, role: html, start: '2020-01', end: '', notice_period: '\u0000\u0007', salary: '', description: html },
            ]),
            skills: JSON.stringify([sql, html]),
            answers: JSON.stringify(fullAnswers().map((a) => (a.question_id === q.short ? { ...a, answer: `${html}\u0000 ${sql}` } : a))),
            role: 'admin',
            status: 'REVIEWED',
          }),
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const db = s.ctx.db;
        const app = await db('applications').where({ email: 'hostile@example.com' }).first();
        expect(app.first_name).to.equal('Asha');
        expect(app.status).to.equal('NEW');
        const exp = await db('application_experiences').where({ application_id: app.id }).first();
        expect([exp.company, exp.role, exp.description, exp.notice_period]).to.deep.equal([sql, html, html, '']);
        expect(
          (await db('application_skills').where({ application_id: app.id }).orderBy('position')).map((k: any) => k.name),
        ).to.deep.equal([sql, html]);
        const short = await db('application_answers').where({ application_id: app.id, question_id: q.short }).first();
        expect(JSON.parse(short.answer)).to.equal(`${html} ${sql}`);
        expect(await db('applications').count({ n: '*' }).first()).to.be.ok; // the table is still there
      });

      it('free text (experience, education, skills, text answers): control characters other than tab and line breaks are removed, the text kept', async () => {
        const res = await apply(
          'full-1',
          fullFields({
            email: 'free-text-controls@example.com',
            professional_experiences: JSON.stringify([
              {
                company: 'Ini\u0000tech',
                role: 'Engi\u0008neer',
                start: '2020-01',
                end: '',
                notice_period: '',
                salary: '20\u001b LPA',
                description: 'Line\u0000 one\n\tLine two\r\n',
              },
            ]),
            education: JSON.stringify([{ school: 'IIT\u007f Bombay', degree: 'B.Tech', field: '', start: '2015-07', end: '2019-05' }]),
            skills: JSON.stringify(['Type\u0000Script']),
            answers: JSON.stringify(
              fullAnswers().map((a) => (a.question_id === q.long ? { ...a, answer: 'Pasted\u0000 from\u000c a PDF\nsecond line' } : a)),
            ),
          }),
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const db = s.ctx.db;
        const app = await db('applications').where({ email: 'free-text-controls@example.com' }).first();
        const exp = await db('application_experiences').where({ application_id: app.id }).first();
        expect([exp.company, exp.role, exp.salary, exp.description]).to.deep.equal([
          'Initech',
          'Engineer',
          '20 LPA',
          'Line one\n\tLine two',
        ]);
        expect((await db('application_education').where({ application_id: app.id }).first()).school).to.equal('IIT Bombay');
        expect((await db('application_skills').where({ application_id: app.id }).first()).name).to.equal('TypeScript');
        const long = await db('application_answers').where({ application_id: app.id, question_id: q.long }).first();
        expect(JSON.parse(long.answer)).to.equal('Pasted from a PDF\nsecond line');
      });

      const names: [string, string, string][] = [
        ['path traversal', '../../../etc/passwd.pdf', 'passwd.pdf'],
        ['Windows path', '..\\..\\Windows\\system32\\cv.pdf', 'cv.pdf'],
        ['bidi and zero-width marks', 'cv\u200E\u2066.pdf\u2069', 'cv.pdf'],
        ['right-to-left override', 'cv\u202Efdp.exe', 'cvfdp.exe'],
        ['only dots', '..', 'resume'],
        ['very long', `${'n'.repeat(400)}.pdf`, `${'n'.repeat(196)}.pdf`],
      ];
      for (const [label, filename, stored] of names) {
        it(`file name with ${label}: kept only as sanitised metadata, stored under a random key`, async () => {
          const email = `name-${label.replace(/\W+/g, '-').toLowerCase()}@example.com`;
          const data = pdfBytes(2048);
          const { body, contentType } = rawMultipart([
            ...rawTextParts(validFields({ email })),
            { disposition: `form-data; name="resume"; filename="${filename.replace(/"/g, '%22')}"`, type: 'application/pdf', body: data },
          ]);
          const res = await applyRaw('plain-1', body, contentType);
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          const app = await s.ctx.db('applications').where({ email }).first();
          const file = await s.ctx.db('stored_files').where({ id: app.resume_file_id }).first();
          expect(file.original_name).to.equal(stored);
          expect(file.storage_key).to.match(/^[a-f0-9]{2}\/[a-f0-9]{32}$/);
          expect(sha256(fs.readFileSync(path.join(root, file.storage_key)))).to.equal(sha256(data));
          // Nothing was written outside the uploads folder under the client's name.
          expect(listFiles(root).every((f) => /^[a-f0-9]{2}\/[a-f0-9]{32}$/.test(f))).to.equal(true);
        });
      }

      it('a NUL byte in the file name: a raw one makes the part header malformed (400, nothing stored); an encoded one is removed', async () => {
        const before = await state();
        const raw = rawMultipart([
          ...rawTextParts(validFields({ email: 'nul@example.com' })),
          { disposition: 'form-data; name="resume"; filename="cv\u0000.pdf"', type: 'application/pdf', body: pdfBytes() },
        ]);
        const refused = await applyRaw('plain-1', raw.body, raw.contentType);
        expect(refused).to.deep.equal({ status: 400, body: { detail: 'The form data is malformed or incomplete.' } });
        expect(await state()).to.deep.equal(before);

        const encoded = rawMultipart([
          ...rawTextParts(validFields({ email: 'nul@example.com' })),
          { disposition: 'form-data; name="resume"; filename*=UTF-8\'\'..%2F..%2Fcv%00.pdf', type: 'application/pdf', body: pdfBytes() },
        ]);
        const res = await applyRaw('plain-1', encoded.body, encoded.contentType);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const app = await s.ctx.db('applications').where({ email: 'nul@example.com' }).first();
        const file = await s.ctx.db('stored_files').where({ id: app.resume_file_id }).first();
        expect(file.original_name).to.equal('cv.pdf');
      });
    });

    describe('job states, duplicates, honeypot', () => {
      it('an inactive job refuses with a detail; removed and unknown jobs answer 404', async () => {
        await expectRefused('inactive-1', validFields(), 400, { detail: 'This job post has stopped taking application.' });
        await expectRefused('removed-1', validFields(), 404, { detail: 'This job post has been removed.' });
        await expectRefused('no-such-job', validFields(), 404, { detail: 'This job post has been removed.' });
        await expectRefused('x'.repeat(300), validFields(), 404, { detail: 'This job post has been removed.' });
      });

      it('one application per email per job, whatever the case of the email', async () => {
        const first = await apply('plain-1', validFields({ email: 'Twice@Example.com' }));
        expect(first.status).to.equal(201);
        await expectRefused('plain-1', validFields({ email: 'twice@example.COM' }), 400, {
          email: ['You have already applied for this job with this email.'],
        });
        // Another job is fine.
        expect((await apply('full-1', fullFields({ email: 'twice@example.com' }))).status).to.equal(201);
      });

      it('two identical applications at the same moment: one is kept, the other gets the email message', async () => {
        const before = await state();
        const fields = validFields({ email: 'race@example.com', resume: { data: pdfBytes(1_000_000), filename: 'race.pdf' } });
        const results = await Promise.all(Array.from({ length: 4 }, () => apply('plain-1', fields)));
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).to.deep.equal([201, 400, 400, 400]);
        for (const r of results.filter((x) => x.status === 400))
          expect(r.body).to.deep.equal({ email: ['You have already applied for this job with this email.'] });
        const after = await state();
        expect(after.counts.applications).to.equal(before.counts.applications + 1);
        expect(after.counts.stored_files).to.equal(before.counts.stored_files + 1);
        expect(after.files.length).to.equal(before.files.length + 1);
      });

      it('a filled honeypot is answered like a success and nothing is stored', async () => {
        const before = await state();
        const res = await apply('plain-1', validFields({ email: 'bot@example.com', website: 'http://spam.example' }));
        expect(res.status).to.equal(201);
        expect(res.body).to.deep.equal({ detail: 'Application submitted.' });
        expect(await state()).to.deep.equal(before);
        // Even when the bot's other fields are wrong, it learns nothing.
        const res2 = await apply('plain-1', validFields({ email: 'not an email', website: 'x' }));
        expect(res2.status).to.equal(201);
        expect(await state()).to.deep.equal(before);
      });
    });

    // Mocha runs a suite's own tests before its nested suites: this check sits in the last nested
    // suite so that it really runs after every test above.
    describe('finally', () => {
      it('after all of the above, every file on disk belongs to exactly one stored_files row and vice versa', async () => {
        const rows = await s.ctx.db('stored_files').select('storage_key');
        expect(rows.map((r: any) => r.storage_key).sort()).to.deep.equal(listFiles(root));
        // The many refused uploads left no empty fan-out folder behind either.
        const folders = fs.readdirSync(root).sort();
        expect(folders).to.deep.equal([...new Set(listFiles(root).map((k) => k.slice(0, 2)))].sort());
        const apps = await s.ctx.db('applications').whereNull('resume_file_id');
        expect(apps).to.have.length(0);
      });
    });
  });
}

/**
 * POST /api/jobs/{publicId}/apply/ over real HTTP: a full application with every answer type,
 * every validation message, wrong types, missing parts, oversized fields and files, hostile
 * strings and file names, job states, the honeypot. Every refusal must leave nothing behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import type { Job } from '../../src/jobs/types.js';
import { fromDbDate, fromDbJson } from '../../src/db/codecs.js';
import { MESSAGES } from '../../src/shared/application-rules.js';
import { docBytes, docxBytes, exeBytes, pdfBytes, plainZipBytes } from '../fixtures/resumes.js';
import { listFiles, rawMultipart, rawTextParts, sha256, tableCounts, toFormData, uploadsRoot, validFields, type FormValue } from '../fixtures/apply.js';

const NOW = new Date('2026-03-15T10:00:00.000Z');

for (const kind of databaseKinds()) {
  describe(`apply API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let job: Job;
    let root: string;
    let q: { short: number; long: number; num: number; single: number; multi: number };
    let otherJobQuestion: number;

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' }, { now: () => NOW });
      root = uploadsRoot(s.ctx);
      const db = s.ctx.db;
      job = await makeJob(db, {
        public_id: 'full-1',
        webhook_enabled: true,
        webhook_url: 'https://hooks.example.com/apply',
        webhook_secret: 's3cret',
        questions: [
          { text: '<p>Why <b>us</b>?<script>x</script></p>', answer_type: 'short_text', required: true },
          { text: 'Tell us more', answer_type: 'long_text', required: false },
          { text: 'Years of experience', answer_type: 'number', required: true },
          { text: 'Can you relocate?', answer_type: 'single_choice', required: true, options: ['Yes', 'No'] },
          { text: 'Preferred modes', answer_type: 'checkbox', required: false, options: ['Remote', 'Hybrid', 'Onsite'] },
        ],
      });
      const [short, long, num, single, multi] = job.questions.map((x) => x.id);
      q = { short, long, num, single, multi };
      await makeJob(db, { public_id: 'plain-1' });
      await makeJob(db, { public_id: 'required-check', questions: [{ text: 'Pick one or more', answer_type: 'checkbox', required: true, options: ['A', 'B'] }] });
      const other = await makeJob(db, { public_id: 'other-1', questions: [{ text: 'Other job question', answer_type: 'short_text', required: false }] });
      otherJobQuestion = other.questions[0].id;
      await makeJob(db, { public_id: 'inactive-1', status: 'INACTIVE' });
      await makeJob(db, { public_id: 'removed-1', status: 'REMOVED' });
    });
    after(() => s.close());

    const url = (publicId: string) => `${s.baseUrl}/api/jobs/${publicId}/apply/`;

    async function apply(publicId: string, fields: Record<string, FormValue>): Promise<{ status: number; body: any }> {
      const res = await fetch(url(publicId), { method: 'POST', body: toFormData(fields) });
      return { status: res.status, body: await res.json() };
    }

    async function applyRaw(publicId: string, body: Buffer | string, contentType: string): Promise<{ status: number; body: any }> {
      const res = await fetch(url(publicId), { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': contentType } });
      return { status: res.status, body: await res.json() };
    }

    const fullAnswers = () => [
      { question_id: q.short, answer: 'Because of the mission' },
      { question_id: q.long, answer: '  Line one\nLine two  ' },
      { question_id: q.num, answer: '7.5' },
      { question_id: q.single, answer: 'Yes' },
      { question_id: q.multi, answer: ['Remote', 'Onsite'] },
    ];
    const fullFields = (overrides: Record<string, FormValue | undefined> = {}) => validFields({ answers: JSON.stringify(fullAnswers()), ...overrides });

    async function state() {
      return { counts: await tableCounts(s.ctx.db), files: listFiles(root) };
    }

    /** Sends the form, expects the refusal, and checks that no row and no file were added. */
    async function expectRefused(publicId: string, fields: Record<string, FormValue>, status: number, body: Record<string, unknown>) {
      const before = await state();
      const res = await apply(publicId, fields);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body).to.deep.equal(body);
      expect(await state()).to.deep.equal(before);
    }

    it('accepts a full application and stores every part of it, with the outbox row, in the documented format', async () => {
      const resume = pdfBytes(300_000);
      const res = await apply('full-1', fullFields({
        email: 'Full.Applicant@Example.COM',
        resume: { data: resume, filename: 'Full Résumé.pdf', type: 'text/plain' },
        professional_experiences: JSON.stringify([
          { company: 'Initech', role: 'Engineer', start: '2019-04', end: '2022-08', notice_period: '30 days', salary: '20 LPA', description: 'TPS reports' },
          { company: 'Globex', role: 'Lead', start: '2022-09', end: '', notice_period: '', salary: '', description: '' },
        ]),
        skills: JSON.stringify(['TypeScript', ' typescript ', '', 'Node.js', 'SQL']),
      }));
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
      expect(exps.map((e: any) => [e.position, e.company, e.role, e.start, e.end, e.notice_period, e.salary, e.description])).to.deep.equal([
        [0, 'Initech', 'Engineer', '2019-04', '2022-08', '30 days', '20 LPA', 'TPS reports'],
        [1, 'Globex', 'Lead', '2022-09', null, '', '', null],
      ]);
      const edu = await db('application_education').where({ application_id: app.id }).orderBy('position');
      expect(edu.map((e: any) => [e.position, e.school, e.degree, e.field, e.start, e.end])).to.deep.equal([[0, 'IIT Bombay', 'B.Tech', 'Computer Science', '2015-07', '2019-05']]);
      const skills = await db('application_skills').where({ application_id: app.id }).orderBy('position');
      expect(skills.map((k: any) => k.name)).to.deep.equal(['TypeScript', 'Node.js', 'SQL']);

      const answers = await db('application_answers').where({ application_id: app.id }).orderBy('question_id');
      const byQ = new Map(answers.map((a: any) => [Number(a.question_id), a]));
      expect(answers).to.have.length(5);
      const short: any = byQ.get(q.short);
      expect(short).to.include({ answer: '"Because of the mission"', answer_key: 'because of the mission', answer_number: null });
      expect(short.question_text).to.equal('<p>Why <b>us</b>?</p>');
      expect(byQ.get(q.long)).to.include({ answer: JSON.stringify('Line one\nLine two'), answer_key: 'line one\nline two', question_text: 'Tell us more' });
      const num: any = byQ.get(q.num);
      expect(fromDbJson(num.answer, null)).to.equal(7.5);
      expect(num.answer).to.equal('7.5');
      expect(num.answer_key).to.equal('7.5');
      expect(Number(num.answer_number)).to.equal(7.5);
      expect(byQ.get(q.single)).to.include({ answer: '"Yes"', answer_key: 'Yes', answer_number: null });
      const multi: any = byQ.get(q.multi);
      expect(multi).to.include({ answer: '["Remote","Onsite"]', answer_key: null, answer_number: null });
      const choices = await db('application_answer_choices').where({ answer_id: multi.id }).orderBy('id');
      expect(choices.map((c: any) => [Number(c.question_id), c.choice])).to.deep.equal([[q.multi, 'Remote'], [q.multi, 'Onsite']]);

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
        secret_key: 's3cret',
      });
    });

    it('accepts DOC and DOCX resumes and records the type found in the bytes, not the one sent', async () => {
      for (const [i, data, name, type] of [
        [1, docBytes(), 'old.doc', 'application/msword'],
        [2, docxBytes(), 'new.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        // The central directory lies beyond the tail kept in memory, so it is read back from storage.
        [3, docxBytes(600_000), 'big.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ] as const) {
        const res = await apply('plain-1', validFields({ email: `doc${i}@example.com`, resume: { data, filename: name, type: 'application/pdf' } }));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const app = await s.ctx.db('applications').where({ email: `doc${i}@example.com` }).first();
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
      const res = await apply('full-1', fullFields({
        email: 'optional@example.com',
        answers: JSON.stringify([
          { question_id: q.short, answer: 'x' },
          { question_id: q.long, answer: '   ' },
          { question_id: String(q.num), answer: -3 },
          { question_id: q.single, answer: 'No' },
          { question_id: q.multi, answer: [] },
        ]),
      }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const app = await s.ctx.db('applications').where({ email: 'optional@example.com' }).first();
      const answers = await s.ctx.db('application_answers').where({ application_id: app.id });
      expect(answers.map((a: any) => Number(a.question_id)).sort((a: number, b: number) => a - b)).to.deep.equal([q.short, q.num, q.single]);
      const num = answers.find((a: any) => Number(a.question_id) === q.num);
      expect([num.answer, num.answer_key, Number(num.answer_number)]).to.deep.equal(['-3', '-3', -3]);
    });

    it('accepts number answers in every form <input type=number> sends, and stores answer_number at the column\'s scale', async () => {
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
        const res = await apply('full-1', fullFields({ email, answers: JSON.stringify(fullAnswers().map((a) => (a.question_id === q.num ? { ...a, answer: sent } : a))) }));
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

    describe('validation messages (nothing stored)', () => {
      const basic: [string, Record<string, FormValue | undefined>, Record<string, unknown>][] = [
        ['missing first name', { first_name: undefined }, { first_name: [MESSAGES.firstNameRequired] }],
        ['blank first name', { first_name: '   ' }, { first_name: [MESSAGES.firstNameRequired] }],
        ['digits in the first name', { first_name: 'Asha2' }, { first_name: [MESSAGES.namePattern] }],
        ['HTML in the first name (brackets stripped, then checked)', { first_name: '<script>alert(1)</script>' }, { first_name: [MESSAGES.namePattern] }],
        ['SQL in the first name', { first_name: "x' OR '1'='1" }, { first_name: [MESSAGES.namePattern] }],
        ['bad last name', { last_name: 'Rao; DROP TABLE applications' }, { last_name: [MESSAGES.namePattern] }],
        // Control characters reach the rules as sent: never removed to make a different, valid value.
        ['a NUL byte in the first name', { first_name: 'As\u0000ha' }, { first_name: [MESSAGES.namePattern] }],
        ['a first name that is only a NUL byte', { first_name: '\u0000' }, { first_name: [MESSAGES.namePattern] }],
        ['a bell character in the last name', { last_name: 'Ra\u0007o' }, { last_name: [MESSAGES.namePattern] }],
        ['an escape sequence in the first name', { first_name: 'Asha\u001b[31m' }, { first_name: [MESSAGES.namePattern] }],
        ['a DEL character in the last name', { last_name: 'Rao\u007f' }, { last_name: [MESSAGES.namePattern] }],
        ['a NUL byte in the email', { email: 'asha\u0000@example.com' }, { email: [MESSAGES.emailInvalid] }],
        ['a NUL byte at the end of the email', { email: 'asha@example.com\u0000' }, { email: [MESSAGES.emailInvalid] }],
        ['a control character in the email domain', { email: 'asha@exam\u0001ple.com' }, { email: [MESSAGES.emailInvalid] }],
        ['missing email', { email: undefined }, { email: [MESSAGES.emailRequired] }],
        ['blank email', { email: '  ' }, { email: [MESSAGES.emailRequired] }],
        ['email without @', { email: 'asha.example.com' }, { email: [MESSAGES.emailInvalid] }],
        ['email without a dot in the domain', { email: 'asha@localhost' }, { email: [MESSAGES.emailInvalid] }],
        ['email too long', { email: `${'a'.repeat(250)}@example.com` }, { email: [MESSAGES.emailInvalid] }],
        ['missing phone', { phone: undefined }, { phone: [MESSAGES.phoneRequired] }],
        ['phone with only the dial code', { phone: '+91' }, { phone: [MESSAGES.phoneRequired] }],
        ['phone with 9 digits', { phone: '+91987654321' }, { phone: [MESSAGES.phoneInvalid] }],
        ['phone with 11 digits', { phone: '+9198765432101' }, { phone: [MESSAGES.phoneInvalid] }],
        ['phone without a dial code', { phone: '9876543210' }, { phone: [MESSAGES.phoneInvalid] }],
        ['phone with an unknown dial code', { phone: '+9999876543210' }, { phone: [MESSAGES.phoneInvalid] }],
        ['phone with letters', { phone: '+91abcdefghij' }, { phone: [MESSAGES.phoneInvalid] }],
        ['missing resume', { resume: undefined }, { resume: [MESSAGES.resumeRequired] }],
        ['no file chosen (empty part)', { resume: { data: Buffer.alloc(0), filename: '' } }, { resume: [MESSAGES.resumeRequired] }],
        ['empty resume file', { resume: { data: Buffer.alloc(0), filename: 'cv.pdf', type: 'application/pdf' } }, { resume: [MESSAGES.resumeType] }],
        ['renamed executable', { resume: { data: exeBytes(), filename: 'cv.pdf', type: 'application/pdf' } }, { resume: [MESSAGES.resumeType] }],
        ['text file named .docx', { resume: { data: Buffer.from('just some text, not a resume'), filename: 'cv.docx' } }, { resume: [MESSAGES.resumeType] }],
        ['ZIP without word/document.xml', { resume: { data: plainZipBytes(), filename: 'cv.docx' } }, { resume: [MESSAGES.resumeType] }],
        ['truncated ZIP', { resume: { data: docxBytes().subarray(0, 60), filename: 'cv.docx' } }, { resume: [MESSAGES.resumeType] }],
        ['PDF magic not at the start', { resume: { data: Buffer.concat([Buffer.from(' '), pdfBytes()]), filename: 'cv.pdf' } }, { resume: [MESSAGES.resumeType] }],
      ];
      for (const [name, overrides, body] of basic) {
        it(name, () => expectRefused('plain-1', validFields(overrides), 400, body));
      }

      it('reports every basic field at once, in the wizard order', async () => {
        const res = await apply('plain-1', validFields({ first_name: '', last_name: '1', email: 'x', phone: '', resume: undefined }));
        expect(res.status).to.equal(400);
        expect(Object.keys(res.body)).to.deep.equal(['first_name', 'last_name', 'email', 'phone', 'resume']);
      });

      it('a resume over 10 MB', () =>
        expectRefused('plain-1', validFields({ resume: { data: pdfBytes(10_485_761), filename: 'big.pdf' } }), 400, { resume: [MESSAGES.resumeSize] }));

      it('a resume of exactly 10 MB is accepted', async () => {
        const res = await apply('plain-1', validFields({ email: 'exact@example.com', resume: { data: pdfBytes(10_485_760), filename: 'exact.pdf' } }));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      });

      const exp = (e: Record<string, unknown>) => JSON.stringify([{ company: 'A', role: 'B', start: '2020-01', end: '', notice_period: '', salary: '', description: '', ...e }]);
      const lists: [string, Record<string, FormValue | undefined>, Record<string, unknown>][] = [
        ['experience without company, role and start', { professional_experiences: exp({ company: '', role: ' ', start: '' }) }, {
          'professional_experiences.0.company': ['Required'],
          'professional_experiences.0.role': ['Required'],
          'professional_experiences.0.start': ['Required'],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience ending before it starts', { professional_experiences: exp({ start: '2021-05', end: '2021-04' }) }, {
          'professional_experiences.0.end': [MESSAGES.endBeforeStart],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience start outside the year range', { professional_experiences: exp({ start: '1969-12' }) }, {
          'professional_experiences.0.start': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        // A present but invalid date gets its own message, never the order message (NOW is March 2026: years up to 2031).
        ['experience end after the last year offered', { professional_experiences: exp({ start: '2020-01', end: '2099-01' }) }, {
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience end with a one-digit month', { professional_experiences: exp({ start: '2020-01', end: '2020-1' }) }, {
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience end with month 13', { professional_experiences: exp({ start: '2020-01', end: '2020-13' }) }, {
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience end in another format', { professional_experiences: exp({ start: '2020-01', end: '03/2021' }) }, {
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience end with a NUL byte (not cleaned into a valid date)', { professional_experiences: exp({ start: '2020-01', end: '202\u0000-01' }) }, {
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience end half chosen (year only), as the wizard says it', { professional_experiences: exp({ start: '2020-01', end: '2021-' }) }, {
          'professional_experiences.0.end': [MESSAGES.required],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience with both dates invalid: one message each, no order message', { professional_experiences: exp({ start: '2020-00', end: '1900-01' }) }, {
          'professional_experiences.0.start': [MESSAGES.dateInvalid],
          'professional_experiences.0.end': [MESSAGES.dateInvalid],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['education end in the wrong format', { education: JSON.stringify([{ school: 'S', degree: 'D', field: '', start: '2015-07', end: '2019/05' }]) }, {
          'education.0.end': [MESSAGES.dateInvalid],
          education: [MESSAGES.educationStep],
        }],
        ['experience with a non-text company', { professional_experiences: exp({ company: { a: 1 } }) }, {
          'professional_experiences.0.company': ['Must be text.', 'Required'],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience entry that is not an object', { professional_experiences: JSON.stringify(['Initech']) }, {
          'professional_experiences.0': ['Must be an object.'],
          'professional_experiences.0.company': ['Required'],
          'professional_experiences.0.role': ['Required'],
          'professional_experiences.0.start': ['Required'],
          professional_experiences: [MESSAGES.experienceStep],
        }],
        ['experience description over the limit', { professional_experiences: exp({ description: 'd'.repeat(5001) }) }, {
          'professional_experiences.0.description': ['Ensure this field has no more than 5000 characters.'],
        }],
        ['too many experiences', { professional_experiences: JSON.stringify(Array.from({ length: 21 }, () => ({}))) }, {
          professional_experiences: ['Ensure this list has no more than 20 items.'],
        }],
        ['education without school, degree and start', { education: JSON.stringify([{ school: '', degree: '', field: 'CS', start: '', end: '' }]) }, {
          'education.0.school': ['Required'],
          'education.0.degree': ['Required'],
          'education.0.start': ['Required'],
          education: [MESSAGES.educationStep],
        }],
        ['education ending before it starts', { education: JSON.stringify([{ school: 'S', degree: 'D', field: '', start: '2020-02', end: '2019-01' }]) }, {
          'education.0.end': [MESSAGES.endBeforeStart],
          education: [MESSAGES.educationStep],
        }],
        ['malformed JSON in experiences', { professional_experiences: '[{"company": "A",' }, { professional_experiences: ['Value must be valid JSON.'] }],
        ['malformed JSON in education', { education: '{{' }, { education: ['Value must be valid JSON.'] }],
        ['malformed JSON in skills', { skills: "['a']" }, { skills: ['Value must be valid JSON.'] }],
        ['malformed JSON in answers', { answers: 'undefined' }, { answers: ['Value must be valid JSON.'] }],
        ['an object where a list belongs', { education: '{"school": "S"}' }, { education: ['Must be a list.'] }],
        ['skills that are not text', { skills: '[1, {"a": 2}]' }, { skills: ['Must be a list of text.'] }],
        ['too many skills', { skills: JSON.stringify(Array.from({ length: 51 }, (_, i) => `skill ${i}`)) }, { skills: ['Ensure this list has no more than 50 items.'] }],
      ];
      for (const [name, overrides, body] of lists) {
        it(name, () => expectRefused('plain-1', validFields(overrides), 400, body));
      }

      it('an answer to another job\'s question', () =>
        expectRefused('plain-1', validFields({ answers: JSON.stringify([{ question_id: otherJobQuestion, answer: 'x' }]) }), 400, {
          [`answers.${otherJobQuestion}`]: ['This question is not part of this job.'],
        }));

      it('answers: required questions left empty', async () => {
        await expectRefused('full-1', fullFields({ answers: JSON.stringify([{ question_id: q.short, answer: '  ' }, { question_id: q.single, answer: '' }]) }), 400, {
          [`answers.${q.short}`]: ['Required'],
          [`answers.${q.num}`]: ['Required'],
          [`answers.${q.single}`]: ['Required'],
          answers: [MESSAGES.questionsStep],
        });
        await expectRefused('required-check', validFields({ answers: JSON.stringify([{ question_id: (await checkboxQuestion()), answer: [] }]) }), 400, {
          [`answers.${await checkboxQuestion()}`]: ['Required'],
          answers: [MESSAGES.questionsStep],
        });
      });

      async function checkboxQuestion(): Promise<number> {
        const row = await s.ctx.db('jobs').where({ public_id: 'required-check' }).first();
        const question = await s.ctx.db('job_questions').where({ job_id: row.id }).first();
        return Number(question.id);
      }

      const answersWith = (id: () => number, answer: unknown) => () => JSON.stringify(fullAnswers().map((a) => (a.question_id === id() ? { ...a, answer } : a)));
      const answerCases: [string, () => number, unknown, string][] = [
        ['a number answer that is not numeric', () => q.num, 'seven', 'Enter a number.'],
        ['a number answer too large to store', () => q.num, '1' + '0'.repeat(20), 'Enter a number between -999999999999999 and 999999999999999.'],
        // DECIMAL(20,4) cannot hold it: MySQL (strict) refuses the insert, SQLite would keep a double.
        ['a number answer of 1e30', () => q.num, '1e30', MESSAGES.numberRange],
        ['a number answer of 1e30 sent as a JSON number', () => q.num, 1e30, MESSAGES.numberRange],
        ['a number answer of -1E+16', () => q.num, '-1E+16', MESSAGES.numberRange],
        ['a number answer that overflows to Infinity', () => q.num, '1e400', MESSAGES.numberRange],
        ['a number answer of Infinity', () => q.num, 'Infinity', MESSAGES.numberInvalid],
        ['a number answer of NaN', () => q.num, 'NaN', MESSAGES.numberInvalid],
        ['a number answer in hex', () => q.num, '0x10', MESSAGES.numberInvalid],
        ['a number answer with a trailing dot', () => q.num, '5.', MESSAGES.numberInvalid],
        ['a number answer with a plus sign', () => q.num, '+5', MESSAGES.numberInvalid],
        ['a number answer with a thousands separator', () => q.num, '1,000', MESSAGES.numberInvalid],
        ['a number answer with a NUL byte', () => q.num, '4\u00002', MESSAGES.numberInvalid],
        ['a single choice that is not an option', () => q.single, 'Maybe', 'Select a valid choice. "Maybe" is not one of the available choices.'],
        ['a single choice sent as a list', () => q.single, ['Yes'], 'Must be text.'],
        ['a checkbox answer that is not a list', () => q.multi, 'Remote', 'Must be a list of options.'],
        ['a checkbox answer with an unknown option', () => q.multi, ['Remote', 'Mars'], 'Select a valid choice. "Mars" is not one of the available choices.'],
        ['a text answer that is an object', () => q.short, { text: 'x' }, 'Must be text.'],
        ['a text answer over the limit', () => q.long, 'x'.repeat(5001), 'Ensure this answer has no more than 5000 characters.'],
      ];
      for (const [name, id, answer, message] of answerCases) {
        it(name, async () => {
          await expectRefused('full-1', fullFields({ answers: answersWith(id, answer)() }), 400, { [`answers.${id()}`]: [message] });
        });
      }

      it('answers to unknown questions, twice to one question, or without a question id', async () => {
        await expectRefused('full-1', fullFields({ answers: JSON.stringify([...fullAnswers(), { question_id: 99999, answer: 'x' }]) }), 400, {
          'answers.99999': ['This question is not part of this job.'],
        });
        await expectRefused('full-1', fullFields({ answers: JSON.stringify([...fullAnswers(), { question_id: q.short, answer: 'again' }]) }), 400, {
          [`answers.${q.short}`]: ['This question is answered more than once.'],
        });
        await expectRefused('full-1', fullFields({ answers: JSON.stringify([...fullAnswers(), { answer: 'x' }]) }), 400, {
          answers: ['Each answer needs a question_id (a whole number).'],
        });
        await expectRefused('full-1', fullFields({ answers: JSON.stringify(['just text']) }), 400, {
          answers: ['Each answer must be an object with question_id and answer.', 'Please answer all required questions.'],
          [`answers.${q.short}`]: ['Required'],
          [`answers.${q.num}`]: ['Required'],
          [`answers.${q.single}`]: ['Required'],
        });
      });
    });

    describe('malformed requests (nothing stored)', () => {
      async function expectRawRefused(body: Buffer | string, contentType: string, status: number, expected: Record<string, unknown>) {
        const before = await state();
        const res = await applyRaw('plain-1', body, contentType);
        expect(res.status, JSON.stringify(res.body)).to.equal(status);
        expect(res.body).to.deep.equal(expected);
        expect(await state()).to.deep.equal(before);
      }

      it('a JSON body instead of multipart', () =>
        expectRawRefused(JSON.stringify({ first_name: 'Asha' }), 'application/json', 415, { detail: 'Send the application as multipart/form-data.' }));

      it('a url-encoded body', () => expectRawRefused('first_name=Asha', 'application/x-www-form-urlencoded', 415, { detail: 'Send the application as multipart/form-data.' }));

      it('multipart without a boundary', () => expectRawRefused('x', 'multipart/form-data; charset=utf-8', 400, { detail: 'The multipart/form-data header has no boundary.' }));

      it('a multipart body cut off before its end', async () => {
        const { body, contentType } = rawMultipart([...rawTextParts(validFields()), { disposition: 'form-data; name="resume"; filename="cv.pdf"', type: 'application/pdf', body: pdfBytes(50_000) }]);
        await expectRawRefused(body.subarray(0, body.length - 30_000), contentType, 400, { detail: 'The form data is malformed or incomplete.' });
      });

      it('a second resume file', async () => {
        const { body, contentType } = rawMultipart([
          ...rawTextParts(validFields()),
          { disposition: 'form-data; name="resume"; filename="a.pdf"', type: 'application/pdf', body: pdfBytes(20_000) },
          { disposition: 'form-data; name="resume"; filename="b.pdf"', type: 'application/pdf', body: pdfBytes(20_000) },
        ]);
        await expectRawRefused(body, contentType, 400, { resume: ['Only one resume file can be uploaded.'] });
      });

      it('a file in another field', async () => {
        const { body, contentType } = rawMultipart([
          { disposition: 'form-data; name="resume"; filename="a.pdf"', type: 'application/pdf', body: pdfBytes(20_000) },
          { disposition: 'form-data; name="first_name"; filename="x.pdf"', type: 'application/pdf', body: pdfBytes(100) },
          ...rawTextParts(validFields()),
        ]);
        await expectRawRefused(body, contentType, 400, { detail: 'Only one file can be uploaded, in the field "resume".' });
      });

      it('too many fields', async () => {
        const extra = Array.from({ length: 20 }, (_, i) => ({ disposition: `form-data; name="extra${i}"`, body: 'x' }));
        const { body, contentType } = rawMultipart([...rawTextParts(validFields()), ...extra]);
        await expectRawRefused(body, contentType, 400, { detail: 'The form has too many fields.' });
      });

      it('a field over the size limit', async () => {
        const { body, contentType } = rawMultipart([...rawTextParts(validFields({ first_name: 'A'.repeat(1024 * 1024 + 10) }))]);
        await expectRawRefused(body, contentType, 400, { first_name: ['Ensure this field has no more than 1048576 bytes.'] });
      });

      it('text fields together over the limit', async () => {
        const big = JSON.stringify(['x'.repeat(900 * 1024)]);
        const { body, contentType } = rawMultipart(rawTextParts(validFields({ skills: big, education: big, answers: big })));
        await expectRawRefused(body, contentType, 400, { detail: 'The form is too large.' });
      });

      it('a field sent twice', async () => {
        const { body, contentType } = rawMultipart([
          ...rawTextParts(validFields()),
          { disposition: 'form-data; name="email"', body: 'other@example.com' },
          { disposition: 'form-data; name="resume"; filename="a.pdf"', type: 'application/pdf', body: pdfBytes(1000) },
        ]);
        await expectRawRefused(body, contentType, 400, { email: ['This field was sent more than once.'] });
      });

      it('a broken part header', async () => {
        const body = '--B\r\nContent-Disposition form-data name=x\r\n\r\nvalue\r\n--B--\r\n';
        await expectRawRefused(body, 'multipart/form-data; boundary=B', 400, { detail: 'The form data is malformed or incomplete.' });
      });
    });

    describe('hostile strings and file names', () => {
      it('stores SQL and HTML in free text verbatim (as data), strips brackets from names, keeps unknown fields out', async () => {
        const sql = "Robert'); DROP TABLE applications;--";
        const html = '<img src=x onerror=alert(1)><script>alert(2)</script>';
        const res = await apply('full-1', fullFields({
          first_name: '<Asha>',
          email: 'hostile@example.com',
          professional_experiences: JSON.stringify([{ company: sql, role: html, start: '2020-01', end: '', notice_period: '\u0000\u0007', salary: '', description: html }]),
          skills: JSON.stringify([sql, html]),
          answers: JSON.stringify(fullAnswers().map((a) => (a.question_id === q.short ? { ...a, answer: `${html}\u0000 ${sql}` } : a))),
          role: 'admin',
          status: 'REVIEWED',
        }));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const db = s.ctx.db;
        const app = await db('applications').where({ email: 'hostile@example.com' }).first();
        expect(app.first_name).to.equal('Asha');
        expect(app.status).to.equal('NEW');
        const exp = await db('application_experiences').where({ application_id: app.id }).first();
        expect([exp.company, exp.role, exp.description, exp.notice_period]).to.deep.equal([sql, html, html, '']);
        expect((await db('application_skills').where({ application_id: app.id }).orderBy('position')).map((k: any) => k.name)).to.deep.equal([sql, html]);
        const short = await db('application_answers').where({ application_id: app.id, question_id: q.short }).first();
        expect(JSON.parse(short.answer)).to.equal(`${html} ${sql}`);
        expect(await db('applications').count({ n: '*' }).first()).to.be.ok; // the table is still there
      });

      it('free text (experience, education, skills, text answers): control characters other than tab and line breaks are removed, the text kept', async () => {
        const res = await apply('full-1', fullFields({
          email: 'free-text-controls@example.com',
          professional_experiences: JSON.stringify([{ company: 'Ini\u0000tech', role: 'Engi\u0008neer', start: '2020-01', end: '', notice_period: '', salary: '20\u001b LPA', description: 'Line\u0000 one\n\tLine two\r\n' }]),
          education: JSON.stringify([{ school: 'IIT\u007f Bombay', degree: 'B.Tech', field: '', start: '2015-07', end: '2019-05' }]),
          skills: JSON.stringify(['Type\u0000Script']),
          answers: JSON.stringify(fullAnswers().map((a) => (a.question_id === q.long ? { ...a, answer: 'Pasted\u0000 from\u000c a PDF\nsecond line' } : a))),
        }));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const db = s.ctx.db;
        const app = await db('applications').where({ email: 'free-text-controls@example.com' }).first();
        const exp = await db('application_experiences').where({ application_id: app.id }).first();
        expect([exp.company, exp.role, exp.salary, exp.description]).to.deep.equal(['Initech', 'Engineer', '20 LPA', 'Line one\n\tLine two']);
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
        const raw = rawMultipart([...rawTextParts(validFields({ email: 'nul@example.com' })), { disposition: 'form-data; name="resume"; filename="cv\u0000.pdf"', type: 'application/pdf', body: pdfBytes() }]);
        const refused = await applyRaw('plain-1', raw.body, raw.contentType);
        expect(refused).to.deep.equal({ status: 400, body: { detail: 'The form data is malformed or incomplete.' } });
        expect(await state()).to.deep.equal(before);

        const encoded = rawMultipart([...rawTextParts(validFields({ email: 'nul@example.com' })), { disposition: "form-data; name=\"resume\"; filename*=UTF-8''..%2F..%2Fcv%00.pdf", type: 'application/pdf', body: pdfBytes() }]);
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
        await expectRefused('plain-1', validFields({ email: 'twice@example.COM' }), 400, { email: ['You have already applied for this job with this email.'] });
        // Another job is fine.
        expect((await apply('full-1', fullFields({ email: 'twice@example.com' }))).status).to.equal(201);
      });

      it('two identical applications at the same moment: one is kept, the other gets the email message', async () => {
        const before = await state();
        const fields = validFields({ email: 'race@example.com', resume: { data: pdfBytes(1_000_000), filename: 'race.pdf' } });
        const results = await Promise.all(Array.from({ length: 4 }, () => apply('plain-1', fields)));
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).to.deep.equal([201, 400, 400, 400]);
        for (const r of results.filter((x) => x.status === 400)) expect(r.body).to.deep.equal({ email: ['You have already applied for this job with this email.'] });
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

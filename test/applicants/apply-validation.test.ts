/**
 * POST /api/jobs/{publicId}/apply/ over real HTTP, what is refused: every validation message, wrong
 * types, missing parts, oversized fields and files, malformed requests. Every refusal must leave
 * nothing behind.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import type { TestServer } from '../helpers/server.js';
import { MESSAGES } from '../../src/shared/application-rules.js';
import { docxBytes, exeBytes, pdfBytes, plainZipBytes } from '../fixtures/resumes.js';
import {
  applyCalls,
  rawMultipart,
  rawTextParts,
  startApplyServer,
  validFields,
  type FormValue,
  type FullJobQuestions,
} from '../fixtures/apply.js';

for (const kind of databaseKinds()) {
  describe(`apply API: refusals [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let root: string;
    let q: FullJobQuestions;
    let otherJobQuestion: number;
    before(async () => {
      ({ s, root, q, otherJobQuestion } = await startApplyServer(kind));
    });
    after(() => s.close());
    const { apply, applyRaw, fullAnswers, fullFields, state, expectRefused } = applyCalls(() => ({ s, root, q }));

    describe('validation messages (nothing stored)', () => {
      const basic: [string, Record<string, FormValue | undefined>, Record<string, unknown>][] = [
        ['missing first name', { first_name: undefined }, { first_name: [MESSAGES.firstNameRequired] }],
        ['blank first name', { first_name: '   ' }, { first_name: [MESSAGES.firstNameRequired] }],
        ['digits in the first name', { first_name: 'Asha2' }, { first_name: [MESSAGES.namePattern] }],
        [
          'HTML in the first name (brackets stripped, then checked)',
          { first_name: '<script>alert(1)</script>' },
          { first_name: [MESSAGES.namePattern] },
        ],
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
        [
          'empty resume file',
          { resume: { data: Buffer.alloc(0), filename: 'cv.pdf', type: 'application/pdf' } },
          { resume: [MESSAGES.resumeType] },
        ],
        [
          'renamed executable',
          { resume: { data: exeBytes(), filename: 'cv.pdf', type: 'application/pdf' } },
          { resume: [MESSAGES.resumeType] },
        ],
        [
          'text file named .docx',
          { resume: { data: Buffer.from('just some text, not a resume'), filename: 'cv.docx' } },
          { resume: [MESSAGES.resumeType] },
        ],
        ['ZIP without word/document.xml', { resume: { data: plainZipBytes(), filename: 'cv.docx' } }, { resume: [MESSAGES.resumeType] }],
        ['truncated ZIP', { resume: { data: docxBytes().subarray(0, 60), filename: 'cv.docx' } }, { resume: [MESSAGES.resumeType] }],
        [
          'PDF magic not at the start',
          { resume: { data: Buffer.concat([Buffer.from(' '), pdfBytes()]), filename: 'cv.pdf' } },
          { resume: [MESSAGES.resumeType] },
        ],
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
        expectRefused('plain-1', validFields({ resume: { data: pdfBytes(10_485_761), filename: 'big.pdf' } }), 400, {
          resume: [MESSAGES.resumeSize],
        }));

      it('a resume of exactly 10 MB is accepted', async () => {
        const res = await apply(
          'plain-1',
          validFields({ email: 'exact@example.com', resume: { data: pdfBytes(10_485_760), filename: 'exact.pdf' } }),
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      });

      const exp = (e: Record<string, unknown>) =>
        JSON.stringify([{ company: 'A', role: 'B', start: '2020-01', end: '', notice_period: '', salary: '', description: '', ...e }]);
      const lists: [string, Record<string, FormValue | undefined>, Record<string, unknown>][] = [
        [
          'experience without company, role and start',
          { professional_experiences: exp({ company: '', role: ' ', start: '' }) },
          {
            'professional_experiences.0.company': ['Required'],
            'professional_experiences.0.role': ['Required'],
            'professional_experiences.0.start': ['Required'],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience ending before it starts',
          { professional_experiences: exp({ start: '2021-05', end: '2021-04' }) },
          {
            'professional_experiences.0.end': [MESSAGES.endBeforeStart],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience start outside the year range',
          { professional_experiences: exp({ start: '1969-12' }) },
          {
            'professional_experiences.0.start': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        // A present but invalid date gets its own message, never the order message (NOW is March 2026: years up to 2031).
        [
          'experience end after the last year offered',
          { professional_experiences: exp({ start: '2020-01', end: '2099-01' }) },
          {
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience end with a one-digit month',
          { professional_experiences: exp({ start: '2020-01', end: '2020-1' }) },
          {
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience end with month 13',
          { professional_experiences: exp({ start: '2020-01', end: '2020-13' }) },
          {
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience end in another format',
          { professional_experiences: exp({ start: '2020-01', end: '03/2021' }) },
          {
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience end with a NUL byte (not cleaned into a valid date)',
          { professional_experiences: exp({ start: '2020-01', end: '202\u0000-01' }) },
          {
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience end half chosen (year only), as the wizard says it',
          { professional_experiences: exp({ start: '2020-01', end: '2021-' }) },
          {
            'professional_experiences.0.end': [MESSAGES.required],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience with both dates invalid: one message each, no order message',
          { professional_experiences: exp({ start: '2020-00', end: '1900-01' }) },
          {
            'professional_experiences.0.start': [MESSAGES.dateInvalid],
            'professional_experiences.0.end': [MESSAGES.dateInvalid],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'education end in the wrong format',
          { education: JSON.stringify([{ school: 'S', degree: 'D', field: '', start: '2015-07', end: '2019/05' }]) },
          {
            'education.0.end': [MESSAGES.dateInvalid],
            education: [MESSAGES.educationStep],
          },
        ],
        [
          'experience with a non-text company',
          { professional_experiences: exp({ company: { a: 1 } }) },
          {
            'professional_experiences.0.company': ['Must be text.', 'Required'],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience entry that is not an object',
          { professional_experiences: JSON.stringify(['Initech']) },
          {
            'professional_experiences.0': ['Must be an object.'],
            'professional_experiences.0.company': ['Required'],
            'professional_experiences.0.role': ['Required'],
            'professional_experiences.0.start': ['Required'],
            professional_experiences: [MESSAGES.experienceStep],
          },
        ],
        [
          'experience description over the limit',
          { professional_experiences: exp({ description: 'd'.repeat(5001) }) },
          {
            'professional_experiences.0.description': ['Ensure this field has no more than 5000 characters.'],
          },
        ],
        [
          'too many experiences',
          { professional_experiences: JSON.stringify(Array.from({ length: 21 }, () => ({}))) },
          {
            professional_experiences: ['Ensure this list has no more than 20 items.'],
          },
        ],
        [
          'education without school, degree and start',
          { education: JSON.stringify([{ school: '', degree: '', field: 'CS', start: '', end: '' }]) },
          {
            'education.0.school': ['Required'],
            'education.0.degree': ['Required'],
            'education.0.start': ['Required'],
            education: [MESSAGES.educationStep],
          },
        ],
        [
          'education ending before it starts',
          { education: JSON.stringify([{ school: 'S', degree: 'D', field: '', start: '2020-02', end: '2019-01' }]) },
          {
            'education.0.end': [MESSAGES.endBeforeStart],
            education: [MESSAGES.educationStep],
          },
        ],
        [
          'malformed JSON in experiences',
          { professional_experiences: '[{"company": "A",' },
          { professional_experiences: ['Value must be valid JSON.'] },
        ],
        ['malformed JSON in education', { education: '{{' }, { education: ['Value must be valid JSON.'] }],
        ['malformed JSON in skills', { skills: "['a']" }, { skills: ['Value must be valid JSON.'] }],
        ['malformed JSON in answers', { answers: 'undefined' }, { answers: ['Value must be valid JSON.'] }],
        ['an object where a list belongs', { education: '{"school": "S"}' }, { education: ['Must be a list.'] }],
        ['skills that are not text', { skills: '[1, {"a": 2}]' }, { skills: ['Must be a list of text.'] }],
        [
          'too many skills',
          { skills: JSON.stringify(Array.from({ length: 51 }, (_, i) => `skill ${i}`)) },
          { skills: ['Ensure this list has no more than 50 items.'] },
        ],
      ];
      for (const [name, overrides, body] of lists) {
        it(name, () => expectRefused('plain-1', validFields(overrides), 400, body));
      }

      it("an answer to another job's question", () =>
        expectRefused('plain-1', validFields({ answers: JSON.stringify([{ question_id: otherJobQuestion, answer: 'x' }]) }), 400, {
          [`answers.${otherJobQuestion}`]: ['This question is not part of this job.'],
        }));

      it('answers: required questions left empty', async () => {
        await expectRefused(
          'full-1',
          fullFields({
            answers: JSON.stringify([
              { question_id: q.short, answer: '  ' },
              { question_id: q.single, answer: '' },
            ]),
          }),
          400,
          {
            [`answers.${q.short}`]: ['Required'],
            [`answers.${q.num}`]: ['Required'],
            [`answers.${q.single}`]: ['Required'],
            answers: [MESSAGES.questionsStep],
          },
        );
        await expectRefused(
          'required-check',
          validFields({ answers: JSON.stringify([{ question_id: await checkboxQuestion(), answer: [] }]) }),
          400,
          {
            [`answers.${await checkboxQuestion()}`]: ['Required'],
            answers: [MESSAGES.questionsStep],
          },
        );
      });

      async function checkboxQuestion(): Promise<number> {
        const row = await s.ctx.db('jobs').where({ public_id: 'required-check' }).first();
        const question = await s.ctx.db('job_questions').where({ job_id: row.id }).first();
        return Number(question.id);
      }

      const answersWith = (id: () => number, answer: unknown) => () =>
        JSON.stringify(fullAnswers().map((a) => (a.question_id === id() ? { ...a, answer } : a)));
      const answerCases: [string, () => number, unknown, string][] = [
        ['a number answer that is not numeric', () => q.num, 'seven', 'Enter a number.'],
        [
          'a number answer too large to store',
          () => q.num,
          '1' + '0'.repeat(20),
          'Enter a number between -999999999999999 and 999999999999999.',
        ],
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
        [
          'a single choice that is not an option',
          () => q.single,
          'Maybe',
          'Select a valid choice. "Maybe" is not one of the available choices.',
        ],
        ['a single choice sent as a list', () => q.single, ['Yes'], 'Must be text.'],
        ['a checkbox answer that is not a list', () => q.multi, 'Remote', 'Must be a list of options.'],
        [
          'a checkbox answer with an unknown option',
          () => q.multi,
          ['Remote', 'Mars'],
          'Select a valid choice. "Mars" is not one of the available choices.',
        ],
        ['a text answer that is an object', () => q.short, { text: 'x' }, 'Must be text.'],
        ['a text answer over the limit', () => q.long, 'x'.repeat(5001), 'Ensure this answer has no more than 5000 characters.'],
      ];
      for (const [name, id, answer, message] of answerCases) {
        it(name, async () => {
          await expectRefused('full-1', fullFields({ answers: answersWith(id, answer)() }), 400, { [`answers.${id()}`]: [message] });
        });
      }

      it('answers to unknown questions, twice to one question, or without a question id', async () => {
        await expectRefused(
          'full-1',
          fullFields({ answers: JSON.stringify([...fullAnswers(), { question_id: 99999, answer: 'x' }]) }),
          400,
          {
            'answers.99999': ['This question is not part of this job.'],
          },
        );
        await expectRefused(
          'full-1',
          fullFields({ answers: JSON.stringify([...fullAnswers(), { question_id: q.short, answer: 'again' }]) }),
          400,
          {
            [`answers.${q.short}`]: ['This question is answered more than once.'],
          },
        );
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
        expectRawRefused(JSON.stringify({ first_name: 'Asha' }), 'application/json', 415, {
          detail: 'Send the application as multipart/form-data.',
        }));

      it('a url-encoded body', () =>
        expectRawRefused('first_name=Asha', 'application/x-www-form-urlencoded', 415, {
          detail: 'Send the application as multipart/form-data.',
        }));

      it('multipart without a boundary', () =>
        expectRawRefused('x', 'multipart/form-data; charset=utf-8', 400, { detail: 'The multipart/form-data header has no boundary.' }));

      it('a multipart body cut off before its end', async () => {
        const { body, contentType } = rawMultipart([
          ...rawTextParts(validFields()),
          { disposition: 'form-data; name="resume"; filename="cv.pdf"', type: 'application/pdf', body: pdfBytes(50_000) },
        ]);
        await expectRawRefused(body.subarray(0, body.length - 30_000), contentType, 400, {
          detail: 'The form data is malformed or incomplete.',
        });
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
  });
}

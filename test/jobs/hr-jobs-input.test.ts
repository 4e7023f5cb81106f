/**
 * HR job payloads at the edges, on SQLite and MySQL: text fields must be strings, salaries have at
 * most 2 decimals, 100,000-character and emoji-heavy question texts save and read back (migration
 * 004: MEDIUMTEXT), and public ids are case-sensitive on both databases. Webhook URLs:
 * hr-jobs-webhooks.test.ts.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { hrSession } from '../helpers/hr.js';
import { hrJobsApi, payload } from './hr-jobs.helpers.js';

const DECIMALS = 'Ensure that there are no more than 2 decimal places.';

for (const kind of databaseKinds()) {
  describe(`HR job payload rules [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const { call, post, create, jobCount } = hrJobsApi(() => ({ s, token }));

    describe('text fields take strings only', () => {
      const WRONG_TYPES: [string, Record<string, unknown>, string][] = [
        ['title as number', { title: 123 }, 'title'],
        ['title as boolean', { title: true }, 'title'],
        ['title as list', { title: ['Engineer'] }, 'title'],
        ['location as number', { location: 10115 }, 'location'],
        ['experience as number', { experience_required: 5 }, 'experience_required'],
        ['duration as number', { duration: 12 }, 'duration'],
        ['duration as object', { duration: { months: 12 } }, 'duration'],
        ['webhook url as number', { webhook_url: 1 }, 'webhook_url'],
        ['webhook secret as number', { webhook_secret: 1234 }, 'webhook_secret'],
        ['placeholder as number', { questions: [{ text: 'q', answer_type: 'short_text', placeholder: 42 }] }, 'questions.0.placeholder'],
        ['option as number', { questions: [{ text: 'q', answer_type: 'single_choice', options: ['A', 2] }] }, 'questions.0.options'],
        ['option as object', { questions: [{ text: 'q', answer_type: 'checkbox', options: ['A', { v: 'B' }] }] }, 'questions.0.options'],
        ['question text as number', { questions: [{ text: 7, answer_type: 'short_text' }] }, 'questions.0.text'],
      ];
      for (const [name, override, field] of WRONG_TYPES) {
        it(`refuses ${name} on create and update`, async () => {
          const before = await jobCount();
          const r = await post(payload(override));
          expect(r.status, name).to.equal(400);
          expect(r.body[field], JSON.stringify(r.body)).to.satisfy((m: string[]) => m.some((x) => /Must be (a list of )?text/.test(x)));
          expect(await jobCount()).to.equal(before);
          const job = await create(payload({ title: `Put target ${name}` }));
          const put = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...job, ...override });
          expect(put.status, name).to.equal(400);
          expect(await put.json()).to.have.property(field);
          const stored = await s.ctx.db('jobs').where({ id: job.id }).first();
          expect(stored.title).to.equal(`Put target ${name}`);
        });
      }

      it('takes null or a missing field as blank for optional text, and a job read back can be PUT as it is', async () => {
        const job = await create(
          payload({
            experience_required: null,
            duration: null,
            webhook_url: null,
            webhook_secret: null,
            questions: [{ text: 'q', answer_type: 'short_text', placeholder: null, help_text: null }],
          }),
        );
        expect(job).to.include({
          experience_required: '',
          duration: null,
          webhook_url: null,
          webhook_secret: null,
          title: 'Platform Engineer',
        });
        expect(job.questions[0]).to.include({ placeholder: '', help_text: '' });
        const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
        const put = await call('PUT', `/api/hr/jobs/${job.id}/`, read);
        expect(put.status).to.equal(200);
        // A required field sent as null is missing, not a type error.
        const r = await post(payload({ title: null }));
        expect(r.status).to.equal(400);
        expect(r.body.title).to.deep.equal(['This field is required.']);
      });
    });

    describe('salaries: at most 2 decimals, as a number or a string', () => {
      for (const [name, value] of [
        ['number with 5 decimals', 1.23456],
        ['number with 3 decimals', 55000.125],
        ['string with 3 decimals', '1.234'],
        ['string with 5 decimals', '55000.12345'],
        ['tiny number', 1.5e-7],
        ['float noise', 0.1 + 0.2],
      ] as [string, unknown][]) {
        it(`refuses a ${name} with the decimals message`, async () => {
          for (const field of ['min_salary', 'max_salary']) {
            const r = await post(payload({ [field]: value }));
            expect(r.status, `${field} ${name}`).to.equal(400);
            expect(r.body, `${field} ${name}`).to.deep.equal({ [field]: [DECIMALS] });
          }
        });
      }

      it('accepts up to 2 decimals in either form and stores the same value on both databases', async () => {
        const cases: [unknown, unknown, number, number][] = [
          [1.23, '4.56', 1.23, 4.56],
          ['55000.50', 70000.5, 55000.5, 70000.5],
          ['1.500', '2.10', 1.5, 2.1], // trailing zeros are not decimals
          [0, '999999999999', 0, 999999999999],
          ['0.99', 0.99, 0.99, 0.99],
          [' 12 ', 12, 12, 12],
        ];
        for (const [min, max, wantMin, wantMax] of cases) {
          const job = await create(payload({ min_salary: min, max_salary: max }));
          expect(job, `${min} ${max}`).to.include({ min_salary: wantMin, max_salary: wantMax });
          const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
          expect(read, `${min} ${max}`).to.include({ min_salary: wantMin, max_salary: wantMax });
        }
      });

      it('still refuses what is not a number, and negative or too large values, with their own messages', async () => {
        expect((await post(payload({ min_salary: '1e3' }))).body).to.deep.equal({ min_salary: ['A valid number is required.'] });
        expect((await post(payload({ min_salary: '1,5' }))).body).to.deep.equal({ min_salary: ['A valid number is required.'] });
        expect((await post(payload({ min_salary: -1.234 }))).body).to.deep.equal({
          min_salary: ['Ensure this value is greater than or equal to 0.'],
        });
        expect((await post(payload({ max_salary: 1e13 }))).body.max_salary).to.deep.equal([
          'Ensure this value is less than or equal to 999999999999.',
        ]);
      });
    });

    describe('long rich text (MEDIUMTEXT on MySQL)', () => {
      const longText = `<p>${'x'.repeat(100_000 - 7)}</p>`;
      const emoji = `<p>${'😀'.repeat(25_000)}</p>`; // 50,000 UTF-16 units, 100,000 bytes of UTF-8
      const cjk = `<p>${'漢'.repeat(33_000)}</p>`; // 99,000 bytes

      it('saves and reads back a 100,000-character question text and help text', async () => {
        expect(longText).to.have.length(100_000);
        const job = await create(
          payload({
            public_id: 'long-q',
            status: 'ACTIVE',
            questions: [{ text: longText, help_text: longText, answer_type: 'long_text', required: true }],
          }),
        );
        expect(job.questions[0].text).to.equal(longText);
        expect(job.questions[0].help_text).to.equal(longText);
        const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
        expect(read.questions[0].text).to.equal(longText);
        expect(read.questions[0].help_text).to.equal(longText);
        const row = await s.ctx.db('job_questions').where({ id: job.questions[0].id }).first();
        expect(row.text).to.equal(longText);
        // Update keeps them whole as well.
        const edited = `<p>${'y'.repeat(100_000 - 7)}</p>`;
        const put = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...read, questions: [{ ...read.questions[0], text: edited }] });
        expect(put.status).to.equal(200);
        expect((await put.json()).questions[0].text).to.equal(edited);
        // The public API serves it.
        const pub = await (await fetch(`${s.baseUrl}/api/jobs/long-q/`)).json();
        expect(pub.questions[0].text).to.equal(edited);
      });

      it('saves and reads back 25,000 emoji and 33,000 CJK characters in question texts', async () => {
        const job = await create(
          payload({
            questions: [
              { text: emoji, help_text: emoji, answer_type: 'short_text' },
              { text: cjk, help_text: cjk, answer_type: 'single_choice', options: ['😀', '漢'] },
            ],
          }),
        );
        const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
        expect(read.questions.map((q: any) => [q.text, q.help_text])).to.deep.equal([
          [emoji, emoji],
          [cjk, cjk],
        ]);
      });

      it('keeps the long question text with an application (application_answers.question_text)', async () => {
        const job = await create(
          payload({
            public_id: 'long-apply',
            status: 'ACTIVE',
            questions: [{ text: emoji + longText.slice(0, 40_000) + '</p>', answer_type: 'long_text', required: true }],
          }),
        );
        const question = job.questions[0];
        const answer = '😀'.repeat(2500);
        const res = await fetch(`${s.baseUrl}/api/jobs/long-apply/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ answers: JSON.stringify([{ question_id: question.id, answer }]) })),
        });
        expect(res.status, JSON.stringify(await res.clone().json())).to.equal(201);
        const row = await s.ctx.db('application_answers').where({ question_id: question.id }).first();
        expect(row.question_text).to.equal(question.text);
        expect(JSON.parse(row.answer)).to.equal(answer);
      });
    });

    describe('public ids are case-sensitive on both databases', () => {
      it("creates 'Dev-1' and 'dev-1' as two jobs; the same id twice is still refused", async () => {
        const upper = await create(payload({ public_id: 'Dev-1', title: 'Upper Dev', status: 'ACTIVE' }));
        const lower = await create(payload({ public_id: 'dev-1', title: 'Lower Dev', status: 'ACTIVE' }));
        expect(upper.id).to.not.equal(lower.id);
        expect([upper.public_id, lower.public_id]).to.deep.equal(['Dev-1', 'dev-1']);
        const again = await post(payload({ public_id: 'Dev-1' }));
        expect(again.status).to.equal(400);
        expect(again.body).to.deep.equal({ public_id: ['A job with this public id already exists.'] });
        // Editing one never touches the other.
        const put = await call('PUT', `/api/hr/jobs/${lower.id}/`, { ...lower, title: 'Lower Dev Renamed' });
        expect(put.status).to.equal(200);
        expect((await (await call('GET', `/api/hr/jobs/${upper.id}/`)).json()).title).to.equal('Upper Dev');
        // The read-only check compares exactly too.
        const renamed = await call('PUT', `/api/hr/jobs/${lower.id}/`, { ...lower, public_id: 'DEV-1' });
        expect(renamed.status).to.equal(400);
        expect(await renamed.json()).to.deep.equal({ public_id: ['The public id cannot be changed.'] });
      });

      it('serves each job only under its exact id on the public API and pages', async () => {
        await create(payload({ public_id: 'SENIOR-BACKEND-ENGINEER', title: 'Shouting Engineer', status: 'ACTIVE' }));
        await create(payload({ public_id: 'senior-backend-engineer', title: 'Quiet Engineer', status: 'ACTIVE' }));
        const api = async (id: string) => {
          const res = await fetch(`${s.baseUrl}/api/jobs/${id}/`);
          return { status: res.status, body: await res.json() };
        };
        expect((await api('SENIOR-BACKEND-ENGINEER')).body.title).to.equal('Shouting Engineer');
        expect((await api('senior-backend-engineer')).body.title).to.equal('Quiet Engineer');
        for (const id of ['Senior-Backend-Engineer', 'senior-backend-engineer%20', 'SENIOR-BACKEND-ENGINEER%20%20', 'Dev-1%20', 'DEV-1']) {
          const r = await api(id);
          expect(r.status, id).to.equal(404);
          expect(r.body, id).to.deep.equal({ detail: 'Job post unavailable' });
        }
        expect((await api('Dev-1')).body.title).to.equal('Upper Dev');
        const page = async (path: string) => {
          const res = await fetch(`${s.baseUrl}${path}`);
          return { status: res.status, html: await res.text() };
        };
        expect((await page('/careers/SENIOR-BACKEND-ENGINEER')).html).to.include('Shouting Engineer');
        expect((await page('/careers/senior-backend-engineer')).html)
          .to.include('Quiet Engineer')
          .and.not.include('Shouting Engineer');
        const wrongCase = await page('/careers/Senior-Backend-Engineer');
        expect(wrongCase.status).to.equal(404);
        expect(wrongCase.html).to.include('Job post unavailable');
        const padded = await page('/careers/senior-backend-engineer%20');
        expect(padded.status).to.equal(404);
      });
    });
  });
}

/**
 * HR job payloads at the edges, on SQLite and MySQL: text fields must be strings, salaries have at
 * most 2 decimals, webhook URLs are normalised and never name a private or local host (unless
 * WEBHOOK_ALLOW_PRIVATE), 100,000-character and emoji-heavy question texts save and read back
 * (migration 004: MEDIUMTEXT), and public ids are case-sensitive on both databases.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { hrSession } from '../helpers/hr.js';

const PRIVATE = 'Webhook URL must not point to a private or local address.';
const CREDENTIALS = 'Webhook URL must not contain a user name or password.';
const DECIMALS = 'Ensure that there are no more than 2 decimal places.';

function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Platform Engineer', location: 'Berlin, Germany', job_type: 'FULL_TIME', work_mode: 'HYBRID', ...overrides };
}

/**
 * Webhook hosts outside global unicast, one or more per class of the IANA special-purpose registries
 * (the unit test tries every block), in the spellings a URL parser accepts.
 */
export const PRIVATE_WEBHOOKS = [
  // localhost names
  'http://localhost/hook',
  'http://LOCALHOST:8080/hook',
  'http://localhost./hook',
  'http://api.localhost/hook',
  'http://ｌｏｃａｌｈｏｓｔ/hook', // full-width letters, mapped to ASCII by the URL parser
  // IPv4 loopback, private, link-local, CGNAT, "this network"
  'http://127.0.0.1/hook',
  'http://127.8.9.10:3000/hook',
  'http://10.0.0.5/hook',
  'http://172.16.0.1/hook',
  'http://172.31.255.254/hook',
  'http://192.168.1.10/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.1.1/hook',
  'http://100.64.0.1/hook',
  'http://100.127.255.254/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'https://10.0.0.1:8443/hook',
  // IPv4 special-purpose blocks
  'http://192.0.0.1/hook', // IETF protocol assignments
  'http://192.0.0.9/hook', // PCP anycast
  'http://192.0.2.1/hook', // TEST-NET-1
  'http://198.51.100.7/hook', // TEST-NET-2
  'http://203.0.113.9/hook', // TEST-NET-3
  'http://192.88.99.1/hook', // 6to4 relay anycast
  'http://192.31.196.1/hook', // AS112
  'http://192.52.193.1/hook', // AMT
  'http://192.175.48.1/hook', // AS112 direct delegation
  'http://198.18.0.1/hook', // benchmarking
  'http://224.0.0.1/hook', // multicast
  'http://240.0.0.1/hook', // reserved
  'http://255.255.255.255/hook', // broadcast
  // IPv4 spellings
  'http://2130706433/hook', // 127.0.0.1 as one decimal number
  'http://0x7f000001/hook', // hex
  'http://0x7f.0.0.1/hook',
  'http://017700000001/hook', // octal
  'http://0177.0.0.1/hook',
  'http://127.1/hook', // short form
  'http://3232235777/hook', // 192.168.1.1
  'http://2852039166/hook', // 169.254.169.254
  'http://3221225985/hook', // 192.0.2.1
  'http://0xcb.0.0x71.9/hook', // 203.0.113.9
  'http://0xffffffff/hook', // 255.255.255.255
  // IPv6
  'http://[::]/hook',
  'http://[::1]/hook',
  'http://[0:0:0:0:0:0:0:1]/hook',
  'http://[fd12:3456:789a::1]/hook',
  'http://[fc00::1]/hook',
  'http://[fe80::1]/hook',
  'http://[fec0::1]/hook', // site-local
  'http://[ff02::1]/hook', // multicast
  'http://[::ffff:127.0.0.1]/hook', // IPv4-mapped
  'http://[::ffff:7f00:1]/hook',
  'http://[::ffff:10.1.2.3]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[::ffff:192.0.2.1]/hook',
  'http://[::ffff:0:7f00:1]/hook', // IPv4-translated
  'http://[::ffff:0:8.8.8.8]/hook',
  'http://[::127.0.0.1]/hook', // IPv4-compatible
  'http://[64:ff9b::10.0.0.1]/hook', // NAT64
  'http://[64:ff9b:1::a9fe:a9fe]/hook', // local-use NAT64
  'http://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
  'http://[2002:808:808::1]/hook',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
  'http://[2001:2::1]/hook', // benchmarking
  'http://[2001:20::1]/hook', // ORCHIDv2
  'http://[2001:db8::1]/hook', // documentation
  'http://[3fff::1]/hook', // documentation
  'http://[2620:4f:8000::1]/hook', // AS112
  'http://[100::1]/hook', // discard
  'http://[100:0:0:1::1]/hook', // dummy prefix
  'http://[5f00::1]/hook', // segment routing
  'http://[4000::1]/hook', // outside global unicast
];

const PUBLIC_WEBHOOKS = [
  'https://hooks.example.com/x', 'http://8.8.8.8/hook', 'http://134744072/hook', 'http://172.32.0.1/hook', 'http://100.128.0.1/hook', 'http://192.0.3.1/hook',
  'http://203.0.114.1/hook', 'http://[2001:4860:4860::8888]/hook', 'http://[2001:200::1]/hook', 'http://[2003::1]/hook', 'http://[::ffff:8.8.8.8]/hook',
  'http://localhost.example.com/hook',
];

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

    const call = (method: string, path: string, body?: unknown) =>
      fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const post = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/hr/jobs/', body);
      return { status: res.status, body: await res.json() };
    };
    const create = async (body: Record<string, unknown>) => {
      const r = await post(body);
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).to.equal(201);
      return r.body;
    };
    const jobCount = async () => Number((await s.ctx.db('jobs').count({ n: '*' }))[0].n);

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
        const job = await create(payload({ experience_required: null, duration: null, webhook_url: null, webhook_secret: null, questions: [{ text: 'q', answer_type: 'short_text', placeholder: null, help_text: null }] }));
        expect(job).to.include({ experience_required: '', duration: null, webhook_url: null, webhook_secret: null, title: 'Platform Engineer' });
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
        expect((await post(payload({ min_salary: -1.234 }))).body).to.deep.equal({ min_salary: ['Ensure this value is greater than or equal to 0.'] });
        expect((await post(payload({ max_salary: 1e13 }))).body.max_salary).to.deep.equal(['Ensure this value is less than or equal to 999999999999.']);
      });
    });

    describe('webhook URL', () => {
      it('stores the normalised URL', async () => {
        for (const [given, stored] of [
          ['http:/example.com', 'http://example.com/'],
          ['HTTPS://Hooks.Example.COM:443/a/../careers?x=1#frag', 'https://hooks.example.com/careers?x=1#frag'],
          ['  https://hooks.example.com/with space  ', 'https://hooks.example.com/with%20space'],
          ['https://bücher.example/hook', 'https://xn--bcher-kva.example/hook'],
          ['http://hooks.example.com:80', 'http://hooks.example.com/'],
        ]) {
          const job = await create(payload({ webhook_url: given }));
          expect(job.webhook_url, given).to.equal(stored);
          expect((await s.ctx.db('jobs').where({ id: job.id }).first()).webhook_url, given).to.equal(stored);
        }
      });

      it('refuses credentials in the URL', async () => {
        for (const url of ['https://user:pass@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/']) {
          const r = await post(payload({ webhook_url: url }));
          expect(r.status, url).to.equal(400);
          expect(r.body, url).to.deep.equal({ webhook_url: [CREDENTIALS] });
        }
      });

      it('refuses every host outside global unicast (localhost, private, reserved, special-purpose) in every spelling', async () => {
        const before = await jobCount();
        for (const url of PRIVATE_WEBHOOKS) {
          const r = await post(payload({ webhook_enabled: true, webhook_url: url }));
          expect(r.status, url).to.equal(400);
          expect(r.body, url).to.deep.equal({ webhook_url: [PRIVATE] });
        }
        expect(await jobCount()).to.equal(before);
        // PUT too, and nothing changes.
        const job = await create(payload({ webhook_url: 'https://hooks.example.com/a' }));
        for (const url of ['http://2130706433/', 'http://[2002:7f00:1::]/', 'http://[64:ff9b:1::a00:1]/', 'http://3221225985/', 'http://[::ffff:0:a9fe:a9fe]/']) {
          const put = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...job, webhook_enabled: true, webhook_url: url });
          expect(put.status, url).to.equal(400);
          expect(await put.json(), url).to.deep.equal({ webhook_url: [PRIVATE] });
        }
        expect((await s.ctx.db('jobs').where({ id: job.id }).first()).webhook_url).to.equal('https://hooks.example.com/a');
      });

      it('accepts public hosts and addresses', async () => {
        for (const url of PUBLIC_WEBHOOKS) {
          const job = await create(payload({ webhook_enabled: true, webhook_url: url }));
          expect(job.webhook_url, url).to.equal(new URL(url).href);
        }
      });

      it('checks the length of the normalised URL', async () => {
        const long = `https://hooks.example.com/${'é'.repeat(400)}`; // 426 characters, 2,426 once percent-encoded
        const r = await post(payload({ webhook_url: long }));
        expect(r.status).to.equal(400);
        expect(r.body.webhook_url).to.deep.equal(['Ensure this field has no more than 2048 characters.']);
      });
    });

    describe('long rich text (MEDIUMTEXT on MySQL)', () => {
      const longText = `<p>${'x'.repeat(100_000 - 7)}</p>`;
      const emoji = `<p>${'😀'.repeat(25_000)}</p>`; // 50,000 UTF-16 units, 100,000 bytes of UTF-8
      const cjk = `<p>${'漢'.repeat(33_000)}</p>`; // 99,000 bytes

      it('saves and reads back a 100,000-character question text and help text', async () => {
        expect(longText).to.have.length(100_000);
        const job = await create(payload({ public_id: 'long-q', status: 'ACTIVE', questions: [{ text: longText, help_text: longText, answer_type: 'long_text', required: true }] }));
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
        const job = await create(payload({ questions: [
          { text: emoji, help_text: emoji, answer_type: 'short_text' },
          { text: cjk, help_text: cjk, answer_type: 'single_choice', options: ['😀', '漢'] },
        ] }));
        const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
        expect(read.questions.map((q: any) => [q.text, q.help_text])).to.deep.equal([[emoji, emoji], [cjk, cjk]]);
      });

      it('keeps the long question text with an application (application_answers.question_text)', async () => {
        const job = await create(payload({ public_id: 'long-apply', status: 'ACTIVE', questions: [{ text: emoji + longText.slice(0, 40_000) + '</p>', answer_type: 'long_text', required: true }] }));
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
        expect((await page('/careers/senior-backend-engineer')).html).to.include('Quiet Engineer').and.not.include('Shouting Engineer');
        const wrongCase = await page('/careers/Senior-Backend-Engineer');
        expect(wrongCase.status).to.equal(404);
        expect(wrongCase.html).to.include('Job post unavailable');
        const padded = await page('/careers/senior-backend-engineer%20');
        expect(padded.status).to.equal(404);
      });
    });
  });

  describe(`HR job payload rules with WEBHOOK_ALLOW_PRIVATE=true [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    it('accepts private and local webhook hosts (on-premises receivers), normalised, but never credentials', async () => {
      for (const url of PRIVATE_WEBHOOKS) {
        const res = await fetch(`${s.baseUrl}/api/hr/jobs/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(payload({ webhook_enabled: true, webhook_url: url })),
        });
        const body = await res.json();
        expect(res.status, `${url}: ${JSON.stringify(body)}`).to.equal(201);
        expect(body.webhook_url, url).to.equal(new URL(url).href);
      }
      const res = await fetch(`${s.baseUrl}/api/hr/jobs/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload({ webhook_url: 'http://admin:admin@10.0.0.1/' })),
      });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ webhook_url: [CREDENTIALS] });
    });
  });
}

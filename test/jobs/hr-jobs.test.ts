/** HR jobs API over real HTTP: create, read, list, update, validation, hostile rich text, audit. */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { addApplications } from './hr-jobs.helpers.js';
import { hrSession } from '../helpers/hr.js';

/** A valid create payload; tests override single fields. In a place no default pay rule covers (issue 34): it may be active without a range. */
function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Platform Engineer',
    location: 'Zürich, Switzerland',
    job_type: 'FULL_TIME',
    work_mode: 'HYBRID',
    ...overrides,
  };
}

const EVERY_TYPE_QUESTIONS = [
  {
    text: '<p>Why <strong>us</strong>?</p>',
    help_text: '<p>Be <em>brief</em>.</p>',
    placeholder: 'A sentence',
    required: true,
    answer_type: 'short_text',
    options: ['ignored'],
  },
  { text: '<p>Tell us a story</p>', answer_type: 'long_text', required: false },
  { text: '<p>Years of experience</p>', answer_type: 'number', required: true },
  { text: '<p>Preferred office</p>', answer_type: 'single_choice', options: ['Berlin', '  ', 'Pune', ''], required: true },
  { text: '<p>Languages</p>', answer_type: 'checkbox', options: ['Go', 'Rust', 'TypeScript'] },
];

for (const kind of databaseKinds()) {
  describe(`HR jobs API [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let userId: number;
    before(async () => {
      s = await startTestServer(kind);
      ({ token, userId } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    const create = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/hr/jobs/', body);
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).to.equal(201);
      return json;
    };
    const jobCount = async () => Number((await s.ctx.db('jobs').count({ n: '*' }))[0].n);

    it('refuses every route without a token, and mutations with only the cookie', async () => {
      for (const [method, path] of [
        ['GET', '/api/hr/dashboard/'],
        ['GET', '/api/hr/jobs/'],
        ['POST', '/api/hr/jobs/'],
        ['GET', '/api/hr/jobs/1/'],
        ['PUT', '/api/hr/jobs/1/'],
      ]) {
        const res = await fetch(s.baseUrl + path, {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: method === 'GET' ? undefined : JSON.stringify(payload()),
        });
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(await res.json()).to.have.property('detail');
      }
      const cookieOnly = await fetch(s.baseUrl + '/api/hr/jobs/', {
        method: 'POST',
        headers: { Cookie: `jwt=${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload()),
      });
      expect(cookieOnly.status).to.equal(401);
      const cookieRead = await fetch(s.baseUrl + '/api/hr/jobs/', { headers: { Cookie: `jwt=${token}` } });
      expect(cookieRead.status).to.equal(200);
      expect(await jobCount()).to.equal(0);
    });

    it('creates a job with defaults: public id from the title, USD, INACTIVE, null salaries, yearly pay, no department or closing date', async () => {
      const job = await create(payload({ min_salary: '', max_salary: '   ', currency: '', status: '' }));
      expect(job.public_id).to.equal('platform-engineer');
      expect(job).to.include({
        currency: 'USD',
        status: 'INACTIVE',
        min_salary: null,
        max_salary: null,
        views: 0,
        webhook_enabled: false,
        webhook_url: null,
        webhook_secret: null,
        duration: null,
      });
      expect(job).to.include({ department: null, closes_at: null, salary_period: 'YEAR' });
      expect(job.applicant_countries).to.deep.equal([]);
      expect(job.title).to.equal('Platform Engineer');
      expect(new Date(job.created_at).toISOString()).to.equal(job.created_at);
      expect(job.questions).to.deep.equal([]);
      for (const key of [
        'id',
        'public_id',
        'title',
        'location',
        'job_type',
        'work_mode',
        'description',
        'responsibilities',
        'requirements',
        'perks_benefits',
        'currency',
        'min_salary',
        'max_salary',
        'experience_required',
        'duration',
        'status',
        'views',
        'created_at',
        'questions',
        'webhook_enabled',
        'webhook_url',
        'webhook_secret',
      ]) {
        expect(job, key).to.have.property(key);
      }
      const row = await s.ctx.db('jobs').where({ id: job.id }).first();
      expect(row.min_salary).to.equal(null);
      expect(row.currency).to.equal('USD');
      // The audit trail names the HR user.
      const audit = await s.ctx.db('audit_log').where({ entity: 'job', entity_id: job.id });
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ action: 'job.create', user_id: userId });
      expect(JSON.parse(audit[0].details)).to.include({ public_id: job.public_id, status: 'INACTIVE' });
    });

    it('creates a full job with questions of every type and reads it back', async () => {
      const job = await create(
        payload({
          public_id: 'plat-eng-1',
          status: 'ACTIVE',
          currency: 'eur',
          min_salary: '55000.50',
          max_salary: 70000,
          experience_required: '5+ years',
          duration: '12 months',
          description: '<p>Build the <strong>platform</strong>.</p>',
          responsibilities: '<ul><li>Own services</li></ul>',
          requirements: '<ol><li>Go</li></ol>',
          perks_benefits: '<p><a href="https://example.com/perks">Perks</a></p>',
          webhook_enabled: true,
          webhook_url: 'https://hooks.example.com/careers',
          webhook_secret: 's3cret-0123456789',
          questions: EVERY_TYPE_QUESTIONS,
        }),
      );
      expect(job).to.include({
        public_id: 'plat-eng-1',
        status: 'ACTIVE',
        currency: 'EUR',
        min_salary: 55000.5,
        max_salary: 70000,
        duration: '12 months',
        webhook_enabled: true,
        webhook_url: 'https://hooks.example.com/careers',
        webhook_secret: 's3cret-0123456789',
      });
      expect(job.perks_benefits).to.equal('<p><a href="https://example.com/perks" target="_blank" rel="noopener noreferrer">Perks</a></p>');
      expect(job.questions.map((q: any) => q.answer_type)).to.deep.equal([
        'short_text',
        'long_text',
        'number',
        'single_choice',
        'checkbox',
      ]);
      // Options only for choice types, blank ones dropped; other types get an empty list.
      expect(job.questions.map((q: any) => q.options)).to.deep.equal([[], [], [], ['Berlin', 'Pune'], ['Go', 'Rust', 'TypeScript']]);
      expect(job.questions.map((q: any) => q.order)).to.deep.equal([0, 1, 2, 3, 4]);
      expect(job.questions[0]).to.include({
        text: '<p>Why <strong>us</strong>?</p>',
        help_text: '<p>Be <em>brief</em>.</p>',
        placeholder: 'A sentence',
        required: true,
      });
      for (const q of job.questions) expect(q.id).to.be.a('number');

      const res = await call('GET', `/api/hr/jobs/${job.id}/`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal(job);
    });

    it('answers 404 {detail} for unknown, non-numeric and odd ids on GET and PUT', async () => {
      for (const id of ['999999', 'abc', '1.5', '-1', '0', '99999999999999999999', '1abc', encodeURIComponent("1' OR '1'='1")]) {
        const get = await call('GET', `/api/hr/jobs/${id}/`);
        expect(get.status, `GET ${id}`).to.equal(404);
        expect(await get.json()).to.deep.equal({ detail: 'Not found.' });
        // Unknown wins over a bad payload.
        const put = await call('PUT', `/api/hr/jobs/${id}/`, { title: '' });
        expect(put.status, `PUT ${id}`).to.equal(404);
        expect(await put.json()).to.deep.equal({ detail: 'Not found.' });
      }
    });

    it('updates a job in full, keeping question ids that are sent back', async () => {
      const job = await create(payload({ public_id: 'upd-1', questions: EVERY_TYPE_QUESTIONS.slice(0, 3) }));
      const [q0, q1, q2] = job.questions;
      const body = {
        ...job,
        title: 'Staff Platform Engineer',
        status: 'ACTIVE',
        min_salary: null,
        max_salary: '',
        // q1 dropped, q2 moved first and edited, a new choice question added.
        questions: [
          { ...q2, text: '<p>Years in the field</p>', order: 0 },
          { ...q0, order: 1 },
          { text: '<p>Start date</p>', answer_type: 'single_choice', options: ['Now', 'Later'], order: 2 },
        ],
      };
      const res = await call('PUT', `/api/hr/jobs/${job.id}/`, body);
      const updated = await res.json();
      expect(res.status, JSON.stringify(updated)).to.equal(200);
      expect(updated).to.include({
        id: job.id,
        public_id: 'upd-1',
        title: 'Staff Platform Engineer',
        status: 'ACTIVE',
        min_salary: null,
        max_salary: null,
        created_at: job.created_at,
      });
      expect(updated.questions.map((q: any) => q.id).slice(0, 2)).to.deep.equal([q2.id, q0.id]);
      expect(updated.questions[0].text).to.equal('<p>Years in the field</p>');
      expect(updated.questions[2].id).to.be.a('number').and.not.be.oneOf([q0.id, q1.id, q2.id]);
      // The dropped question is kept (marked deleted) so past answers stay linked.
      const dropped = await s.ctx.db('job_questions').where({ id: q1.id }).first();
      expect(Number(dropped.is_deleted)).to.equal(1);
      // A question id of another job is not taken over: it becomes a new question here.
      const other = await create(payload({ questions: [{ text: '<p>Other</p>', answer_type: 'short_text' }] }));
      const res2 = await call('PUT', `/api/hr/jobs/${job.id}/`, {
        ...updated,
        questions: [{ ...other.questions[0], text: '<p>Copied</p>' }],
      });
      const upd2 = await res2.json();
      expect(upd2.questions).to.have.length(1);
      expect(upd2.questions[0].id).not.to.equal(other.questions[0].id);
      const otherNow = await (await call('GET', `/api/hr/jobs/${other.id}/`)).json();
      expect(otherNow.questions[0].text).to.equal('<p>Other</p>');
      // The same id twice: the repeat is a new question, not an overwrite.
      const res3 = await call('PUT', `/api/hr/jobs/${job.id}/`, {
        ...upd2,
        questions: [upd2.questions[0], { ...upd2.questions[0], text: '<p>Twin</p>' }],
      });
      const upd3 = await res3.json();
      expect(upd3.questions.map((q: any) => q.text)).to.deep.equal(['<p>Copied</p>', '<p>Twin</p>']);
      expect(upd3.questions[0].id).to.equal(upd2.questions[0].id);
      // Audit: one row per save, with the changed fields.
      const audit = await s.ctx.db('audit_log').where({ entity: 'job', entity_id: job.id }).orderBy('id');
      expect(audit.map((a: any) => a.action)).to.deep.equal(['job.create', 'job.update', 'job.update', 'job.update']);
      expect(JSON.parse(audit[1].details).changed).to.include.members(['title', 'status', 'questions']);
      expect(Number(audit[1].user_id)).to.equal(userId);
    });

    it('keeps the public id read-only on update: same or missing is fine, a different one is 400', async () => {
      const job = await create(payload({ public_id: 'fixed-id' }));
      const { public_id: _omit, ...withoutId } = job;
      let res = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...withoutId, title: 'Renamed' });
      expect(res.status).to.equal(200);
      expect((await res.json()).public_id).to.equal('fixed-id');
      res = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...job, public_id: 'fixed-id' });
      expect(res.status).to.equal(200);
      res = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...job, public_id: 'other-id' });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ public_id: ['The public id cannot be changed.'] });
      expect((await s.ctx.db('jobs').where({ id: job.id }).first()).public_id).to.equal('fixed-id');
    });

    it('a duplicate (public_id_draft) gets its public id from its title at its first save, then keeps it', async () => {
      const copy = await create(payload({ title: 'Copy of Data Engineer', public_id_draft: true }));
      expect(copy.public_id).to.equal('copy-of-data-engineer');
      let res = await call('PUT', `/api/hr/jobs/${copy.id}/`, { ...copy, title: 'Senior Data Engineer' });
      expect(res.status).to.equal(200);
      expect((await res.json()).public_id).to.equal('senior-data-engineer');
      // The first save made it: a later rename keeps it.
      res = await call('PUT', `/api/hr/jobs/${copy.id}/`, { ...copy, public_id: 'senior-data-engineer', title: 'Lead Data Engineer' });
      expect((await res.json()).public_id).to.equal('senior-data-engineer');
      // A title whose id is taken gets the next number; a copy saved under its "Copy of" title keeps its id.
      const second = await create(payload({ title: 'Copy of Data Engineer', public_id_draft: true }));
      expect(second.public_id).to.equal('copy-of-data-engineer');
      res = await call('PUT', `/api/hr/jobs/${second.id}/`, { ...second, title: 'Senior Data Engineer' });
      expect((await res.json()).public_id).to.equal('senior-data-engineer-2');
      const third = await create(payload({ title: 'Copy of Analyst', public_id_draft: true }));
      res = await call('PUT', `/api/hr/jobs/${third.id}/`, third);
      expect((await res.json()).public_id).to.equal('copy-of-analyst');
      // Anything but true marks nothing; a plain job keeps its public id on rename.
      const plain = await create(payload({ title: 'Plain Role', public_id_draft: 'yes' }));
      res = await call('PUT', `/api/hr/jobs/${plain.id}/`, { ...plain, title: 'Renamed Role' });
      expect((await res.json()).public_id).to.equal('plain-role');
    });

    it('refuses a duplicate public id with a field error', async () => {
      await create(payload({ public_id: 'dup-1' }));
      const before = await jobCount();
      const res = await call('POST', '/api/hr/jobs/', payload({ public_id: 'dup-1' }));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ public_id: ['A job with this public id already exists.'] });
      expect(await jobCount()).to.equal(before);
    });

    const BAD: [string, Record<string, unknown>, string, RegExp][] = [
      ['missing title', { title: undefined }, 'title', /This field is required/],
      ['blank title', { title: '   ' }, 'title', /This field is required/],
      ['title as object', { title: { a: 1 } }, 'title', /Must be text/],
      ['huge title', { title: 'x'.repeat(192) }, 'title', /no more than 191 characters/],
      ['missing location', { location: '' }, 'location', /This field is required/],
      ['unknown job type', { job_type: 'FREELANCE' }, 'job_type', /Must be one of FULL_TIME/],
      ['job type as number', { job_type: 3 }, 'job_type', /Must be one of/],
      ['missing work mode', { work_mode: undefined }, 'work_mode', /This field is required/],
      ['unknown status', { status: 'DELETED' }, 'status', /Must be one of ACTIVE, INACTIVE, REMOVED/],
      ['lower-case status', { status: 'active' }, 'status', /Must be one of/],
      ['unknown currency', { currency: 'XYZ' }, 'currency', /ISO 4217/],
      ['currency as number', { currency: 840 }, 'currency', /ISO 4217/],
      ['long currency', { currency: 'USDOLLAR' }, 'currency', /ISO 4217/],
      ['negative min salary', { min_salary: -1 }, 'min_salary', /greater than or equal to 0/],
      ['negative salary text', { max_salary: '-5' }, 'max_salary', /greater than or equal to 0/],
      ['salary text', { min_salary: 'lots' }, 'min_salary', /A valid number is required/],
      ['salary boolean', { min_salary: true }, 'min_salary', /A valid number is required/],
      ['salary list', { max_salary: [1] }, 'max_salary', /A valid number is required/],
      ['salary too large', { max_salary: 1e13 }, 'max_salary', /less than or equal to/],
      ['min above max', { min_salary: 5000, max_salary: 4000 }, 'max_salary', /greater than or equal to minimum/],
      ['huge experience', { experience_required: 'x'.repeat(300) }, 'experience_required', /no more than 191/],
      ['huge duration', { duration: 'x'.repeat(300) }, 'duration', /no more than 191/],
      ['huge rich text', { description: `<p>${'x'.repeat(100_001)}</p>` }, 'description', /no more than 100000/],
      ['rich text as list', { requirements: ['<p>x</p>'] }, 'requirements', /Must be text/],
      ['webhook javascript url', { webhook_url: 'javascript:alert(1)' }, 'webhook_url', /valid http or https URL/],
      ['webhook ftp url', { webhook_url: 'ftp://files.example.com/x' }, 'webhook_url', /valid http or https URL/],
      ['webhook not a url', { webhook_url: 'not a url' }, 'webhook_url', /valid http or https URL/],
      ['webhook enabled without url', { webhook_enabled: true, webhook_url: '' }, 'webhook_url', /required when the webhook is enabled/],
      ['webhook enabled as text', { webhook_enabled: 'yes' }, 'webhook_enabled', /true or false/],
      ['huge webhook secret', { webhook_secret: 'x'.repeat(256) }, 'webhook_secret', /no more than 255/],
      ['public id with spaces', { public_id: 'has space' }, 'public_id', /letters, digits, hyphens or underscores/],
      ['public id as number', { public_id: 12345 }, 'public_id', /letters, digits/],
      ['public id too long', { public_id: 'x'.repeat(65) }, 'public_id', /1 to 64/],
      ['questions not a list', { questions: 'many' }, 'questions', /Must be a list/],
      [
        'too many questions',
        { questions: Array.from({ length: 51 }, () => ({ text: 'q', answer_type: 'short_text' })) },
        'questions',
        /At most 50 questions/,
      ],
      ['question not an object', { questions: ['why?'] }, 'questions.0', /Must be an object/],
      [
        'question unknown type',
        { questions: [{ text: 'q', answer_type: 'date' }] },
        'questions.0.answer_type',
        /Must be one of short_text/,
      ],
      ['question without text', { questions: [{ text: '', answer_type: 'short_text' }] }, 'questions.0.text', /This field is required/],
      [
        'question with empty markup',
        { questions: [{ text: '<p> </p><script>x</script>', answer_type: 'short_text' }] },
        'questions.0.text',
        /This field is required/,
      ],
      [
        'choice without options',
        { questions: [{ text: 'q', answer_type: 'single_choice', options: ['', '  '] }] },
        'questions.0.options',
        /at least one option/,
      ],
      [
        'checkbox options not a list',
        { questions: [{ text: 'q', answer_type: 'checkbox', options: 'a,b' }] },
        'questions.0.options',
        /list of text/,
      ],
      [
        'option too long',
        { questions: [{ text: 'q', answer_type: 'checkbox', options: ['x'.repeat(192)] }] },
        'questions.0.options',
        /191 characters/,
      ],
      [
        'question required as text',
        { questions: [{ text: 'q', answer_type: 'number', required: 'maybe' }] },
        'questions.0.required',
        /true or false/,
      ],
      ['question negative order', { questions: [{ text: 'q', answer_type: 'number', order: -1 }] }, 'questions.0.order', /valid integer/],
      [
        'huge placeholder',
        { questions: [{ text: 'q', answer_type: 'short_text', placeholder: 'x'.repeat(192) }] },
        'questions.0.placeholder',
        /191/,
      ],
    ];

    it('answers every invalid field with a 400 field error and saves nothing', async () => {
      const before = await jobCount();
      const existing = await makeJob(s.ctx.db, { public_id: 'valid-put' });
      for (const [name, override, field, message] of BAD) {
        for (const [method, path] of [
          ['POST', '/api/hr/jobs/'],
          ['PUT', `/api/hr/jobs/${existing.id}/`],
        ]) {
          const body = payload(override);
          for (const k of Object.keys(override)) if (override[k] === undefined) delete body[k];
          const res = await call(method, path, body);
          const json = await res.json();
          expect(res.status, `${name} (${method})`).to.equal(400);
          expect(json, `${name} (${method}): ${JSON.stringify(json).slice(0, 300)}`).to.have.property(field);
          expect(json[field].join(' '), name).to.match(message);
        }
      }
      expect(await jobCount()).to.equal(before + 1);
      const unchanged = await (await call('GET', `/api/hr/jobs/${existing.id}/`)).json();
      expect(unchanged.title).to.equal(existing.title);
    });

    it('reports several problems at once', async () => {
      const res = await call('POST', '/api/hr/jobs/', { title: '', job_type: 'X', min_salary: -1, questions: [{ answer_type: 'nope' }] });
      expect(res.status).to.equal(400);
      const json = await res.json();
      expect(json).to.have.keys([
        'title',
        'location',
        'job_type',
        'work_mode',
        'min_salary',
        'questions.0.answer_type',
        'questions.0.text',
      ]);
    });

    it('answers malformed bodies with 400 (or 413 when too large), never 500', async () => {
      let res = await call('POST', '/api/hr/jobs/', '{"title": ');
      expect(res.status).to.equal(400);
      expect((await res.json()).detail).to.match(/JSON/);
      for (const body of [[payload()], 'just a string', 42, null]) {
        res = await call('POST', '/api/hr/jobs/', JSON.stringify(body));
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(await res.json()).to.have.property('detail');
      }
      res = await call('POST', '/api/hr/jobs/', 'title=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
      expect(res.status).to.equal(400);
      // HR bodies may be up to 16 MB (Remove sends whole jobs back); a longer text is a field error.
      res = await call('POST', '/api/hr/jobs/', payload({ description: 'x'.repeat(1_100_000) }));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ description: ['Ensure this field has no more than 100000 characters.'] });
      res = await call('POST', '/api/hr/jobs/', payload({ description: 'x'.repeat(17 * 1024 * 1024) }));
      expect(res.status).to.equal(413);
    });

    it('lists jobs newest first, paged, with applicant counts and a status filter', async () => {
      const db = s.ctx.db;
      await db('jobs').delete();
      const t0 = Date.parse('2026-02-01T00:00:00Z');
      const ids: number[] = [];
      for (let i = 0; i < 30; i++)
        ids.push((await makeJob(db, { public_id: `list-${i}`, status: i % 3 === 0 ? 'INACTIVE' : 'ACTIVE' }, new Date(t0 + i * 1000))).id);
      await addApplications(db, ids[29], 3);
      let res = await call('GET', '/api/hr/jobs/');
      let body = await res.json();
      expect(res.status).to.equal(200);
      expect(body.count).to.equal(30);
      expect(body.results).to.have.length(25);
      expect(body.next).to.match(/page=2/);
      // Issue 34: `approval` is null with JOB_APPROVAL off.
      expect(body.results[0]).to.include({ public_id: 'list-29', applicants: 3, views: 0, approval: null });
      expect(body.results[1]).to.include({ public_id: 'list-28', applicants: 0 });
      expect(body.results[0]).to.have.keys([
        'id',
        'public_id',
        'title',
        'department',
        'location',
        'job_type',
        'work_mode',
        'status',
        'closes_at',
        'applicants',
        'approval',
        'views',
        'created_at',
        'updated_at',
      ]);
      body = await (await call('GET', '/api/hr/jobs/?page=2')).json();
      expect(body.results.map((j: any) => j.public_id)).to.deep.equal(['list-4', 'list-3', 'list-2', 'list-1', 'list-0']);
      body = await (await call('GET', '/api/hr/jobs/?status=INACTIVE&page_size=100')).json();
      expect(body.count).to.equal(10);
      expect(body.results.every((j: any) => j.status === 'INACTIVE')).to.equal(true);
      body = await (await call('GET', '/api/hr/jobs/?page_size=1000')).json();
      expect(body.results).to.have.length(30);
      res = await call('GET', '/api/hr/jobs/?status=GONE');
      expect(res.status).to.equal(400);
      expect(await res.json()).to.have.property('status');
      res = await call('GET', '/api/hr/jobs/?page=0');
      expect(res.status).to.equal(400);
    });

    it('never lets hostile rich text survive a save: not in the HR API, the public API or the public page', async () => {
      const hostile = [
        '<script>alert(1)</script><p>Safe <b>bold</b></p>',
        '<img src=x onerror="alert(1)"><p onclick="alert(2)">para</p>',
        '<a href="javascript:alert(1)">js link</a> <a href="JaVaScRiPt:alert(1)">mixed</a> <a href="https://ok.example/x">ok</a>',
        '<svg onload=alert(1)><script>alert(1)</script></svg><style>p{color:red}</style><p style="color:red">styled</p>',
        '<iframe src="https://evil.example"></iframe><object data="x"></object><div onmouseover="alert(1)">div</div>',
      ].join('');
      const job = await create(
        payload({
          public_id: 'hostile-1',
          status: 'ACTIVE',
          description: hostile,
          responsibilities: hostile,
          requirements: hostile,
          perks_benefits: hostile,
          questions: [{ text: hostile, help_text: hostile, answer_type: 'short_text' }],
        }),
      );
      const checks = (html: string, where: string) => {
        expect(html, where).not.to.match(/<script|<img|<svg|<style|<iframe|<object|onerror|onclick|onload|onmouseover|javascript:|style=/i);
      };
      const fields = ['description', 'responsibilities', 'requirements', 'perks_benefits'];
      const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
      for (const f of fields) checks(read[f], `HR ${f}`);
      checks(read.questions[0].text, 'question text');
      checks(read.questions[0].help_text, 'question help');
      expect(read.description)
        .to.include('<p>Safe <b>bold</b></p>')
        .and.include('<a href="https://ok.example/x" target="_blank" rel="noopener noreferrer">ok</a>')
        .and.include('<a href="#" target="_blank" rel="noopener noreferrer">js link</a>');
      // What is stored is already clean (sanitised on save, not only on output).
      const row = await s.ctx.db('jobs').where({ id: job.id }).first();
      for (const f of fields) checks(row[f], `stored ${f}`);
      const pub = await (await fetch(`${s.baseUrl}/api/jobs/hostile-1/`)).json();
      for (const f of fields) checks(pub[f], `public ${f}`);
      const page = await (await fetch(`${s.baseUrl}/careers/hostile-1`)).text();
      const main = page.slice(page.indexOf('<main'), page.indexOf('</main>'));
      checks(main.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, ''), 'public page');
    });

    it('removing a job (full PUT with status REMOVED) takes it off the public site', async () => {
      const job = await create(payload({ public_id: 'to-remove', status: 'ACTIVE', title: 'Removable Role' }));
      expect(await (await fetch(`${s.baseUrl}/careers`)).text()).to.include('Removable Role');
      const current = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
      const res = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...current, status: 'REMOVED' });
      expect(res.status).to.equal(200);
      expect((await res.json()).status).to.equal('REMOVED');
      expect(await (await fetch(`${s.baseUrl}/careers`)).text()).not.to.include('Removable Role');
      expect((await fetch(`${s.baseUrl}/api/jobs/to-remove/`)).status).to.equal(404);
      // HR still sees it and can restore it.
      const again = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...current, status: 'ACTIVE' });
      expect((await again.json()).status).to.equal('ACTIVE');
    });
  });
}

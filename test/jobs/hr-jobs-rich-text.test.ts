/**
 * Rich text over real HTTP, on SQLite and MySQL (issue 9 item 5): a text nested deeper than 20
 * elements is refused on save in every rich field and shape ('Rich text is nested too deeply.'),
 * while everything the app produces (the editor's nested lists with every mark, the demo jobs)
 * saves; reads (public API, HR API, job page, JSON-LD, the application's question snapshot) serve
 * the stored HTML as it is, without sanitising it again; and a job stored before the limit (texts
 * deeper than 20, or longer than 100,000 characters once sanitised) still saves through Remove.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { hrSession } from '../helpers/hr.js';
import { DEMO_JOBS } from '../../src/jobs/lib/demo.js';
import { richTextDepth, sanitizeRichText } from '../../src/shared/sanitize.js';

const TOO_DEEP = 'Rich text is nested too deeply.';

/** `tags` opened in order around `inner`, then closed. */
const nest = (tags: string[], inner = 'x') =>
  tags.map((t) => `<${t}>`).join('') +
  inner +
  [...tags]
    .reverse()
    .map((t) => `</${t.split(' ')[0]}>`)
    .join('');
const times = <T>(n: number, v: T[]) => Array.from({ length: n }, () => v).flat();
const LINK = 'a href="https://example.com/team" target="_blank" rel="noopener noreferrer"';

/** The editor's deepest output: seven nested lists, the innermost item a link in bold, italic and underline (19). */
const EDITOR_DEEPEST = (() => {
  let html = `<p>${nest([LINK, 'strong', 'em', 'u'], 'Level 7')}</p>`;
  for (let level = 7; level >= 1; level--)
    html = `<${level % 2 ? 'ul' : 'ol'}><li>${level < 7 ? `<p>Level ${level}</p>` : ''}${html}</li></${level % 2 ? 'ul' : 'ol'}>`;
  return html;
})();

/** Texts nested deeper than 20 once sanitised, in different shapes. */
const TOO_DEEP_TEXTS: [string, string][] = [
  ['21 nested bold tags', nest(times(21, ['b']))],
  ['25 unclosed italic tags (closed by the sanitiser)', `${'<i>'.repeat(25)}deep`],
  ['lists ten deep around a paragraph', nest([...times(10, ['ul', 'li']), 'p'])],
  ['a link in every mark, repeated', nest(['p', ...times(4, [LINK, 'strong', 'em', 'u', 'b'])])],
  ['allowed tags hidden among unwrapped ones', nest(times(11, ['section', 'b', 'span', 'i']))],
  ['one deep spot after a thousand flat paragraphs', '<p>flat</p>'.repeat(1000) + nest(times(21, ['em']))],
  ['the issue example: thousands of nested tags', nest(times(3000, ['strong']))],
];

/** Texts that must save as they are. */
const SAVED_TEXTS: [string, string][] = [
  ['exactly 20 nested tags', nest(times(20, ['b']))],
  ["the editor's deepest output", EDITOR_DEEPEST],
  ['a thousand unwrapped wrappers around three marks', nest([...times(1000, ['span']), 'b', 'i', 'u'])],
];

/** In a place no default pay rule covers (issue 34): the job may be active without a range. */
function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Platform Engineer', location: 'Zürich, Switzerland', job_type: 'FULL_TIME', work_mode: 'HYBRID', ...overrides };
}

/** A payload with `text` in one rich field, top-level or nested ('questions.0.help_text'). */
function withText(key: string, text: string): Record<string, unknown> {
  const q = /^questions\.(\d)\.(text|help_text)$/.exec(key);
  if (!q) return payload({ [key]: text });
  const questions = [
    { text: '<p>First</p>', answer_type: 'short_text' },
    { text: '<p>Second</p>', answer_type: 'long_text' },
  ];
  questions[Number(q[1])] = { ...questions[Number(q[1])], [q[2]]: text };
  return payload({ questions });
}

const RICH_KEYS = ['description', 'responsibilities', 'requirements', 'perks_benefits', 'questions.0.text', 'questions.1.help_text'];

for (const kind of databaseKinds()) {
  describe(`HR job rich text: nesting limit and stored HTML served as is [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const create = async (body: Record<string, unknown>) => {
      const r = await call('POST', '/api/hr/jobs/', body);
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).to.equal(201);
      return r.body;
    };
    const jobCount = async () => Number((await s.ctx.db('jobs').count({ n: '*' }))[0].n);

    it('refuses a text nested deeper than 20 in every rich field and shape, on create, with the field message', async () => {
      const before = await jobCount();
      for (const [shape, text] of TOO_DEEP_TEXTS) {
        expect(richTextDepth(sanitizeRichText(text)), shape).to.be.above(20);
        for (const key of RICH_KEYS) {
          const r = await call('POST', '/api/hr/jobs/', withText(key, text));
          expect(r.status, `${shape} in ${key}`).to.equal(400);
          expect(r.body, `${shape} in ${key}`).to.deep.equal({ [key]: [TOO_DEEP] });
        }
      }
      expect(await jobCount()).to.equal(before);
    });

    it('refuses it on update too and leaves the job as it was', async () => {
      const job = await create(
        payload({ description: '<p>Kept</p>', questions: [{ text: '<p>Kept question</p>', answer_type: 'short_text' }] }),
      );
      for (const [shape, text] of TOO_DEEP_TEXTS.slice(0, 3)) {
        for (const body of [
          { ...job, description: text },
          { ...job, questions: [{ ...job.questions[0], help_text: text }] },
        ]) {
          const r = await call('PUT', `/api/hr/jobs/${job.id}/`, body);
          expect(r.status, shape).to.equal(400);
          expect(Object.values(r.body), shape).to.deep.equal([[TOO_DEEP]]);
        }
      }
      const read = await call('GET', `/api/hr/jobs/${job.id}/`);
      expect([read.body.description, read.body.questions[0].help_text]).to.deep.equal(['<p>Kept</p>', '']);
    });

    it("saves 20 levels, the editor's deepest output and the demo jobs, and reads them back unchanged", async () => {
      for (const [shape, text] of SAVED_TEXTS) {
        const stored = sanitizeRichText(text);
        expect(richTextDepth(stored), shape).to.be.at.most(20);
        for (const key of RICH_KEYS) {
          const job = await create(withText(key, text));
          const [field, i, sub] = key.split('.');
          const read = (await call('GET', `/api/hr/jobs/${job.id}/`)).body;
          expect(sub ? read.questions[Number(i)][sub] : read[field], `${shape} in ${key}`).to.equal(stored);
        }
      }
      expect(sanitizeRichText(EDITOR_DEEPEST)).to.equal(EDITOR_DEEPEST);
      for (const [i, record] of DEMO_JOBS.entries()) await create({ ...record, public_id: `demo-copy-${i}` });
    });

    it('serves the stored HTML as it is on every read, without sanitising it again', async () => {
      const job = await create(
        payload({
          public_id: 'as-stored',
          status: 'ACTIVE',
          description: '<p>Placeholder</p>',
          questions: [{ text: '<p>Placeholder?</p>', answer_type: 'short_text' }],
        }),
      );
      // Stored text the sanitiser would change (it unwraps span): what a read returns shows whether it ran.
      const description = '<p>Stored <span class="kept">as it is</span></p>';
      const question = '<p>Why <span>us</span>?</p>';
      const help = '<p><span>Be brief</span></p>';
      expect(sanitizeRichText(description)).to.not.equal(description);
      await s.ctx.db('jobs').where({ id: job.id }).update({ description, responsibilities: description });
      await s.ctx.db('job_questions').where({ id: job.questions[0].id }).update({ text: question, help_text: help });
      s.ctx.cache.clear('public-jobs');

      const pub = await (await fetch(`${s.baseUrl}/api/jobs/as-stored/`)).json();
      expect([pub.description, pub.responsibilities, pub.questions[0].text, pub.questions[0].help_text]).to.deep.equal([
        description,
        description,
        question,
        help,
      ]);
      const hr = (await call('GET', `/api/hr/jobs/${job.id}/`)).body;
      expect([hr.description, hr.responsibilities, hr.questions[0].text, hr.questions[0].help_text]).to.deep.equal([
        description,
        description,
        question,
        help,
      ]);
      const page = await (await fetch(`${s.baseUrl}/careers/as-stored`)).text();
      expect(page.match(/<div class="rich-text">([\s\S]*?)<\/div>/g)).to.deep.equal([
        `<div class="rich-text">${description}</div>`,
        `<div class="rich-text">${description}</div>`,
      ]);
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)![1]);
      expect(ld.description).to.equal(
        `<p><strong>Job Description</strong></p>${description}<p><strong>Responsibilities</strong></p>${description}`,
      );
      // The application keeps the question text as stored.
      const res = await fetch(`${s.baseUrl}/api/jobs/as-stored/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ answers: JSON.stringify([{ question_id: job.questions[0].id, answer: 'Because' }]) })),
      });
      expect(res.status).to.equal(201);
      expect((await s.ctx.db('application_answers').where({ question_id: job.questions[0].id }).first()).question_text).to.equal(question);
    });

    it('shows only sections with visible content, and leaves empty ones out of JSON-LD', async () => {
      const job = await create(payload({ public_id: 'sections', status: 'ACTIVE', description: '<p>Visible</p>' }));
      await s.ctx
        .db('jobs')
        .where({ id: job.id })
        .update({ responsibilities: '<p><br /></p>', requirements: '<ul><li>&nbsp;</li></ul>', perks_benefits: '<p><b>Perks</b></p>' });
      s.ctx.cache.clear('public-jobs');
      const page = await (await fetch(`${s.baseUrl}/careers/sections`)).text();
      expect([...page.matchAll(/<h2[^>]*>([^<]*)<\/h2>\s*<div class="rich-text">/g)].map((m) => m[1])).to.deep.equal([
        'Job Description',
        'Perks &amp; Benefits',
      ]);
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)![1]);
      expect(ld.description).to.equal(
        '<p><strong>Job Description</strong></p><p>Visible</p><p><strong>Perks &amp; Benefits</strong></p><p><b>Perks</b></p>',
      );
      // Without sections the title stands in, as text: the description is HTML.
      await create(payload({ public_id: 'no-sections', status: 'ACTIVE', title: 'R&D <Lead>', description: '' }));
      const bare = await (await fetch(`${s.baseUrl}/careers/no-sections`)).text();
      expect(JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(bare)![1]).description).to.equal(
        '<p>R&amp;D &lt;Lead&gt;</p>',
      );
    });

    it('still saves a job stored before the limit (deeper than 20, longer than 100,000 once sanitised) through Remove', async () => {
      const job = await create(
        payload({
          public_id: 'legacy-deep',
          status: 'ACTIVE',
          questions: [{ text: '<p>Q</p>', answer_type: 'short_text', required: true }],
        }),
      );
      const deep = sanitizeRichText(nest(times(3000, ['b'])));
      const long = sanitizeRichText('<a href=http://a>x</a>'.repeat(4500)); // 99,000 sent, 297,000 stored
      expect(long.length).to.be.above(100_000);
      await s.ctx.db('jobs').where({ id: job.id }).update({ description: deep, perks_benefits: long });
      await s.ctx.db('job_questions').where({ id: job.questions[0].id }).update({ text: deep, help_text: long });
      const read = (await call('GET', `/api/hr/jobs/${job.id}/`)).body;
      // What the job editor does: send it back with another title.
      const edited = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...read, title: 'Renamed' });
      expect(edited.status, JSON.stringify(edited.body).slice(0, 300)).to.equal(200);
      // Remove (manage-jobs): the whole job back with status REMOVED.
      const removed = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...edited.body, status: 'REMOVED' });
      expect(removed.status, JSON.stringify(removed.body).slice(0, 300)).to.equal(200);
      const row = await s.ctx.db('jobs').where({ id: job.id }).first();
      expect([row.status, row.title, row.description, row.perks_benefits]).to.deep.equal(['REMOVED', 'Renamed', deep, long]);
      const q = await s.ctx.db('job_questions').where({ id: job.questions[0].id }).first();
      expect([q.text, q.help_text]).to.deep.equal([deep, long]);
      // A changed text is checked as new, and a stored text does not pass on another job.
      const changed = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...removed.body, description: deep.replace('x', 'y') });
      expect(changed.body).to.deep.equal({ description: [TOO_DEEP] });
      const other = await call('POST', '/api/hr/jobs/', payload({ description: deep }));
      expect(other.body).to.deep.equal({ description: [TOO_DEEP] });
    });

    it('takes back through Remove a stored job whose JSON is over 1 MB (HR bodies may be up to 16 MB)', async () => {
      const job = await create(payload({ public_id: 'legacy-big', status: 'ACTIVE' }));
      const long = sanitizeRichText('<a href=http://a>x</a>'.repeat(4500));
      await s.ctx
        .db('jobs')
        .where({ id: job.id })
        .update({ description: long, responsibilities: long, requirements: long, perks_benefits: long });
      const read = (await call('GET', `/api/hr/jobs/${job.id}/`)).body;
      expect(JSON.stringify(read).length).to.be.above(1024 * 1024);
      const removed = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...read, status: 'REMOVED' });
      expect(removed.status, JSON.stringify(removed.body).slice(0, 300)).to.equal(200);
      expect((await s.ctx.db('jobs').where({ id: job.id }).first()).status).to.equal('REMOVED');
    });
  });
}

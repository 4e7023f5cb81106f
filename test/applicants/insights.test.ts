import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications, type SeedAnswer, type SeedApplication } from '../helpers/applications.js';
import { hrSession } from '../helpers/hr.js';
import { revokeSession } from '../../src/users/repo.js';
import { computeAnalytics, niceWidth } from '../../src/applicants/insights.queries.js';
import { removeApplications } from '../../src/applicants/retention.service.js';
import type { Job } from '../../src/jobs/types.js';

const u = undefined;
/** Answers of the 15 known applicants, per question (index = applicant). */
const KNOWN = {
  city: ['Pune', ' pune ', 'PUNE', 'Berlin', 'berlin', 'London', 'Pune', u, u, 'Zürich', u, u, u, u, u],
  story: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'A', u, u, u].map((c) => (c ? `Story ${c}` : u)),
  years: [0, 1, 1, 2, 2, 2, 5, 5, 2.5, u, u, u, u, u, u],
  salary: [3, 7, 12, 18, 25, 33, 41, 48, 52, 60, 67, 75, 88, 95, 100],
  rating: [0, 0.75, 1.5, 2.25, 3, 3.75, 4.5, 5.25, 6, 6.75, 7.5, 8.25, 9, u, u],
  // 'Later' was an option once and has since been removed from the question.
  relocate: ['Yes', 'Yes', 'Yes', 'Yes', 'Yes', 'Yes', 'No', 'No', 'No', 'Later', u, u, u, u, u],
  days: [['Mon', 'Tue'], ['Mon'], ['Tue', 'Wed'], ['Mon', 'Tue', 'Wed'], ['Mon'], u, u, u, u, u, u, u, u, u, u],
  gone: ['old answer', u, u, u, u, u, u, u, u, u, u, u, u, u, u],
} satisfies Record<string, (SeedAnswer | undefined)[]>;

function person(i: number, tag = 'k'): SeedApplication {
  return {
    first_name: `Person${String.fromCharCode(65 + (i % 26))}`,
    last_name: 'Known',
    email: `p${i}.${tag}@example.com`,
    phone: `+91987654${String(i).padStart(4, '0')}`,
  };
}

for (const kind of databaseKinds()) {
  describe(`HR job analytics API and insights page [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let job: Job;
    let empty: Job;
    const get = (path: string, headers: Record<string, string> = { Authorization: `Bearer ${token}` }) =>
      fetch(s.baseUrl + path, { headers, redirect: 'manual' });

    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      job = await makeJob(db, {
        title: 'Data Engineer',
        questions: [
          { text: '<p>Which <strong>city</strong>?</p>', answer_type: 'short_text', required: false },
          { text: '<p>Tell us a story</p>', answer_type: 'long_text', required: false },
          { text: 'Years of experience', answer_type: 'number', required: false },
          { text: 'Expected salary (k)', answer_type: 'number', required: true },
          { text: 'Rate yourself', answer_type: 'number', required: false },
          { text: 'Can you relocate?', answer_type: 'single_choice', options: ['Yes', 'No', 'Maybe'], required: false },
          { text: 'Which days suit you?', answer_type: 'checkbox', options: ['Mon', 'Tue', 'Wed'], required: false },
          { text: 'A removed question', answer_type: 'short_text', required: false },
        ],
      });
      const [city, story, years, salary, rating, relocate, days, gone] = job.questions;
      const qs = { city, story, years, salary, rating, relocate, days, gone };
      const apps = KNOWN.salary.map((_, i) => ({
        ...person(i),
        answers: Object.fromEntries(Object.entries(qs).map(([k, q]) => [q.id, KNOWN[k as keyof typeof KNOWN][i]])),
      }));
      await insertApplications(db, job.id, apps, job.questions);
      await db('job_questions').where({ id: gone.id }).update({ is_deleted: 1 });
      job.questions = job.questions.filter((q) => q.id !== gone.id);
      empty = await makeJob(db, { title: 'No Questions Job' });
      await insertApplications(db, empty.id, [person(1, 'e'), person(2, 'e'), person(3, 'e')], []);
    });
    after(() => s.close());

    it('answers every answer type with exact counts and percents, current questions in order', async () => {
      const res = await get(`/api/hr/jobs/${job.id}/analytics/`);
      expect(res.status).to.equal(200);
      const body = await res.json();
      expect(body.total_applicants).to.equal(15);
      expect(body.questions.map((q: any) => q.id)).to.deep.equal(job.questions.map((q) => q.id));
      const [city, story, years, salary, rating, relocate, days] = body.questions;

      expect(city).to.deep.equal({
        id: job.questions[0].id,
        text: '<p>Which <strong>city</strong>?</p>',
        answer_type: 'short_text',
        stats: {
          type: 'text',
          answered: 8,
          top_answers: [
            { value: 'Pune', count: 4 },
            { value: 'Berlin', count: 2 },
            { value: 'London', count: 1 },
            { value: 'Zürich', count: 1 },
          ],
        },
      });

      expect(story.answer_type).to.equal('long_text');
      expect(story.stats.answered).to.equal(12);
      expect(story.stats.top_answers).to.have.length(10);
      expect(story.stats.top_answers[0]).to.deep.equal({ value: 'Story A', count: 2 });
      expect(story.stats.top_answers.slice(1).map((a: any) => a.value)).to.deep.equal(
        ['B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((c) => `Story ${c}`),
      );

      expect(years.stats).to.deep.equal({
        type: 'distribution',
        answered: 9,
        distribution: [
          { option: '0', count: 1, percent: 11.1 },
          { option: '1', count: 2, percent: 22.2 },
          { option: '2', count: 3, percent: 33.3 },
          { option: '2.5', count: 1, percent: 11.1 },
          { option: '5', count: 2, percent: 22.2 },
        ],
        numbers: { min: 0, median: 2, max: 5 },
      });

      // 15 distinct whole numbers from 3 to 100: ranges 10 wide.
      expect(salary.stats.answered).to.equal(15);
      expect(salary.stats.distribution).to.deep.equal(
        [
          ['0–9', 2],
          ['10–19', 2],
          ['20–29', 1],
          ['30–39', 1],
          ['40–49', 2],
          ['50–59', 1],
          ['60–69', 2],
          ['70–79', 1],
          ['80–89', 1],
          ['90–99', 1],
          ['100–109', 1],
        ].map(([option, count]) => ({ option, count, percent: count === 2 ? 13.3 : 6.7 })),
      );
      expect(salary.stats.numbers).to.deep.equal({ min: 3, median: 48, max: 100 });

      // 13 distinct fractions from 0 to 9: ranges 1 wide, lower bound included.
      expect(rating.stats.answered).to.equal(13);
      expect(rating.stats.distribution.map((d: any) => [d.option, d.count])).to.deep.equal([
        ['0 to under 1', 2],
        ['1 to under 2', 1],
        ['2 to under 3', 1],
        ['3 to under 4', 2],
        ['4 to under 5', 1],
        ['5 to under 6', 1],
        ['6 to under 7', 2],
        ['7 to under 8', 1],
        ['8 to under 9', 1],
        ['9 to under 10', 1],
      ]);
      expect(rating.stats.distribution[0].percent).to.equal(15.4);
      expect(rating.stats.numbers).to.deep.equal({ min: 0, median: 4.5, max: 9 });

      // Every option listed, zero included; the removed option's answer follows.
      expect(relocate.stats).to.deep.equal({
        type: 'distribution',
        answered: 10,
        distribution: [
          { option: 'Yes', count: 6, percent: 60 },
          { option: 'No', count: 3, percent: 30 },
          { option: 'Maybe', count: 0, percent: 0 },
          { option: 'Later', count: 1, percent: 10 },
        ],
      });

      // Share of the 5 who answered; the percentages add up to more than 100.
      expect(days.stats).to.deep.equal({
        type: 'distribution',
        answered: 5,
        distribution: [
          { option: 'Mon', count: 4, percent: 80 },
          { option: 'Tue', count: 3, percent: 60 },
          { option: 'Wed', count: 2, percent: 40 },
        ],
      });
    });

    it('counts ranges in the database when a number question has over a thousand distinct values', async () => {
      const db = s.ctx.db;
      const wide = await makeJob(db, {
        title: 'Wide numbers',
        questions: [{ text: 'Expected salary', answer_type: 'number', required: true }],
      });
      const [q] = wide.questions;
      const apps = Array.from({ length: 1050 }, (_, i) => ({ ...person(i, 'w'), answers: { [q.id]: i + 1 } }));
      await insertApplications(db, wide.id, apps, wide.questions);
      const body = await (await get(`/api/hr/jobs/${wide.id}/analytics/`)).json();
      expect(body.total_applicants).to.equal(1050);
      expect(body.questions[0].stats.answered).to.equal(1050);
      expect(body.questions[0].stats.distribution).to.deep.equal([
        { option: '0–199', count: 199, percent: 19 },
        { option: '200–399', count: 200, percent: 19 },
        { option: '400–599', count: 200, percent: 19 },
        { option: '600–799', count: 200, percent: 19 },
        { option: '800–999', count: 200, percent: 19 },
        { option: '1000–1199', count: 51, percent: 4.9 },
      ]);
      // An even count: the mean of the two middle answers (525 and 526), from the tallies and from the answers alike.
      expect(body.questions[0].stats.numbers).to.deep.equal({ min: 1, median: 525.5, max: 1050 });
      for (const from of ['tallies', 'answers'] as const) {
        const computed = await db.transaction((trx) => computeAnalytics(trx, wide, undefined, from));
        expect(computed.questions[0].stats, from).to.deep.equal(body.questions[0].stats);
      }
    });

    it('never serves a stale result: new, removed and re-questioned applications show at once', async () => {
      const db = s.ctx.db;
      const fresh = await makeJob(db, {
        title: 'Fresh numbers',
        questions: [{ text: 'Pick', answer_type: 'single_choice', options: ['A', 'B'], required: true }],
      });
      const [q] = fresh.questions;
      const dist = async () =>
        (await (await get(`/api/hr/jobs/${fresh.id}/analytics/`)).json()).questions[0].stats.distribution.map(
          (d: any) => `${d.option}:${d.count}`,
        );
      await insertApplications(
        db,
        fresh.id,
        [
          { ...person(1, 'f'), answers: { [q.id]: 'A' } },
          { ...person(2, 'f'), answers: { [q.id]: 'A' } },
        ],
        fresh.questions,
      );
      expect(await dist()).to.deep.equal(['A:2', 'B:0']);
      expect(await dist()).to.deep.equal(['A:2', 'B:0']);
      await insertApplications(db, fresh.id, [{ ...person(3, 'f'), answers: { [q.id]: 'B' } }], fresh.questions);
      expect(await dist()).to.deep.equal(['A:2', 'B:1']);
      // Removing an older application (not the newest, erased as the app removes applications) changes the count.
      const [oldest] = await db('applications').where({ job_id: fresh.id }).orderBy('id').limit(1);
      await removeApplications(
        { db, storage: s.ctx.storage, now: () => new Date(), log: s.ctx.log },
        { email: oldest.email },
        { action: 'erase' },
      );
      expect(await dist()).to.deep.equal(['A:1', 'B:1']);
      // Editing the question's options (the job's updated_at moves with every save).
      await db('job_questions')
        .where({ id: q.id })
        .update({ options: JSON.stringify(['A', 'B', 'C']) });
      await db('jobs').where({ id: fresh.id }).update({ updated_at: '2030-01-01 00:00:00.000' });
      expect(await dist()).to.deep.equal(['A:1', 'B:1', 'C:0']);
    });

    it('answers a job without questions with an empty list', async () => {
      const res = await get(`/api/hr/jobs/${empty.id}/analytics/`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ total_applicants: 3, questions: [] });
    });

    it('answers 404 {detail} for an unknown or malformed job id', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1e3', '1.5', '99999999999']) {
        const res = await get(`/api/hr/jobs/${id}/analytics/`);
        expect(res.status, id).to.equal(404);
        expect(await res.json(), id).to.deep.equal({ detail: 'Not found.' });
      }
    });

    it('needs a valid HR token (Bearer or the jwt cookie for reads)', async () => {
      const path = `/api/hr/jobs/${job.id}/analytics/`;
      for (const headers of [
        {},
        { Authorization: 'Bearer nope' },
        { Authorization: `Bearer ${'x'.repeat(43)}` },
        { Cookie: 'jwt=garbage' },
      ] as Record<string, string>[]) {
        const res = await get(path, headers);
        expect(res.status).to.equal(401);
        expect((await res.json()).detail).to.be.a('string');
      }
      expect((await get(path, { Cookie: `jwt=${token}` })).status).to.equal(200);
      // A revoked session is refused.
      const other = (await hrSession(s.ctx.db, 'hr2')).token;
      expect((await get(path, { Authorization: `Bearer ${other}` })).status).to.equal(200);
      await revokeSession(s.ctx.db, other);
      expect((await get(path, { Authorization: `Bearer ${other}` })).status).to.equal(401);
    });

    it('the insights page is guarded, renders the job and its analytics, and 404s unknown jobs', async () => {
      const path = `/hr/jobs/${job.id}/insights`;
      const anon = await get(path, {});
      expect(anon.status).to.equal(302);
      expect(anon.headers.get('location')).to.equal(`/hrviewlogin?next=${encodeURIComponent(path)}`);
      const res = await get(path, { Cookie: `jwt=${token}` });
      expect(res.status).to.equal(200);
      const html = await res.text();
      expect(html).to.include('id="island-job-insights"');
      expect(html).to.include('<h1 class="insights-title">Data Engineer</h1>');
      const props = JSON.parse(/<script type="application\/json" id="island-job-insights-props">([^<]*)<\/script>/.exec(html)![1]);
      expect(props.job).to.include({ id: job.id, title: 'Data Engineer', status: 'ACTIVE', applicants: 15, views: 0 });
      expect(props.analytics.questions).to.have.length(7);
      for (const bad of ['999999', 'abc']) {
        const r = await get(`/hr/jobs/${bad}/insights`, { Cookie: `jwt=${token}` });
        expect(r.status).to.equal(404);
        expect(await r.text()).to.include('404 — Page Not Found');
      }
    });
  });
}

describe('analytics range widths', () => {
  it('picks 1, 2, 2.5 or 5 times a power of ten, whole widths for whole numbers', () => {
    expect(niceWidth(9.7, true)).to.equal(10);
    expect(niceWidth(2.4, true)).to.equal(5);
    expect(niceWidth(0.3, true)).to.equal(1);
    expect(niceWidth(24, true)).to.equal(25);
    expect(niceWidth(0.9, false)).to.equal(1);
    expect(niceWidth(0.21, false)).to.equal(0.25);
    expect(niceWidth(1300, false)).to.equal(2000);
    expect(niceWidth(0, false)).to.equal(1);
  });
});

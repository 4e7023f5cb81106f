/**
 * Answer tallies (migration 011) on SQLite and MySQL: the app's insert of an application, the
 * seeding helper, purges and erases keep them equal to counting the answers; insights read from
 * them give exactly what counting the answers gives; the migration fills them from the answers
 * already there; insights read them alone, so rows deleted some other way are not seen.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { computeAnalytics } from '../../src/applicants/insights.queries.js';
import { insertApplication, type AnswerRow } from '../../src/applicants/apply.repo.js';
import { removeApplications } from '../../src/applicants/retention.service.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';
import { findJobById } from '../../src/jobs/repo.js';
import type { Job, JobQuestion } from '../../src/jobs/types.js';
import type { JobAnalytics } from '../../src/applicants/types.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { insertApplications, type SeedAnswer } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { day, hr } from './helpers.js';

type Tally = [questionId: number, kind: string, value: string, number: number, n: number];

/** The four groups insights count, counted over the answers (as migration 011 fills the tallies). */
async function recount(db: Knex): Promise<Tally[]> {
  const rows: Record<string, any>[] = [
    ...(await db('application_answers')
      .whereNotNull('question_id')
      .select('question_id', db.raw("'a' AS kind"), db.raw("'' AS value"), db.raw('0 AS number'))
      .count({ n: '*' })
      .groupBy('question_id')),
    ...(await db('application_answers')
      .whereNotNull('question_id')
      .whereNotNull('answer_key')
      .select('question_id', db.raw("'k' AS kind"), { value: 'answer_key' }, db.raw('0 AS number'))
      .count({ n: '*' })
      .groupBy('question_id', 'answer_key')),
    ...(await db('application_answers')
      .whereNotNull('question_id')
      .whereNotNull('answer_number')
      .select('question_id', db.raw("'n' AS kind"), db.raw("'' AS value"), { number: 'answer_number' })
      .count({ n: '*' })
      .groupBy('question_id', 'answer_number')),
    ...(await db('application_answer_choices')
      .whereNotNull('question_id')
      .select('question_id', db.raw("'c' AS kind"), { value: 'choice' }, db.raw('0 AS number'))
      .count({ n: '*' })
      .groupBy('question_id', 'choice')),
  ];
  return normalise(rows);
}

async function tallies(db: Knex): Promise<Tally[]> {
  return normalise(await db('answer_tallies').where('n', '>', 0).select('question_id', 'kind', 'value', 'number', 'n'));
}

/** Sorted, numbers as numbers; values compared as MySQL's collation groups them (case and accents folded). */
function normalise(rows: Record<string, any>[]): Tally[] {
  const fold = (v: string) => v.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return rows
    .map((r): Tally => [Number(r.question_id), String(r.kind), fold(String(r.value)), Number(r.number), Number(r.n)])
    .sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]) || x[3] - y[3]);
}

/** Per job: the tallied application count and highest id, and the job's own. */
async function jobCounts(db: Knex): Promise<{ tallied: [number, number, number][]; actual: [number, number, number][] }> {
  const tallied = (await db('answer_tally_jobs').where('applications', '>', 0).orderBy('job_id')).map(
    (r) => [Number(r.job_id), Number(r.applications), Number(r.max_application_id)] as [number, number, number],
  );
  const actual = (await db('applications').select('job_id').count({ n: '*' }).max({ m: 'id' }).groupBy('job_id').orderBy('job_id')).map(
    (r: any) => [Number(r.job_id), Number(r.n), Number(r.m)] as [number, number, number],
  );
  return { tallied, actual };
}

/** An answer row as the apply service writes it (src/applicants/schema.ts). */
function answerRow(q: JobQuestion, v: SeedAnswer): AnswerRow {
  const base = { question_id: q.id, question_text: q.text, answer_number: null, choices: [] as string[] };
  if (Array.isArray(v)) return { ...base, answer: JSON.stringify(v), answer_key: null, choices: v };
  if (typeof v === 'number') return { ...base, answer: JSON.stringify(v), answer_key: String(v), answer_number: v };
  if (q.answer_type === 'single_choice') return { ...base, answer: JSON.stringify(v), answer_key: v.slice(0, 191) };
  return { ...base, answer: JSON.stringify(v), answer_key: v.trim().toLowerCase().slice(0, 191) };
}

const QUESTIONS = [
  { text: 'City', answer_type: 'short_text', required: false },
  { text: 'Years', answer_type: 'number', required: false },
  { text: 'Start', answer_type: 'single_choice', options: ['Now', 'Later'], required: false },
  { text: 'Days', answer_type: 'checkbox', options: ['Mon', 'Tue', 'Wed'], required: false },
];
/** Per applicant: city, years, start, days (undefined = left blank). Zürich/zurich group together on MySQL only. */
const ANSWERS: (SeedAnswer | undefined)[][] = [
  ['Pune', 2, 'Now', ['Mon', 'Tue']],
  [' pune ', 2.5, 'Now', ['Mon']],
  ['PUNE', 0, 'Later', ['Tue', 'Wed']],
  ['Zürich', 2, 'Gone option', undefined],
  ['zurich', 1e6, undefined, ['Wed']],
  [undefined, 2.0001, 'Now', ['Mon', 'Tue', 'Wed']],
  ['Berlin', undefined, 'Later', ['Mon']],
];

for (const kind of databaseKinds()) {
  describe(`answer tallies [${kind}]`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let job: Job;
    let other: Job;
    const analytics = (j: Job, from: 'tallies' | 'answers') => t.db.transaction((trx) => computeAnalytics(trx, j, undefined, from));
    const person = (i: number, tag: string) => ({
      first_name: `P${i}`,
      last_name: 'Tally',
      email: `p${i}.${tag}@example.com`,
      phone: `+9198765${String(i).padStart(5, '0')}`,
    });

    before(async () => {
      t = await createTestDb(kind);
      job = await makeJob(t.db, { title: 'Tallied', questions: QUESTIONS });
      other = await makeJob(t.db, { title: 'Other', questions: [{ text: 'City', answer_type: 'short_text', required: false }] });
      // Half through the seeding helper (batches), half through the app's own insert.
      const seeded = ANSWERS.slice(0, 4).map((a, i) => ({
        ...person(i, 's'),
        created_at: day(`2025-0${i + 1}-01`),
        answers: Object.fromEntries(job.questions.map((q, k) => [q.id, a[k]])),
      }));
      await insertApplications(t.db, job.id, seeded, job.questions);
      for (const [i, a] of ANSWERS.slice(4).entries()) {
        const answers = job.questions.flatMap((q, k) => (a[k] === undefined ? [] : [answerRow(q, a[k]!)]));
        await t.db.transaction((trx) =>
          insertApplication(
            trx,
            {
              ...person(10 + i, 'a'),
              job_id: job.id,
              ip_hash: null,
              resume: { storage_key: `k${i}`, original_name: 'cv.pdf', content_type: 'application/pdf', size: 1, sha256: 'x' },
              experiences: [],
              education: [],
              skills: [],
              answers,
            },
            day('2026-01-01'),
          ),
        );
      }
      await insertApplications(t.db, other.id, [{ ...person(20, 'o'), answers: { [other.questions[0].id]: 'Pune' } }], other.questions);
    });
    after(() => t.destroy());

    it('hold what counting the answers gives, after inserts by the app and by the seeding helper', async () => {
      expect(await tallies(t.db)).to.deep.equal(await recount(t.db));
      const { tallied, actual } = await jobCounts(t.db);
      expect(tallied).to.deep.equal(actual);
    });

    it('give insights exactly equal to counting the answers', async () => {
      const fromTallies = await analytics(job, 'tallies');
      expect(fromTallies).to.deep.equal(await analytics(job, 'answers'));
      expect(fromTallies.total_applicants).to.equal(ANSWERS.length);
      const [city, years, start, days] = fromTallies.questions.map((q) => q.stats);
      expect(city).to.deep.include({ answered: 6 });
      expect(years).to.deep.include({ answered: 6 });
      expect(start).to.deep.include({ answered: 6 });
      expect(days).to.deep.include({ answered: 6 });
    });

    it('are filled by migration 011 from the answers already there', async () => {
      const before = await tallies(t.db);
      while ((await t.db.migrate.currentVersion()) >= '011') await t.db.migrate.down();
      expect(await t.db.schema.hasTable('answer_tallies')).to.equal(false);
      await t.db.migrate.latest();
      expect(await tallies(t.db)).to.deep.equal(before);
      const { tallied, actual } = await jobCounts(t.db);
      expect(tallied).to.deep.equal(actual);
    });

    it('follow purges and erases, the newest application of a job included', async () => {
      const storage = new LocalDiskStorage(path.join(t.dataDir, 'uploads'));
      // The seeded rows name no real files: their removal fails quietly here.
      const deps = { db: t.db, storage, now: () => new Date('2026-06-01T00:00:00Z'), log: pino({ level: 'silent' }) };
      await removeApplications(deps, { createdBefore: day('2025-03-01'), jobId: job.id }, { action: 'purge' });
      await removeApplications(deps, { email: 'p11.a@example.com' }, { action: 'erase' });
      expect(await tallies(t.db)).to.deep.equal(await recount(t.db));
      const { tallied, actual } = await jobCounts(t.db);
      expect(tallied).to.deep.equal(actual);
      expect(await analytics(job, 'tallies')).to.deep.equal(await analytics(job, 'answers'));
      expect((await analytics(job, 'tallies')).total_applicants).to.equal(ANSWERS.length - 3);
    });

    it('are all insights count: an application deleted some other way (by hand) is still counted, counting the answers is not', async () => {
      const answered = (a: JobAnalytics) => [a.total_applicants, ...a.questions.map((q) => q.stats.answered)];
      const before = await analytics(job, 'tallies');
      const [oldest] = await t.db('applications').where({ job_id: job.id }).orderBy('id').limit(1);
      await t.db('applications').where({ id: oldest.id }).delete();
      const fresh = (await findJobById(t.db, job.id))!;
      const counted = await analytics(fresh, 'answers');
      expect(counted.total_applicants).to.equal(before.total_applicants - 1);
      expect(answered(await analytics(fresh, 'tallies'))).to.deep.equal(answered(before));
    });
  });
}

/**
 * Insights as the server computes them afresh (from the tallies alone, STAMPED_CACHE_OFF=insights)
 * against the same figures counted from scratch over the answer rows, after each step of a mix of
 * writes through the app's own paths: applications through the apply API and the seeding helper,
 * stage moves, rejections and bulk status changes, erasures by email and retention purges.
 */
for (const kind of databaseKinds()) {
  describe(`insights from the tallies after a mix of writes [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    let job: Job;
    const call = (path: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, path, init);
    const removal = () => ({
      db: s.ctx.db,
      storage: s.ctx.storage,
      now: () => new Date('2026-06-01T00:00:00Z'),
      log: pino({ level: 'silent' }),
    });
    /** Application ids of the job, oldest first. */
    const ids = async () =>
      (await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').select('id')).map((r: any) => Number(r.id));

    /** The analytics API (tallies) equals counting the answers, and the tallies equal a recount. */
    async function expectSameAsCounted(step: string): Promise<void> {
      const { status, body } = await call(`/api/hr/jobs/${job.id}/analytics/`);
      expect(status, step).to.equal(200);
      const fresh = (await findJobById(s.ctx.db, job.id))!;
      const counted = await s.ctx.db.transaction((trx) => computeAnalytics(trx, fresh, undefined, 'answers'));
      expect(body, step).to.deep.equal(JSON.parse(JSON.stringify(counted)));
      const [{ n }] = await s.ctx.db('applications').where({ job_id: job.id }).count({ n: '*' });
      expect(body.total_applicants, step).to.equal(Number(n));
      expect(await tallies(s.ctx.db), step).to.deep.equal(await recount(s.ctx.db));
      const { tallied, actual } = await jobCounts(s.ctx.db);
      expect(tallied, step).to.deep.equal(actual);
    }

    /** One application through the apply API, with these answers (question index -> answer). */
    async function apply(i: number, answers: (SeedAnswer | undefined)[]): Promise<void> {
      const sent = job.questions.flatMap((q, k) => (answers[k] === undefined ? [] : [{ question_id: q.id, answer: answers[k] }]));
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(
          validFields({ email: `mix${i}@example.com`, phone: `+9198765${String(i).padStart(5, '0')}`, answers: JSON.stringify(sent) }),
        ),
      });
      expect(res.status, await res.text()).to.equal(201);
    }

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', STAMPED_CACHE_OFF: 'insights' });
      ({ token } = await hrSession(s.ctx.db));
      job = await makeJob(s.ctx.db, { title: 'Mixed', public_id: 'mixed-1', status: 'ACTIVE', questions: QUESTIONS });
    });
    after(() => s.close());

    it('after applications through the API and the seeding helper', async () => {
      // An option since removed cannot be sent through the API: that answer comes from the helper.
      for (const [i, a] of ANSWERS.entries()) if (a[2] !== 'Gone option') await apply(i, a);
      const gone = ANSWERS.filter((a) => a[2] === 'Gone option').map((a, i) => ({
        first_name: `G${i}`,
        last_name: 'Gone',
        email: `gone${i}@example.com`,
        phone: `+9198711${String(i).padStart(5, '0')}`,
        answers: Object.fromEntries(job.questions.map((q, k) => [q.id, a[k]])),
      }));
      await insertApplications(s.ctx.db, job.id, gone, job.questions);
      // More than TOP_ANSWERS text groups, ties among them, many number values (ranges, median).
      const many = Array.from({ length: 40 }, (_, i) => ({
        first_name: `S${i}`,
        last_name: 'Seeded',
        email: `seeded${i}@example.com`,
        phone: `+9198700${String(i).padStart(5, '0')}`,
        created_at: day(`2025-0${1 + (i % 6)}-01`),
        answers: Object.fromEntries(
          job.questions.map((q, k) => [q.id, [`City ${i % 13}`, i * 7.5, i % 4 ? 'Now' : 'Later', i % 3 ? ['Mon'] : ['Tue', 'Wed']][k]]),
        ),
      }));
      await insertApplications(s.ctx.db, job.id, many, job.questions);
      await expectSameAsCounted('applied');
    });

    it('after stage moves, rejections and status changes (which change no answer)', async () => {
      const [a, b, c, d] = await ids();
      const stages = (await call(`/api/hr/jobs/${job.id}/stages/`)).body.stages as { id: number }[];
      expect((await call(`/api/hr/applications/${a}/`, { method: 'PATCH', body: { stage: stages[1].id } })).status).to.equal(200);
      expect(
        (await call(`/api/hr/applications/${b}/`, { method: 'PATCH', body: { outcome: 'REJECTED', reason: 'Withdrew' } })).status,
      ).to.equal(200);
      expect(
        (await call('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids: [c, d], status: 'ARCHIVED' } })).status,
      ).to.equal(200);
      await expectSameAsCounted('moved');
    });

    it('after erasures and retention purges, the newest application included, and more applications', async () => {
      await removeApplications(removal(), { email: 'MIX1@example.com' }, { action: 'erase' });
      await removeApplications(removal(), { createdBefore: day('2025-03-01'), jobId: job.id }, { action: 'purge' });
      await removeApplications(removal(), { createdBefore: new Date('2030-01-01T00:00:00Z'), status: 'ARCHIVED' }, { action: 'purge' });
      const all = await ids();
      const newest = await s.ctx
        .db('applications')
        .where({ id: all[all.length - 1] })
        .first('email');
      await removeApplications(removal(), { email: newest.email }, { action: 'erase' });
      await expectSameAsCounted('removed');
      await apply(100, ['Pune', 3, 'Later', ['Mon', 'Tue']]);
      await apply(101, ['  pune', undefined, undefined, ['Wed']]);
      await expectSameAsCounted('applied again');
    });
  });
}

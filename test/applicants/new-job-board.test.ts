/**
 * Issue 28 item 3: a job is made with its pipeline stages, so the board of a job just made (by the
 * API, by Duplicate, by `jobs seed`) answers at once with its stages and never opens a second
 * transaction (on SQLite that waited 5 s for the one connection, then answered 503, with every
 * other request queued behind it); applications sent meanwhile are not held up. Migration 023
 * gives the jobs made before this their stages. The nested-transaction guard of the test
 * databases (test/helpers/nested-transactions.ts) fails the whole class on SQLite.
 */
import { expect } from 'chai';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { jobPayload, makeJob } from '../helpers/factories.js';
import { NestedTransactionError } from '../helpers/nested-transactions.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { migrationStatus } from '../../src/db/migrations.js';
import { importJobRecords, seedDemoJobs } from '../../src/jobs/index.js';
import { hr } from './helpers.js';
import { insertApplications } from '../helpers/applications.js';

const DEFAULT = [
  ['Applied', null],
  ['Screen', null],
  ['Interview', null],
  ['Offer', null],
  ['Hired', 'HIRED'],
];
const stageRows = async (db: TestDb['db'], jobId: number) =>
  (await db('job_stages').where({ job_id: jobId }).orderBy('position').select('name', 'kind')).map((r: any) => [r.name, r.kind ?? null]);

for (const kind of databaseKinds()) {
  describe(`a new job's board and stages [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    const call = (path: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, path, init);

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    /** The board, timed: it must answer well inside the pool's acquire timeout. */
    async function board(jobId: number): Promise<{ ms: number; status: number; body: any }> {
      const t0 = Date.now();
      const { status, body } = await call(`/api/hr/jobs/${jobId}/board/`);
      return { ms: Date.now() - t0, status, body };
    }

    it('answers the board of a job made by the API at once, with its stages, and the same again on reload', async () => {
      const { status, body: job } = await call('/api/hr/jobs/', {
        method: 'POST',
        body: jobPayload({ title: 'Made by the API', public_id: null }),
      });
      expect(status).to.equal(201);
      expect(await stageRows(s.ctx.db, job.id)).to.deep.equal(DEFAULT);
      for (let i = 0; i < 2; i++) {
        const b = await board(job.id);
        expect(b.status, JSON.stringify(b.body)).to.equal(200);
        expect(b.ms).to.be.below(2000);
        expect(b.body.columns.map((c: any) => c.name)).to.deep.equal(['Applied', 'Screen', 'Interview', 'Offer', 'Hired', 'Rejected']);
      }
      expect((await call(`/api/hr/jobs/${job.id}/stages/`)).body.stages.map((x: any) => x.name)).to.deep.equal([
        'Applied',
        'Screen',
        'Interview',
        'Offer',
        'Hired',
      ]);
    });

    it('gives a duplicated job stages of its own (the defaults), and its board answers at once', async () => {
      const original = await makeJob(s.ctx, { title: 'Original', public_id: 'original-job' });
      // The original's stages renamed: the copy still starts with the defaults, its own rows.
      const own = (await call(`/api/hr/jobs/${original.id}/stages/`)).body.stages as { id: number; name: string }[];
      expect(
        (
          await call(`/api/hr/jobs/${original.id}/stages/`, {
            method: 'PUT',
            body: { stages: own.map((x, i) => ({ id: x.id, name: i === 0 ? 'Inbox' : x.name })) },
          })
        ).status,
      ).to.equal(200);
      // What the Duplicate button sends (islands/manage-jobs.tsx copyOf).
      const read = (await call(`/api/hr/jobs/${original.id}/`)).body;
      const copy = {
        ...read,
        title: `Copy of ${read.title}`,
        public_id: null,
        status: 'INACTIVE',
        questions: read.questions.map(({ id: _id, ...q }: any) => q),
      };
      const { status, body: dup } = await call('/api/hr/jobs/', { method: 'POST', body: copy });
      expect(status, JSON.stringify(dup)).to.equal(201);
      expect(await stageRows(s.ctx.db, dup.id)).to.deep.equal(DEFAULT);
      const b = await board(dup.id);
      expect(b.status).to.equal(200);
      expect(b.ms).to.be.below(2000);
      expect(b.body.columns[0].name).to.equal('Applied');
      expect((await stageRows(s.ctx.db, original.id))[0]).to.deep.equal(['Inbox', null]);
    });

    it('makes stages for jobs seeded from a file and the demo jobs, in the same transaction as the job', async () => {
      const known = new Set((await s.ctx.db('jobs').select('id')).map((r: any) => Number(r.id)));
      expect(
        await importJobRecords(s.ctx.db, [
          jobPayload({ title: 'Seeded One', public_id: 'seeded-one' }),
          jobPayload({ title: 'Seeded Two', public_id: null }),
        ]),
      ).to.equal(2);
      expect(await seedDemoJobs(s.ctx.db)).to.be.above(0);
      const made = (await s.ctx.db('jobs').select('id')).map((r: any) => Number(r.id)).filter((id) => !known.has(id));
      expect(made.length).to.be.above(2);
      for (const id of made) expect(await stageRows(s.ctx.db, id), `job ${id}`).to.deep.equal(DEFAULT);
      const without = await s.ctx
        .db('jobs')
        .whereNotExists(s.ctx.db('job_stages').whereRaw('job_stages.job_id = jobs.id').select(s.ctx.db.raw('1')))
        .select('id');
      expect(without).to.deep.equal([]);
      // A seed refused whole (one bad record) leaves neither jobs nor stages behind.
      const before = Number((await s.ctx.db('job_stages').count({ n: '*' }).first())!.n);
      let failed = false;
      try {
        await importJobRecords(s.ctx.db, [
          jobPayload({ title: 'Good', public_id: 'good-one' }),
          jobPayload({ title: '', public_id: 'bad-one' }),
        ]);
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(Number((await s.ctx.db('job_stages').count({ n: '*' }).first())!.n)).to.equal(before);
    });

    it('keeps applications flowing while boards of new jobs are opened again and again', async () => {
      const target = await makeJob(s.ctx, { title: 'Busy Job', public_id: 'busy-job' });
      const fresh = [];
      for (let i = 0; i < 3; i++)
        fresh.push(
          (await call('/api/hr/jobs/', { method: 'POST', body: jobPayload({ title: `Fresh ${i}`, public_id: null }) })).body.id as number,
        );
      const t0 = Date.now();
      const boards = Promise.all(fresh.flatMap((id) => [board(id), board(id)]));
      const applies = Promise.all(
        Array.from({ length: 4 }, async (_, i) => {
          const res = await fetch(`${s.baseUrl}/api/jobs/busy-job/apply/`, {
            method: 'POST',
            body: toFormData(validFields({ email: `busy${i}@example.com` })),
          });
          return { status: res.status, ms: Date.now() - t0 };
        }),
      );
      const [b, a] = await Promise.all([boards, applies]);
      expect(b.map((x) => x.status)).to.deep.equal(b.map(() => 200));
      expect(a.map((x) => x.status)).to.deep.equal([201, 201, 201, 201]);
      expect(Math.max(...a.map((x) => x.ms))).to.be.below(4000);
      const rows = await s.ctx.db('applications').where({ job_id: target.id }).select('stage_id');
      const first = await s.ctx.db('job_stages').where({ job_id: target.id, position: 0 }).first('id');
      expect(rows.map((r: any) => Number(r.stage_id))).to.deep.equal(rows.map(() => Number(first.id)));
    });

    it('answers 404 for the board of an unknown or malformed job id, without writing stages', async () => {
      const before = Number((await s.ctx.db('job_stages').count({ n: '*' }).first())!.n);
      for (const id of ['999999', '2147483648', 'abc', '1e3', '-1'])
        expect((await call(`/api/hr/jobs/${id}/board/`)).status, id).to.equal(404);
      expect(Number((await s.ctx.db('job_stages').count({ n: '*' }).first())!.n)).to.equal(before);
    });
  });

  describe(`migration 023: stages for jobs made without them [${kind}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('gives every job without stages the defaults, puts its stage-less applications in Applied, and leaves other jobs alone', async () => {
      const bare = await makeJob(t.db, { title: 'Bare', public_id: 'bare' });
      const bare2 = await makeJob(t.db, { title: 'Bare Two', public_id: 'bare-two' });
      const kept = await makeJob(t.db, { title: 'Kept', public_id: 'kept' });
      // As a job made before this change was: no stage rows, and an application without a stage.
      await insertApplications(
        t.db,
        bare.id,
        [{ first_name: 'Old', last_name: 'Applicant', email: 'old@example.com', phone: '+919999999999', status: 'NEW' }],
        [],
      );
      await t.db('applications').where({ job_id: bare.id }).update({ stage_id: null });
      await t.db('job_stages').whereIn('job_id', [bare.id, bare2.id]).delete();
      await t.db('job_stages').where({ job_id: kept.id, position: 0 }).update({ name: 'Inbox' });
      while ((await migrationStatus(t.db)).applied.includes('023_stages_of_new_jobs')) await t.db.migrate.down();
      await t.db.migrate.latest();
      expect(await stageRows(t.db, bare.id)).to.deep.equal(DEFAULT);
      expect(await stageRows(t.db, bare2.id)).to.deep.equal(DEFAULT);
      expect((await stageRows(t.db, kept.id))[0]).to.deep.equal(['Inbox', null]);
      expect(await stageRows(t.db, kept.id)).to.have.length(5);
      const first = await t.db('job_stages').where({ job_id: bare.id, position: 0 }).first('id');
      const apps = await t.db('applications').where({ job_id: bare.id }).select('stage_id');
      expect(apps).to.have.length(1);
      for (const a of apps) expect(Number(a.stage_id)).to.equal(Number(first.id));
      // Applied again (nothing pending) it changes nothing.
      await t.db.migrate.latest();
      expect(await stageRows(t.db, bare.id)).to.deep.equal(DEFAULT);
    });
  });
}

describe('the nested-transaction guard of the SQLite test databases', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('sqlite');
  });
  after(() => t.destroy());

  it('fails a transaction opened inside another at once, and lets savepoints and overlapping transactions through', async () => {
    const t0 = Date.now();
    let caught: unknown = null;
    await t.db
      .transaction(async (trx) => {
        await trx('jobs').count({ n: '*' });
        await t.db.transaction(async (inner) => inner('jobs').count({ n: '*' }));
      })
      .catch((err) => {
        caught = err;
      });
    expect(caught).to.be.instanceOf(NestedTransactionError);
    expect(Date.now() - t0).to.be.below(1000);
    // A savepoint of the transaction itself is fine, and so are separate transactions that overlap.
    await t.db.transaction(async (trx) => trx.transaction(async (sp) => sp('jobs').count({ n: '*' })));
    await Promise.all([1, 2, 3].map(() => t.db.transaction(async (trx) => trx('jobs').count({ n: '*' }))));
  });
});

import type { Knex } from 'knex';
import { loadConfig } from '../config/index.js';
import { toDbDate, fromDbDate } from '../src/db/codecs.js';
import { createDb } from '../src/db/knex.js';
import { buildReport } from '../src/reports/service.js';
import { debrief } from '../src/scorecards/scorecards.service.js';
import { insertApplications, realisticApplications, rng } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { benchStore, percentile } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const total = Number(arg('applications', '200000'));
const jobs = Number(arg('jobs', '20'));
const runs = Number(arg('runs', '50'));
const useMysql = process.argv.includes('--mysql');
const GOAL_MS = 200;
const DEBRIEF_GOAL_MS = 50;
const DAY = 86_400_000;

const elapsed = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s`;

/** 500 rows a statement: Knex writes a SQLite multi-row insert as a compound SELECT, at most 500 terms. */
async function insertChunked(db: Knex, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db(table).insert(rows.slice(i, i + 500));
}

async function prepare(db: Knex, now: Date): Promise<number[]> {
  await db.migrate.latest();
  const ids: number[] = [];
  const r = rng(7);
  const reasons = ['Not a fit', 'Withdrew', 'Position filled', 'Other'];
  for (let j = 0; j < jobs; j++) {
    const job = await makeJob(db, { title: `Report job ${j}`, public_id: `report-job-${j}` });
    ids.push(job.id);
    await insertApplications(
      db,
      job.id,
      realisticApplications(Math.floor(total / jobs), [], { seed: 300 + j, emailTag: `r${j}`, until: now }),
      [],
      {
        batchSize: 2500,
      },
    );
    const stages: number[] = (await db('job_stages').where({ job_id: job.id }).orderBy('position').select('id')).map((s: { id: number }) =>
      Number(s.id),
    );
    await db.raw(
      'INSERT INTO stage_transitions (application_id, job_id, to_stage_id, at) SELECT id, job_id, stage_id, created_at FROM applications WHERE job_id = ?',
      [job.id],
    );
    const apps: { id: number; created_at: unknown }[] = await db('applications').where({ job_id: job.id }).select('id', 'created_at');
    const moves: Record<string, unknown>[] = [];
    const finals = new Map<string, number[]>();
    for (const a of apps) {
      let at = fromDbDate(a.created_at)!.getTime();
      let stage = 0;
      let outcome: string | null = null;
      let reason: string | null = null;
      const odds = [0.6, 0.5, 0.4, 0.5];
      while (stage < 4 && outcome === null) {
        const step = at + (0.5 + r() * 6) * DAY;
        if (step > now.getTime()) break;
        if (r() < 0.25) {
          outcome = 'REJECTED';
          reason = reasons[Math.floor(r() * reasons.length)];
          moves.push({
            application_id: a.id,
            job_id: job.id,
            from_stage_id: stages[stage],
            to_stage_id: stages[stage],
            outcome,
            reason,
            at: toDbDate(new Date(step)),
          });
          break;
        }
        if (r() > odds[stage]) break;
        moves.push({
          application_id: a.id,
          job_id: job.id,
          from_stage_id: stages[stage],
          to_stage_id: stages[stage + 1],
          at: toDbDate(new Date(step)),
        });
        stage += 1;
        at = step;
      }
      const key = JSON.stringify([stages[stage], outcome, reason]);
      const list = finals.get(key);
      if (list) list.push(a.id);
      else finals.set(key, [a.id]);
    }
    await insertChunked(db, 'stage_transitions', moves);
    // One scorecard for every fourth application (50,000 at 200,000), rated on three attributes.
    const cards: Record<string, unknown>[] = [];
    for (const a of apps) {
      if (r() >= 0.25) continue;
      const asked = fromDbDate(a.created_at)!.getTime() + DAY;
      const rate = () => (r() < 0.1 ? null : 1 + Math.floor(r() * 4));
      cards.push({
        application_id: a.id,
        stage_id: stages[2],
        stage_name: 'Interview',
        interviewer_name: 'Bench Interviewer',
        requested_at: toDbDate(new Date(asked)),
        interview_at: toDbDate(new Date(asked)),
        ratings: JSON.stringify(
          ['System design', 'Communication', 'Ownership'].map((attribute) => ({ attribute, rating: rate(), note: '' })),
        ),
        recommendation: 'yes',
        submitted_at: r() < 0.9 ? toDbDate(new Date(asked + r() * 2 * DAY)) : null,
        updated_at: toDbDate(new Date(asked)),
      });
    }
    await insertChunked(db, 'scorecards', cards);
    for (const [key, list] of finals) {
      const [stage_id, outcome, outcome_reason] = JSON.parse(key);
      for (let i = 0; i < list.length; i += 500)
        await db('applications')
          .whereIn('id', list.slice(i, i + 500))
          .update({ stage_id, outcome, outcome_reason });
    }
    const days = Array.from({ length: 90 }, (_, d) => new Date(now.getTime() - d * DAY).toISOString().slice(0, 10));
    const steps = ['view', 'apply', 'basic', 'experience', 'education_skills', 'review', 'submitted'];
    await insertChunked(
      db,
      'job_funnel_counts',
      days.flatMap((day) =>
        steps.map((step, k) => ({ job_id: job.id, day, step, event: 'reached', device: 'desktop', count: Math.max(1, 400 >> k) })),
      ),
    );
  }
  return ids;
}

/** 200 applications of the job, each with five submitted scorecards at its Interview stage; answers their ids. */
async function prepareDebriefs(db: Knex, jobId: number, now: Date): Promise<number[]> {
  const stage = await db('job_stages').where({ job_id: jobId }).orderBy('position').offset(2).first('id', 'name');
  const ids: number[] = (await db('applications').where({ job_id: jobId }).orderBy('id').limit(200).pluck('id')).map(Number);
  const r = rng(11);
  const cards = ids.flatMap((id) =>
    Array.from({ length: 5 }, (_, k) => ({
      application_id: id,
      stage_id: stage.id,
      stage_name: stage.name,
      interviewer_name: `Debrief Interviewer ${k + 1}`,
      requested_at: toDbDate(new Date(now.getTime() - 3 * DAY)),
      interview_at: toDbDate(new Date(now.getTime() - 3 * DAY)),
      ratings: JSON.stringify(
        ['System design', 'Communication', 'Ownership', 'Craft'].map((attribute) => ({
          attribute,
          rating: 1 + Math.floor(r() * 4),
          note: 'Solid answer with one gap.',
        })),
      ),
      recommendation: ['strong_no', 'no', 'yes', 'strong_yes'][Math.floor(r() * 4)],
      submitted_at: toDbDate(new Date(now.getTime() - 2 * DAY)),
      updated_at: toDbDate(new Date(now.getTime() - 2 * DAY)),
    })),
  );
  await insertChunked(db, 'scorecards', cards);
  return ids;
}

async function main(): Promise<void> {
  const store = await benchStore('reports', useMysql);
  const { env, label } = store;
  const db = createDb(loadConfig({ ...env }));
  const now = new Date();
  try {
    console.log(`Preparing ${label}: ${total.toLocaleString('en-US')} applications over ${jobs} jobs, with their ledger ...`);
    const t0 = process.hrtime.bigint();
    const ids = await prepare(db, now);
    const ledger = Number(((await db('stage_transitions').count({ n: '*' }).first()) as { n: unknown }).n);
    console.log(`  prepared in ${elapsed(t0)}: ${ledger.toLocaleString('en-US')} ledger rows`);

    const deps = { db, now: () => now };
    const query = { job_id: String(ids[0]) };
    const first = await buildReport(deps, 'admin', query);
    console.log(
      `  job ${ids[0]}: ${first.applications} applications in the last 90 days, ${first.time_to_hire.count} hired, ${first.scorecards.requested} scorecards, attributes compared: ${first.predictors.jobs.length > 0}`,
    );
    for (let i = 0; i < 3; i++) await buildReport(deps, 'admin', query); // warm-up
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = process.hrtime.bigint();
      await buildReport(deps, 'admin', query);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    console.log(
      `${label}: a job's report, ${runs} runs: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms: ${p95 < GOAL_MS ? 'PASS' : 'FAIL'} (p95 < ${GOAL_MS} ms)`,
    );
    const all: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = process.hrtime.bigint();
      await buildReport(deps, 'admin', {});
      all.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    console.log(`${label}: all jobs' report (for reference), 3 runs: ${all.map((t) => `${t.toFixed(0)} ms`).join(', ')}`);

    const debriefIds = await prepareDebriefs(db, ids[0], now);
    const [admin] = await db('hr_users').insert({
      username: 'bench.admin',
      password_hash: 'x',
      role: 'admin',
      is_active: true,
      created_at: toDbDate(now),
      updated_at: toDbDate(now),
    });
    const viewer = { userId: Number(admin), role: 'admin' };
    const debriefDeps = { ...deps, outbox: null, config: loadConfig({ ...env }) } as unknown as Parameters<typeof debrief>[0];
    const shown = await debrief(debriefDeps, debriefIds[0], viewer);
    if (shown.stages[0]?.interviewers.length !== 5) throw new Error('the debrief does not show the five scorecards');
    const debriefTimes: number[] = [];
    for (let i = 0; i < Math.max(runs, debriefIds.length); i++) {
      const t = process.hrtime.bigint();
      await debrief(debriefDeps, debriefIds[i % debriefIds.length], viewer);
      debriefTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    debriefTimes.sort((a, b) => a - b);
    const debriefP95 = percentile(debriefTimes, 95);
    console.log(
      `${label}: a debrief of five scorecards, ${debriefTimes.length} runs: p50 ${percentile(debriefTimes, 50).toFixed(1)} ms, p95 ${debriefP95.toFixed(1)} ms, max ${debriefTimes[debriefTimes.length - 1].toFixed(1)} ms: ${debriefP95 < DEBRIEF_GOAL_MS ? 'PASS' : 'FAIL'} (p95 < ${DEBRIEF_GOAL_MS} ms)`,
    );
  } finally {
    await db.destroy();
    await store.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

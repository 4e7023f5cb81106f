/**
 * People benchmark (issue 35): at 200,000 applications (1 person each, realistic names sharing
 * first and last names, as bench/applicants.ts seeds them, and 1 % sharing a phone with another),
 * the duplicate suggestions for one person: the two indexed lookups (same phone; same name with a
 * resume of the same hash) and the insert of what they find, as applying runs them
 * (`suggestAfterApplying`, outside a transaction of its own: applying runs it in the application's),
 * for 2,000 random people one after another. Goal: p95 < 20 ms. Also
 * the review list's first page (`listDuplicates`), for reference.
 *
 *   node --import tsx bench/people.ts [--mysql] [--applications 200000] [--samples 2000]
 * --mysql uses a fresh database on mysql://root@127.0.0.1:3306/ (BENCH_MYSQL_URL to change).
 */
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrations.js';
import { suggestAfterApplying } from '../src/people/index.js';
import { listDuplicates } from '../src/people/service.js';
import { insertApplications, realisticApplications, rng } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { benchStore, percentile } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const mysql = process.argv.includes('--mysql');
const total = Number(arg('applications', '200000'));
const samples = Number(arg('samples', '2000'));
const JOBS = 100;
const GOAL_MS = 20;

async function timed(n: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await work(i);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return ms.sort((a, b) => a - b);
}

const line = (name: string, ms: number[], goal: number | null) =>
  `${name.padEnd(28)} ${percentile(ms, 50).toFixed(2).padStart(8)} ${percentile(ms, 95).toFixed(2).padStart(8)} ${ms.at(-1)!.toFixed(2).padStart(8)}  ${
    goal === null ? 'reference' : `p95 < ${goal} ms ${percentile(ms, 95) < goal ? 'PASS' : 'MISS'}`
  }`;

async function main(): Promise<void> {
  const store = await benchStore('people', mysql);
  const db = createDb(loadConfig({ ...store.env }));
  try {
    await migrateLatest(db);
    let t = Date.now();
    const r = rng(11);
    for (let j = 0; j < JOBS; j++) {
      const job = await makeJob(db, { title: `People bench ${j}`, status: 'ACTIVE' });
      const apps = [...realisticApplications(Math.floor(total / JOBS), [], { seed: 900 + j, emailTag: `p${j}`, days: 730 })];
      // 1 % share the phone of another application: the suggestions find something.
      for (const a of apps) if (r() < 0.01) a.phone = `+1415555${String(Math.floor(r() * 1_000)).padStart(4, '0')}`;
      await insertApplications(db, job.id, apps, [], { batchSize: 2500 });
    }
    // The seeding helper writes rows as they are stored, without people: link them as migration 044 does.
    await db.raw('INSERT INTO people (email, created_at) SELECT email, MIN(created_at) FROM applications GROUP BY email');
    if (mysql) await db.raw('UPDATE applications a JOIN people p ON p.email = a.email SET a.person_id = p.id');
    else await db.raw('UPDATE applications SET person_id = (SELECT p.id FROM people p WHERE p.email = applications.email)');
    console.log(
      `${store.label}: ${total.toLocaleString('en-US')} applications and their people in ${((Date.now() - t) / 1000).toFixed(0)} s`,
    );

    const maxPerson = Number((await db('people').max({ n: 'id' }).first())!.n);
    t = Date.now();
    const suggest = await timed(samples, async () => {
      const id = 1 + Math.floor(r() * maxPerson);
      // As applying runs them: inside the application's own transaction, whose commit is the
      // application's; here each call commits on its own only when it found something to insert.
      await suggestAfterApplying(db, id, new Date());
    });
    const suggested = Number((await db('person_suggestions').count({ n: '*' }).first())!.n);
    const review = await timed(200, () => listDuplicates(db, 1));
    console.log(`\n${store.label}, ${samples} people: ${suggested} suggestions found`);
    console.log(`${'measure'.padEnd(28)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}  goal`);
    console.log(line('suggestions for one person', suggest, GOAL_MS));
    console.log(line('review list, first page', review, null));
  } finally {
    await db.destroy();
    await store.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

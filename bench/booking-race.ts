/**
 * Booking race (issue 32, "Self-booking by the candidate"): 50 candidates, each with their own
 * booking link offering the same 10 slots of one interviewer, open their page and book at once
 * against a real server process (all pages opened first, then every booking sent at once); a candidate told a time was taken picks again from the times
 * still shown, until booked or none are left. Goal: exactly 10 bookings, no two at one time.
 * Prints the bookings, how the candidates fared, and the booking POSTs' p50/p95.
 *
 *   node --import tsx bench/booking-race.ts [--candidates 50] [--slots 10] [--mysql]
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { insertApplications } from '../test/helpers/applications.js';
import { makeJob } from '../test/helpers/factories.js';
import { hrSession } from '../test/helpers/hr.js';
import { benchStore, freePort, percentile, root, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const candidates = Number(arg('candidates', '50'));
const slotCount = Number(arg('slots', '10'));
const useMysql = process.argv.includes('--mysql');
const DAY = 86_400_000;

async function main(): Promise<void> {
  const store = await benchStore('booking', useMysql, { POSTS_WORKER: 'off', APPLY_RATE_LIMIT: '0' });
  const db = createDb(loadConfig({ ...store.env }));
  let token: string;
  let userId: number;
  let apps: number[];
  try {
    await db.migrate.latest();
    ({ token, userId } = await hrSession(db, 'bench-recruiter', 86_400));
    await db('hr_users').where({ id: userId }).update({ email: 'recruiter@bench.example' });
    const job = await makeJob(db, { title: 'Race Engineer', public_id: 'race-engineer' });
    await insertApplications(
      db,
      job.id,
      Array.from({ length: candidates }, (_, i) => ({
        first_name: `Cand${i}`,
        last_name: 'Racer',
        email: `cand${i}@bench.example`,
        phone: '+15550100',
      })),
      [],
    );
    apps = (await db('applications').orderBy('id').pluck('id')).map(Number);
  } finally {
    await db.destroy();
  }

  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(['dist/server.js'], { ...store.env, PORT: String(port), PUBLIC_BASE_URL: base });
  try {
    // Ten 30-minute slots of one interviewer, a week ahead at 09:00 UTC.
    const start = Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY + 9 * 3_600_000;
    const slots = Array.from({ length: slotCount }, (_, i) => new Date(start + i * 1_800_000).toISOString());
    const links: string[] = [];
    for (const appId of apps) {
      const res = await fetch(`${base}/api/hr/applications/${appId}/booking-links/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'phone', time_zone: 'UTC', interviewers: [{ user_id: userId }], duration_minutes: 30, slots }),
      });
      if (res.status !== 201) throw new Error(`booking link: ${res.status} ${await res.text()}`);
      links.push(new URL(((await res.json()) as { url: string }).url).pathname);
    }
    const offered = (html: string) => [...html.matchAll(/name="slot" value="([^"]+)"/g)].map((m) => m[1]);
    const posts: number[] = [];
    const outcome = { booked: 0, refusedFirst: 0, none: 0, attempts: 0 };
    // Everyone opens their page first, then all book at once.
    const pages = await Promise.all(links.map(async (path) => offered(await (await fetch(`${base}${path}?tz=UTC`)).text())));
    const t0 = performance.now();
    await Promise.all(
      links.map(async (path, i) => {
        let times = pages[i];
        let first = true;
        while (times.length) {
          const slot = times[(i * 7) % times.length];
          const t = performance.now();
          const res = await fetch(`${base}${path}`, {
            method: 'POST',
            body: new URLSearchParams({ action: 'book', slot, tz: 'UTC' }),
            redirect: 'manual',
          });
          posts.push(performance.now() - t);
          outcome.attempts++;
          const html = await res.text();
          if (res.status === 303) {
            outcome.booked++;
            return;
          }
          if (res.status !== 409) throw new Error(`booking: ${res.status}`);
          if (first) outcome.refusedFirst++;
          first = false;
          times = offered(html);
        }
        outcome.none++;
      }),
    );
    const wall = performance.now() - t0;
    const check = createDb(loadConfig({ ...store.env }));
    const rows = await check('interviews').where({ status: 'scheduled' }).orderBy('starts_at').select('starts_at');
    await check.destroy();
    const distinct = new Set(rows.map((r: { starts_at: unknown }) => String(r.starts_at))).size;
    posts.sort((a, b) => a - b);
    const pass = rows.length === Math.min(slotCount, candidates) && distinct === rows.length;
    console.log(
      `${store.label}, ${os.cpus().length} cores: ${candidates} candidates racing for ${slotCount} slots in ${(wall / 1000).toFixed(2)} s`,
    );
    console.log(
      `  booked ${outcome.booked}, told "taken" on their first try ${outcome.refusedFirst}, left without a time ${outcome.none}; ${outcome.attempts} booking POSTs: p50 ${percentile(posts, 50).toFixed(0)} ms, p95 ${percentile(posts, 95).toFixed(0)} ms`,
    );
    console.log(
      `  interviews scheduled: ${rows.length} at ${distinct} distinct times: ${pass ? 'PASS' : 'FAIL'} (exactly ${slotCount}, none at one time)`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await stopProcess(server);
    await store.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

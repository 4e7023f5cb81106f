/**
 * Pages on a phone (issue 19): Lighthouse's performance category, mobile preset (its default
 * config: a Moto G Power-sized screen, simulated slow 4G and a 4x slower CPU), on every page a
 * person opens: the public list, a job page, the apply page and a public form (goals: performance
 * 100 and cumulative layout shift under 0.05), and every HR page, the login page included (goal:
 * performance at least 95).
 *
 *   node --import tsx bench/lighthouse.ts [--runs 1] [--only careers,hr-dashboard] [--save DIR] [--details] [--branded]
 *
 * --branded (issue 35) sets the site settings through the API first: a custom accent colour, a PNG
 * logo, a company name, an About us block and a footer link, so the public pages are measured as a
 * branded site shows them.
 *
 * Builds (scripts/build.mjs), fills a fresh SQLite database in a temp DATA_DIR (the demo jobs,
 * applications with answers, job webhook posts, a form with entries and posts), starts the real
 * app (`node dist/server.js`, NODE_ENV=production), signs an HR user in through
 * POST /api/auth/token/ and passes the token to the HR pages as the `jwt` cookie (Lighthouse's
 * extraHeaders). One Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH) serves every run, one
 * page after another. --runs N runs each page N times and reports the run with the median score;
 * --save writes each report's JSON there; --details lists what Lighthouse found to improve on a
 * page that misses. Run it on a quiet machine (`flock /tmp/bench.lock ...` where benchmarks share
 * one): the scores move with the CPU time left to Chromium.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import sharp from 'sharp';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import { DEMO_JOBS } from '../src/jobs/lib/demo.js';
import { loadQuestions } from '../src/jobs/repo.js';
import { importJobs, validateJobRecords } from '../src/jobs/seed.service.js';
import { insertApplications, realisticApplications } from '../test/helpers/applications.js';
import { createHrUser, HR_PASSWORD, signInOverHttp } from '../test/helpers/hr.js';
import { seedPosts, webhookJob } from '../test/posts/helpers.js';
import { cvPdf, everyFieldForm, GOOD_VALUES, submission } from '../test/forms/helpers.js';
import { freePort, root, startProcess, stopProcess } from './lib.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Math.max(1, Number(arg('runs', '1')));
const only = arg('only', '').split(',').filter(Boolean);
const saveDir = arg('save', '');
const details = process.argv.includes('--details');
/** Issue 35: the site branded first (an accent colour, a PNG logo, a name, About us, a footer link). */
const branded = process.argv.includes('--branded');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const GOALS = {
  public: { score: 100, cls: 0.05, text: 'performance 100, CLS < 0.05' },
  hr: { score: 95, cls: Number.POSITIVE_INFINITY, text: 'performance >= 95' },
};

interface PageToRun {
  name: string;
  path: string;
  kind: keyof typeof GOALS;
  /** Sent with the HR session cookie. */
  signedIn: boolean;
}

/** A fresh SQLite database with what every page shows: jobs, applicants with answers, posts; returns the ids the HR pages need. */
async function prepareDatabase(env: Record<string, string>): Promise<{ jobId: number; applicationId: number }> {
  const db = createDb(loadConfig(env));
  await db.migrate.latest();
  await importJobs(db, validateJobRecords(DEMO_JOBS));
  const jobs: { id: number; public_id: string }[] = await db('jobs').select('id', 'public_id').orderBy('id');
  const jobId = Number(jobs.find((j) => j.public_id === 'senior-backend-engineer')!.id);
  for (const [i, job] of jobs.entries()) {
    const questions = await loadQuestions(db, Number(job.id));
    await insertApplications(
      db,
      Number(job.id),
      realisticApplications(Number(job.id) === jobId ? 120 : 15, questions, { seed: 100 + i, emailTag: `j${job.id}` }),
      questions,
    );
  }
  // Job webhook posts for /hr/posts (the worker is off: they stay pending).
  const hookJob = await webhookJob(db, 'https://hooks.example.com/careers', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  await seedPosts(db, hookJob, 30);
  const application = (await db('applications').where('job_id', jobId).orderBy('id').first('id')) as { id: number };
  await db.destroy();
  return { jobId, applicationId: Number(application.id) };
}

/** The site settings of a branded site (issue 35), through the HR API: texts, an accent colour and a PNG logo. */
async function brandSite(baseUrl: string, token: string): Promise<void> {
  const auth = { Authorization: `Bearer ${token}` };
  const put = await fetch(`${baseUrl}/api/hr/settings/site/`, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      company_name: 'Globex Industries',
      hero_title: 'Build the future at Globex',
      hero_text: 'Small teams, real ownership, remote friendly.',
      about_html: '<p>Globex makes <b>widgets</b> for the whole world, with teams in 12 countries.</p>',
      accent_color: '#0f766e',
      footer_links: [{ label: 'Engineering blog', url: 'https://blog.example.com/' }],
    }),
  });
  if (put.status !== 200) throw new Error(`site settings: HTTP ${put.status} ${await put.text()}`);
  const logo = await sharp({ create: { width: 1200, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="300" height="300" rx="60" fill="#0f766e"/><rect x="360" y="100" width="780" height="100" rx="20" fill="#134e4a"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(logo)]), 'logo.png');
  const up = await fetch(`${baseUrl}/api/hr/settings/site/logo/`, { method: 'POST', headers: auth, body: form });
  if (up.status !== 201) throw new Error(`logo: HTTP ${up.status} ${await up.text()}`);
}

/** A form with API posts on and a few entries, made through the HR and public APIs. */
async function prepareForm(baseUrl: string, token: string): Promise<{ formId: number; publicId: string; entryId: number }> {
  const auth = { Authorization: `Bearer ${token}` };
  const created = await fetch(`${baseUrl}/api/hr/forms/`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      everyFieldForm({ api_enabled: true, api_url: 'https://hooks.example.com/forms', api_mapping: { name: 'full_name', mail: 'email' } }),
    ),
  });
  if (created.status !== 201) throw new Error(`form: HTTP ${created.status} ${await created.text()}`);
  const form = (await created.json()) as { id: number; public_id: string };
  for (let i = 0; i < 12; i++) {
    const res = await fetch(`${baseUrl}/api/forms/${form.public_id}/submit/`, {
      method: 'POST',
      body: submission({ ...GOOD_VALUES, email: `person${i}@example.com` }, { cv: cvPdf() }),
    });
    if (res.status !== 201) throw new Error(`form entry: HTTP ${res.status} ${await res.text()}`);
  }
  const entries = (await (await fetch(`${baseUrl}/api/hr/forms/${form.id}/entries/`, { headers: auth })).json()) as {
    results: { id: number }[];
  };
  return { formId: form.id, publicId: form.public_id, entryId: entries.results[0].id };
}

function pagesToRun(ids: { jobId: number; applicationId: number; formId: number; publicId: string; entryId: number }): PageToRun[] {
  const pub = (name: string, p: string): PageToRun => ({ name, path: p, kind: 'public', signedIn: false });
  const hr = (name: string, p: string): PageToRun => ({ name, path: p, kind: 'hr', signedIn: true });
  return [
    pub('careers', '/careers'),
    pub('job', '/careers/senior-backend-engineer'),
    pub('apply', '/careers/senior-backend-engineer/apply'),
    pub('form', `/form/${ids.publicId}`),
    { ...hr('hr-login', '/hrviewlogin'), signedIn: false },
    hr('hr-dashboard', '/hr/dashboard'),
    hr('hr-jobs', '/hr/jobs'),
    hr('hr-jobs-list', '/hr/jobs/list'),
    hr('hr-job-new', '/hr/jobs/new'),
    hr('hr-job-edit', `/hr/jobs/${ids.jobId}/edit`),
    hr('hr-insights', `/hr/jobs/${ids.jobId}/insights`),
    hr('hr-board', `/hr/jobs/${ids.jobId}/board`),
    hr('hr-sources', '/hr/sources'),
    hr('hr-users', '/hr/users'),
    hr('hr-email-templates', '/hr/settings/email-templates'),
    hr('hr-site-settings', '/hr/settings/site'),
    hr('hr-kits', `/hr/jobs/${ids.jobId}/kits`),
    hr('hr-reports', '/hr/reports'),
    hr('hr-calendar', '/hr/settings/calendar'),
    hr('hr-find-time', `/hr/interviews/find-time?application=${ids.applicationId}`),
    hr('hr-applicants', '/hr/applicants'),
    hr('hr-applicant', `/hr/applicants/${ids.applicationId}`),
    hr('hr-posts', '/hr/posts'),
    hr('hr-forms', '/hr/forms'),
    hr('hr-form-new', '/hr/forms/new'),
    hr('hr-form-edit', `/hr/forms/${ids.formId}/edit`),
    hr('hr-form-entries', `/hr/forms/${ids.formId}/entries`),
    hr('hr-form-entry', `/hr/forms/${ids.formId}/entries/${ids.entryId}`),
    hr('hr-form-posts', `/hr/forms/${ids.formId}/posts`),
  ].filter((p) => !only.length || only.includes(p.name));
}

interface Measure {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  lhr: Result;
}

function measureOf(lhr: Result): Measure {
  const num = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    lhr,
  };
}

/** The audits Lighthouse scored below 0.9 that carry a reason (what to improve), one line each. */
function findings(lhr: Result): string[] {
  return Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => `      ${a.id}: ${a.displayValue ?? ''} (score ${a.score})`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(chromePath)) throw new Error(`Chromium not found at ${chromePath} (apt-get install chromium, or set CHROMIUM_PATH)`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-lighthouse-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    POSTS_WORKER: 'off',
    POSTS_SWEEP_CRON: 'off',
    FORM_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  };
  console.log('Preparing the database...');
  const { jobId, applicationId } = await prepareDatabase(env);
  const db = createDb(loadConfig(env));
  await createHrUser(db, 'bench-hr');
  await db.destroy();

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // At info, so its start-up line (what startProcess waits for) is written; later lines are drained unread.
  const app = await startProcess(['dist/server.js'], { ...env, PORT: String(port), LOG_LEVEL: 'info' });
  const chrome = await launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  let allPass = true;
  const rows: string[] = [];
  try {
    const token = await signInOverHttp(baseUrl, 'bench-hr', HR_PASSWORD);
    const form = await prepareForm(baseUrl, token);
    if (branded) await brandSite(baseUrl, token);
    const pages = pagesToRun({ jobId, applicationId, ...form });
    if (saveDir) fs.mkdirSync(saveDir, { recursive: true });
    console.log(`Lighthouse ${runs} run(s) per page, mobile preset, ${pages.length} pages`);
    for (const page of pages) {
      const measures: Measure[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(`${baseUrl}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          ...(page.signedIn ? { extraHeaders: { Cookie: `jwt=${encodeURIComponent(token)}` } } : {}),
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        // Only the path: an island may write its filters into the query (the reports page does).
        if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.path, baseUrl).pathname)
          throw new Error(`${page.path} ended at ${lhr.finalDisplayedUrl} (signed out?)`);
        measures.push(measureOf(lhr));
        if (saveDir) fs.writeFileSync(path.join(saveDir, `${page.name}-${i + 1}.json`), JSON.stringify(lhr));
      }
      measures.sort((a, b) => a.score - b.score);
      const m = measures[Math.floor((measures.length - 1) / 2)];
      const goal = GOALS[page.kind];
      const pass = m.score >= goal.score && m.cls < goal.cls;
      allPass &&= pass;
      const all = runs > 1 ? ` [${measures.map((x) => x.score).join(' ')}]` : '';
      const row = `${page.name.padEnd(16)} ${String(m.score).padStart(5)} ${`${(m.fcp / 1000).toFixed(2)} s`.padStart(8)} ${`${(m.lcp / 1000).toFixed(2)} s`.padStart(8)} ${`${m.tbt.toFixed(0)} ms`.padStart(8)} ${m.cls.toFixed(3).padStart(6)}  ${pass ? 'PASS' : 'MISS'} (${goal.text})${all}`;
      rows.push(row);
      console.log(row);
      if (details && !pass) for (const f of findings(m.lhr)) console.log(f);
    }
  } finally {
    chrome.kill();
    await stopProcess(app);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\n${'page'.padEnd(16)} ${'score'.padStart(5)} ${'FCP'.padStart(8)} ${'LCP'.padStart(8)} ${'TBT'.padStart(8)} ${'CLS'.padStart(6)}  goal`,
  );
  for (const row of rows) console.log(row);
  process.exitCode = allPass ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

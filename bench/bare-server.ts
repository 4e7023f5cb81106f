/**
 * The baseline for bench/careers.ts: a bare Express + EJS server that renders the same pages
 * with the same templates, from data loaded into memory once at start (no database per request,
 * no security headers, no compression). What the real app adds on top is what the bench measures.
 */
import path from 'node:path';
import express from 'express';
import { loadConfig } from '../config/index.js';
import { createDb } from '../src/db/knex.js';
import * as repo from '../src/jobs/repo.js';
import { FEEDS } from '../src/jobs/lib/feeds.js';
import { byDepartment } from '../src/jobs/pages.js';
import { toPublicJob } from '../src/jobs/service.js';
import { loadManifest } from '../src/render/assets.js';
import { safeJson } from '../src/render/islands.js';
import { renderPage } from '../src/render/page.js';
import { JOB_TYPES, WORK_MODES, enumLabel } from '../src/shared/enums.js';
import { hasRichContent, utcDateTime } from '../src/shared/format.js';
import { jobPostingJsonLd } from '../src/jobs/lib/seo.js';
import { brandOf } from '../src/branding/index.js';
import { alertsLocals } from '../src/alerts/index.js';

const config = loadConfig();
const db = createDb(config);
const { count, jobs } = await repo.listPublicJobs(db, {}, 1, 30, new Date());
const locations = await repo.listActiveLocations(db, new Date());
const departments = await repo.listActiveDepartments(db, new Date());
const job = (await repo.findJobByPublicId(db, 'bench-7'))!;
await db.destroy();

const publicJobs = jobs.map((j) => toPublicJob(j, false));
const listLocals = {
  jobs: publicJobs,
  groups: byDepartment(publicJobs),
  count,
  filters: { title: '', department: '', location: '', job_type: '', work_mode: '' },
  locations,
  departments,
  jobTypes: JOB_TYPES.map((v) => ({ value: v, label: enumLabel(v) })),
  workModes: WORK_MODES.map((v) => ({ value: v, label: enumLabel(v) })),
  page: 1,
  pages: Math.ceil(count / 30),
  prevLink: null,
  nextLink: count > 30 ? '/careers?page=2' : null,
};
const sections = (
  [
    ['Job Description', job.description],
    ['Responsibilities', job.responsibilities],
    ['Requirements', job.requirements],
    ['Perks & Benefits', job.perks_benefits],
  ] as const
)
  .filter(([, html]) => hasRichContent(html))
  .map(([heading, html]) => ({ heading, html }));
const jobLocals = {
  job: toPublicJob(job),
  sections,
  closesAt: job.closes_at ? { iso: job.closes_at.toISOString(), text: utcDateTime(job.closes_at) } : null,
};
const listMeta = {
  title: `Careers at ${config.company.name}`,
  canonicalPath: '/careers',
  feeds: [
    { title: `Jobs at ${config.company.name} (RSS)`, href: FEEDS.rss.path, type: 'application/rss+xml' },
    { title: `Jobs at ${config.company.name} (JSON Feed)`, href: FEEDS.json.path, type: 'application/feed+json' },
  ],
};
const jobMeta = {
  title: `${job.title} — ${config.company.name} Careers`,
  canonicalPath: `/careers/${job.public_id}`,
  ogType: 'article',
  jsonLd: jobPostingJsonLd(job, config),
};

const app = express();
app.set('view engine', 'ejs');
app.set('views', path.join(config.rootDir, 'views'));
app.set('view cache', true);
Object.assign(app.locals, {
  assets: loadManifest(config.rootDir),
  company: config.company,
  // The site settings' defaults, as the app's pages have them before an admin changes anything.
  brand: brandOf(config, null),
  jobAlerts: alertsLocals({ config }),
  publicBaseUrl: config.publicBaseUrl,
  year: new Date().getUTCFullYear(),
  safeJson,
});

app.get('/careers', (req, res) => renderPage(req, res, 'pages/public/careers', listMeta, listLocals));
app.get('/careers/:id', (req, res) => renderPage(req, res, 'pages/public/job', jobMeta, jobLocals));
app.listen(config.port, () => console.log(`bare server listening on ${config.port}`));

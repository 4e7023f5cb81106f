/**
 * The jobs feature's pages. Public (complete HTML, cached like the public API): the job list
 * /careers and a job /careers/{publicId}. HR (spec 02 section 2; app.ts guards /hr: no valid jwt
 * cookie -> /hrviewlogin?next=...): /hr (a redirect to the dashboard), Manage Jobs /hr/jobs, All
 * Job Posts /hr/jobs/list, and the job-editor island's pages /hr/jobs/new and /hr/jobs/{id}/edit
 * (the island loads the job through GET /api/hr/jobs/{id}/).
 */
import type { IncomingMessage } from 'node:http';
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { logoPngUrl, rereadBrand, type Brand } from '../branding/index.js';
import { htmlPageNumber, htmlPager } from '../http/paging.js';
import { pathId, validateQuery } from '../http/validate.js';
import { formatters } from '../render/formatters.js';
import { freshPage, sendFreshPage } from '../http/sent-page.js';
import { renderPage, renderPageHtml } from '../render/page.js';
import type { CacheKey } from '../db/read-cache.js';
import { ANSWER_TYPES, JOB_TYPES, RECORD_STATUSES, SALARY_PERIODS, WORK_MODES, enumLabel } from '../shared/enums.js';
import { hasRichContent, htmlToText, utcDateTime } from '../shared/format.js';
import { DEFAULT_LANDING } from '../shared/next-path.js';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { CURRENCY_CODES, FILTER_NAMES, hrJobsQuerySchema, jobFiltersSchema } from './schema.js';
import { FEED_KINDS, FEEDS } from './lib/feeds.js';
import {
  type ApplicantCounts,
  type Availability,
  cachedPublicJob,
  feedJobs,
  jobFeed,
  listActiveDepartments,
  listDepartmentsInUse,
  listJobSummaries,
  listActiveLocations,
  listPublicJobs,
  publicPageVersion,
  requireJob,
  toPublicJob,
} from './service.js';
import { jobPostingJsonLd } from './lib/seo.js';
import type { Job, JobSummary, PublicJobSummary } from './types.js';

/** Jobs per page of the public list. */
const PAGE_SIZE = 30;
/** Jobs per page of the Manage Jobs and All Job Posts tables. */
export const HR_JOBS_PAGE_SIZE = 50;

const JOB_TYPE_OPTIONS = JOB_TYPES.map((v) => ({ value: v, label: enumLabel(v) }));
const WORK_MODE_OPTIONS = WORK_MODES.map((v) => ({ value: v, label: enumLabel(v) }));

const PERIOD_LABELS: Record<string, string> = { YEAR: 'Per year', MONTH: 'Per month', HOUR: 'Per hour' };

/** Options the editor offers, from the same lists the server validates against, and the departments in use. */
async function editorOptions(db: AppContext['db']) {
  const opts = (list: readonly string[]) => list.map((value) => ({ value, label: enumLabel(value) }));
  return {
    jobTypes: opts(JOB_TYPES),
    workModes: opts(WORK_MODES),
    statuses: opts(RECORD_STATUSES),
    answerTypes: opts(ANSWER_TYPES),
    currencies: CURRENCY_CODES,
    salaryPeriods: SALARY_PERIODS.map((value) => ({ value, label: PERIOD_LABELS[value] })),
    departments: await listDepartmentsInUse(db),
  };
}

/** The heading of jobs without a department when others on the page have one. */
const NO_DEPARTMENT_HEADING = 'Other roles';

/**
 * A page of the list under department headings, by name, the jobs without one last under
 * NO_DEPARTMENT_HEADING; each keeps the list's newest-first order. No headings (null) when no job
 * on the page has a department.
 */
export function byDepartment(
  jobs: PublicJobSummary[],
  spellings: readonly string[] = [],
): { heading: string; jobs: PublicJobSummary[] }[] | null {
  if (!jobs.some((j) => j.department)) return null;
  // One group per department whatever its case, headed by the filter's spelling of it (`spellings`),
  // else the first spelling on the page.
  const canonical = new Map(spellings.map((s) => [s.toLocaleLowerCase('en'), s]));
  const groups = new Map<string, { heading: string; jobs: PublicJobSummary[] }>();
  for (const job of jobs) {
    const key = job.department?.toLocaleLowerCase('en') ?? '';
    const group = groups.get(key) ?? { heading: key ? (canonical.get(key) ?? job.department!) : NO_DEPARTMENT_HEADING, jobs: [] };
    group.jobs.push(job);
    groups.set(key, group);
  }
  const keys = [...groups.keys()]
    .filter(Boolean)
    .sort((a, b) => groups.get(a)!.heading.localeCompare(groups.get(b)!.heading, 'en', { sensitivity: 'base' }));
  if (groups.has('')) keys.push('');
  return keys.map((k) => groups.get(k)!);
}

/** The HR lists' status of a job: 'Closed' once an active job's closing date has passed. */
function hrJobStatus(j: JobSummary, now: Date): { text: string; className: string } {
  if (j.status === 'ACTIVE' && j.closes_at && new Date(j.closes_at).getTime() <= now.getTime())
    return { text: 'Closed', className: 'status-closed' };
  return { text: enumLabel(j.status), className: `status-${j.status.toLowerCase()}` };
}

/**
 * Where a public page's answer is kept under the URL that asked for it (cleared with the job data);
 * the server answers it from there before the app (app.ts, createSite).
 */
export const keptPageKey = (url: string): CacheKey => `public-jobs:url:${url}`;

export function jobsPages(ctx: AppContext, applicantCounts: ApplicantCounts): Router {
  const router = Router();
  const { db, config } = ctx;
  /** The configuration with the company as the site settings name it (issue 35; brandLocals sets `brand`). */
  const branded = (res: Response) => {
    const brand = res.locals.brand as Brand | undefined;
    if (!brand) return config;
    return { ...config, company: { ...config.company, name: brand.companyName, logoUrl: logoPngUrl(config, brand) } };
  };

  router.get('/careers', async (req, res) => {
    const filters = validateQuery(req, jobFiltersSchema(false), FILTER_NAMES);
    const page = htmlPageNumber(req);
    // With PUBLIC_CACHE_SECONDS=0, the version before the data the page is made from.
    const version = await publicPageVersion(ctx);
    if (version) await rereadBrand(ctx, res);
    const [{ count, jobs }, locations, departments] = await Promise.all([
      listPublicJobs(ctx, filters, page, PAGE_SIZE),
      listActiveLocations(ctx),
      listActiveDepartments(ctx),
    ]);
    const pageLink = (n: number) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (n > 1) params.set('page', String(n));
      const qs = params.toString();
      return `/careers${qs ? `?${qs}` : ''}`;
    };
    const pager = htmlPager(page, count, PAGE_SIZE, pageLink);
    const url = pageLink(page);
    const filtered = Object.values(filters).some(Boolean);
    const company = branded(res).company.name;
    // The page is the same for every visitor with this URL, so its HTML is kept like its data.
    const fresh = await freshPage(ctx.cache, `public-jobs:html:list:${url}`, () =>
      renderPageHtml(
        req,
        res,
        'pages/public/careers',
        {
          title: `Careers at ${company}`,
          description: `Open positions at ${company}. Browse jobs by title, department, location, job type and work mode, and apply online.`,
          // Only the unfiltered first page is for search engines (the sitemap lists every job);
          // later and filtered pages are noindex (their links are still followed), each with its own
          // normalised URL as canonical, so empty filters (`?title=&location=`) fold into /careers.
          canonicalPath: url,
          noindex: filtered || page > 1,
          feeds: [
            { title: `Jobs at ${company} (RSS)`, href: FEEDS.rss.path, type: 'application/rss+xml' },
            { title: `Jobs at ${company} (JSON Feed)`, href: FEEDS.json.path, type: 'application/feed+json' },
          ],
        },
        {
          jobs,
          groups: byDepartment(jobs, departments),
          count,
          filters,
          locations: filters.location && !locations.includes(filters.location) ? [...locations, filters.location] : locations,
          departments: filters.department && !departments.includes(filters.department) ? [...departments, filters.department] : departments,
          jobTypes: JOB_TYPE_OPTIONS,
          workModes: WORK_MODE_OPTIONS,
          ...pager,
        },
      ),
    );
    await sendFreshPage(req, res, ctx.cache, keptPageKey(req.originalUrl), fresh, undefined, version);
  });

  // The job feeds take the list's filters; each is kept like a page (ETag, 304, compressed once),
  // under its normalised URL, so any other query spelling finds the same entry.
  for (const kind of FEED_KINDS) {
    const { path, contentType } = FEEDS[kind];
    router.get(path, async (req, res) => {
      const filters = validateQuery(req, jobFiltersSchema(true), FILTER_NAMES);
      const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
      const url = query ? `${path}?${query}` : path;
      const version = await publicPageVersion(ctx);
      if (version) await rereadBrand(ctx, res);
      // Read on every request (from the cache): it also ends the kept feeds at the next closing date.
      const jobs = await feedJobs(ctx, filters);
      const feed = await freshPage(ctx.cache, `public-jobs:feed:${url}`, async () => jobFeed(branded(res), kind, jobs), contentType);
      await sendFreshPage(req, res, ctx.cache, keptPageKey(url), feed, undefined, version);
    });
  }

  router.get('/careers/:publicId', async (req, res) => {
    const version = await publicPageVersion(ctx);
    if (version) await rereadBrand(ctx, res);
    const { job, availability } = await cachedPublicJob(ctx, req.params.publicId, false);
    if (!job || availability === 'not_found') {
      return renderPage(req, res, 'pages/public/job-unavailable', { title: 'Job post unavailable', noindex: true, status: 404 });
    }
    // jobs.views counts every view (the spec's figure); the funnel counts those not refusing tracking, by device.
    const countView = (r: IncomingMessage) => {
      ctx.views.count(job.id);
      ctx.funnel.countRequest(job.id, 'view', r.headers);
    };
    countView(req);
    const page = await freshPage(ctx.cache, `public-jobs:html:job:${job.public_id}`, () => renderJobPage(req, res, job, availability));
    await sendFreshPage(req, res, ctx.cache, keptPageKey(req.originalUrl), page, countView, version);
  });

  function renderJobPage(req: Request, res: Response, job: Job, availability: Availability): Promise<string> {
    const sections = [
      ['Job Description', job.description],
      ['Responsibilities', job.responsibilities],
      ['Requirements', job.requirements],
      ['Perks & Benefits', job.perks_benefits],
    ]
      .filter(([, html]) => hasRichContent(html))
      .map(([heading, html]) => ({ heading, html }));
    const publicJob = toPublicJob(job, false);
    return renderPageHtml(
      req,
      res,
      'pages/public/job',
      {
        title: `${job.title} — ${branded(res).company.name} Careers`,
        description: htmlToText(job.description) || `${job.title} at ${branded(res).company.name}, ${job.location}.`,
        canonicalPath: `/careers/${encodeURIComponent(job.public_id)}`,
        ogType: 'article',
        jsonLd: availability === 'available' ? jobPostingJsonLd(job, branded(res)) : undefined,
        noindex: availability !== 'available',
      },
      {
        job: publicJob,
        sections,
        // Shown while the job takes applications ("Applications close …") or once its date has passed
        // ("Applications closed …"); not for an inactive job whose date is still ahead (it never closed then).
        closesAt:
          job.closes_at && (publicJob.accepting_applications || job.closes_at.getTime() <= Date.now())
            ? { iso: job.closes_at.toISOString(), text: utcDateTime(job.closes_at) }
            : null,
      },
    );
  }

  /**
   * One page of every job (removed ones too), newest first, with a pager (`?page=n`, read like
   * /careers reads it).
   */
  /** A page of the HR job list, filtered by `?status=` (an unknown status is named, the list left whole, and the page answers 400). */
  async function jobsPage(req: Request) {
    const page = htmlPageNumber(req);
    const raw = Array.isArray(req.query.status) ? req.query.status[0] : req.query.status;
    const parsed = hrJobsQuerySchema().safeParse({ status: typeof raw === 'string' ? raw.trim() : '' });
    const status = parsed.success ? parsed.data.status || null : null;
    const statusError = parsed.success ? null : (fieldErrorsOf(parsed.error.issues).status?.[0] ?? null);
    const { count, results: jobs } = await listJobSummaries(
      db,
      applicantCounts,
      status,
      page,
      HR_JOBS_PAGE_SIZE,
      req.access,
      config.jobApproval,
    );
    const link = (n: number) => {
      const query = new URLSearchParams({ ...(status ? { status } : {}), ...(n > 1 ? { page: String(n) } : {}) }).toString();
      return query ? `${req.path}?${query}` : req.path;
    };
    const pager = htmlPager(page, count, HR_JOBS_PAGE_SIZE, link);
    const now = new Date();
    const rows = jobs.map((j) => ({ ...j, shownStatus: hrJobStatus(j, now), closesText: j.closes_at ? utcDateTime(j.closes_at) : null }));
    return { jobs: rows, count, pager, status: status ?? '', statuses: RECORD_STATUSES, statusError };
  }

  // The HR area's own address is no page of its own: it leads to the dashboard. Express matches it
  // with or without the trailing slash, in any case.
  router.get('/hr', (_req, res) => res.redirect(302, DEFAULT_LANDING));

  // One job list under two names (spec 02: Manage Jobs and All Job Posts): the same rows and actions.
  for (const [path, heading] of [
    ['/hr/jobs', 'Manage Jobs'],
    ['/hr/jobs/list', 'All Job Posts'],
  ] as const) {
    router.get(path, async (req, res) => {
      const list = await jobsPage(req);
      renderPage(
        req,
        res,
        'pages/hr/jobs',
        { title: heading, ...(list.statusError ? { status: 400 } : {}) },
        { ...list, heading, path, listPage: path === '/hr/jobs/list', ...formatters(req) },
      );
    });
  }

  router.get('/hr/jobs/new', async (req, res) => {
    renderPage(
      req,
      res,
      'pages/hr/job-editor',
      { title: 'Create Job' },
      {
        heading: 'Create Job',
        props: {
          mode: 'create',
          jobId: null,
          title: '',
          canChangeWebhook: req.hr?.role === 'admin',
          canOverrideChecks: req.hr?.role === 'admin',
          ...(await editorOptions(db)),
        },
      },
    );
  });

  router.get('/hr/jobs/:id/edit', async (req, res) => {
    // An unknown id is a 404 page here; the island itself loads the job (spec: a failed load
    // sends the user to /hrviewlogin).
    const job = await requireJob(db, pathId(req.params.id));
    const heading = `Edit Job: ${job.title}`;
    renderPage(
      req,
      res,
      'pages/hr/job-editor',
      { title: heading },
      {
        heading,
        props: {
          mode: 'edit',
          jobId: job.id,
          title: job.title,
          canChangeWebhook: req.hr?.role === 'admin',
          canOverrideChecks: req.hr?.role === 'admin',
          ...(await editorOptions(db)),
        },
      },
    );
  });

  return router;
}

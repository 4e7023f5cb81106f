/** Public job pages (/careers) and the public job API (/api/jobs/). Read-only. */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { htmlPageNumber, htmlPager, pageResponse, parsePaging, queryString } from '../http/paging.js';
import { renderPage, renderPageHtml, sendPageHtml } from '../render/page.js';
import { validate } from '../http/validate.js';
import { JOB_TYPES, WORK_MODES, enumLabel } from '../shared/enums.js';
import { hasRichContent, htmlToText } from '../shared/format.js';
import { cachedPublicRead } from './public-cache.js';
import * as repo from './repo.js';
import { jobFiltersSchema } from './schema.js';
import { getPublicJob, toPublicJob, type Availability } from './service.js';
import { jobPostingJsonLd } from './seo.js';
import type { Job, PublicJobFilters } from './types.js';

const PAGE_SIZE = 30;

/** Filters from the query; empty strings mean "no filter". Strict for the API, lenient for pages. */
function readFilters(req: Request, strict: boolean): PublicJobFilters {
  const query = Object.fromEntries(['title', 'location', 'job_type', 'work_mode'].map((name) => [name, queryString(req, name)]));
  return validate(jobFiltersSchema(strict), query);
}

const JOB_TYPE_OPTIONS = JOB_TYPES.map((v) => ({ value: v, label: enumLabel(v) }));
const WORK_MODE_OPTIONS = WORK_MODES.map((v) => ({ value: v, label: enumLabel(v) }));

export function publicJobRoutes(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;
  const cached = <T>(key: string, load: () => Promise<T>) => cachedPublicRead(db, config.publicCacheSeconds, key, load);
  // Cached as the public views the page and API send (mapped once, not on every request).
  const listJobs = (f: PublicJobFilters, page: number, size: number) =>
    cached(`list:${JSON.stringify(f)}:${page}:${size}`, async () => {
      const { count, jobs } = await repo.listPublicJobs(db, f, page, size);
      return { count, jobs: jobs.map((j) => toPublicJob(j, false)) };
    });
  const jobByPublicId = (publicId: string, withQuestions: boolean) =>
    cached(`job:${withQuestions}:${publicId}`, () => getPublicJob(db, publicId, withQuestions));

  router.get('/api/jobs/', async (req, res) => {
    const filters = readFilters(req, true);
    const paging = parsePaging(req);
    const { count, jobs } = await listJobs(filters, paging.page, paging.pageSize);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, jobs));
  });

  router.get('/api/jobs/:publicId/', async (req, res) => {
    const { job, availability } = await jobByPublicId(req.params.publicId, true);
    if (!job || availability === 'not_found') throw new NotFound('Job post unavailable');
    res.json(toPublicJob(job));
  });

  router.get('/careers', async (req, res) => {
    const filters = readFilters(req, false);
    const page = htmlPageNumber(req);
    const [{ count, jobs }, locations] = await Promise.all([
      listJobs(filters, page, PAGE_SIZE),
      cached('locations', () => repo.listActiveLocations(db)),
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
    // The page is the same for every visitor with this URL, so its HTML is kept like its data.
    const html = await cached(`html:list:${url}`, () => renderPageHtml(req, res, 'pages/public/careers', {
      title: `Careers at ${config.company.name}`,
      description: `Open positions at ${config.company.name}. Browse jobs by title, location, job type and work mode, and apply online.`,
      // Only the unfiltered first page is for search engines (the sitemap lists every job);
      // later and filtered pages are noindex (their links are still followed), each with its own
      // normalised URL as canonical, so empty filters (`?title=&location=`) fold into /careers.
      canonicalPath: url,
      noindex: filtered || page > 1,
    }, {
      jobs,
      count,
      filters,
      locations: filters.location && !locations.includes(filters.location) ? [...locations, filters.location] : locations,
      jobTypes: JOB_TYPE_OPTIONS,
      workModes: WORK_MODE_OPTIONS,
      ...pager,
    }));
    sendPageHtml(res, html);
  });

  router.get('/careers/:publicId', async (req, res) => {
    const { job, availability } = await jobByPublicId(req.params.publicId, false);
    if (!job || availability === 'not_found') {
      return renderPage(req, res, 'pages/public/job-unavailable', { title: 'Job post unavailable', noindex: true, status: 404 });
    }
    ctx.views.count(job.id);
    const html = await cached(`html:job:${job.public_id}`, () => renderJobPage(req, res, job, availability));
    sendPageHtml(res, html);
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
    return renderPageHtml(req, res, 'pages/public/job', {
      title: `${job.title} — ${config.company.name} Careers`,
      description: htmlToText(job.description) || `${job.title} at ${config.company.name}, ${job.location}.`,
      canonicalPath: `/careers/${encodeURIComponent(job.public_id)}`,
      ogType: 'article',
      jsonLd: availability === 'available' ? jobPostingJsonLd(job, config) : undefined,
      noindex: availability !== 'available',
    }, { job: publicJob, sections });
  }

  return router;
}

/**
 * HR job pages (spec 02 section 2), rendered on the server from the same queries as the API and
 * guarded with requireHrPage (no valid jwt cookie -> /hrviewlogin?next=...):
 * /hr (and /hr/: a redirect to the dashboard), /hr/dashboard, /hr/jobs (Manage Jobs), /hr/jobs/list (All Job Posts), /hr/jobs/new and
 * /hr/jobs/{id}/edit (the job-editor island, which loads the job through GET /api/hr/jobs/{id}/).
 */
import { Router, type Request } from 'express';
import { htmlPageNumber, htmlPager } from '../http/paging.js';
import type { AppContext } from '../context.js';
import { requireHrPage } from '../auth/guards.js';
import { DEFAULT_LANDING } from '../shared/next-path.js';
import { renderPage } from '../render/page.js';
import { ANSWER_TYPES, JOB_TYPES, RECORD_STATUSES, WORK_MODES, enumLabel } from '../shared/enums.js';
import { loadDashboard, pageJobSummaries } from './dashboard.js';
import { CURRENCY_CODES } from './schema.js';
import { parseJobId, requireJob } from './service.js';

/** The visitor's first Accept-Language the runtime supports, for locale-grouped numbers. */
function requestLocale(req: Request): string {
  for (const part of (req.headers['accept-language'] ?? '').split(',').slice(0, 5)) {
    const tag = part.split(';')[0].trim();
    if (!tag || tag === '*') continue;
    try {
      if (Intl.NumberFormat.supportedLocalesOf([tag]).length) return tag;
    } catch {
      /* not a language tag */
    }
  }
  return 'en-US';
}

function formatters(req: Request) {
  const numbers = new Intl.NumberFormat(requestLocale(req));
  return { num: (n: number) => numbers.format(n), label: enumLabel };
}

/** Options the editor offers, from the same lists the server validates against. */
function editorOptions() {
  const opts = (list: readonly string[]) => list.map((value) => ({ value, label: enumLabel(value) }));
  return {
    jobTypes: opts(JOB_TYPES),
    workModes: opts(WORK_MODES),
    statuses: opts(RECORD_STATUSES),
    answerTypes: opts(ANSWER_TYPES),
    currencies: CURRENCY_CODES,
  };
}

/** Jobs per page of the Manage Jobs and All Job Posts tables. */
export const HR_JOBS_PAGE_SIZE = 50;

export function hrJobPages(ctx: AppContext): Router {
  const router = Router();
  const { db } = ctx;
  const guard = requireHrPage(ctx);

  /**
   * One page of every job (removed ones too), newest first, with a pager (`?page=n`, read like
   * /careers reads it).
   */
  async function jobsPage(req: Request) {
    const page = htmlPageNumber(req);
    const { count, results: jobs } = await pageJobSummaries(db, null, page, HR_JOBS_PAGE_SIZE);
    const pager = htmlPager(page, count, HR_JOBS_PAGE_SIZE, (n) => (n === 1 ? req.path : `${req.path}?page=${n}`));
    return { jobs, count, pager };
  }

  // The HR area's own address is no page of its own: it leads to the dashboard. Express matches it
  // with or without the trailing slash, in any case.
  router.get('/hr', guard, (_req, res) => res.redirect(302, DEFAULT_LANDING));

  router.get('/hr/dashboard', guard, async (req, res) => {
    const stats = await loadDashboard(db);
    renderPage(req, res, 'pages/hr/dashboard', { title: 'HR Dashboard' }, { stats, ...formatters(req) });
  });

  router.get('/hr/jobs', guard, async (req, res) => {
    renderPage(req, res, 'pages/hr/jobs', { title: 'Manage Jobs' }, { ...(await jobsPage(req)), ...formatters(req) });
  });

  router.get('/hr/jobs/list', guard, async (req, res) => {
    renderPage(req, res, 'pages/hr/jobs-list', { title: 'All Job Posts' }, { ...(await jobsPage(req)), ...formatters(req) });
  });

  router.get('/hr/jobs/new', guard, (req, res) => {
    renderPage(req, res, 'pages/hr/job-editor', { title: 'Create Job' }, { heading: 'Create Job', props: { mode: 'create', jobId: null, title: '', ...editorOptions() } });
  });

  router.get('/hr/jobs/:id/edit', guard, async (req, res) => {
    // An unknown id is a 404 page here; the island itself loads the job (spec: a failed load
    // sends the user to /hrviewlogin).
    const job = await requireJob(db, parseJobId(req.params.id));
    const heading = `Edit Job: ${job.title}`;
    renderPage(req, res, 'pages/hr/job-editor', { title: heading }, { heading, props: { mode: 'edit', jobId: job.id, title: job.title, ...editorOptions() } });
  });

  return router;
}

/**
 * The applicants feature's pages. For applicants: the application wizard
 * (`/careers/{publicId}/apply`, a React island) and the confirmation (`/careers/{publicId}/submitted`,
 * plain HTML that works without JavaScript), both noindex: steps of one applicant's journey, not
 * content. For HR (app.ts guards /hr): the dashboard and a job's insights, whose island gets the
 * job and its analytics from the same service the API uses (no second round trip).
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { cachedPublicJob, parseJobId, toPublicJob, toPublicQuestion } from '../jobs/index.js';
import type { Job } from '../jobs/types.js';
import { formatters } from '../render/formatters.js';
import { renderPage } from '../render/page.js';
import { loadDashboard, loadJobInsights } from './service.js';
import type { WizardJob } from './types.js';

const APPLY_PAGE_TEXT = {
  unavailableTitle: 'Job post unavailable',
  removed: 'This job post has been removed.',
  closedTitle: 'Applications Closed',
  closed: 'This job post has stopped taking application.',
} as const;

/** What the wizard island needs: public fields and sanitised questions, without the long job texts. */
function wizardJobProps(job: Job): WizardJob {
  return { ...toPublicJob(job, false), questions: job.questions.map(toPublicQuestion) };
}

const jobPath = (publicId: string) => `/careers/${encodeURIComponent(publicId)}`;

export function applicantsPages(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  // The same cached read as the public job API, so a job is read once for both.
  const load = (publicId: string) => cachedPublicJob(ctx, publicId, true);

  const unavailable = (req: Request, res: Response) =>
    renderPage(req, res, 'pages/public/apply-unavailable', { title: APPLY_PAGE_TEXT.unavailableTitle, noindex: true, status: 404 }, {
      heading: APPLY_PAGE_TEXT.unavailableTitle,
      message: APPLY_PAGE_TEXT.removed,
      link: { href: '/careers', label: 'Back to Careers' },
    });

  router.get('/careers/:publicId/apply', async (req, res) => {
    const { job, availability } = await load(req.params.publicId);
    if (!job || availability === 'not_found') return unavailable(req, res);
    if (availability === 'inactive') {
      return renderPage(req, res, 'pages/public/apply-unavailable', { title: `${APPLY_PAGE_TEXT.closedTitle} — ${job.title}`, noindex: true }, {
        heading: APPLY_PAGE_TEXT.closedTitle,
        message: APPLY_PAGE_TEXT.closed,
        link: { href: jobPath(job.public_id), label: 'View Job Details' },
      });
    }
    renderPage(req, res, 'pages/public/apply', { title: `Apply: ${job.title} — ${config.company.name} Careers`, noindex: true }, {
      job: wizardJobProps(job),
      jobHref: jobPath(job.public_id),
    });
  });

  router.get('/careers/:publicId/submitted', async (req, res) => {
    const { job, availability } = await load(req.params.publicId);
    if (!job || availability === 'not_found') return unavailable(req, res);
    renderPage(req, res, 'pages/public/submitted', { title: `Application Submitted — ${config.company.name} Careers`, noindex: true }, {
      job: { title: job.title, href: jobPath(job.public_id) },
    });
  });

  router.get('/hr/dashboard', async (req, res) => {
    const stats = await loadDashboard(ctx);
    renderPage(req, res, 'pages/hr/dashboard', { title: 'HR Dashboard' }, { stats, ...formatters(req) });
  });

  router.get('/hr/jobs/:id/insights', async (req, res) => {
    const { job, analytics } = await loadJobInsights(ctx, parseJobId(req.params.id));
    renderPage(
      req,
      res,
      'pages/hr/job-insights',
      { title: `Insights: ${job.title}`, noindex: true },
      {
        props: {
          job: { id: job.id, title: job.title, status: job.status, views: job.views, created_at: job.created_at.toISOString(), applicants: analytics.total_applicants },
          analytics,
        },
      },
    );
  });

  return router;
}

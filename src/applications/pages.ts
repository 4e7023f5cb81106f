/**
 * Applicant pages: the application wizard (`/careers/{publicId}/apply`, a React island) and the
 * confirmation (`/careers/{publicId}/submitted`, plain HTML that works without JavaScript).
 * Both are noindex: they are steps of one applicant's journey, not content.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { cachedPublicRead } from '../jobs/public-cache.js';
import { getPublicJob, toPublicJob, toPublicQuestion } from '../jobs/service.js';
import type { Job } from '../jobs/types.js';
import type { WizardJob } from './types.js';

export const APPLY_PAGE_TEXT = {
  unavailableTitle: 'Job post unavailable',
  removed: 'This job post has been removed.',
  closedTitle: 'Applications Closed',
  closed: 'This job post has stopped taking application.',
} as const;

/** What the wizard island needs: public fields and sanitised questions, without the long job texts. */
export function wizardJobProps(job: Job): WizardJob {
  return { ...toPublicJob(job, false), questions: job.questions.map(toPublicQuestion) };
}

const jobPath = (publicId: string) => `/careers/${encodeURIComponent(publicId)}`;

export function applicationPageRoutes(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;
  // Same micro-cache and key as the public job pages, so a job is read once for both.
  const load = (publicId: string) => cachedPublicRead(db, config.publicCacheSeconds, `job:true:${publicId}`, () => getPublicJob(db, publicId, true));

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

  return router;
}

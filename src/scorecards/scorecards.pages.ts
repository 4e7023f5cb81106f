/** The Interview kits page of a job (/hr/jobs/{id}/kits, issue 31): its stages' kits and the kit templates, the interview-kits island. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId } from '../http/validate.js';
import { renderPage } from '../render/page.js';
import { SCORECARD_MESSAGES as M } from './scorecards.schema.js';
import { jobKits, kitTemplates } from './scorecards.service.js';

export function scorecardsPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/jobs/:id/kits', async (req, res) => {
    const [kits, templates] = await Promise.all([jobKits(ctx, pathId(req.params.id, M.jobNotFound)), kitTemplates(ctx)]);
    renderPage(
      req,
      res,
      'pages/hr/job-kits',
      { title: `Interview kits — ${kits.job.title}`, noindex: true },
      { props: { kits, templates } },
    );
  });
  return router;
}

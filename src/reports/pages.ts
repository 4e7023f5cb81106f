/** The Reports page (/hr/reports, island `hr-reports`): the job picker and period; the figures come from the API. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { listJobChoices } from '../jobs/index.js';
import { readableQuery } from './service.js';

export function reportsPages(ctx: AppContext): Router {
  const router = Router();

  router.get('/hr/reports', async (req, res) => {
    // The access check and the default period, as the API applies them (a bad query here is the API's to answer).
    const { query } = await readableQuery({ db: ctx.db, now: ctx.now }, req.hr?.role, {});
    const jobs = await listJobChoices(ctx.db);
    renderPage(
      req,
      res,
      'pages/hr/reports',
      { title: 'Reports', noindex: true },
      {
        jobs: jobs.map((j) => ({
          id: j.id,
          title: jobs.some((o) => o.id !== j.id && o.title === j.title) ? `${j.title} (${j.public_id})` : j.title,
          removed: j.status === 'REMOVED',
        })),
        from: query.from,
        to: query.to,
      },
    );
  });

  return router;
}

/**
 * Job insights (spec 02 'Job insights'): the analytics API, the applicants export and the
 * /hr/jobs/{id}/insights page. The page gets the job and its analytics from the same services the
 * API uses, rendered into the island's props (no second round trip).
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { requireHrApi, requireHrPage } from '../auth/guards.js';
import { renderPage } from '../render/page.js';
import { ExportAborted, streamWorkbook } from '../exports/xlsx.js';
import { applicantColumns, applicantRows, applicantsFilename } from '../exports/applicants.js';
import { loadJobInsights } from './analytics.js';
import { parseJobId, requireJob } from './service.js';

export function insightsRoutes(ctx: AppContext): Router {
  const router = Router();
  const { db } = ctx;

  router.get('/api/hr/jobs/:id/analytics/', requireHrApi(ctx), async (req, res) => {
    const { analytics } = await loadJobInsights(db, parseJobId(req.params.id));
    res.json(analytics);
  });

  router.get('/api/hr/jobs/:id/export-basic/', requireHrApi(ctx), async (req: Request, res: Response) => {
    const job = await requireJob(db, parseJobId(req.params.id));
    try {
      await streamWorkbook(res, { filename: applicantsFilename(job.id), sheetName: 'Applicants', columns: applicantColumns(job) }, applicantRows(db, job));
    } catch (err) {
      // Headers are out: the error handler can only cut the connection, so the client sees a failed download.
      if (err instanceof ExportAborted) return;
      throw err;
    }
  });

  router.get('/hr/jobs/:id/insights', requireHrPage(ctx), async (req, res) => {
    const { job, analytics } = await loadJobInsights(db, parseJobId(req.params.id));
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

/**
 * The applicants API: applying (`POST /api/jobs/{publicId}/apply/`, multipart, spec 01 section 7)
 * and what HR reads about applications (spec 02 section 7): the dashboard, a job's answer
 * analytics and its applicants export. HR routes sit under /api/hr, which app.ts guards.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { ExportAborted, streamWorkbook } from '../exports/xlsx.js';
import { receiveMultipart } from '../http/multipart.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { getPublicJob, parseJobId, requireJob } from '../jobs/index.js';
import { applicantColumns, applicantRows, applicantsFilename } from './queries/export.js';
import { APPLY_MESSAGES, APPLY_UPLOAD, assertAcceptingApplications, loadDashboard, loadJobInsights, submitApplication } from './service.js';

export function applicantsApi(ctx: AppContext): Router {
  const router = Router();
  const setting = ctx.config.rateLimits.apply;
  const limiter = dbRateLimit(ctx, { name: 'apply', setting, message: tooManyMessage('applications', setting.windowSeconds) });

  router.post('/api/jobs/:publicId/apply/', limiter, async (req, res) => {
    // The job is checked before a byte of the body is read. A refusal here (and the limiter's, and
    // a 503 while the database is down) still reaches a client that is still sending: the rest of
    // the body is read and discarded, up to a cap (src/http/unread-body.ts, mounted in app.ts).
    const { job, availability } = await getPublicJob(ctx.db, String(req.params.publicId));
    assertAcceptingApplications(job, availability);
    const form = await receiveMultipart(req, ctx.storage, APPLY_UPLOAD);
    // A filled honeypot gets the same answer as a real application, so a bot learns nothing.
    await submitApplication(ctx, job, form, { ip: req.ip });
    res.status(201).json({ detail: APPLY_MESSAGES.submitted });
  });

  router.get('/api/hr/dashboard/', async (_req, res) => {
    res.json(await loadDashboard(ctx));
  });

  router.get('/api/hr/jobs/:id/analytics/', async (req, res) => {
    const { analytics } = await loadJobInsights(ctx, parseJobId(req.params.id));
    res.json(analytics);
  });

  router.get('/api/hr/jobs/:id/export-basic/', async (req, res) => {
    const job = await requireJob(ctx.db, parseJobId(req.params.id));
    try {
      await streamWorkbook(res, { filename: applicantsFilename(job.id), sheetName: 'Applicants', columns: applicantColumns(job) }, applicantRows(ctx.db, job));
    } catch (err) {
      // Headers are out: the error handler can only cut the connection, so the client sees a failed download.
      if (err instanceof ExportAborted) return;
      throw err;
    }
  });

  return router;
}

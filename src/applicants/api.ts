/**
 * The applicants API: applying (`POST /api/jobs/{publicId}/apply/`, multipart, spec 01 section 7)
 * and what HR reads about applications (spec 02 section 7): the dashboard, a job's answer
 * analytics and its applicants export; the applicants list and its export, one application, its resume and
 * status changes (issue 11); its notes and timeline (issue 20). HR routes sit under /api/hr, which app.ts guards.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { sendWorkbook } from '../exports/xlsx.js';
import { sendDownload } from '../http/download.js';
import { pathId, validate } from '../http/validate.js';
import { receiveMultipart } from '../http/multipart.js';
import { pageLink, parsePaging } from '../http/paging.js';
import { readAttribution } from '../http/attribution.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { getPublicJob } from '../jobs/index.js';
import { WIZARD_SUBMIT_HEADER } from '../funnel/index.js';
import { applicantFilters, applicantListQuerySchema } from './review.schema.js';
import { APPLY_MESSAGES, APPLY_UPLOAD, assertAcceptingApplications, submitApplication } from './apply.service.js';
import {
  applicantListExport,
  applicantsExport,
  getApplicant,
  listApplicants,
  loadDashboard,
  todayInterviews,
  loadJobInsights,
  openResume,
  previewResume,
} from './reads.service.js';

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
    const attribution = await readAttribution(req, ctx.serverKey).catch(() => null);
    const outcome = await submitApplication(ctx, job, form, { ip: req.ip, attribution });
    // The funnel's last stage when the wizard sent it, counted apart otherwise; a honeypot's
    // discarded form is not an application.
    if (outcome.kind === 'created')
      ctx.funnel.countRequest(job.id, req.get(WIZARD_SUBMIT_HEADER) === '1' ? 'submitted' : 'submitted_direct', req.headers);
    res.status(201).json({ detail: APPLY_MESSAGES.submitted });
  });

  router.get('/api/hr/dashboard/', async (req, res) => {
    res.json(await loadDashboard(ctx, req.access));
  });

  // Issue 32: today's interviews in the viewer's zone (as sent: a repeated tz is refused by the schema).
  router.get('/api/hr/dashboard/interviews/', async (req, res) => {
    res.json(await todayInterviews(ctx, req.hr!, { tz: (req.query as Record<string, unknown>).tz }));
  });

  router.get('/api/hr/jobs/:id/analytics/', async (req, res) => {
    const { analytics } = await loadJobInsights(ctx, pathId(req.params.id));
    res.json(analytics);
  });

  router.get('/api/hr/jobs/:id/export-basic/', async (req, res) => {
    await sendWorkbook(res, await applicantsExport(ctx, pathId(req.params.id)));
  });

  router.get('/api/hr/applications/', async (req, res) => {
    const query = validate(applicantListQuerySchema, req.query);
    const paging = parsePaging(req);
    const page = await listApplicants(ctx, { ...applicantFilters(query), scope: req.access }, paging.page, paging.pageSize, query.detailed);
    const link = (n: number) => pageLink(req, ctx.config.publicBaseUrl, n);
    res.json({
      count: page.count,
      // true: there are more than `count` (counting stops there; narrow the filters).
      count_capped: page.capped,
      next: page.hasMore ? link(paging.page + 1) : null,
      previous: paging.page > 1 ? link(paging.page - 1) : null,
      results: page.results,
    });
  });

  // The list's Export: the same filters as the list (page and page_size are ignored). Before
  // `:id/`, which would take 'export' for an id.
  router.get('/api/hr/applications/export/', async (req, res) => {
    const query = validate(applicantListQuerySchema, req.query);
    await sendWorkbook(res, applicantListExport(ctx, { ...applicantFilters(query), scope: req.access }));
  });

  router.get('/api/hr/applications/:id/', async (req, res) => {
    // An interviewer does not see salary answers (issue 31).
    res.json(await getApplicant(ctx, pathId(req.params.id), { withoutSalary: req.hr?.role === 'interviewer' }));
  });

  router.get('/api/hr/applications/:id/resume/', async (req, res) => {
    const file = await openResume(ctx, pathId(req.params.id));
    // Only a PDF (decided from its bytes at upload) is ever shown inline ('Open PDF').
    const inline = req.query.disposition === 'inline' && file.contentType === 'application/pdf';
    await sendDownload(res, file, inline ? 'inline' : 'attachment');
  });

  // The text of a DOC or DOCX resume for the detail page (issue 20); the file itself stays a download.
  router.get('/api/hr/applications/:id/resume/preview/', async (req, res) => {
    res.json(await previewResume(ctx, pathId(req.params.id)));
  });

  return router;
}

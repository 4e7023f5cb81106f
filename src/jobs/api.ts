/**
 * The jobs API: the public list and job (`/api/jobs/`, read-only, cached) and HR job management
 * (spec 02 section 7: list, create, read, update) and the departments in use, which the job editor
 * suggests (`GET /api/hr/jobs/departments/`, issue 21). HR routes sit under /api/hr, which app.ts guards
 * (a token; POST and PUT need it as a Bearer header). Only an admin may set or change a job's
 * webhook (issue 28): a recruiter's POST or PUT that would is a 403.
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { pageResponse, parsePaging } from '../http/paging.js';
import { pathId, validateQuery } from '../http/validate.js';
import { FILTER_NAMES, hrJobsQuerySchema, jobFiltersSchema } from './schema.js';
import {
  type ApplicantCounts,
  type JobDeps,
  type JobSave,
  type JobSavePolicy,
  assertWebhookUnchanged,
  cachedPublicJob,
  createJob,
  listDepartmentsInUse,
  listJobSummaries,
  listPublicJobs,
  parseJobInput,
  requireJob,
  toHrJob,
  toPublicJob,
  updateJob,
} from './service.js';

export function jobsApi(ctx: AppContext, applicantCounts: ApplicantCounts, policy?: JobSavePolicy): Router {
  const router = Router();
  const { db, config } = ctx;
  const inputOptions = { allowPrivateWebhook: config.webhookAllowPrivate };
  // Saves pass the publishing rules (issue 34) handed in by app.ts.
  const jobDeps: JobDeps = { db, cache: ctx.cache, policy };
  /** Who saves, and what else the body carries for the rules (an admin's `override_checks`). */
  const saveOf = (req: Request): JobSave => ({
    userId: req.hr!.userId,
    role: req.hr!.role,
    extras: {
      override_checks:
        typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>).override_checks : undefined,
    },
  });

  router.get('/api/jobs/', async (req, res) => {
    const filters = validateQuery(req, jobFiltersSchema(true), FILTER_NAMES);
    const paging = parsePaging(req);
    const { count, jobs } = await listPublicJobs(ctx, filters, paging.page, paging.pageSize);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, jobs));
  });

  router.get('/api/jobs/:publicId/', async (req, res) => {
    const { job, availability } = await cachedPublicJob(ctx, req.params.publicId, true);
    if (!job || availability === 'not_found') throw new NotFound('Job post unavailable');
    res.json(toPublicJob(job));
  });

  router.get('/api/hr/jobs/', async (req, res) => {
    const { status } = validateQuery(req, hrJobsQuerySchema(), ['status']);
    const paging = parsePaging(req);
    const { count, results } = await listJobSummaries(
      db,
      applicantCounts,
      status || null,
      paging.page,
      paging.pageSize,
      req.access,
      config.jobApproval,
    );
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  // Before /api/hr/jobs/:id/, which would take 'departments' for an id.
  router.get('/api/hr/jobs/departments/', async (_req, res) => {
    res.json({ results: await listDepartmentsInUse(db) });
  });

  router.post('/api/hr/jobs/', async (req, res) => {
    const input = parseJobInput(req.body, inputOptions);
    assertWebhookUnchanged(req.hr!.role === 'admin', input);
    // `public_id_draft: true` (Manage Jobs' Duplicate): the public id is made again from the title at the first save.
    const draft = typeof req.body === 'object' && req.body !== null && (req.body as { public_id_draft?: unknown }).public_id_draft === true;
    const job = await createJob(jobDeps, input, ctx.now(), req.hr!.userId, draft, saveOf(req));
    res.status(201).json(toHrJob(job));
  });

  router.get('/api/hr/jobs/:id/', async (req, res) => {
    res.json(toHrJob(await requireJob(db, pathId(req.params.id))));
  });

  router.put('/api/hr/jobs/:id/', async (req, res) => {
    // An unknown job is a 404 whatever the payload holds.
    const current = await requireJob(db, pathId(req.params.id));
    const input = parseJobInput(req.body, { ...inputOptions, current });
    assertWebhookUnchanged(req.hr!.role === 'admin', input, current);
    res.json(toHrJob(await updateJob(jobDeps, current, input, ctx.now(), req.hr!.userId, saveOf(req))));
  });

  return router;
}

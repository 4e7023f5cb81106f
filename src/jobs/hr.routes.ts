/**
 * HR jobs API (spec 02 section 7): the dashboard and job create/read/update. Every route needs
 * an HR token (requireHrApi); POST and PUT need it as a Bearer header.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { requireHrApi } from '../auth/guards.js';
import { pageResponse, parsePaging, queryString } from '../http/paging.js';
import { validate } from '../http/validate.js';
import { loadDashboard, pageJobSummaries } from './dashboard.js';
import { hrJobsQuerySchema, storedRichTexts } from './schema.js';
import { createJob, parseJobId, parseJobInput, requireJob, toHrJob, updateJob } from './service.js';

export function hrJobRoutes(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;
  const guard = requireHrApi(ctx);
  const inputOptions = { allowPrivateWebhook: config.webhookAllowPrivate };

  router.get('/api/hr/dashboard/', guard, async (_req, res) => {
    res.json(await loadDashboard(db));
  });

  router.get('/api/hr/jobs/', guard, async (req, res) => {
    const { status } = validate(hrJobsQuerySchema(), { status: queryString(req, 'status') });
    const paging = parsePaging(req);
    const { count, results } = await pageJobSummaries(db, status || null, paging.page, paging.pageSize);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  router.post('/api/hr/jobs/', guard, async (req, res) => {
    const input = parseJobInput(req.body, inputOptions);
    const job = await createJob(db, input, ctx.now(), req.hr!.userId);
    res.status(201).json(toHrJob(job));
  });

  router.get('/api/hr/jobs/:id/', guard, async (req, res) => {
    res.json(toHrJob(await requireJob(db, parseJobId(req.params.id))));
  });

  router.put('/api/hr/jobs/:id/', guard, async (req, res) => {
    // An unknown job is a 404 whatever the payload holds.
    const current = await requireJob(db, parseJobId(req.params.id));
    const input = parseJobInput(req.body, { ...inputOptions, storedRichTexts: storedRichTexts(current) });
    res.json(toHrJob(await updateJob(db, current, input, ctx.now(), req.hr!.userId)));
  });

  return router;
}

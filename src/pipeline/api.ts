/**
 * The pipeline API (issue 20; HR routes under /api/hr, which app.ts guards): a job's stages and
 * board, the rejection reasons, and the status, stage and outcome changes of one application
 * (`PATCH /api/hr/applications/{id}/`) or many (`POST /api/hr/applications/bulk-status/`). A change
 * of status alone is the applicants feature's (reached through its index.ts); a stage or outcome
 * change is this feature's (service.ts).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { pathId, validate } from '../http/validate.js';
import { changeStatuses, getApplicant } from '../applicants/index.js';
import { APPLICANT_MESSAGES, bulkStatusSchema, statusChangeSchema } from '../applicants/review.schema.js';
import { boardQuerySchema, reasonsPutSchema, stagesPutSchema } from './schema.js';
import { changePipeline, jobStages, loadBoard, rejectionReasons, replaceRejectionReasons, replaceStages } from './service.js';

export function pipelineApi(ctx: AppContext): Router {
  const router = Router();

  // The spec's {ids, status}, or {ids, stage} / {ids, outcome, reason} (service.ts; a status alone is the applicants feature's).
  router.post('/api/hr/applications/bulk-status/', async (req, res) => {
    const { ids, change } = validate(bulkStatusSchema, req.body);
    if (change.kind === 'status') {
      const { changed, missing } = await changeStatuses(ctx, ids, change.status, req.hr!.userId);
      res.json({ status: change.status, updated: changed.length, updated_ids: changed, not_found: missing });
      return;
    }
    const { changed, missing } = await changePipeline(ctx, ids, change, req.hr!.userId);
    const what = change.kind === 'stage' ? { stage: change.stage } : { outcome: change.outcome, reason: change.reason };
    res.json({ ...what, updated: changed.length, updated_ids: changed, not_found: missing });
  });

  router.patch('/api/hr/applications/:id/', async (req, res) => {
    const id = pathId(req.params.id);
    const change = validate(statusChangeSchema, req.body);
    const { missing } =
      change.kind === 'status'
        ? await changeStatuses(ctx, [id], change.status, req.hr!.userId)
        : await changePipeline(ctx, [id], change, req.hr!.userId);
    if (missing.length) throw new NotFound(APPLICANT_MESSAGES.notFound);
    res.json(await getApplicant(ctx, id));
  });

  // ---- Pipeline: a job's stages and board, the rejection reasons ----

  router.get('/api/hr/jobs/:id/stages/', async (req, res) => {
    res.json(await jobStages(ctx, pathId(req.params.id)));
  });

  router.put('/api/hr/jobs/:id/stages/', async (req, res) => {
    const id = pathId(req.params.id);
    const { stages } = validate(stagesPutSchema, req.body);
    res.json(await replaceStages(ctx, id, stages, req.hr!.userId));
  });

  router.get('/api/hr/jobs/:id/board/', async (req, res) => {
    const id = pathId(req.params.id);
    const query = validate(boardQuerySchema, req.query);
    res.json((await loadBoard(ctx, id, query)).board);
  });

  router.get('/api/hr/rejection-reasons/', async (_req, res) => {
    res.json({ reasons: await rejectionReasons(ctx) });
  });

  router.put('/api/hr/rejection-reasons/', async (req, res) => {
    const { reasons } = validate(reasonsPutSchema, req.body);
    res.json({ reasons: await replaceRejectionReasons(ctx, reasons) });
  });

  return router;
}

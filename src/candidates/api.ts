/**
 * The HR side of the candidates feature (issue 35): candidates' erasure requests, confirmed in one
 * click (admins and recruiters), and the status texts per stage (read by HR, written by admins).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { requireAdmin } from '../users/index.js';
import { CANDIDATE_MESSAGES, statusTextsSchema } from './schema.js';
import { confirmErasure, erasureRequests, saveStageTexts, stageTexts } from './service.js';

export function candidatesApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/erasure-requests/', async (_req, res) => {
    res.json({ results: await erasureRequests(ctx.db) });
  });

  router.post('/api/hr/erasure-requests/:id/confirm/', async (req, res) => {
    const id = pathId(req.params.id, CANDIDATE_MESSAGES.requestNotFound);
    res.json(await confirmErasure(ctx, id, req.hr!.userId));
  });

  router.get('/api/hr/settings/status-texts/', async (_req, res) => {
    res.json({ results: await stageTexts(ctx.db) });
  });

  router.put('/api/hr/settings/status-texts/', requireAdmin, async (req, res) => {
    const { texts } = validate(statusTextsSchema, req.body);
    res.json({ results: await saveStageTexts(ctx.db, texts, req.hr!.userId, ctx.now()) });
  });

  return router;
}

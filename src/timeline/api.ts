/** The timeline API (issue 20; under /api/hr, which app.ts guards): what happened to an application, in order. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId } from '../http/validate.js';
import { loadTimeline } from './service.js';

export function timelineApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/applications/:id/timeline/', async (req, res) => {
    res.json(await loadTimeline(ctx, pathId(req.params.id)));
  });

  return router;
}

/**
 * The timeline API (issue 20; under /api/hr, which app.ts guards): what happened to an application,
 * newest first, a page at a time (issue 33): `?before=` the cursor in the `next` link of the page
 * before.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId } from '../http/validate.js';
import { loadTimeline } from './service.js';
import type { ApplicationTimeline } from './types.js';

export function timelineApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/applications/:id/timeline/', async (req, res) => {
    const { timeline, cursor } = await loadTimeline(ctx, pathId(req.params.id), (req.query as Record<string, unknown>).before);
    // The link is made from the path the route matched (never the Host header), as the lists' links are.
    const next = cursor ? `${ctx.config.publicBaseUrl}${req.baseUrl}${req.path}?before=${encodeURIComponent(cursor)}` : null;
    const body: ApplicationTimeline = { ...timeline, next };
    res.json(body);
  });

  return router;
}

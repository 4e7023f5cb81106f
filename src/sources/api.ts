/** The Sources API (HR; app.ts guards /api/hr): the report and the tracking links. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId } from '../http/validate.js';
import { SOURCE_MESSAGES } from './schema.js';
import { createTrackingLink, removeTrackingLink, sourcesReport, trackingLinks } from './service.js';

export function sourcesApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/sources/', async (req, res) => {
    res.json(await sourcesReport(ctx, { days: req.query.days }));
  });

  router.get('/api/hr/sources/links/', async (_req, res) => {
    res.json({ results: await trackingLinks(ctx) });
  });

  router.post('/api/hr/sources/links/', async (req, res) => {
    res.status(201).json(await createTrackingLink(ctx, req.body, req.hr!.userId));
  });

  router.delete('/api/hr/sources/links/:id/', async (req, res) => {
    await removeTrackingLink(ctx, pathId(req.params.id, SOURCE_MESSAGES.notFound));
    res.status(204).end();
  });

  return router;
}

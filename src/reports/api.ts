/** The Reports API (HR; app.ts guards /api/hr, the service decides who may read). */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { sendWorkbook } from '../exports/xlsx.js';
import { REPORT_QUERY_NAMES } from './schema.js';
import { buildReport, reportWorkbook } from './service.js';

export function reportsApi(ctx: AppContext): Router {
  const router = Router();
  const deps = { db: ctx.db, now: ctx.now };
  // As sent: a repeated parameter (a list) or a nested one is refused by the schema, not read leniently.
  const query = (req: Request) => Object.fromEntries(REPORT_QUERY_NAMES.map((n) => [n, (req.query as Record<string, unknown>)[n]]));

  router.get('/api/hr/reports/', async (req, res) => {
    res.json(await buildReport(deps, req.hr?.role, query(req)));
  });

  router.get('/api/hr/reports/export/', async (req, res) => {
    await sendWorkbook(res, await reportWorkbook(deps, req.hr?.role, query(req)));
  });

  return router;
}

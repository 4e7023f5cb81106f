/**
 * The offers feature (issue 34: offers with approvals and a signature) as the app, the server and
 * the CLI see it: its routes, and the sweep's expiry of sent offers past their date.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { offersApi } from './api.js';
import { offersPages } from './pages.js';

export function offersRoutes(ctx: AppContext): Router {
  return Router().use(offersApi(ctx), offersPages(ctx));
}

/** The posts sweep's extra work (server.ts, careers-admin cron): sent offers past their expiry date become expired. */
export { expireOffers } from './service.js';
/** The reports' "offers made and accepted". */
export { offerCounts } from './queries.js';

/**
 * The reports feature as the app sees it (issue 31, "Reports for management"): the Reports page and
 * its API, read from the stage-transition ledger (docs/decisions/0011-stage-transition-ledger.md).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { reportsApi } from './api.js';
import { reportsPages } from './pages.js';

export function reportsRoutes(ctx: AppContext): Router {
  return Router().use(reportsApi(ctx), reportsPages(ctx));
}

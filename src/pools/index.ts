/** The talent pools feature (issue 35) as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { poolsApi } from './api.js';
import { poolsPages } from './pages.js';

export { givePoolConsent, keepPositionFilled, personPoolState, poolConsentText, withdrawPoolConsent, type PoolDeps } from './service.js';
export { POSITION_FILLED } from './schema.js';

/** The pools page and API. */
export function poolsRoutes(ctx: AppContext): Router {
  return Router().use(poolsApi(ctx), poolsPages(ctx));
}

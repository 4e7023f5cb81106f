/** The sources feature as the app sees it: where applicants come from (issue 21). */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { sourcesApi } from './api.js';
import { sourcesPages } from './pages.js';

/** The Sources page and API, and the tracking links /go/{slug}. */
export function sourcesRoutes(ctx: AppContext): Router {
  return Router().use(sourcesApi(ctx), sourcesPages(ctx));
}

/**
 * The branding feature (issue 35: a site HR can brand) as the app and other features see it: the
 * settings page and API, the brand every page renders with, and the brand for emails and feeds.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { brandingApi } from './api.js';
import { brandingPages } from './pages.js';

export { brandLocals, rereadBrand } from './pages.js';
export { brandOf, brandedConfig, emailBrand, logoPngUrl } from './service.js';
export type { Brand } from './types.js';

/** The site settings page, its API and the brand's public assets. */
export function brandingRoutes(ctx: AppContext): Router {
  return Router().use(brandingApi(ctx), brandingPages(ctx));
}

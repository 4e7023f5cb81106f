/**
 * The publishing feature (issue 34: pay transparency checked before a job is published) as the
 * app, the CLI and other features see it: the pay rules, a job's checklist, the gate every HR save
 * of a job passes (the jobs feature's JobSavePolicy port) and the optional job approval.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { publishingApi } from './api.js';
import { publishingPages } from './pages.js';

export { publishingPolicy } from './gate.service.js';
export { PUBLISHING_MESSAGES } from './schema.js';
/** The offers feature's check of an offer's pay against its job's range. */
export { payInRange } from './lib/pay.js';

/** The pay rules page and the publishing API. */
export function publishingRoutes(ctx: AppContext): Router {
  return Router().use(publishingApi(ctx), publishingPages(ctx));
}

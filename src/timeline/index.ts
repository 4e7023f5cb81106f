/** The timeline feature (issue 20) as the app sees it: its route. */
import type { Router } from 'express';
import type { AppContext } from '../context.js';
import { timelineApi } from './api.js';

/** GET /api/hr/applications/{id}/timeline/. */
export function timelineRoutes(ctx: AppContext): Router {
  return timelineApi(ctx);
}

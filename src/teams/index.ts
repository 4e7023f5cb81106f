/** The teams feature (issue 31: a job's hiring team, access by role) as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { teamsApi } from './api.js';

export { accessGate } from './api.js';
export { applicantViewers } from './service.js';

/** GET/PUT /api/hr/jobs/{id}/team/. */
export function teamsRoutes(ctx: AppContext): Router {
  return Router().use(teamsApi(ctx));
}

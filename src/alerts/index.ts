/** The job alerts feature (issue 35) as the app, the server, the CLI and other features see it. */
import type { Router } from 'express';
import type { AppContext } from '../context.js';
import { alertsPages } from './pages.js';

export { alertsLocals } from './pages.js';
export { alertCounts, countAlertsOfAddress, eraseAlertsOf, sendDigests } from './service.js';
export { scheduleAlerts } from './lib/schedule.js';

/** The public alert pages: the form and the links of its emails. */
export function alertsRoutes(ctx: AppContext): Router {
  return alertsPages(ctx);
}

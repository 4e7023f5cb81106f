/** The interviews feature (issue 32: interviews on the calendar) as the app, the server, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { interviewsApi } from './interviews.api.js';
import type { ConflictCheck } from './interviews.service.js';

/** The interviews API; `conflicts`: further checks of a time (working hours, calendars), whose warnings join the overlap ones. */
export function interviewsRoutes(ctx: AppContext, opts: { conflicts?: ConflictCheck } = {}): Router {
  return Router().use(interviewsApi(ctx, opts));
}

export { cancelInterview, rescheduleInterview, scheduleInterview, type ConflictCheck } from './interviews.service.js';
/** The posts sweep's extra work (server.ts, careers-admin cron): the 24 h and 1 h reminders. */
export { remindUpcomingInterviews } from './reminders.service.js';

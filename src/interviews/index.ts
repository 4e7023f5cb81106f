/** The interviews feature (issue 32: interviews on the calendar) as the app, the server, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { availabilityApi } from './availability.api.js';
import { availabilityPages } from './availability.pages.js';
import { busyConflicts } from './availability.service.js';
import { bookingApi } from './booking.api.js';
import { bookingPages } from './booking.pages.js';
import { interviewsApi } from './interviews.api.js';

/**
 * The interviews API (their warnings include working hours and calendars' busy times), interviewer
 * availability (settings, calendars, Find a time), booking links and the candidate's booking page.
 */
export function interviewsRoutes(ctx: AppContext): Router {
  return Router().use(
    interviewsApi(ctx, { conflicts: (_deps, q) => busyConflicts(ctx, q) }),
    availabilityApi(ctx),
    availabilityPages(ctx),
    bookingApi(ctx),
    bookingPages(ctx),
  );
}

export { busyConflicts, findSlots } from './availability.service.js';
export { cancelInterview, rescheduleInterview, scheduleInterview, type ConflictCheck } from './interviews.service.js';
/** The posts sweep's extra work (server.ts, careers-admin cron): the 24 h and 1 h reminders. */
export { remindUpcomingInterviews } from './reminders.service.js';

/** The interviews feature (issue 32) as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { availabilityApi } from './availability.api.js';
import { availabilityPages } from './availability.pages.js';

/** Interviewer availability: settings, calendars, Find a time. */
export function interviewsRoutes(ctx: AppContext): Router {
  return Router().use(availabilityApi(ctx), availabilityPages(ctx));
}

export { busyConflicts, findSlots } from './availability.service.js';

/**
 * The people feature (issue 35: one person across jobs) as the app and other features see it: the
 * person of an application (linked when it is made), suggested duplicates, merges and their undo.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { peopleApi } from './api.js';
import { peoplePages } from './pages.js';
import type { TimelineWriter } from './service.js';

export {
  personForApplication,
  personOfAddress,
  personOfStatusToken,
  personOtherApplications,
  removeEmptyPeople,
  statusLink,
  suggestAfterApplying,
  type TimelineWriter,
} from './service.js';

/**
 * The review list page and the people API (mounted before the applicants' `/hr/applicants/:id`);
 * `deps.timeline` writes the merges' timeline lines (applicants' `insertApplicationAudit`).
 */
export function peopleRoutes(ctx: AppContext, deps: { timeline: TimelineWriter }): Router {
  return Router().use(peopleApi(ctx, deps.timeline), peoplePages(ctx));
}

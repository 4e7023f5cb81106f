/** The jobs feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { jobsApi } from './api.js';
import { jobsPages } from './pages.js';

export { keptPageKey } from './pages.js';
import type { ApplicantCounts } from './queries.js';

export { listJobChoices, listJobStats, type ApplicantCounts } from './queries.js';
export { SeedError, countJobs, importJobRecords, removeDemoJobs, seedDemoJobs } from './seed.service.js';
export {
  ViewCounter,
  cachedPublicJob,
  getPublicJob,
  jobIdOf,
  listJobsForSitemap,
  listPublicJobs,
  requireJob,
  toPublicJob,
  toPublicQuestion,
  type Availability,
} from './service.js';
export { FILTER_NAMES, jobFiltersSchema } from './schema.js';

/** The jobs routes: public list and pages, the public API, HR job management. */
export function jobsRoutes(ctx: AppContext, deps: { applicantCounts: ApplicantCounts }): Router {
  return Router().use(jobsApi(ctx, deps.applicantCounts), jobsPages(ctx, deps.applicantCounts));
}

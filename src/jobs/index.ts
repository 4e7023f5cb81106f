/** The jobs feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { jobsApi } from './api.js';
import { jobsPages } from './pages.js';

export { keptPageKey } from './pages.js';
import type { ApplicantCounts } from './queries.js';
import type { JobSavePolicy } from './service.js';

export { listJobChoices, listJobStats, type ApplicantCounts } from './queries.js';
export { SeedError, countJobs, importJobRecords, removeDemoJobs, seedDemoJobs } from './seed.service.js';
export {
  ViewCounter,
  cachedPublicJob,
  getPublicJob,
  jobIdOf,
  listActiveDepartments,
  listActiveLocations,
  listJobsForSitemap,
  listPublicJobs,
  publicPageVersion,
  requireJob,
  setJobStatus,
  toPublicJob,
  toPublicQuestion,
  type Availability,
  type JobSave,
  type JobSavePlan,
  type JobSavePolicy,
} from './service.js';
export type { Job } from './types.js';
export { FILTER_NAMES, jobFiltersSchema } from './schema.js';
export { isCountryCode, jobPostingJsonLd, remoteCountry } from './lib/seo.js';

/** The jobs routes: public list and pages, the public API, HR job management. */
export function jobsRoutes(ctx: AppContext, deps: { applicantCounts: ApplicantCounts; policy?: JobSavePolicy }): Router {
  return Router().use(jobsApi(ctx, deps.applicantCounts, deps.policy), jobsPages(ctx, deps.applicantCounts));
}

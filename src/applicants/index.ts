/** The applicants feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { applicantsApi } from './api.js';
import { applicantsPages } from './pages.js';

/** Applicants per job, for the jobs feature's HR lists (its ApplicantCounts port). */
export { applicantsByJob as applicantCounts } from './dashboard.queries.js';

/** The applicants routes: applying, the wizard pages, and HR's dashboard, insights and export. */
export function applicantsRoutes(ctx: AppContext): Router {
  return Router().use(applicantsApi(ctx), applicantsPages(ctx));
}

/** Retention (careers-admin applicants purge / erase). */
export { planRemoval, removeApplications, type RemovalSummary } from './retention.service.js';
export { parseRetentionAge, statusOptionSchema } from './schema.js';

/** Workbooks (careers-admin export applicants): the job's, and the list's for its filters. */
export { applicantListExport, applicantsExport } from './reads.service.js';
export { applicantFilters, applicantListQuerySchema } from './schema.js';
export type { RemovalCriteria } from './list.queries.js';

/** Emails to candidates (the emails feature): who they go to, and a rejection written with its emails. */
export { changePipeline } from '../pipeline/service.js';
export { emailRecipients, type EmailRecipient } from './recipients.queries.js';

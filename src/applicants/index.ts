/** The applicants feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { applicantsApi } from './api.js';
import { applicantsPages } from './pages.js';

/** Applicants per job, for the jobs feature's HR lists (its ApplicantCounts port). */
export { applicantsByJob as applicantCounts } from './queries/dashboard.js';

/** The applicants routes: applying, the wizard pages, and HR's dashboard, insights and export. */
export function applicantsRoutes(ctx: AppContext): Router {
  return Router().use(applicantsApi(ctx), applicantsPages(ctx));
}

/** Retention (careers-admin applicants purge / erase). */
export { planRemoval, removeApplications, type RemovalSummary } from './service.js';
export { parseRetentionAge, statusOptionSchema } from './schema.js';

/** Workbooks (careers-admin export applicants): the job's, and the list's for its filters. */
export { applicantListExport, applicantsExport } from './service.js';
export { applicantFilters, applicantListQuerySchema } from './schema.js';
export type { RemovalCriteria } from './queries/list.js';

/** Emails to candidates (the emails feature): who they go to, and a rejection written with its emails. */
export { changePipeline } from './service.js';
export { emailRecipients, type EmailRecipient } from './queries/recipients.js';

/** An application's resume opened for download (the scorecards feature's outside-interviewer link, issue 31). */
export { openResume } from './reads.js';

/** The applicants feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { applicantsApi } from './api.js';
import { applicantsPages, type PipelineReads } from './pages.js';

/** Applicants per job, for the jobs feature's HR lists (its ApplicantCounts port). */
export { applicantsByJob as applicantCounts } from './dashboard.queries.js';

/**
 * The applicants routes: applying, the wizard pages, and HR's dashboard, insights, list, export and
 * application page; `pipeline` is what those pages show of the pipeline feature (app.ts wires it).
 */
export function applicantsRoutes(ctx: AppContext, pipeline: PipelineReads): Router {
  return Router().use(applicantsApi(ctx), applicantsPages(ctx, pipeline));
}
export type { PipelineReads } from './pages.js';

/** Retention (careers-admin applicants purge / erase). */
export { planRemoval, removeApplications, type RemovalSummary } from './retention.service.js';
/** Candidate imports (issue 35) write through the apply path's rows. */
export { insertImportedApplication, storeImportedResume, type ImportedApplication } from './apply.service.js';
export { contactSchema } from './apply.schema.js';

/** Workbooks (careers-admin export applicants): the job's, and the list's for its filters. */
export { applicantListExport, applicantsExport } from './reads.service.js';
export type { RemovalCriteria } from './retention.queries.js';

/** Emails to candidates (the emails feature): who they go to. */
export { emailRecipients, type EmailRecipient } from './recipients.queries.js';

/**
 * The pipeline feature's way to applications (docs/decisions/0002-pipeline-feature.md): it locks
 * and writes their stage, outcome and status with its audit entries and the change counters, each
 * call taking the pipeline's transaction; and it reads the board's columns and the count per stage.
 */
export { applicationsPerStage, lockPipelineStates, writePipelineStates, type PipelineState } from './stage.repo.js';
export { bumpCounter, insertApplicationAudit, type ApplicationAudit } from './repo.js';
/** The stage-transition ledger, appended by the pipeline with every stage or outcome it writes (decision 0011). */
export { insertStageTransitions, type StageTransition } from './transitions.repo.js';
export { boardColumns } from './board.queries.js';
export { changeStatuses } from './status.service.js';
export { getApplicant, listSourcesSeen } from './reads.service.js';

/** The notes feature's way to applications: the share lock a note is written under, and its audit entry. */
export { lockApplicationForChild } from './repo.js';

/** An application's resume opened for download (the scorecards feature's outside-interviewer link, issue 31). */
export { openResume } from './reads.service.js';

/**
 * The pipeline feature (issue 20) as the app and other features see it: a job's stages and the
 * rejection reasons, stage and outcome changes, and the board. It writes job_stages and
 * rejection_reasons; the stage, outcome and status of applications it writes through
 * src/applicants/index.ts (docs/decisions/0002-pipeline-feature.md).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pipelineApi } from './api.js';
import { pipelinePages } from './pages.js';

/** The stages, board and reasons API, the status/stage/outcome changes, and the board page. */
export function pipelineRoutes(ctx: AppContext): Router {
  return Router().use(pipelineApi(ctx), pipelinePages(ctx));
}

/** What the applicants pages show of the pipeline (their PipelineReads port, wired by app.ts). */
export { jobStages, listStageNames, rejectionReasons } from './service.js';

/** A rejection written with its emails (the emails feature), in one transaction; a candidate's withdrawal. */
export { changePipeline, withdrawApplication } from './service.js';

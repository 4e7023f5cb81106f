/** The scorecards feature (issue 31: interview kits, scorecards, the debrief) as the app sees it: its routes. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { scorecardsApi } from './scorecards.api.js';
import { scorecardsPages } from './scorecards.pages.js';
import { feedbackPages } from './feedback.pages.js';

/** The kits and scorecards API and pages. */
export function scorecardsRoutes(ctx: AppContext): Router {
  return Router().use(scorecardsApi(ctx), scorecardsPages(ctx), feedbackPages(ctx));
}

/** The posts sweep's extra work (server.ts, careers-admin cron): one reminder per overdue scorecard. */
export { remindOverdueScorecards } from './reminders.service.js';
/** The interviews feature's invitations (issue 32): each interviewer's scorecard at the interview's stage. */
export { requestInterviewScorecard, withdrawInterviewScorecards } from './scorecards.service.js';

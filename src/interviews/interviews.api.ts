/**
 * The interviews API (issue 32), under /api/hr (app.ts guards it; the teams feature's gate scopes it):
 * - `/api/hr/applications/{id}/interviews/`: an application's interviews, oldest first (GET), schedule one (POST);
 * - `/api/hr/interviews/{id}/`: read (GET), change (PATCH, any fields), cancel (DELETE).
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { INTERVIEW_FIELD_ORDER, INTERVIEW_MESSAGES as M, interviewPatchSchema, interviewSchema } from './interviews.schema.js';
import {
  cancelInterview,
  getInterview,
  listInterviews,
  rescheduleInterview,
  scheduleInterview,
  type ConflictCheck,
} from './interviews.service.js';

const by = (req: Request) => req.hr!.userId;

export function interviewsApi(ctx: AppContext, opts: { conflicts?: ConflictCheck } = {}): Router {
  const router = Router();
  const deps = { ...ctx, conflicts: opts.conflicts };
  const appId = (raw: unknown) => pathId(raw, M.applicationNotFound);
  const interviewId = (raw: unknown) => pathId(raw, M.interviewNotFound);

  router.get('/api/hr/applications/:id/interviews/', async (req, res) => {
    res.json(await listInterviews(deps, appId(req.params.id)));
  });
  router.post('/api/hr/applications/:id/interviews/', async (req, res) => {
    const applicationId = appId(req.params.id);
    const input = validate(interviewSchema(ctx.now()), req.body, INTERVIEW_FIELD_ORDER);
    res.status(201).json(await scheduleInterview(deps, { applicationId, input, by: by(req) }));
  });
  router.get('/api/hr/interviews/:id/', async (req, res) => {
    res.json({ interview: await getInterview(deps, interviewId(req.params.id)) });
  });
  router.patch('/api/hr/interviews/:id/', async (req, res) => {
    const id = interviewId(req.params.id);
    const patch = validate(interviewPatchSchema(), req.body, INTERVIEW_FIELD_ORDER);
    res.json(await rescheduleInterview(deps, { interviewId: id, patch, by: by(req) }));
  });
  router.delete('/api/hr/interviews/:id/', async (req, res) => {
    res.json(await cancelInterview(deps, { interviewId: interviewId(req.params.id), by: by(req) }));
  });
  return router;
}

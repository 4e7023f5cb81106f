/**
 * The interview kits and scorecards API (issue 31), under /api/hr (app.ts guards it):
 * - `/api/hr/kit-templates/` (list, create) and `{id}/` (read, replace, delete);
 * - `/api/hr/scorecards/overdue/`: scorecards not submitted a day after the interview (the dashboard);
 * - `/api/hr/jobs/{id}/kits/` (every stage with its kit) and `{stageId}/` (PUT: a stage's kit);
 * - `/api/hr/applications/{id}/scorecards/` (list, ask for feedback), `choices/` (stages, HR users, reasons), `{scorecardId}/` (read,
 *   PATCH the draft), `{scorecardId}/submit/` and `{scorecardId}/amendments/`;
 * - `/api/hr/applications/{id}/debrief/` (the submitted scorecards side by side) and
 *   `debrief/decisions/` (POST: advance, reject with a reason, or offer).
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import {
  SCORECARD_MESSAGES as M,
  amendmentSchema,
  decisionSchema,
  draftSchema,
  requestSchema,
  stageKitSchema,
  templateSchema,
} from './scorecards.schema.js';
import { overdueList } from './reminders.service.js';
import {
  amendScorecard,
  createKitTemplate,
  debrief,
  decide,
  getScorecard,
  jobKits,
  kitTemplate,
  kitTemplates,
  listScorecards,
  removeKitTemplate,
  replaceKitTemplate,
  replaceStageKit,
  requestScorecard,
  saveDraft,
  scorecardChoices,
  submitScorecard,
  type Viewer,
} from './scorecards.service.js';

const FIELD_ORDER = [
  'name',
  'template_id',
  'instructions',
  'questions',
  'attributes',
  'levels',
  'stage',
  'interviewer_user_id',
  'interviewer_email',
  'interviewer_name',
  'interview_at',
  'ratings',
  'attribute',
  'rating',
  'note',
  'recommendation',
  'decision',
  'reason',
] as const;

const viewer = (req: Request): Viewer => ({ userId: req.hr!.userId, role: req.hr!.role });

export function scorecardsApi(ctx: AppContext): Router {
  const router = Router();
  const templateId = (raw: unknown) => pathId(raw, M.templateNotFound);
  const appId = (raw: unknown) => pathId(raw, M.applicationNotFound);
  const cardId = (raw: unknown) => pathId(raw, M.scorecardNotFound);

  router.get('/api/hr/kit-templates/', async (_req, res) => {
    res.json({ results: await kitTemplates(ctx) });
  });
  router.post('/api/hr/kit-templates/', async (req, res) => {
    res.status(201).json(await createKitTemplate(ctx, validate(templateSchema(), req.body, FIELD_ORDER)));
  });
  router.get('/api/hr/kit-templates/:id/', async (req, res) => {
    res.json(await kitTemplate(ctx, templateId(req.params.id)));
  });
  router.put('/api/hr/kit-templates/:id/', async (req, res) => {
    const id = templateId(req.params.id);
    res.json(await replaceKitTemplate(ctx, id, validate(templateSchema(), req.body, FIELD_ORDER)));
  });
  router.delete('/api/hr/kit-templates/:id/', async (req, res) => {
    await removeKitTemplate(ctx, templateId(req.params.id));
    res.status(204).end();
  });

  // The dashboard's overdue scorecards (every admin and recruiter, for now).
  router.get('/api/hr/scorecards/overdue/', async (_req, res) => {
    res.json({ results: await overdueList(ctx) });
  });

  router.get('/api/hr/jobs/:id/kits/', async (req, res) => {
    res.json(await jobKits(ctx, pathId(req.params.id, M.jobNotFound)));
  });
  router.put('/api/hr/jobs/:id/kits/:stageId/', async (req, res) => {
    const jobId = pathId(req.params.id, M.jobNotFound);
    const stageId = pathId(req.params.stageId, M.stageNotFound);
    res.json(await replaceStageKit(ctx, jobId, stageId, validate(stageKitSchema(), req.body, FIELD_ORDER), viewer(req)));
  });

  router.get('/api/hr/applications/:id/scorecards/choices/', async (req, res) => {
    res.json(await scorecardChoices(ctx, appId(req.params.id)));
  });
  router.get('/api/hr/applications/:id/scorecards/', async (req, res) => {
    res.json(await listScorecards(ctx, appId(req.params.id), viewer(req)));
  });
  router.post('/api/hr/applications/:id/scorecards/', async (req, res) => {
    const id = appId(req.params.id);
    res.status(201).json(await requestScorecard(ctx, id, validate(requestSchema(), req.body, FIELD_ORDER), viewer(req)));
  });
  router.get('/api/hr/applications/:id/scorecards/:scorecardId/', async (req, res) => {
    res.json(await getScorecard(ctx, appId(req.params.id), cardId(req.params.scorecardId), viewer(req)));
  });
  router.patch('/api/hr/applications/:id/scorecards/:scorecardId/', async (req, res) => {
    const [id, card] = [appId(req.params.id), cardId(req.params.scorecardId)];
    res.json(await saveDraft(ctx, id, card, validate(draftSchema(), req.body, FIELD_ORDER), viewer(req)));
  });
  router.post('/api/hr/applications/:id/scorecards/:scorecardId/submit/', async (req, res) => {
    res.json(await submitScorecard(ctx, appId(req.params.id), cardId(req.params.scorecardId), viewer(req)));
  });
  router.post('/api/hr/applications/:id/scorecards/:scorecardId/amendments/', async (req, res) => {
    const [id, card] = [appId(req.params.id), cardId(req.params.scorecardId)];
    res.status(201).json(await amendScorecard(ctx, id, card, validate(amendmentSchema(), req.body, FIELD_ORDER), viewer(req)));
  });

  router.get('/api/hr/applications/:id/debrief/', async (req, res) => {
    res.json(await debrief(ctx, appId(req.params.id), viewer(req)));
  });
  router.post('/api/hr/applications/:id/debrief/decisions/', async (req, res) => {
    const id = appId(req.params.id);
    res.status(201).json(await decide(ctx, id, validate(decisionSchema(), req.body, FIELD_ORDER), viewer(req)));
  });

  return router;
}

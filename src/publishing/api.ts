/**
 * The publishing API (issue 34), under /api/hr (app.ts guards it):
 * - `/api/hr/pay-rules/` (GET list; POST admins) and `{id}/` (GET; PUT, DELETE admins): the pay
 *   rules per location;
 * - `GET /api/hr/jobs/{id}/checks/`: the job's checklist, its override and its approval;
 * - `POST /api/hr/jobs/{id}/approve/` and `/reject/`: a decision on its approval, with a comment
 *   (JOB_APPROVAL=on; the job's hiring manager or an admin).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { requireAdmin } from '../users/index.js';
import { isCountryCode } from '../jobs/index.js';
import { decideJob, jobChecks, type Viewer } from './approvals.service.js';
import { createPayRule, payRule, payRules, removePayRule, replacePayRule } from './rules.service.js';
import { PUBLISHING_MESSAGES, RULE_ERROR_ORDER, payRuleSchema } from './schema.js';

export function publishingApi(ctx: AppContext): Router {
  const router = Router();
  const { db } = ctx;
  const ruleId = (raw: unknown) => pathId(raw, PUBLISHING_MESSAGES.notFound);
  const viewer = (req: { hr?: { userId: number; role: Viewer['role'] } }): Viewer => ({ userId: req.hr!.userId, role: req.hr!.role });
  const schema = payRuleSchema(isCountryCode);

  router.get('/api/hr/pay-rules/', async (_req, res) => {
    res.json({ results: await payRules(db) });
  });

  router.post('/api/hr/pay-rules/', requireAdmin, async (req, res) => {
    res.status(201).json(await createPayRule(db, validate(schema, req.body, RULE_ERROR_ORDER), req.hr!.userId, ctx.now()));
  });

  router.get('/api/hr/pay-rules/:id/', async (req, res) => {
    res.json(await payRule(db, ruleId(req.params.id)));
  });

  router.put('/api/hr/pay-rules/:id/', requireAdmin, async (req, res) => {
    const id = ruleId(req.params.id);
    res.json(await replacePayRule(db, id, validate(schema, req.body, RULE_ERROR_ORDER), req.hr!.userId, ctx.now()));
  });

  router.delete('/api/hr/pay-rules/:id/', requireAdmin, async (req, res) => {
    await removePayRule(db, ruleId(req.params.id), req.hr!.userId, ctx.now());
    res.status(204).end();
  });

  router.get('/api/hr/jobs/:id/checks/', async (req, res) => {
    res.json(await jobChecks(ctx, pathId(req.params.id), viewer(req)));
  });

  for (const [path, approve] of [
    ['/api/hr/jobs/:id/approve/', true],
    ['/api/hr/jobs/:id/reject/', false],
  ] as const) {
    router.post(path, async (req, res) => {
      res.json(await decideJob(ctx, pathId(req.params.id), approve, req.body ?? {}, viewer(req)));
    });
  }

  return router;
}

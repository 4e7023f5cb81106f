/**
 * The talent pools API (issue 35): pools (`/api/hr/pools/`), their members, an application's
 * pools, and a job's matches with "invite to apply". Admins and recruiters (the access gate's rules).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { POOL_MESSAGES, addMembersSchema, poolSchema } from './schema.js';
import {
  addApplicationsToPool,
  applicationPools,
  createPool,
  inviteToApply,
  jobMatches,
  leavePool,
  listPools,
  membersOf,
  removePool,
} from './service.js';

export function poolsApi(ctx: AppContext): Router {
  const router = Router();
  const poolId = (raw: unknown) => pathId(raw, POOL_MESSAGES.poolNotFound);

  router.get('/api/hr/pools/', async (_req, res) => {
    res.json({ results: await listPools(ctx.db, ctx.now()) });
  });

  router.post('/api/hr/pools/', async (req, res) => {
    const { name } = validate(poolSchema(), req.body);
    res.status(201).json(await createPool(ctx.db, name, req.hr!.userId, ctx.now()));
  });

  router.delete('/api/hr/pools/:id/', async (req, res) => {
    await removePool(ctx.db, poolId(req.params.id));
    res.status(204).end();
  });

  router.get('/api/hr/pools/:id/members/', async (req, res) => {
    res.json({ results: await membersOf(ctx.db, poolId(req.params.id), ctx.now()) });
  });

  router.post('/api/hr/pools/:id/members/', async (req, res) => {
    const id = poolId(req.params.id);
    const { application_ids, reason } = validate(addMembersSchema(), req.body);
    res.json(await addApplicationsToPool(ctx, id, application_ids, reason, req.hr!.userId));
  });

  router.delete('/api/hr/pools/:id/members/:personId/', async (req, res) => {
    await leavePool(ctx.db, poolId(req.params.id), pathId(req.params.personId, POOL_MESSAGES.memberNotFound));
    res.status(204).end();
  });

  router.get('/api/hr/applications/:id/pools/', async (req, res) => {
    res.json(await applicationPools(ctx.db, pathId(req.params.id, 'Application not found.'), ctx.now()));
  });

  router.get('/api/hr/jobs/:id/pool-matches/', async (req, res) => {
    res.json({ results: await jobMatches(ctx.db, pathId(req.params.id, 'Job not found.'), ctx.now()) });
  });

  router.post('/api/hr/jobs/:id/pool-matches/:personId/invite/', async (req, res) => {
    const jobId = pathId(req.params.id, 'Job not found.');
    res.json(await inviteToApply(ctx, jobId, pathId(req.params.personId, POOL_MESSAGES.notMatched), req.hr!.userId));
  });

  return router;
}

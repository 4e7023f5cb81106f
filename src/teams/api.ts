/**
 * The teams API (issue 31): a job's hiring team, `GET/PUT /api/hr/jobs/{id}/team/`, and the access
 * gate app.ts mounts once after the HR guards (and the body parser), which asks access.service.ts
 * whether the session's role may make the request and leaves the scope on `req.access` for the
 * routes that list, count or export (they hand it to their services).
 */
import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import type { AccessScope } from '../shared/access-scope.js';
import { checkRequest } from './access.service.js';
import { teamPutSchema } from './schema.js';
import { jobTeam, replaceTeam } from './service.js';

declare global {
  namespace Express {
    interface Request {
      /** What the signed-in HR user may see (set by the teams gate on every HR request). */
      access?: AccessScope;
    }
  }
}

export function teamsApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/jobs/:id/team/', async (req, res) => {
    res.json(await jobTeam(ctx.db, pathId(req.params.id, 'Job not found.')));
  });

  router.put('/api/hr/jobs/:id/team/', async (req, res) => {
    const id = pathId(req.params.id, 'Job not found.');
    const { members } = validate(teamPutSchema, req.body);
    res.json(await replaceTeam(ctx.db, id, members, req.hr!.userId, ctx.now()));
  });

  return router;
}

/** The access gate for `/api/hr` (page: false) or `/hr` (page: true); after the HR guards, which put the session on req.hr. */
export function accessGate(ctx: AppContext, page: boolean): RequestHandler {
  return async (req, _res, next) => {
    try {
      const session = req.hr!;
      req.access = await checkRequest(
        ctx.db,
        { userId: session.userId, role: session.role },
        req.method,
        req.baseUrl + req.path,
        page,
        req.body,
      );
      next();
    } catch (err) {
      next(err);
    }
  };
}

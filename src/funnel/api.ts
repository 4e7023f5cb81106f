/**
 * The funnel API: the wizard's beacons (`POST /api/jobs/{publicId}/funnel/`, public, what
 * navigator.sendBeacon sends) and a job's funnel for HR (`GET /api/hr/jobs/{id}/funnel/`, guarded
 * in app.ts). Two routers: the beacons are the site's most frequent calls, so app.ts mounts them
 * before the middleware and routers they do not need; the HR read goes behind the HR guard.
 */
import express, { Router, type RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { pathId, validate, validateQuery } from '../http/validate.js';
import { funnelDevice } from './lib/device.js';
import { FUNNEL_MESSAGES, beaconSchema, funnelQuerySchema } from './schema.js';
import { loadJobFunnel, recordBeacon } from './service.js';

/** A beacon of all ten events is under 400 bytes: a kilobyte is plenty. */
const BEACON_MAX_BYTES = 1024;

const tooLarge = () => new HttpError(413, 'Request body too large', { detail: FUNNEL_MESSAGES.tooLarge });

/**
 * A string given to sendBeacon goes as text/plain; a Blob goes with its own type (application/json
 * here). Anything else, or a declared length over the limit, is refused before the body is read.
 */
const beaconBodyCheck: RequestHandler = (req, _res, next) => {
  if (!req.is(['text/plain', 'application/json']))
    return next(new HttpError(415, 'Unsupported content type', { detail: FUNNEL_MESSAGES.contentType }));
  if (Number(req.headers['content-length'] ?? 0) > BEACON_MAX_BYTES) return next(tooLarge());
  next();
};

/** The beacon as a value: text/plain as read (up to the limit), application/json as parsed. */
function beaconBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    throw new HttpError(400, 'Bad beacon', { detail: FUNNEL_MESSAGES.body });
  }
}

export function funnelApi(ctx: AppContext): { beacons: Router; routes: Router } {
  const beacons = Router();
  const router = Router();
  const setting = ctx.config.rateLimits.funnel;
  const limiter = dbRateLimit(ctx, { name: 'funnel', setting, message: tooManyMessage('funnel reports', setting.windowSeconds) });
  const readText = express.text({ type: 'text/plain', limit: BEACON_MAX_BYTES });

  // A browser that sends DNT: 1 or Sec-GPC: 1 gets the same 204 and nothing is kept, not even its
  // rate-limit entry.
  const skipRefused: RequestHandler = (req, res, next) => {
    res.locals.funnelDevice = funnelDevice(req.headers);
    if (res.locals.funnelDevice) next();
    else res.status(204).end();
  };

  beacons.post(
    '/api/jobs/:publicId/funnel/',
    skipRefused,
    limiter,
    beaconBodyCheck,
    express.json({ limit: BEACON_MAX_BYTES }),
    readText,
    async (req, res) => {
      const beacon = validate(beaconSchema, beaconBody(req.body));
      await recordBeacon(ctx, String(req.params.publicId), beacon, res.locals.funnelDevice);
      res.status(204).end();
    },
  );

  router.get('/api/hr/jobs/:id/funnel/', async (req, res) => {
    const id = pathId(req.params.id);
    const { days } = validateQuery(req, funnelQuerySchema, ['days']);
    res.json(await loadJobFunnel(ctx, id, days));
  });

  return { beacons, routes: router };
}

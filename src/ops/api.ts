/**
 * /healthz, /readyz and /metrics. Mounted before everything expensive (sessions, rate limits, body
 * parsing). Their answers say nothing about the system: no error text, no versions.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../context.js';
import { authorizationBearer } from '../http/credentials.js';
import { Metrics } from './lib/metrics.js';

/** Compares as SHA-256 digests: equal lengths for timingSafeEqual, and no timing hint of the token's length. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function plain(res: Response, status: number, body: string): void {
  res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(body);
}

/**
 * `track` runs for every request the app gets, first (app.ts mounts it before anything that may
 * answer); `timeKept` times the public pages answered from memory before the app
 * (src/http/kept-pages.ts) the same way; `routes` are the probes and /metrics.
 */
export function opsRoutes(ctx: AppContext): {
  track: RequestHandler;
  routes: Router;
  timeKept: (req: IncomingMessage, res: ServerResponse, route: string) => void;
} {
  const router = Router();
  const { readiness } = ctx;
  const token = ctx.config.metricsToken;
  const metrics = token ? new Metrics(ctx.db, ctx.now, ctx.log) : null;

  const track: RequestHandler = (req, res, next) => {
    metrics?.track(req, res);
    // A stopping process asks clients not to reuse the connection, so it can close soon.
    if (readiness.isStopping) res.setHeader('Connection', 'close');
    next();
  };

  // The process is up and answers HTTP; nothing else is checked (a restart would not fix the database).
  router.get('/healthz', (_req, res) => plain(res, 200, 'ok'));

  router.get('/readyz', async (_req, res) => {
    const ready = await readiness.ready();
    plain(res, ready ? 200 : 503, ready ? 'ready' : 'not ready');
  });

  // Without METRICS_TOKEN there is no route: /metrics is the app's ordinary 404.
  if (metrics && token) {
    router.get('/metrics', async (req: Request, res: Response) => {
      const given = authorizationBearer(req);
      if (!given || !sameToken(given, token)) {
        res.set('WWW-Authenticate', 'Bearer realm="metrics"');
        return plain(res, 401, 'Unauthorized');
      }
      const body = await metrics.render();
      res.status(200).set('Cache-Control', 'no-store').type(metrics.contentType).send(body);
    });
  }
  // Answers made before the app (kept public pages, src/http/kept-pages.ts) are timed here too, under their route.
  const timeKept = (req: IncomingMessage, res: ServerResponse, route: string) => metrics?.timeAs(req, res, () => route);
  return { track, routes: router, timeKept };
}

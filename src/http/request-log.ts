/**
 * One log line per request: method, route pattern, status, milliseconds, bytes written to the
 * connection (headers and body) and the
 * request id, which is echoed as `X-Request-Id`. The path is logged only as the route that
 * matched (`/api/hr/applications/:id/`), never with its values or query: HR searches carry names,
 * emails and phones. An incoming `X-Request-Id` is kept only from a trusted proxy (TRUST_PROXY)
 * and only when short and printable; any other gets a fresh id.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log/logger.js';

const INCOMING_ID = /^[A-Za-z0-9._:@/+=-]{1,64}$/;

/** The route that answered, as written in the router (`/api/hr/jobs/:id/`); static files are `static`, the rest no route took `unmatched`. The log's and the metrics' label. */
export function routePattern(req: Request): string {
  const kept = req.res?.locals.keptRoute; // a page answered from memory names the route that made it
  if (typeof kept === 'string') return kept;
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return /^\/(?:assets|og)\//.test(req.originalUrl) ? 'static' : 'unmatched';
}

function requestId(req: Request): string {
  const incoming = req.get('x-request-id');
  const trusted = (req.app.get('trust proxy fn') as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);
  return trusted && incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const socket = req.socket;
    const writtenBefore = socket.bytesWritten;
    const id = requestId(req);
    res.setHeader('X-Request-Id', id);
    res.locals.requestId = id;
    // 'close' comes after 'finish' too: one listener sees both ends, a whole answer or an aborted one.
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        reqId: id,
        method: req.method,
        route: routePattern(req),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        bytes: socket.bytesWritten - writtenBefore,
      };
      if (aborted) log.warn(line, 'request aborted');
      else log.info(line, 'request');
    });
    next();
  };
}

/**
 * One log line per request: method, route pattern, status, milliseconds, bytes written to the
 * connection (headers and body) and the
 * request id, which is echoed as `X-Request-Id`. The path is logged only as the route that
 * matched (`/api/hr/applications/:id/`), never with its values or query: HR searches carry names,
 * emails and phones. An incoming `X-Request-Id` is kept only from a trusted proxy (TRUST_PROXY)
 * and only when short and printable; any other gets a fresh id.
 *
 * The app logs through `requestLog`; the kept public pages, answered before the app
 * (src/http/kept-pages.ts), through `logRequest`, the same line. A request the kept pages held
 * for a moment before handing it to the app (a version read) is timed from its arrival (`arrived`).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log/logger.js';

const INCOMING_ID = /^[A-Za-z0-9._:@/+=-]{1,64}$/;

/** Express's compiled TRUST_PROXY test (`app.get('trust proxy fn')`): is the hop at `i` a trusted proxy. */
export type TrustProxyFn = (addr: string | undefined, i: number) => boolean;

/** The route that answered, as written in the router (`/api/hr/jobs/:id/`); static files are `static`, the rest no route took `unmatched`. The log's and the metrics' label. */
export function routePattern(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return /^\/(?:assets|og)\//.test(req.originalUrl) ? 'static' : 'unmatched';
}

/** The request's id: the trusted proxy's when it gave a short printable one, else a fresh one. */
export function requestId(req: IncomingMessage, trusted: TrustProxyFn): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) && trusted(req.socket.remoteAddress, 0) ? incoming : randomUUID();
}

/** When a request came and what its connection had written by then. */
interface Arrival {
  started: bigint;
  writtenBefore: number;
}

const arrivals = new WeakMap<IncomingMessage, Arrival>();

function arrival(req: IncomingMessage): Arrival {
  return { started: process.hrtime.bigint(), writtenBefore: req.socket.bytesWritten };
}

/** Notes that the request came now, for a request handed to the app later (its line and metrics count from here). */
export function markArrival(req: IncomingMessage): void {
  arrivals.set(req, arrival(req));
}

/** When the request came: as marked, or now. */
export function arrivedAt(req: IncomingMessage): bigint {
  return arrivals.get(req)?.started ?? process.hrtime.bigint();
}

/** Writes the request's line when its answer ends (or is cut), under the route `route()` names then. */
export function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse, id: string, route: () => string): void {
  const { started, writtenBefore } = arrivals.get(req) ?? arrival(req);
  const socket = req.socket;
  // 'close' comes after 'finish' too: one listener sees both ends, a whole answer or an aborted one.
  res.once('close', () => {
    const aborted = !res.writableFinished;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = {
      reqId: id,
      method: req.method,
      route: route(),
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      bytes: socket.bytesWritten - writtenBefore,
    };
    if (aborted) log.warn(line, 'request aborted');
    else log.info(line, 'request');
  });
}

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const id = requestId(req, req.app.get('trust proxy fn') as TrustProxyFn);
    res.setHeader('X-Request-Id', id);
    res.locals.requestId = id;
    logRequest(log, req, res, id, () => routePattern(req));
    next();
  };
}

/**
 * The one place errors become responses: JSON `{detail}` / field errors under /api, HTML pages
 * elsewhere. Unknown errors are logged with their stack and answered without one. A database
 * that cannot be reached is answered 503 with Retry-After and logged as one line, at most one a
 * second (src/db/errors.ts). A file storage that cannot be reached (an S3 bucket) is a 503 too.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable, logDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../log/logger.js';
import { renderPage } from '../render/page.js';
import { HttpError, NotFound, ServiceUnavailable, TooManyRequests } from './errors.js';
import { StorageUnavailable } from '../storage/storage.js';
import { routePattern } from './request-log.js';

function isApi(req: Request): boolean {
  return req.path === '/api' || req.path.startsWith('/api/');
}

/** A client error status (4xx) carried by an error from middleware (http-errors style), else null. */
function clientStatus(err: any): number | null {
  const status = Number(err?.status ?? err?.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 500 ? status : null;
}

/**
 * Errors raised by body parsers, the router and other middleware, mapped to what a client can act
 * on. Any error carrying a 4xx `status`/`statusCode` is the client's fault: it is answered with
 * that status and a fixed, generic message (never the error's own text, which may name internals),
 * and it is not logged as a failure.
 */
function fromMiddleware(err: any, req: Request): HttpError | null {
  if (err?.type === 'entity.parse.failed')
    return new HttpError(400, 'JSON parse error', { detail: 'JSON parse error: the request body is not valid JSON.' });
  if (err?.type === 'entity.too.large') return new HttpError(413, 'Request body too large', { detail: 'Request body too large.' });
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported')
    return new HttpError(415, 'Unsupported encoding', { detail: 'Unsupported content encoding.' });
  if (err?.type === 'parameters.too.many') return new HttpError(413, 'Too many parameters', { detail: 'Too many parameters.' });
  const status = clientStatus(err);
  if (status === null) return null;
  // A path parameter that is not valid percent-encoding (`/careers/%`, `/api/jobs/%E0%A4%A/`):
  // the router throws a URIError with status 400. No resource has such a name, so it is a 404,
  // like any other unknown id.
  if (err instanceof URIError || status === 404) return new NotFound(isApi(req) ? 'Not found.' : 'Page not found');
  const text = STATUS_CODES[status] ?? 'Bad Request';
  return new HttpError(status, text, { detail: `${text}.` });
}

export const UNAVAILABLE_MESSAGES = {
  detail: 'The service is temporarily unavailable. Please try again in a few seconds.',
  title: 'Service Temporarily Unavailable',
  page: 'This page cannot be shown right now. Please try again in a few moments.',
} as const;

/** The database is down, busy or out of connections: 503 for the client, one throttled line for the log. */
function fromDatabase(err: unknown, req: Request): ServiceUnavailable | null {
  if (!isDatabaseUnavailable(err)) return null;
  logDatabaseUnavailable(`${req.method} ${routePattern(req)}`, err);
  return new ServiceUnavailable(UNAVAILABLE_MESSAGES.detail, DB_RETRY_AFTER_SECONDS);
}

/** Seconds a client is asked to wait when the file storage does not answer. */
const STORAGE_RETRY_AFTER_SECONDS = 30;

/** The file storage does not answer (an upload or download failed on it): 503, and the cause logged. */
function fromStorage(err: unknown, req: Request, res: Response, log: Logger): ServiceUnavailable | null {
  if (!(err instanceof StorageUnavailable)) return null;
  log.error(failure(req, res, err), 'the file storage cannot be reached');
  return new ServiceUnavailable('The file storage cannot be reached just now. Please try again in a moment.', STORAGE_RETRY_AFTER_SECONDS);
}

const LOG_TEXT_MAX = 2000;
const clip = (v: unknown) =>
  typeof v === 'string' && v.length > LOG_TEXT_MAX ? `${v.slice(0, LOG_TEXT_MAX)}… [${v.length - LOG_TEXT_MAX} more characters]` : v;

/**
 * A driver text without the values it quotes: Knex writes the statement with its bound values
 * into `message` and `sql`, and MySQL's own messages quote them ("Duplicate entry 'asha@…'"), so
 * every quoted literal becomes '?' (one cut short by the length limit too). Numbers (ids, sizes) stay.
 */
const withoutValues = (v: unknown) => (typeof v === 'string' ? v.replace(/'(?:[^'\\]|\\.|'')*(?:'|$)/g, "'?'") : v);

/**
 * An error as it is logged: database drivers put the whole statement with its values in the
 * message and in `sql` (a 70 KB question text, say), so long texts are cut; the stack frames stay.
 */
export function loggable(err: unknown): unknown {
  if (!(err instanceof Error)) return clip(err);
  const e = err as Error & Record<string, unknown>;
  const out = Object.assign(new Error(String(clip(withoutValues(e.message)))), { name: e.name }) as Error & Record<string, unknown>;
  const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  out.stack = [`${e.name}: ${out.message}`, ...frames].join('\n');
  for (const k of ['code', 'errno', 'sqlState', 'sqlMessage', 'sql']) if (k in e) out[k] = clip(withoutValues(e[k]));
  return out;
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFound(isApi(req) ? 'Not found.' : 'Page not found'));
};

/** Where a failure is logged: the request's id and route, never its URL (a query may hold a name or an email). */
const failure = (req: Request, res: Response, err: unknown) => ({
  err: loggable(err),
  reqId: res.locals.requestId,
  method: req.method,
  route: routePattern(req),
});

export const errorHandler =
  (log: Logger): ErrorRequestHandler =>
  (err, req, res, _next) => {
    const known = err instanceof HttpError ? err : (fromMiddleware(err, req) ?? fromDatabase(err, req) ?? fromStorage(err, req, res, log));
    if (!known) log.error(failure(req, res, err), 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const status = known?.status ?? 500;
    if ((known instanceof TooManyRequests || known instanceof ServiceUnavailable) && known.retryAfterSeconds)
      res.set('Retry-After', String(known.retryAfterSeconds));
    if (isApi(req)) {
      res.status(status).json(known?.body ?? { detail: 'A server error occurred.' });
      return;
    }
    if (status === 404) {
      renderPage(req, res, 'pages/not-found', { title: '404 — Page Not Found', noindex: true, status: 404 });
      return;
    }
    if (status === 403) {
      renderPage(
        req,
        res,
        'pages/forbidden',
        { title: '403 — Access Denied', noindex: true, status: 403 },
        { message: known?.message ?? null },
      );
      return;
    }
    if (known instanceof ServiceUnavailable) {
      renderPage(
        req,
        res,
        'pages/error',
        { title: UNAVAILABLE_MESSAGES.title, noindex: true, status },
        { message: UNAVAILABLE_MESSAGES.page },
      );
      return;
    }
    if (known && status < 500) {
      renderPage(req, res, 'pages/error', { title: 'Request could not be completed', noindex: true, status }, { message: known.message });
      return;
    }
    renderPage(req, res, 'pages/error', { title: 'Unexpected Application Error!', noindex: true, status: 500 }, { message: null });
  };

/** Last resort if rendering the error page itself failed: plain text, still no stack. */
export const lastResortHandler =
  (log: Logger): ErrorRequestHandler =>
  (err, req, res, _next) => {
    log.error(failure(req, res, err), 'rendering the error page failed');
    if (res.headersSent) return void res.destroy();
    res.status(500).type('text/plain').send('Unexpected Application Error!');
  };

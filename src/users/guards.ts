/**
 * Guards for the HR area (DESIGN.md section 3):
 * - `requireHrApi`: every /api/hr route needs a valid token, from `Authorization: Bearer` or the
 *   `jwt` cookie; POST/PUT/PATCH/DELETE need the Bearer header (a cookie alone is refused, so no
 *   CSRF token is needed). Answers 401 {detail} with `WWW-Authenticate: Bearer`.
 * - `requireHrPage`: /hr pages need a valid token in the `jwt` cookie, else a redirect to
 *   /hrviewlogin?next=<the page asked for>.
 * Both put the session on `req.hr`. app.ts mounts each once, in front of every feature router
 * (`app.use('/api/hr', ...)`, `app.use('/hr', ...)`), so every HR route is guarded and an unknown
 * path under the HR area answers 401 / redirect like a known one.
 * - `requireAdmin`: after one of those, lets only admins on (users and settings): a recruiter gets
 *   403, `{detail}` under /api and the 403 page elsewhere. Mount it on an admin area's prefixes
 *   (app.ts does for ADMIN_API_PATHS and ADMIN_PAGE_PATHS) or put it in front of one route:
 *   `router.put('/api/hr/email-templates/:id/', requireAdmin, handler)`.
 */
import type { RequestHandler, Response } from 'express';
import type { Config } from '../../config/index.js';
import type { AppContext } from '../context.js';
import { TOKEN_COOKIE, authorizationBearer, tokenCookie } from '../http/credentials.js';
import { Forbidden, Unauthorized } from '../http/errors.js';
import { findSession, type HrSession } from './service.js';

declare global {
  namespace Express {
    interface Request {
      hr?: HrSession;
    }
  }
}

/** The login page; the start-up log and `careers-admin user create` print its full URL. */
export const LOGIN_PATH = '/hrviewlogin';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const NO_CREDENTIALS = 'Authentication credentials were not provided.';
export const BAD_TOKEN = 'Invalid or expired token.';
const BEARER_REQUIRED = 'This request must send the token in the Authorization: Bearer header.';

function unauthorized(res: Response, detail: string): Unauthorized {
  res.setHeader('WWW-Authenticate', 'Bearer realm="hr"');
  return new Unauthorized(detail);
}

export function requireHrApi(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const bearer = authorizationBearer(req);
    if (bearer === null) return next(unauthorized(res, BAD_TOKEN));
    if (bearer === undefined && !SAFE_METHODS.has(req.method)) {
      return next(unauthorized(res, tokenCookie(req)?.token ? BEARER_REQUIRED : NO_CREDENTIALS));
    }
    const token = bearer ?? tokenCookie(req)?.token;
    if (!token) return next(unauthorized(res, NO_CREDENTIALS));
    const session = await findSession(ctx.db, token, ctx.now());
    if (!session) return next(unauthorized(res, BAD_TOKEN));
    req.hr = session;
    next();
  };
}

/**
 * Admin-only areas, mounted in app.ts: the Users page and its API, and the settings (`/hr/settings/`,
 * the email templates and their API); others add their prefixes here, or put requireAdmin in
 * front of single routes.
 */
export const ADMIN_API_PATHS = ['/api/hr/users', '/api/hr/email-templates'];
export const ADMIN_PAGE_PATHS = ['/hr/users', '/hr/settings'];

export const ADMIN_ONLY = {
  api: 'You do not have permission to perform this action. Only admins can.',
  page: 'Only admins can open this page. Ask an admin of your team if you need it.',
} as const;

/**
 * Only admins go on; deny by default: no session on the request (a route mounted without the HR
 * guards in front) is 401, any other role is 403.
 */
export const requireAdmin: RequestHandler = (req, res, next) => {
  if (!req.hr) return next(unauthorized(res, NO_CREDENTIALS));
  if (req.hr.role !== 'admin') return next(new Forbidden(req.originalUrl.toLowerCase().startsWith('/api/') ? ADMIN_ONLY.api : ADMIN_ONLY.page));
  next();
};

/** The login page's full address, for people reading a log or a terminal. */
export function signInUrl(config: Pick<Config, 'publicBaseUrl'>): string {
  return config.publicBaseUrl + LOGIN_PATH;
}

function loginRedirect(originalUrl: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(originalUrl)}`;
}

export function requireHrPage(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    // Signed-in pages must never be kept by a browser or proxy cache.
    res.setHeader('Cache-Control', 'no-store');
    const cookie = tokenCookie(req);
    const session = cookie?.token ? await findSession(ctx.db, cookie.token, ctx.now()) : null;
    if (!session) {
      // A stale cookie would otherwise make the header show Logout on the login page's way back.
      if (cookie) res.clearCookie(TOKEN_COOKIE, { path: '/' });
      return res.redirect(302, loginRedirect(req.originalUrl));
    }
    req.hr = session;
    // The header shows admin-only items (Users) from this.
    res.locals.hrRole = session.role;
    next();
  };
}

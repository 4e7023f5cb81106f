/**
 * Guards for the HR area (DESIGN.md section 3):
 * - `requireHrApi`: every /api/hr route needs a valid token, from `Authorization: Bearer` or the
 *   `jwt` cookie; POST/PUT/PATCH/DELETE need the Bearer header (a cookie alone is refused, so no
 *   CSRF token is needed). Answers 401 {detail} with `WWW-Authenticate: Bearer`.
 * - `requireHrPage`: /hr pages need a valid token in the `jwt` cookie, else a redirect to
 *   /hrviewlogin?next=<the page asked for>.
 * Both renew the session (sliding sessions, service.ts renewSession) and put it on `req.hr`; every
 * answer they let through says how long the session has left, for the page's "Stay signed in"
 * offer: `X-Session-Expires-In` (seconds until it ends without further activity) and
 * `X-Session-Limit-In` (seconds until its absolute limit, SESSION_MAX_HOURS after sign-in). When
 * the expiry moved and the request came with the same token in the `jwt` cookie, the cookie is
 * sent again with the new Max-Age, so cookie and session end together. app.ts mounts each once, in front of every feature router
 * (`app.use('/api/hr', ...)`, `app.use('/hr', ...)`), so every HR route is guarded and an unknown
 * path under the HR area answers 401 / redirect like a known one.
 * - `requireAdmin`: after one of those, lets only admins on (users and settings): a recruiter gets
 *   403, `{detail}` under /api and the 403 page elsewhere. Mount it on an admin area's prefixes
 *   (app.ts does for ADMIN_API_PATHS and ADMIN_PAGE_PATHS) or put it in front of one route:
 *   `router.put('/api/hr/email-templates/:id/', requireAdmin, handler)`.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../context.js';
import { TOKEN_COOKIE, authorizationBearer, tokenCookie } from '../../http/credentials.js';
import { Forbidden, Unauthorized } from '../../http/errors.js';
import { LOGIN_PATH, sessionTimes, renewSession, type UsedSession } from '../service.js';

declare global {
  namespace Express {
    interface Request {
      hr?: UsedSession;
    }
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const NO_CREDENTIALS = 'Authentication credentials were not provided.';
export const BAD_TOKEN = 'Invalid or expired token.';
const BEARER_REQUIRED = 'This request must send the token in the Authorization: Bearer header.';

function unauthorized(res: Response, detail: string): Unauthorized {
  res.setHeader('WWW-Authenticate', 'Bearer realm="hr"');
  return new Unauthorized(detail);
}

/** Whole seconds from `now` until `at` (0 once past). */
export function secondsUntil(at: Date, now: Date): number {
  return Math.max(0, Math.floor((at.getTime() - now.getTime()) / 1000));
}

/** The session headers, and the jwt cookie again when the expiry moved (see above). */
function announceSession(req: Request, res: Response, session: UsedSession, token: string, now: Date): void {
  const expiresIn = secondsUntil(session.expiresAt, now);
  res.setHeader('X-Session-Expires-In', String(expiresIn));
  res.setHeader('X-Session-Limit-In', String(secondsUntil(session.limitAt, now)));
  if (session.renewed && tokenCookie(req)?.token === token) {
    // As the login page sets it (spec 01 section 9): path /, SameSite Lax, Secure on https; readable by the page's script.
    res.cookie(TOKEN_COOKIE, token, { maxAge: expiresIn * 1000, path: '/', sameSite: 'lax', secure: req.secure, httpOnly: false });
  }
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
    const now = ctx.now();
    const session = await renewSession(ctx.db, token, now, sessionTimes(ctx.config));
    if (!session) return next(unauthorized(res, BAD_TOKEN));
    req.hr = session;
    announceSession(req, res, session, token, now);
    next();
  };
}

/**
 * Admin-only areas, mounted in app.ts: the Users page and its API, and the email settings (`/hr/settings/email-templates`,
 * the email templates and their API); others add their prefixes here, or put requireAdmin in
 * front of single routes.
 */
export const ADMIN_API_PATHS = ['/api/hr/users', '/api/hr/email-templates', '/api/hr/settings/site'];
export const ADMIN_PAGE_PATHS = [
  '/hr/users',
  '/hr/settings/email-templates',
  '/hr/settings/pay-rules',
  '/hr/settings/site',
  '/hr/settings/status-texts',
  '/hr/settings/import',
];

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
  if (req.hr.role !== 'admin')
    return next(new Forbidden(req.originalUrl.toLowerCase().startsWith('/api/') ? ADMIN_ONLY.api : ADMIN_ONLY.page));
  next();
};

function loginRedirect(originalUrl: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(originalUrl)}`;
}

export function requireHrPage(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    // Signed-in pages must never be kept by a browser or proxy cache.
    res.setHeader('Cache-Control', 'no-store');
    const cookie = tokenCookie(req);
    const now = ctx.now();
    const session = cookie?.token ? await renewSession(ctx.db, cookie.token, now, sessionTimes(ctx.config)) : null;
    if (!session) {
      // A stale cookie would otherwise make the header show Logout on the login page's way back.
      if (cookie) res.clearCookie(TOKEN_COOKIE, { path: '/' });
      return res.redirect(302, loginRedirect(req.originalUrl));
    }
    req.hr = session;
    announceSession(req, res, session, cookie!.token!, now);
    // The header shows admin-only items (Users) from this.
    res.locals.hrRole = session.role;
    // The layout hands these to the page's session watcher (the "Stay signed in" offer).
    res.locals.hrSession = {
      user: session.userId,
      expiresIn: secondsUntil(session.expiresAt, now),
      limitIn: secondsUntil(session.limitAt, now),
      idleMinutes: ctx.config.sessionIdleMinutes,
      maxHours: ctx.config.sessionMaxHours,
    };
    next();
  };
}

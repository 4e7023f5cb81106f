/**
 * Guards for the HR area (DESIGN.md section 3):
 * - `requireHrApi`: every /api/hr route needs a valid token, from `Authorization: Bearer` or the
 *   `jwt` cookie; POST/PUT/PATCH/DELETE need the Bearer header (a cookie alone is refused, so no
 *   CSRF token is needed). Answers 401 {detail} with `WWW-Authenticate: Bearer`.
 * - `requireHrPage`: /hr pages need a valid token in the `jwt` cookie, else a redirect to
 *   /hrviewlogin?next=<the page asked for>.
 * Both put the session on `req.hr`. app.ts mounts both in front of every feature router
 * (`app.use('/api/hr', ...)`, `app.use('/hr', ...)`), so an unknown path under the HR area answers
 * 401 / redirect like a known one; routers that repeat the guard cost no second lookup.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../config/index.js';
import type { AppContext } from '../context.js';
import { Unauthorized } from '../http/errors.js';
import { findSession, type HrSession } from './sessions.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      hr?: HrSession;
    }
  }
}

export const TOKEN_COOKIE = 'jwt';
/** The login page; the start-up log and `careers-admin user create` print its full URL. */
export const LOGIN_PATH = '/hrviewlogin';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const NO_CREDENTIALS = 'Authentication credentials were not provided.';
export const BAD_TOKEN = 'Invalid or expired token.';
export const BEARER_REQUIRED = 'This request must send the token in the Authorization: Bearer header.';

/**
 * The Authorization header read strictly: `undefined` when absent, `null` when present but not
 * `Bearer <token>` (a malformed header is refused rather than silently ignored), else the token.
 */
export function authorizationBearer(req: Request): string | null | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

export interface TokenCookie {
  /** The value as sent, still percent-encoded; may be ''. */
  raw: string;
  /** The decoded token, or null when the value is empty or not valid percent-encoding. */
  token: string | null;
}

/**
 * The one reader of the `jwt` cookie (guards, the login page, the page header): undefined when the
 * request has none, else the cookie, readable or not (so a broken one can still be cleared).
 */
export function tokenCookie(req: Request): TokenCookie | undefined {
  const m = /(?:^|;\s*)jwt=([^;]*)/.exec(req.headers.cookie ?? '');
  if (!m) return undefined;
  let token: string | null;
  try {
    token = decodeURIComponent(m[1].trim()) || null;
  } catch {
    token = null;
  }
  return { raw: m[1], token };
}

function unauthorized(res: Response, detail: string): Unauthorized {
  res.setHeader('WWW-Authenticate', 'Bearer realm="hr"');
  return new Unauthorized(detail);
}

// Requests a guard has already let through (the catch-all in app.ts plus a router's own guard).
const apiPassed = new WeakSet<Request>();
const pagePassed = new WeakSet<Request>();

export function requireHrApi(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    if (apiPassed.has(req) && req.hr) return next();
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
    apiPassed.add(req);
    next();
  };
}

/** The login page's full address, for people reading a log or a terminal. */
export function signInUrl(config: Pick<Config, 'publicBaseUrl'>): string {
  return config.publicBaseUrl + LOGIN_PATH;
}

export function loginRedirect(originalUrl: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(originalUrl)}`;
}

export function requireHrPage(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    // Signed-in pages must never be kept by a browser or proxy cache.
    res.setHeader('Cache-Control', 'no-store');
    if (pagePassed.has(req) && req.hr) return next();
    const cookie = tokenCookie(req);
    const session = cookie?.token ? await findSession(ctx.db, cookie.token, ctx.now()) : null;
    if (!session) {
      // A stale cookie would otherwise make the header show Logout on the login page's way back.
      if (cookie) res.clearCookie(TOKEN_COOKIE, { path: '/' });
      return res.redirect(302, loginRedirect(req.originalUrl));
    }
    req.hr = session;
    pagePassed.add(req);
    next();
  };
}

/**
 * Guards for the HR area (DESIGN.md section 3):
 * - `requireHrApi`: every /api/hr route needs a valid token, from `Authorization: Bearer` or the
 *   `jwt` cookie; POST/PUT/PATCH/DELETE need the Bearer header (a cookie alone is refused, so no
 *   CSRF token is needed). Answers 401 {detail}.
 * - `requireHrPage`: /hr pages need a valid token in the `jwt` cookie, else a redirect to
 *   /hrviewlogin?next=<the page asked for>.
 * Both put the session on `req.hr`.
 */
import type { Request, RequestHandler } from 'express';
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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearerToken(req: Request): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

export function cookieToken(req: Request): string | null {
  const m = /(?:^|;\s*)jwt=([^;]*)/.exec(req.headers.cookie ?? '');
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]) || null;
  } catch {
    return null;
  }
}

export function requireHrApi(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const bearer = bearerToken(req);
    if (!bearer && !SAFE_METHODS.has(req.method)) {
      return next(new Unauthorized('Authentication credentials were not provided.'));
    }
    const token = bearer ?? cookieToken(req);
    if (!token) return next(new Unauthorized('Authentication credentials were not provided.'));
    const session = await findSession(ctx.db, token, ctx.now());
    if (!session) return next(new Unauthorized('Invalid or expired token.'));
    req.hr = session;
    next();
  };
}

export function loginRedirect(originalUrl: string): string {
  return `/hrviewlogin?next=${encodeURIComponent(originalUrl)}`;
}

export function requireHrPage(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const token = cookieToken(req);
    const session = token ? await findSession(ctx.db, token, ctx.now()) : null;
    if (!session) {
      res.setHeader('Cache-Control', 'no-store');
      // A stale cookie would otherwise bounce between this guard and the login page.
      if (token) res.clearCookie('jwt', { path: '/' });
      return res.redirect(302, loginRedirect(req.originalUrl));
    }
    req.hr = session;
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

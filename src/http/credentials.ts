/** Where an HR token travels in a request: the `Authorization: Bearer` header or the `jwt` cookie. */
import type { Request } from 'express';

export const TOKEN_COOKIE = 'jwt';

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

/**
 * Company sign-in's routes (issue 30; the flow is in oidc.ts), mounted only when OIDC_* is set:
 * - GET /hrviewlogin/oidc?next=...   the button's link: sets the flow cookie, 303 to the provider
 * - GET /hrviewlogin/oidc/callback   the redirect URI (PUBLIC_BASE_URL + this, registered at the
 *   provider); the answer comes as query parameters (code, state, or error). On success: a session
 *   like a password sign-in's, its token in the `jwt` cookie, then the hand-off page; on failure:
 *   /hrviewlogin?oidc_error=<code>&next=... which says what went wrong (never a 500).
 * - GET /hrviewlogin/oidc/done?next=...  the hand-off: the hr-login island copies the token to
 *   localStorage as the login form does (spec 01 'Session': both places), then goes to `next`.
 * `oidcLoginLocals` is what the login page shows of it: the button, the OIDC_ONLY note, the error.
 */
import { Router, type Request } from 'express';
import type { Config } from '../../config/index.js';
import type { AppContext } from '../context.js';
import { TOKEN_COOKIE, tokenCookie } from '../http/credentials.js';
import { renderPage } from '../render/page.js';
import { landingPath } from '../shared/next-path.js';
import {
  OIDC_CALLBACK_PATH,
  OIDC_DONE_PATH,
  OIDC_ERROR_MESSAGES,
  OIDC_ERRORS,
  OIDC_FLOW_COOKIE,
  OIDC_FLOW_TTL_SECONDS,
  OIDC_START_PATH,
  OidcFailure,
  OidcSignIn,
  type OidcErrorCode,
} from './lib/oidc.js';
import { LOGIN_PATH, firstLifetimeSeconds, renewSession, sessionTimes, startSession } from './service.js';

/** The login page's own address with a failure's code and the page to return to. */
function loginWithError(code: OidcErrorCode, next: string | null): string {
  const q = new URLSearchParams({ oidc_error: code });
  if (next) q.set('next', next);
  return `${LOGIN_PATH}?${q}`;
}

function flowCookie(req: Request): string | undefined {
  return new RegExp(`(?:^|;\\s*)${OIDC_FLOW_COOKIE}=([^;]*)`).exec(req.headers.cookie ?? '')?.[1];
}

export interface OidcLoginLocals {
  /** The button: null when company sign-in is off. */
  oidc: { href: string; providerName: string; only: boolean } | null;
  /** Why the last company sign-in failed, in words; null: none. */
  oidcError: string | null;
}

/** What the login page shows of company sign-in for a request's `oidc_error` and its `next`. */
export function oidcLoginLocals(config: Pick<Config, 'oidc'>, query: Request['query'], next: string): OidcLoginLocals {
  const setting = config.oidc;
  if (!setting) return { oidc: null, oidcError: null };
  const code = query.oidc_error;
  const known = typeof code === 'string' && (OIDC_ERRORS as readonly string[]).includes(code);
  return {
    oidc: { href: `${OIDC_START_PATH}?next=${encodeURIComponent(next)}`, providerName: setting.providerName, only: setting.only },
    oidcError: known ? OIDC_ERROR_MESSAGES[code as OidcErrorCode](setting.providerName) : null,
  };
}

export function oidcPages(ctx: AppContext): Router {
  const router = Router();
  const { config, db } = ctx;
  if (!config.oidc) return router;
  const signIn = new OidcSignIn({
    db,
    setting: config.oidc,
    publicBaseUrl: config.publicBaseUrl,
    serverKey: ctx.serverKey,
    log: ctx.log,
    now: ctx.now,
  });
  const secure = config.publicBaseUrl.startsWith('https:');
  const flowCookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure, path: OIDC_START_PATH };

  router.get(OIDC_START_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const { url, cookie } = await signIn.start(req.query.next);
      res.cookie(OIDC_FLOW_COOKIE, cookie, { ...flowCookieOptions, maxAge: OIDC_FLOW_TTL_SECONDS * 1000, encode: String });
      res.redirect(303, url);
    } catch (err) {
      if (!(err instanceof OidcFailure)) throw err;
      res.redirect(303, loginWithError(err.code, err.next));
    }
  });

  router.get(OIDC_CALLBACK_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // The code is in the address: never sent on to another site.
    res.setHeader('Referrer-Policy', 'no-referrer');
    const cookie = flowCookie(req);
    // Single use: whatever happens next, this flow is over.
    res.clearCookie(OIDC_FLOW_COOKIE, flowCookieOptions);
    const at = req.originalUrl.indexOf('?');
    try {
      const { userId, next } = await signIn.finish(at < 0 ? '' : req.originalUrl.slice(at), cookie);
      const token = await startSession(db, userId, sessionTimes(config), ctx.now(), { ip: req.ip, userAgent: req.get('user-agent') });
      // As the login form sets it (islands/components/session.ts): readable by the page, which copies it to localStorage.
      res.cookie(TOKEN_COOKIE, token, { path: '/', sameSite: 'lax', secure, maxAge: firstLifetimeSeconds(sessionTimes(config)) * 1000 });
      res.redirect(303, `${OIDC_DONE_PATH}?next=${encodeURIComponent(next)}`);
    } catch (err) {
      if (!(err instanceof OidcFailure)) throw err;
      res.redirect(303, loginWithError(err.code, err.next));
    }
  });

  router.get(OIDC_DONE_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const next = landingPath(req.query.next);
    const token = tokenCookie(req)?.token;
    if (!token || !(await renewSession(db, token, ctx.now(), sessionTimes(config))))
      return res.redirect(303, `${LOGIN_PATH}?next=${encodeURIComponent(next)}`);
    renderPage(
      req,
      res,
      'pages/hr/login',
      { title: 'Signing in', noindex: true },
      {
        handoff: true,
        oidc: null,
        oidcError: null,
        props: {
          next,
          ttlSeconds: firstLifetimeSeconds(sessionTimes(config)),
          idleMinutes: config.sessionIdleMinutes,
          maxHours: config.sessionMaxHours,
          handoff: true,
        },
      },
    );
  });

  return router;
}

/** The HR login page (spec 01 'HR login'): the hr-login island; a valid jwt cookie goes straight on. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { TOKEN_COOKIE, tokenCookie } from '../http/credentials.js';
import { renderPage } from '../render/page.js';
import { landingPath } from '../shared/next-path.js';
import { LOGIN_PATH } from './guards.js';
import { findSession } from './service.js';

export function usersPages(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;

  router.get(LOGIN_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // One decision for the redirect and the island (which checks it again before navigating).
    const next = landingPath(req.query.next);
    const cookie = tokenCookie(req);
    if (cookie?.token && (await findSession(db, cookie.token, ctx.now()))) return res.redirect(302, next);
    // A stale or broken cookie goes, or the island would bounce to the dashboard and back.
    if (cookie) res.clearCookie(TOKEN_COOKIE, { path: '/' });
    renderPage(req, res, 'pages/hr/login', { title: 'HR Login', noindex: true }, {
      props: { next, ttlSeconds: config.sessionTtlSeconds },
    });
  });

  return router;
}

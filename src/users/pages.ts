/**
 * The HR login page (spec 01 'HR login'): the hr-login island; a valid jwt cookie goes straight on.
 * The page of a one-time sign-in link (/hrviewlogin/link/{token}): the set-password island while
 * the link works, else why not (404 unknown, 410 used or expired); opening it never uses it.
 * The Users page (/hr/users, admins only: app.ts guards it): the team's table and the hr-users island.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { TOKEN_COOKIE, tokenCookie } from '../http/credentials.js';
import { HttpError } from '../http/errors.js';
import { htmlPageNumber, htmlPager } from '../http/paging.js';
import { formatters } from '../render/formatters.js';
import { renderPage } from '../render/page.js';
import { landingPath } from '../shared/next-path.js';
import { oidcLoginLocals } from './oidc.pages.js';
import { LOGIN_PATH, firstLifetimeSeconds, sessionTimes, renewSession } from './service.js';
import { SIGN_IN_LINK_PATH, liveLink, listTeam } from './team.service.js';
import { ROLE_LABELS } from './types.js';

const USERS_PAGE_SIZE = 50;

export function usersPages(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;

  router.get(LOGIN_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // One decision for the redirect and the island (which checks it again before navigating).
    const next = landingPath(req.query.next);
    const cookie = tokenCookie(req);
    if (cookie?.token && (await renewSession(db, cookie.token, ctx.now(), sessionTimes(config)))) return res.redirect(302, next);
    // A stale or broken cookie goes, or the island would bounce to the dashboard and back.
    if (cookie) res.clearCookie(TOKEN_COOKIE, { path: '/' });
    renderPage(
      req,
      res,
      'pages/hr/login',
      { title: 'HR Login', noindex: true },
      {
        ...oidcLoginLocals(config, req.query, next),
        // The idle timeout and the limit name the reason on the page when a session has just ended.
        props: {
          next,
          ttlSeconds: firstLifetimeSeconds(sessionTimes(config)),
          idleMinutes: config.sessionIdleMinutes,
          maxHours: config.sessionMaxHours,
        },
      },
    );
  });

  router.get(`${SIGN_IN_LINK_PATH}:token`, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // The token is in the address: never sent on to another site.
    res.setHeader('Referrer-Policy', 'no-referrer');
    try {
      const link = await liveLink(db, req.params.token, ctx.now());
      renderPage(
        req,
        res,
        'pages/hr/sign-in-link',
        { title: 'Set your password', noindex: true },
        {
          problem: null,
          props: {
            token: req.params.token,
            username: link.username,
            purpose: link.purpose,
            ttlSeconds: firstLifetimeSeconds(sessionTimes(config)),
          },
        },
      );
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      renderPage(
        req,
        res,
        'pages/hr/sign-in-link',
        { title: 'Sign-in link', noindex: true, status: err.status },
        { problem: err.message, props: null },
      );
    }
  });

  router.get('/hr/users', async (req, res) => {
    const page = htmlPageNumber(req);
    const { count, results } = await listTeam(db, { page, pageSize: USERS_PAGE_SIZE });
    const pager = htmlPager(page, count, USERS_PAGE_SIZE, (n) => (n > 1 ? `/hr/users?page=${n}` : '/hr/users'));
    renderPage(
      req,
      res,
      'pages/hr/users',
      { title: 'Users', noindex: true },
      {
        users: results,
        count,
        pager,
        me: req.hr!.userId,
        roleLabels: ROLE_LABELS,
        ...formatters(req),
      },
    );
  });

  return router;
}

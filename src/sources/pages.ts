/**
 * The Sources page (/hr/sources, island `hr-sources`) and tracking links: `/go/{slug}` keeps the
 * link's first touch in the visitor's cookie (unless one is kept already) and leads to the link's
 * job, or to the job list when it has none, its job is not open, or the slug is unknown. A GET
 * counts a click once per client address and link in CLICK_WINDOW_SECONDS; a HEAD (a link
 * preview) is redirected the same way but counts nothing and keeps no first touch.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { keepFirstTouch } from '../http/attribution.js';
import { firstInWindow } from '../http/rate-limit.js';
import { renderPage } from '../render/page.js';
import { listJobChoices } from '../jobs/index.js';
import { alertCounts } from '../alerts/index.js';
import { followTrackingLink } from './service.js';

/** One client address adds at most one click per link in this many seconds (README, "Where applicants come from"). */
export const CLICK_WINDOW_SECONDS = 600;

export function sourcesPages(ctx: AppContext): Router {
  const router = Router();
  const secure = ctx.config.publicBaseUrl.startsWith('https:');
  const firstClick = firstInWindow(ctx, 'go-click', CLICK_WINDOW_SECONDS);

  router.get('/go/:slug', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const isHead = req.method === 'HEAD';
    const followed = await followTrackingLink(ctx, String(req.params.slug), (linkId) =>
      isHead ? Promise.resolve(false) : firstClick(req, String(linkId)),
    );
    if (!followed) return res.redirect(302, '/careers');
    if (isHead) return res.redirect(302, followed.target);
    // The visitor still gets where the link leads when the cookie cannot be signed (no database).
    await keepFirstTouch(req, res, ctx.serverKey, followed.attribution, secure).catch(() => undefined);
    res.redirect(302, followed.target);
  });

  router.get('/hr/sources', async (req, res) => {
    // Issue 35: admins see how many job alerts candidates keep (the careers site's other source of applicants).
    const [jobs, alerts] = await Promise.all([listJobChoices(ctx.db), res.locals.hrRole === 'admin' ? alertCounts(ctx) : null]);
    renderPage(
      req,
      res,
      'pages/hr/sources',
      { title: 'Sources', noindex: true },
      { jobs, alerts, publicBaseUrl: ctx.config.publicBaseUrl },
    );
  });

  return router;
}

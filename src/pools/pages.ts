/** The talent pools page (/hr/pools): the shell of the talent-pools island. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';

export function poolsPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/pools', (req, res) => {
    renderPage(req, res, 'pages/hr/pools', { title: 'Talent pools', noindex: true }, { consentDays: ctx.config.poolConsentDays });
  });
  return router;
}

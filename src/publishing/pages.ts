/** The Pay rules page (/hr/settings/pay-rules, admins only: app.ts guards it), the pay-rules island. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { payRules } from './rules.service.js';
import { CHECK_LABELS } from './checks.service.js';

export function publishingPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/settings/pay-rules', async (req, res) => {
    renderPage(
      req,
      res,
      'pages/hr/pay-rules',
      { title: 'Pay rules', noindex: true },
      { blocking: ctx.config.jobChecksBlock.map((k) => CHECK_LABELS[k].toLowerCase()), props: { rules: await payRules(ctx.db) } },
    );
  });
  return router;
}

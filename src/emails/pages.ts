/** The Email templates page (/hr/settings/email-templates, admins only: app.ts guards it), the email-templates island. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { emailState, templates } from './service.js';

export function emailsPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/settings/email-templates', async (req, res) => {
    const choices = { ...emailState(ctx), templates: await templates(ctx) };
    renderPage(
      req,
      res,
      'pages/hr/email-templates',
      { title: 'Email templates', noindex: true },
      {
        offReason: choices.off_reason,
        props: {
          templates: choices.templates,
          offReason: choices.off_reason,
          companyName: (res.locals.company as { name: string } | undefined)?.name ?? ctx.config.company.name,
        },
      },
    );
  });
  return router;
}

/** The import page (/hr/settings/import, admins; app.ts guards it): the shell of the candidate-import island with the jobs to choose from. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { IMPORT_COLUMNS, IMPORT_LIMITS } from './schema.js';
import { importableJobs } from './service.js';

export function importsPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/settings/import', async (req, res) => {
    const jobs = await importableJobs(ctx.db);
    renderPage(
      req,
      res,
      'pages/hr/import',
      { title: 'Import candidates', noindex: true },
      { props: { jobs }, columns: IMPORT_COLUMNS, maxRows: IMPORT_LIMITS.rows },
    );
  });
  return router;
}

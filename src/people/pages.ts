/** The review list of possible duplicates (/hr/applicants/duplicates): the page shell of the duplicates island. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { UNDO_DAYS } from './schema.js';

export function peoplePages(_ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/applicants/duplicates', (req, res) => {
    renderPage(req, res, 'pages/hr/duplicates', { title: 'Possible duplicates', noindex: true }, { undoDays: UNDO_DAYS });
  });
  return router;
}

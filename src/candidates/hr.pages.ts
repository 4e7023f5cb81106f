/** HR's pages of the candidates feature: the erasure requests (/hr/applicants/erasure-requests) and the status texts (/hr/settings/status-texts, admins). */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { renderPage } from '../render/page.js';
import { CANDIDATE_LIMITS } from './schema.js';

export function candidatesHrPages(_ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/applicants/erasure-requests', (req, res) => {
    renderPage(req, res, 'pages/hr/erasure-requests', { title: 'Erasure requests', noindex: true }, {});
  });
  router.get('/hr/settings/status-texts', (req, res) => {
    renderPage(req, res, 'pages/hr/status-texts', { title: 'Status texts', noindex: true }, { max: CANDIDATE_LIMITS.statusText });
  });
  return router;
}

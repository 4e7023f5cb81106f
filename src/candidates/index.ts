/**
 * The candidates feature (issue 35: the candidate's side) as the app sees it: the status page a
 * candidate reaches by a signed link, and HR's erasure requests and status texts.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { candidatesApi } from './api.js';
import { candidatesHrPages } from './hr.pages.js';
import { candidatePages } from './pages.js';

/** The public status page and HR's pages and API (mounted before the applicants' `/hr/applicants/:id`). */
export function candidatesRoutes(ctx: AppContext): Router {
  return Router().use(candidatePages(ctx), candidatesApi(ctx), candidatesHrPages(ctx));
}

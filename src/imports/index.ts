/** The imports feature (issue 35: bringing candidates in) as the app and the CLI see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { importsApi } from './api.js';
import { importsPages } from './pages.js';

export { ImportFileProblem, importCandidates } from './service.js';

/** The import page and its upload (admins). */
export function importsRoutes(ctx: AppContext): Router {
  return Router().use(importsApi(ctx), importsPages(ctx));
}

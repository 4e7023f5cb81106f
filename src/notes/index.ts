/** The notes feature (issue 20) as the app sees it: its routes. Applications are reached through src/applicants/index.ts. */
import type { Router } from 'express';
import type { AppContext } from '../context.js';
import { notesApi } from './api.js';

export { insertImportedNote } from './service.js';

/** GET/POST /api/hr/applications/{id}/notes/ and PATCH/DELETE .../notes/{noteId}/. */
export function notesRoutes(ctx: AppContext): Router {
  return notesApi(ctx);
}

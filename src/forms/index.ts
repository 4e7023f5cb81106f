/** The forms feature as the app and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { formsApi } from './api.js';
import { formsPages } from './pages.js';

export { entriesExport, formPostsWorkbook } from './entries.service.js';
export { planEntryRemoval, removeEntries, type EntryCriteria, type EntryRemoval } from './retention.service.js';

/** The forms routes: HR form management, entries and API posts; the public form. */
export function formsRoutes(ctx: AppContext): Router {
  return Router().use(formsApi(ctx), formsPages(ctx));
}

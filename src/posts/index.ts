/** The posts feature as the app, the server, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { postsApi } from './api.js';
import { postsPages } from './pages.js';

export { applicationPostPayload, enqueueApplicationEvent, enqueueApplicationPost, enqueueFormPost } from './repo.js';
export { enqueueApplicationEmails, htmlOfText, oneLine, type MailConfig } from './lib/mail.js';
export { cancelEmail, enqueueSentEmail, enqueueSentEmails, type EmailMessage } from './repo.js';
/** Emails to HR users about no application (issue 34's job approvals), queued in the caller's transaction. */
export { enqueueEmails } from './repo.js';
export { OutboxSignal } from './lib/signal.js';
export { createDelivery, startDelivery } from './lib/delivery.js';
/** The outbound address check of a socket's lookup, for other readers of outside addresses (interviews' calendars). */
export { guardedLookup, type LookupAll } from './lib/http-sender.js';
export {
  applicationPostsExport,
  formPosts,
  formPostsExport,
  outboxesHealth,
  parseFormPostStatus,
  retryPosts,
  verifyMail,
} from './service.js';
export { cliPostList } from './queries.js';

/** The posts routes: the API Post Requests page and its API. */
export function postsRoutes(ctx: AppContext): Router {
  return Router().use(postsApi(ctx), postsPages(ctx));
}

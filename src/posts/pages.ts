/**
 * API Post Requests (/hr/posts, spec 02): tabs Successful, Unsuccessful and Pending, Export, the
 * table and a pager, rendered on the server from the same service as the API; the hr-posts island
 * adds Export, Retry and the attempts of a row. app.ts guards /hr.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { htmlPageNumber, htmlPager, queryString } from '../http/paging.js';
import { formatters } from '../render/formatters.js';
import { renderPage } from '../render/page.js';
import { DEFAULT_POST_STATUS } from './schema.js';
import { listPosts, parsePostStatus } from './service.js';
import { POST_STATUSES, type PostStatus } from './types.js';

const POSTS_PAGE_SIZE = 25;

const POST_TABS: { status: PostStatus; label: string }[] = [
  { status: 'SUCCESS', label: 'Successful' },
  { status: 'FAILED', label: 'Unsuccessful' },
  { status: 'PENDING', label: 'Pending' },
];

export function postsPages(ctx: AppContext): Router {
  const router = Router();

  router.get('/hr/posts', async (req, res) => {
    // A tab the page does not know is the default tab, as a page (not an API) reads its query.
    const raw = queryString(req, 'status').toUpperCase();
    const status = POST_STATUSES.includes(raw as PostStatus) ? parsePostStatus(raw) : DEFAULT_POST_STATUS;
    const page = htmlPageNumber(req);
    const { count, results } = await listPosts(ctx.db, status, { page, pageSize: POSTS_PAGE_SIZE });
    const link = (s: PostStatus, n = 1) => {
      const params = new URLSearchParams();
      if (s !== DEFAULT_POST_STATUS) params.set('status', s);
      if (n > 1) params.set('page', String(n));
      const qs = params.toString();
      return `/hr/posts${qs ? `?${qs}` : ''}`;
    };
    const pager = htmlPager(page, count, POSTS_PAGE_SIZE, (n) => link(status, n));
    renderPage(
      req,
      res,
      'pages/hr/posts',
      { title: 'API Post Requests', noindex: true },
      {
        status,
        tabs: POST_TABS.map((t) => ({ ...t, href: link(t.status), current: t.status === status })),
        posts: results,
        count,
        pager,
        ...formatters(req),
      },
    );
  });

  return router;
}

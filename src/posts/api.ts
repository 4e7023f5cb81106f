/**
 * The posts API (spec 02 call table, DESIGN.md 'Outbound post records'): the API Post Requests
 * list and its export, plus a post's attempts and Retry. Under /api/hr, which app.ts guards.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { sendWorkbook } from '../exports/xlsx.js';
import { pageResponse, parsePaging } from '../http/paging.js';
import { pathId } from '../http/validate.js';
import { POST_MESSAGES } from './schema.js';
import { attemptsOfPost, listPosts, parsePostStatus, retryPost, applicationPostsExport } from './service.js';

export function postsApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/application-posts/', async (req, res) => {
    const status = parsePostStatus(req.query.status);
    const paging = parsePaging(req);
    const { count, results } = await listPosts(ctx.db, status, paging);
    res.json(pageResponse(req, ctx.config.publicBaseUrl, paging, count, results));
  });

  router.get('/api/hr/application-posts/export/', async (req, res) => {
    const status = parsePostStatus(req.query.status);
    await sendWorkbook(res, applicationPostsExport(ctx.db, status));
  });

  router.get('/api/hr/application-posts/:id/attempts/', async (req, res) => {
    res.json({ results: await attemptsOfPost(ctx.db, pathId(req.params.id, POST_MESSAGES.notFound)) });
  });

  router.post('/api/hr/application-posts/:id/retry/', async (req, res) => {
    res.json(await retryPost(ctx, pathId(req.params.id, POST_MESSAGES.notFound)));
  });

  return router;
}

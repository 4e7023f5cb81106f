/**
 * The pipeline's page (issue 20; app.ts guards /hr): a job's board, rendered on the server with
 * the same service the API uses; the job-board island moves cards (which needs the Bearer header).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId } from '../http/validate.js';
import { renderPage } from '../render/page.js';
import { APPLICATION_STATUSES } from '../shared/enums.js';
import { listSourcesSeen } from '../applicants/index.js';
import { boardQuerySchema } from './schema.js';
import { DIRECT_SOURCE } from '../applicants/types.js';
import type { BoardProps } from './types.js';
import { jobStages, loadBoard } from './service.js';

export function pipelinePages(ctx: AppContext): Router {
  const router = Router();

  router.get('/hr/jobs/:id/board', async (req, res) => {
    const id = pathId(req.params.id);
    const parsed = boardQuerySchema.safeParse({ q: req.query.q, status: req.query.status });
    const query = parsed.success ? parsed.data : boardQuerySchema.parse({});
    const [{ board }, { stages }] = await Promise.all([loadBoard(ctx, id, { ...query, column: null, offset: 0 }), jobStages(ctx, id)]);
    const stage = typeof req.query.stage === 'string' ? req.query.stage.slice(0, 100) : '';
    const props: BoardProps = {
      board,
      stages,
      filters: {
        q: query.q,
        status: query.status ?? '',
        date_from: query.date_from ?? '',
        date_to: query.date_to ?? '',
        source: query.source ?? '',
        stage,
      },
      sources: [DIRECT_SOURCE, ...(await listSourcesSeen(ctx))],
    };
    renderPage(
      req,
      res,
      'pages/hr/job-board',
      { title: `Board: ${board.job.title}`, noindex: true },
      { props, statuses: APPLICATION_STATUSES },
    );
  });

  return router;
}

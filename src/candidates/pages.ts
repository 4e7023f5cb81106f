/**
 * The candidate's status page (issue 35), public and without an account: `/candidate/{token}` (the
 * link in the application receipt; noindex, no-store, no Referer sent on, works without script:
 * every action is a plain form). `/candidate` asks for a new link by email address. A link that is
 * not valid or has expired gets the same request form with why.
 */
import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { sendDownload } from '../http/download.js';
import { HttpError } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { isRowId } from '../shared/input-rules.js';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { renderPage } from '../render/page.js';
import { CANDIDATE_LIMITS, CANDIDATE_MESSAGES, withdrawSchema } from './schema.js';
import { personData, personResume, requestErasure, sendNewLink, setFutureJobs, statusView, withdraw } from './service.js';

const DONE = {
  withdrawn: CANDIDATE_MESSAGES.withdrawn,
  alreadyWithdrawn: CANDIDATE_MESSAGES.alreadyWithdrawn,
  closed: CANDIDATE_MESSAGES.closed,
  erasure: CANDIDATE_MESSAGES.erasureAsked,
  keepOn: CANDIDATE_MESSAGES.keepOn,
  keepOff: CANDIDATE_MESSAGES.keepOff,
} as const;

const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

/** The link's token is in the URL: never cached, never sent on as a Referer, never indexed. */
function privatePage(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

export function candidatePages(ctx: AppContext): Router {
  const router = Router();
  const setting = ctx.config.rateLimits.candidate;
  const limiter = dbRateLimit(ctx, { name: 'candidate', setting, message: tooManyMessage('requests', setting.windowSeconds) });
  const token = (req: Request) => String(req.params.token);
  const home = (req: Request) => `/candidate/${encodeURIComponent(token(req))}`;

  const linkPage = (req: Request, res: Response, opts: { problem?: string; notice?: string; email?: string; status?: number }) => {
    privatePage(res);
    renderPage(
      req,
      res,
      'pages/public/candidate-link',
      { title: 'Your applications', noindex: true, status: opts.status ?? 200 },
      { problem: opts.problem ?? null, notice: opts.notice ?? null, email: opts.email ?? '', fieldError: null },
    );
  };

  router.get('/candidate', (req, res) => linkPage(req, res, { notice: req.query.sent === '1' ? CANDIDATE_MESSAGES.linkSent : undefined }));

  router.post('/candidate', limiter, form, async (req, res) => {
    const raw = typeof req.body?.email === 'string' ? req.body.email.slice(0, 320) : '';
    const problem = emailError(raw);
    if (problem) {
      privatePage(res);
      return renderPage(
        req,
        res,
        'pages/public/candidate-link',
        { title: 'Your applications', noindex: true, status: 400 },
        { problem: null, notice: null, email: raw, fieldError: CANDIDATE_MESSAGES.email },
      );
    }
    await sendNewLink(ctx, storedEmail(raw));
    res.redirect(303, '/candidate?sent=1');
  });

  router.get('/candidate/:token', async (req, res) => {
    const found = await statusView(ctx, token(req));
    if ('problem' in found)
      return linkPage(req, res, {
        problem: found.problem === 'expired' ? CANDIDATE_MESSAGES.expiredLink : CANDIDATE_MESSAGES.invalidLink,
        status: found.problem === 'expired' ? 410 : 404,
      });
    privatePage(res);
    const done = typeof req.query.done === 'string' && req.query.done in DONE ? DONE[req.query.done as keyof typeof DONE] : null;
    renderPage(
      req,
      res,
      'pages/public/candidate',
      { title: 'Your applications', noindex: true },
      { view: found.view, action: home(req), notice: done, reasonMax: CANDIDATE_LIMITS.reason },
    );
  });

  /** Runs a form's action on a live link; a dead one gets the request form with why. */
  const onLink = (work: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      await work(req, res);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404)
        return linkPage(req, res, { problem: err.message, status: err.message === CANDIDATE_MESSAGES.expiredLink ? 410 : 404 });
      throw err;
    }
  };

  router.post(
    '/candidate/:token/withdraw',
    limiter,
    form,
    onLink(async (req, res) => {
      const id = String(req.body?.application_id ?? '');
      const parsed = withdrawSchema.safeParse({ reason: typeof req.body?.reason === 'string' ? req.body.reason : '' });
      if (!isRowId(id) || !parsed.success) {
        return linkPage(req, res, { problem: parsed.success ? CANDIDATE_MESSAGES.notYours : CANDIDATE_MESSAGES.reason, status: 400 });
      }
      res.redirect(303, `${home(req)}?done=${await withdraw(ctx, token(req), Number(id), parsed.data.reason)}`);
    }),
  );

  router.post(
    '/candidate/:token/future-jobs',
    limiter,
    form,
    onLink(async (req, res) => {
      const keep = req.body?.keep === 'yes';
      await setFutureJobs(ctx, token(req), keep);
      res.redirect(303, `${home(req)}?done=${keep ? 'keepOn' : 'keepOff'}`);
    }),
  );

  router.post(
    '/candidate/:token/erasure',
    limiter,
    onLink(async (req, res) => {
      await requestErasure(ctx, token(req));
      res.redirect(303, `${home(req)}?done=erasure`);
    }),
  );

  router.get(
    '/candidate/:token/data.json',
    onLink(async (req, res) => {
      const data = await personData(ctx, token(req));
      privatePage(res);
      res.setHeader('Content-Disposition', 'attachment; filename="my-applications.json"');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type('application/json').send(`${JSON.stringify(data, null, 2)}\n`);
    }),
  );

  router.get(
    '/candidate/:token/resume/:applicationId',
    onLink(async (req, res) => {
      if (!isRowId(req.params.applicationId)) return linkPage(req, res, { problem: CANDIDATE_MESSAGES.notYours, status: 404 });
      const file = await personResume(ctx, token(req), Number(req.params.applicationId));
      privatePage(res);
      await sendDownload(res, file, 'attachment');
    }),
  );

  return router;
}

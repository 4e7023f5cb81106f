/**
 * The offers' public pages (issue 34): no HR session (the link's token is the credential, and it
 * opens one offer or one approval only), noindex, no script needed (plain forms):
 * - `/offer/{token}`: the candidate's offer (its terms, the letter's text, its PDF at
 *   `/offer/{token}/pdf`), Accept with a typed full name or Decline with an optional reason
 *   (POST, `action` accept or decline). An expired or withdrawn offer answers 410 saying so.
 * - `/offer-approvals/{token}`: an approver's page (the offer and its letter), POST to approve or
 *   reject with a comment; the link dies with the decision.
 * Unknown links answer 404, dead ones 410 (src/render/link-gone.ts). The POSTs are rate limited
 * per client address (OFFER_RATE_LIMIT).
 * And admins' `/hr/settings/offers` (the offer templates and the default approval chain, the
 * offer-settings island), behind the HR guards.
 */
import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { sendDownload } from '../http/download.js';
import { HttpError } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { renderPage } from '../render/page.js';
import { renderLinkGone } from '../render/link-gone.js';
import { requireAdmin } from '../users/index.js';
import { decisionSchema, reasonSchema, signSchema } from './schema.js';
import { offerSettings } from './settings.service.js';
import {
  LETTER_VARIABLES,
  acceptOffer,
  approvalView,
  candidatePdf,
  candidateView,
  declineOffer,
  decideByLink,
  longDate,
  dayOf,
  type CandidateView,
} from './service.js';

const token = (req: Request) => String(req.params.token);
const form = express.urlencoded({ extended: false, limit: '20kb', parameterLimit: 20 });
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function offersPages(ctx: AppContext): Router {
  const router = Router();
  const setting = ctx.config.rateLimits.offer;
  const limiter = dbRateLimit(ctx, { name: 'offer', setting, message: tooManyMessage('answers to offers', setting.windowSeconds) });

  const offerPage = (
    req: Request,
    res: Response,
    view: CandidateView,
    extra: {
      errors?: Record<string, string[]>;
      notice?: string | null;
      problem?: string | null;
      status?: number;
      values?: Record<string, string>;
    },
  ) =>
    renderPage(
      req,
      res,
      'pages/public/offer',
      { title: `Your offer from ${view.company}`, noindex: true, status: extra.status },
      {
        view,
        action: `/offer/${encodeURIComponent(token(req))}`,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
        problem: extra.problem ?? null,
        values: { full_name: '', reason: '', ...extra.values },
        expires: longDate(view.offer.expires_on),
        signedAt: view.offer.decided_at ? longDate(dayOf(view.offer.decided_at)) : null,
      },
    );

  router.get('/offer/:token', async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      offerPage(req, res, await candidateView(ctx, token(req)), {});
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.post('/offer/:token', limiter, form, async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      const view = await candidateView(ctx, token(req));
      const body = (req.body ?? {}) as Record<string, unknown>;
      const values = { full_name: str(body.full_name).slice(0, 200), reason: str(body.reason).slice(0, 1000) };
      try {
        if (body.action === 'decline') {
          const parsed = reasonSchema().safeParse({ reason: body.reason });
          if (!parsed.success) return offerPage(req, res, view, { errors: fieldErrorsOf(parsed.error.issues), status: 400, values });
          await declineOffer(ctx, token(req), parsed.data.reason);
          return offerPage(req, res, await candidateView(ctx, token(req)), {
            notice: 'You declined the offer. Thank you for letting us know.',
          });
        }
        const parsed = signSchema().safeParse({ full_name: body.full_name });
        if (!parsed.success) return offerPage(req, res, view, { errors: fieldErrorsOf(parsed.error.issues), status: 400, values });
        await acceptOffer(ctx, token(req), parsed.data.full_name, req.ip);
        return offerPage(req, res, await candidateView(ctx, token(req)), {
          notice: 'Thank you: you accepted the offer. Download the signed offer (PDF) to keep a copy.',
        });
      } catch (err) {
        // Signing twice, or deciding after an answer: the page as it is now, saying why.
        if (err instanceof HttpError && err.status === 409)
          return offerPage(req, res, await candidateView(ctx, token(req)), { problem: err.message, status: 409 });
        throw err;
      }
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.get('/offer/:token/pdf', async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      await sendDownload(res, await candidatePdf(ctx, token(req)));
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  const approvalPage = async (req: Request, res: Response, errors: Record<string, string[]> = {}, status?: number, comment = '') =>
    renderPage(
      req,
      res,
      'pages/public/offer-approval',
      { title: 'Offer to approve', noindex: true, status },
      {
        view: await approvalView(ctx, token(req)),
        action: `/offer-approvals/${encodeURIComponent(token(req))}`,
        errors,
        values: { comment },
      },
    );

  router.get('/offer-approvals/:token', async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      await approvalPage(req, res);
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.post('/offer-approvals/:token', limiter, form, async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const approve = body.action !== 'reject';
      const parsed = decisionSchema(!approve).safeParse({ comment: body.comment });
      if (!parsed.success) return await approvalPage(req, res, fieldErrorsOf(parsed.error.issues), 400, str(body.comment).slice(0, 1000));
      await decideByLink(ctx, token(req), approve, parsed.data.comment);
      renderPage(
        req,
        res,
        'pages/public/link-gone',
        { title: 'Thank you', noindex: true },
        { heading: 'Thank you', message: approve ? 'You approved the offer.' : 'You rejected the offer; its author gets your comment.' },
      );
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.get('/hr/settings/offers', requireAdmin, async (req, res) => {
    renderPage(
      req,
      res,
      'pages/hr/offer-settings',
      { title: 'Offers', noindex: true },
      { variables: LETTER_VARIABLES, props: { ...(await offerSettings(ctx.db)), variables: LETTER_VARIABLES } },
    );
  });

  return router;
}

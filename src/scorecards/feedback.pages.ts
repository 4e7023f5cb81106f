/**
 * The outside interviewer's pages (issue 31), public (no HR session: the link's token is the
 * credential, and it opens one scorecard only): `/feedback/{token}` (the kit and their scorecard
 * as a plain form, no script needed), POST to save the draft or submit it, and
 * `/feedback/{token}/resume` (the candidate's resume). A dead link answers 410 with why; an
 * unknown one 404. Every input goes through the scorecards' draft schema.
 */
import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { sendDownload } from '../http/download.js';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { renderPage } from '../render/page.js';
import { renderLinkGone } from '../render/link-gone.js';
import { draftSchema } from './scorecards.schema.js';
import { RECOMMENDATIONS, RECOMMENDATION_LABELS } from './scorecards.types.js';
import { FEEDBACK_MESSAGES, type FeedbackView, feedbackResume, feedbackView, saveFeedback } from './feedback.service.js';

const token = (req: Request) => String(req.params.token);

/** The form's fields as the draft schema reads them: `rating_{i}` ("1"-"4", "none"), `note_{i}`, `recommendation`. */
function draftOfForm(body: Record<string, unknown>, view: FeedbackView): unknown {
  const ratings = (view.kit?.attributes ?? []).map((a, i) => {
    const raw = body[`rating_${i}`];
    const rating =
      raw === undefined || raw === '' || raw === 'none' ? null : typeof raw === 'string' && /^[1-4]$/.test(raw) ? Number(raw) : raw;
    return { attribute: a.name, rating, note: body[`note_${i}`] ?? '' };
  });
  const rec = body.recommendation;
  return { ratings, recommendation: rec === undefined || rec === '' ? null : rec };
}

export function feedbackPages(ctx: AppContext): Router {
  const router = Router();
  const page = (
    req: Request,
    res: Response,
    view: FeedbackView,
    extra: { errors?: Record<string, string[]>; notice?: string | null; status?: number },
  ) =>
    renderPage(
      req,
      res,
      'pages/public/feedback',
      { title: `Feedback on ${view.candidate}`, noindex: true, status: extra.status },
      {
        view,
        action: `/feedback/${encodeURIComponent(token(req))}`,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
        recommendations: RECOMMENDATIONS.map((r) => ({ value: r, label: RECOMMENDATION_LABELS[r] })),
      },
    );

  router.get('/feedback/:token', async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      page(req, res, await feedbackView(ctx, token(req)), {});
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.post('/feedback/:token', express.urlencoded({ extended: false, limit: '200kb', parameterLimit: 200 }), async (req, res) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      const view = await feedbackView(ctx, token(req));
      const body = (req.body ?? {}) as Record<string, unknown>;
      const parsed = draftSchema().safeParse(draftOfForm(body, view));
      if (!parsed.success) return page(req, res, view, { errors: fieldErrorsOf(parsed.error.issues), status: 400 });
      const outcome = await saveFeedback(ctx, token(req), parsed.data, body.action === 'submit');
      if (typeof outcome === 'object')
        return page(req, res, await feedbackView(ctx, token(req)), { errors: { recommendation: [outcome.recommendation] }, status: 400 });
      if (outcome === 'submitted')
        return renderPage(
          req,
          res,
          'pages/public/link-gone',
          { title: 'Thank you', noindex: true },
          { heading: 'Thank you', message: 'Your scorecard was submitted. Thank you for your feedback.' },
        );
      page(req, res, await feedbackView(ctx, token(req)), { notice: FEEDBACK_MESSAGES.saved });
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.get('/feedback/:token/resume', async (req, res) => {
    try {
      await sendDownload(res, await feedbackResume(ctx, token(req)));
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });
  return router;
}

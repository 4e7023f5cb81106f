/**
 * The job alert pages (issue 35), public and working without script: `/job-alerts` (the form; a
 * plain POST, rate limited per client address; answered the same whatever the address), and the
 * signed links of its emails: `/job-alerts/confirm/{token}`, `/job-alerts/unsubscribe/{token}`,
 * `/job-alerts/renew/{token}`. A GET shows what the link does and a button; the POST does it (so a
 * mail scanner that opens links changes nothing). The unsubscribe URL also takes the one-click POST
 * of RFC 8058 (`List-Unsubscribe=One-Click`) that mail clients send without a session or cookie.
 */
import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { ValidationError } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import { renderPage } from '../render/page.js';
import { renderLinkGone } from '../render/link-gone.js';
import { WORK_MODES, enumLabel } from '../shared/enums.js';
import { listActiveDepartments, listActiveLocations } from '../jobs/index.js';
import type { LinkPurpose } from './lib/links.js';
import { dayText } from './lib/mail.js';
import { ALERT_MESSAGES as M, SUBSCRIBE_FIELDS, alertConsentText, subscribeSchema } from './schema.js';
import { alertsOn, confirmAlert, renew, subscribe, unsubscribe, viewLink } from './service.js';

/** The path of the alerts pages (not under /careers/{publicId}, which a job called "alerts" could take). */
const ALERTS_PATH = '/job-alerts';

const WORK_MODE_OPTIONS = WORK_MODES.map((v) => ({ value: v, label: enumLabel(v) }));

type FormValues = Record<(typeof SUBSCRIBE_FIELDS)[number], string>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The form's values from a query or a body (each a string; anything else as empty), cut for showing again. */
function formValues(src: Record<string, unknown>): FormValues {
  const out = {} as FormValues;
  for (const name of SUBSCRIBE_FIELDS) out[name] = str(src[name]).slice(0, 300);
  return out;
}

/** What the alert form partial needs: the careers list's choices (the chosen value kept when it is not among them). */
async function alertForm(ctx: AppContext, values: Partial<FormValues>, errors: Record<string, string[]> = {}) {
  const [departments, locations] = await Promise.all([listActiveDepartments(ctx), listActiveLocations(ctx)]);
  const v = { email: '', department: '', location: '', work_mode: '', keywords: '', frequency: 'daily', consent: '', ...values };
  const keep = (list: string[], value: string) => (value && !list.includes(value) ? [...list, value] : list);
  return {
    values: v,
    errors,
    departments: keep(departments, v.department),
    locations: keep(locations, v.location),
    workModes: WORK_MODE_OPTIONS,
    consentText: alertConsentText(ctx.config.company.name),
  };
}

/** What every page may show of job alerts (the careers list's form): whether they are on, and the consent asked. */
export function alertsLocals(ctx: Pick<AppContext, 'config'>): { on: boolean; path: string; consentText: string } {
  return { on: alertsOn(ctx), path: ALERTS_PATH, consentText: alertConsentText(ctx.config.company.name) };
}

const PAGES: Record<LinkPurpose, { heading: string; lead: string; button: string; danger?: boolean }> = {
  confirm: { heading: 'Confirm your job alert', lead: 'Press the button to start receiving it.', button: 'Confirm job alert' },
  unsubscribe: { heading: 'Unsubscribe', lead: 'Press the button to stop this job alert.', button: 'Unsubscribe', danger: true },
  renew: { heading: 'Renew your job alert', lead: 'Press the button to keep it for another year.', button: 'Renew for a year' },
};

export function alertsPages(ctx: AppContext): Router {
  const router = Router();
  const setting = ctx.config.rateLimits.alerts;
  const limiter = dbRateLimit(ctx, { name: 'alerts', setting, message: tooManyMessage('job alert requests', setting.windowSeconds) });
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 });

  const formPage = async (
    req: Request,
    res: Response,
    values: Partial<FormValues>,
    errors: Record<string, string[]> = {},
    status = 200,
  ) => {
    res.setHeader('Cache-Control', 'no-store');
    renderPage(
      req,
      res,
      'pages/public/job-alerts',
      { title: 'Job alerts', description: `Get new jobs at ${ctx.config.company.name} by email.`, canonicalPath: ALERTS_PATH, status },
      {
        on: alertsOn(ctx),
        offMessage: M.alertsOff,
        sent: false,
        sentMessage: M.sent,
        form: alertsOn(ctx) ? await alertForm(ctx, values, errors) : null,
      },
    );
  };

  router.get(ALERTS_PATH, async (req, res) => {
    if (req.query.sent === '1' && alertsOn(ctx)) {
      res.setHeader('Cache-Control', 'no-store');
      return renderPage(
        req,
        res,
        'pages/public/job-alerts',
        { title: 'Job alerts', noindex: true },
        { on: true, offMessage: M.alertsOff, sent: true, sentMessage: M.sent, form: null },
      );
    }
    // The careers list's filters carry over (its title search as the keywords).
    const q = formValues(req.query as Record<string, unknown>);
    if (!q.keywords) q.keywords = str(req.query.title).slice(0, 300);
    await formPage(
      req,
      res,
      { ...q, email: '', consent: '', frequency: q.frequency === 'weekly' ? 'weekly' : 'daily' },
      {},
      alertsOn(ctx) ? 200 : 404,
    );
  });

  router.post(ALERTS_PATH, limiter, form, async (req, res) => {
    if (!alertsOn(ctx)) return formPage(req, res, {}, {}, 404);
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    try {
      await subscribe(ctx, validate(subscribeSchema(), body, SUBSCRIBE_FIELDS));
    } catch (err) {
      if (err instanceof ValidationError) {
        const errors = err.fields;
        return formPage(req, res, formValues(body), errors, 400);
      }
      throw err;
    }
    res.redirect(303, `${ALERTS_PATH}?sent=1`);
  });

  const linkPage = (
    req: Request,
    res: Response,
    purpose: LinkPurpose,
    view: Awaited<ReturnType<typeof viewLink>>,
    done: { heading: string; notice: string } | null,
  ) => {
    res.setHeader('Cache-Control', 'no-store');
    const page = PAGES[purpose];
    renderPage(
      req,
      res,
      'pages/public/job-alert-link',
      { title: done?.heading ?? page.heading, noindex: true },
      {
        heading: done?.heading ?? page.heading,
        notice: done?.notice ?? null,
        view,
        lead: done ? null : page.lead,
        button: done ? null : { label: page.button, danger: page.danger },
        action: req.originalUrl.split('?')[0],
      },
    );
  };

  const token = (req: Request) => String(req.params.token);

  for (const purpose of ['confirm', 'unsubscribe', 'renew'] as const) {
    router.get(`${ALERTS_PATH}/${purpose}/:token`, async (req, res) => {
      try {
        const view = await viewLink(ctx, purpose, token(req));
        if (purpose === 'unsubscribe' && !view)
          return linkPage(req, res, purpose, null, { heading: 'Unsubscribed', notice: M.unsubscribed });
        if (purpose === 'confirm' && view?.status === 'ACTIVE')
          return linkPage(req, res, purpose, view, { heading: 'Job alert confirmed', notice: M.alreadyConfirmed });
        linkPage(req, res, purpose, view, null);
      } catch (err) {
        renderLinkGone(req, res, err);
      }
    });
  }

  // The link pages' buttons, and the mail clients' one-click unsubscribe (its body is ignored: the URL says it all).
  const small = express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 });
  router.post(`${ALERTS_PATH}/confirm/:token`, small, async (req, res) => {
    try {
      const state = await confirmAlert(ctx, token(req));
      linkPage(req, res, 'confirm', await viewLink(ctx, 'confirm', token(req)).catch(() => null), {
        heading: 'Job alert confirmed',
        notice: state === 'already' ? M.alreadyConfirmed : M.confirmed,
      });
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });
  router.post(`${ALERTS_PATH}/unsubscribe/:token`, small, async (req, res) => {
    try {
      await unsubscribe(ctx, token(req));
      linkPage(req, res, 'unsubscribe', null, { heading: 'Unsubscribed', notice: M.unsubscribed });
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });
  router.post(`${ALERTS_PATH}/renew/:token`, small, async (req, res) => {
    try {
      const until = await renew(ctx, token(req));
      linkPage(req, res, 'renew', await viewLink(ctx, 'renew', token(req)), {
        heading: 'Job alert renewed',
        notice: M.renewed(dayText(until)),
      });
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });
  return router;
}

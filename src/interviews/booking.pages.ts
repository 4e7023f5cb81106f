/**
 * The candidate's booking page (issue 32), public: `/book/{token}` (no sign-in, noindex, no script
 * needed: every time is a button of a plain form, the zone a GET form; with script on, site.ts
 * reloads it once in the browser's own zone). POST books the chosen time (or moves the booked
 * interview to it) or cancels; success redirects back (303) with what was done. An unknown link
 * answers 404, a dead one 410 with why; a time just taken 409 with the times still free.
 */
import express, { Router, type Request, type Response } from 'express';
import { DateTime } from 'luxon';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { renderPage } from '../render/page.js';
import { renderLinkGone } from '../render/link-gone.js';
import { BOOKING_MESSAGES as M } from './booking.schema.js';
import { type BookingView, bookTime, bookingView, cancelBooking } from './booking.service.js';

const DONE = { booked: M.booked, rescheduled: M.rescheduled, cancelled: M.cancelled } as const;
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** The zone the page shows times in: `tz` when the runtime knows it, else the interview's own. */
function zoneOf(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && ZONES.includes(raw) ? raw : fallback;
}

/** The offered times grouped by day in `zone`: [{ day: "Tuesday 1 December", times: [{ value, label }] }]. */
function days(offered: Date[], zone: string) {
  const out: { day: string; times: { value: string; label: string }[] }[] = [];
  for (const start of offered) {
    const local = DateTime.fromJSDate(start, { zone });
    const day = local.toFormat('cccc d LLLL');
    if (out.at(-1)?.day !== day) out.push({ day, times: [] });
    out.at(-1)!.times.push({ value: start.toISOString(), label: local.toFormat('HH:mm') });
  }
  return out;
}

export function bookingPages(ctx: AppContext): Router {
  const router = Router();
  const token = (req: Request) => String(req.params.token);
  const action = (req: Request) => `/book/${encodeURIComponent(token(req))}`;

  const page = (
    req: Request,
    res: Response,
    view: BookingView,
    zone: string,
    extra: { notice?: string; problem?: string; status?: number },
  ) => {
    const booked = view.booked
      ? (() => {
          const start = DateTime.fromJSDate(view.booked.startsAt, { zone });
          return `${start.toFormat('cccc d LLLL yyyy, HH:mm')}–${DateTime.fromJSDate(view.booked.endsAt, { zone }).toFormat('HH:mm')}`;
        })()
      : null;
    renderPage(
      req,
      res,
      'pages/public/book',
      { title: view.booked ? 'Your interview' : 'Choose a time for your interview', noindex: true, status: extra.status },
      {
        view,
        zone,
        zones: ZONES,
        days: days(view.offered, zone),
        booked,
        cutoffText: view.booked?.past ? 'This interview has taken place.' : M.cutoff(view.cutoffHours),
        action: action(req),
        notice: extra.notice ?? null,
        problem: extra.problem ?? null,
      },
    );
  };

  router.get('/book/:token', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const view = await bookingView(ctx, token(req));
      const done = typeof req.query.done === 'string' && req.query.done in DONE ? DONE[req.query.done as keyof typeof DONE] : undefined;
      page(req, res, view, zoneOf(req.query.tz, view.zone), { notice: done });
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });

  router.post('/book/:token', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const view = await bookingView(ctx, token(req));
      const zone = zoneOf(body.tz, view.zone);
      const back = (done: keyof typeof DONE) => res.redirect(303, `${action(req)}?tz=${encodeURIComponent(zone)}&done=${done}`);
      try {
        if (body.action === 'cancel') {
          await cancelBooking(ctx, token(req));
          return back('cancelled');
        }
        const slot = typeof body.slot === 'string' && body.slot.length <= 40 ? new Date(body.slot) : null;
        if (!slot || Number.isNaN(slot.getTime())) return page(req, res, view, zone, { problem: M.notOffered, status: 400 });
        return back(await bookTime(ctx, token(req), slot));
      } catch (err) {
        if (err instanceof HttpError && (err.status === 409 || err.status === 400))
          return page(req, res, await bookingView(ctx, token(req)), zone, { problem: err.message, status: err.status });
        throw err;
      }
    } catch (err) {
      renderLinkGone(req, res, err);
    }
  });
  return router;
}

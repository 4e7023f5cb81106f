/**
 * Booking links under /api/hr (issue 32; app.ts guards it, the teams feature's gate scopes it to
 * the application): `/api/hr/applications/{id}/booking-links/` lists them (GET) and makes one
 * (POST: emailed to the candidate, its URL in the answer), `…/{linkId}/` withdraws one (DELETE).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { BOOKING_FIELD_ORDER, BOOKING_MESSAGES, bookingLinkSchema } from './booking.schema.js';
import { createBookingLink, listBookingLinks, revokeBookingLinkOf } from './booking.service.js';
import { INTERVIEW_MESSAGES } from './interviews.schema.js';

export function bookingApi(ctx: AppContext): Router {
  const router = Router();
  const appId = (raw: unknown) => pathId(raw, INTERVIEW_MESSAGES.applicationNotFound);

  router.get('/api/hr/applications/:id/booking-links/', async (req, res) => {
    res.json(await listBookingLinks(ctx, appId(req.params.id)));
  });
  router.post('/api/hr/applications/:id/booking-links/', async (req, res) => {
    const applicationId = appId(req.params.id);
    const input = validate(bookingLinkSchema(ctx.now()), req.body, BOOKING_FIELD_ORDER);
    res.status(201).json(await createBookingLink(ctx, applicationId, input, req.hr!.userId));
  });
  router.delete('/api/hr/applications/:id/booking-links/:linkId/', async (req, res) => {
    const applicationId = appId(req.params.id);
    res.json(await revokeBookingLinkOf(ctx, applicationId, pathId(req.params.linkId, BOOKING_MESSAGES.linkNotFoundHr)));
  });
  return router;
}

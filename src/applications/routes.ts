/** The apply API: `POST /api/jobs/{publicId}/apply/` (multipart, spec 01 section 7). */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { getPublicJob } from '../jobs/service.js';
import { APPLY_MESSAGES, APPLY_UPLOAD, assertAcceptingApplications, submitApplication } from './service.js';
import { receiveMultipart } from './upload.js';

export function applicationRoutes(ctx: AppContext): Router {
  const router = Router();
  const setting = ctx.config.rateLimits.apply;
  const limiter = dbRateLimit(ctx, { name: 'apply', setting, message: tooManyMessage('applications', setting.windowSeconds) });

  router.post('/api/jobs/:publicId/apply/', limiter, async (req, res) => {
    // The job is checked before a byte of the body is read. A refusal here (and the limiter's, and
    // a 503 while the database is down) still reaches a client that is still sending: the rest of
    // the body is read and discarded, up to a cap (src/http/unread-body.ts, mounted in app.ts).
    const { job, availability } = await getPublicJob(ctx.db, String(req.params.publicId));
    assertAcceptingApplications(job, availability);
    const form = await receiveMultipart(req, ctx.storage, APPLY_UPLOAD);
    // A filled honeypot gets the same answer as a real application, so a bot learns nothing.
    await submitApplication(ctx, job, form, { ip: req.ip });
    res.status(201).json({ detail: APPLY_MESSAGES.submitted });
  });

  return router;
}

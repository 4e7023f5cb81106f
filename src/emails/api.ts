/**
 * The emails API (issue 20, "Emails to candidates"), under /api/hr (app.ts guards it):
 * - `/api/hr/email-templates/` (list, create) and `{id}/` (read, replace, delete): settings,
 *   admins only (ADMIN_API_PATHS); the two interview reminder templates (issue 32) are replaced
 *   with their times (`remind_24h`, `remind_1h`) and never deleted;
 * - `/api/hr/applications/emails/`: the templates to send and whether email is on;
 *   `/api/hr/applications/emails/bulk/`: a template's email to many applications, optionally
 *   rejecting them with a reason in the same transaction;
 * - `/api/hr/applications/{id}/emails/preview/` and `/api/hr/applications/{id}/emails/`: one
 *   application's email, previewed and sent (now, or at `send_at`);
 * - `/api/hr/applications/emails/bulk/preview/`: a bulk send's first email and how many of the
 *   selection are already rejected;
 * - `/api/hr/applications/{id}/emails/scheduled/`: its emails waiting for their time, and
 *   `/api/hr/emails/{id}/cancel/`: cancels one until it is sent (its sender or an admin).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { EMAIL_MESSAGES, bulkPreviewSchema, bulkSchema, sendSchema, templateSchema } from './schema.js';
import {
  applicationScheduledEmails,
  cancelScheduledEmail,
  createTemplate,
  emailChoices,
  previewBulk,
  previewEmail,
  removeTemplate,
  replaceTemplate,
  sendBulk,
  sendEmail,
  template,
  templates,
} from './service.js';

const FIELD_ORDER = [
  'name',
  'subject',
  'body',
  'default_delay_minutes',
  'remind_24h',
  'remind_1h',
  'ids',
  'template_id',
  'outcome',
  'reason',
  'send_at',
  'email_again',
] as const;

export function emailsApi(ctx: AppContext): Router {
  const router = Router();
  const templateId = (raw: unknown) => pathId(raw, EMAIL_MESSAGES.notFound);

  router.get('/api/hr/email-templates/', async (_req, res) => {
    res.json({ results: await templates(ctx) });
  });

  router.post('/api/hr/email-templates/', async (req, res) => {
    res.status(201).json(await createTemplate(ctx, validate(templateSchema(), req.body, FIELD_ORDER)));
  });

  router.get('/api/hr/email-templates/:id/', async (req, res) => {
    res.json(await template(ctx, templateId(req.params.id)));
  });

  router.put('/api/hr/email-templates/:id/', async (req, res) => {
    const id = templateId(req.params.id);
    // Its purpose (never changed by a PUT) sets the variables and settings it may have.
    const { purpose } = await template(ctx, id);
    res.json(await replaceTemplate(ctx, id, validate(templateSchema(purpose), req.body, FIELD_ORDER)));
  });

  router.delete('/api/hr/email-templates/:id/', async (req, res) => {
    await removeTemplate(ctx, templateId(req.params.id));
    res.status(204).end();
  });

  // Before the applicants' `/api/hr/applications/:id/` (app.ts mounts this router first).
  router.get('/api/hr/applications/emails/', async (_req, res) => {
    res.json(await emailChoices(ctx));
  });

  router.post('/api/hr/applications/emails/bulk/', async (req, res) => {
    res.json(await sendBulk(ctx, validate(bulkSchema(), req.body, FIELD_ORDER), req.hr!.userId));
  });

  router.post('/api/hr/applications/emails/bulk/preview/', async (req, res) => {
    res.json(await previewBulk(ctx, validate(bulkPreviewSchema(), req.body, FIELD_ORDER), req.hr!.userId));
  });

  router.post('/api/hr/applications/:id/emails/preview/', async (req, res) => {
    const id = pathId(req.params.id);
    res.json(await previewEmail(ctx, id, validate(sendSchema(), req.body, FIELD_ORDER), req.hr!.userId));
  });

  router.get('/api/hr/applications/:id/emails/scheduled/', async (req, res) => {
    res.json(await applicationScheduledEmails(ctx, pathId(req.params.id), { userId: req.hr!.userId, admin: req.hr!.role === 'admin' }));
  });

  router.post('/api/hr/emails/:id/cancel/', async (req, res) => {
    res.json(
      await cancelScheduledEmail(ctx, pathId(req.params.id, EMAIL_MESSAGES.notFound), {
        userId: req.hr!.userId,
        admin: req.hr!.role === 'admin',
      }),
    );
  });

  router.post('/api/hr/applications/:id/emails/', async (req, res) => {
    const id = pathId(req.params.id);
    res.status(201).json(await sendEmail(ctx, id, validate(sendSchema(), req.body, FIELD_ORDER), req.hr!.userId));
  });

  return router;
}

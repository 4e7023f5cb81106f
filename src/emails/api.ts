/**
 * The emails API (issue 20, "Emails to candidates"), under /api/hr (app.ts guards it):
 * - `/api/hr/email-templates/` (list, create) and `{id}/` (read, replace, delete): settings,
 *   admins only (ADMIN_API_PATHS);
 * - `/api/hr/applications/emails/`: the templates to send and whether email is on;
 *   `/api/hr/applications/emails/bulk/`: a template's email to many applications, optionally
 *   rejecting them with a reason in the same transaction;
 * - `/api/hr/applications/{id}/emails/preview/` and `/api/hr/applications/{id}/emails/`: one
 *   application's email, previewed and sent.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate } from '../http/validate.js';
import { EMAIL_MESSAGES, bulkSchema, sendSchema, templateSchema } from './schema.js';
import { createTemplate, emailChoices, previewEmail, removeTemplate, replaceTemplate, sendBulk, sendEmail, template, templates } from './service.js';

const FIELD_ORDER = ['name', 'subject', 'body', 'ids', 'template_id', 'outcome', 'reason'] as const;

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
    res.json(await replaceTemplate(ctx, id, validate(templateSchema(), req.body, FIELD_ORDER)));
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

  router.post('/api/hr/applications/:id/emails/preview/', async (req, res) => {
    const id = pathId(req.params.id);
    res.json(await previewEmail(ctx, id, validate(sendSchema(), req.body, FIELD_ORDER)));
  });

  router.post('/api/hr/applications/:id/emails/', async (req, res) => {
    const id = pathId(req.params.id);
    res.status(201).json(await sendEmail(ctx, id, validate(sendSchema(), req.body, FIELD_ORDER), req.hr!.userId));
  });

  return router;
}

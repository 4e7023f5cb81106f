/**
 * The forms API (spec 02 section 7): HR form management, entries, files and API posts under
 * /api/hr (guarded in app.ts: a token; writes need it as a Bearer header), and the public form
 * and its submission under /api/forms.
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { sendDownload } from '../http/download.js';
import { sendWorkbook } from '../exports/xlsx.js';
import { ValidationError } from '../http/errors.js';
import { receiveMultipart } from '../http/multipart.js';
import { pathId } from '../http/validate.js';
import { pageResponse, parsePaging, queryString } from '../http/paging.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { formPosts, parseFormPostStatus } from '../posts/index.js';
import { RECORD_STATUSES, isOneOf, type RecordStatus } from '../shared/enums.js';
import { entriesExport, formPostsWorkbook, getEntry, listEntries, listForms, openEntryFile } from './entries.service.js';
import {
  STATUS_MESSAGE,
  assertApiUnchanged,
  changeFormStatus,
  createForm,
  parseFormInput,
  parseStatusChange,
  requireForm,
  updateForm,
} from './manage.service.js';
import { FORM_MESSAGES } from './schema.js';
import { assertAccepting, getPublicForm, submitEntry, toPublicForm, uploadOptions } from './submit.service.js';

/** `?status=` of the forms list: one of the record statuses (any case), or every status when empty. */
function formsStatus(req: Request): RecordStatus | '' {
  const raw = queryString(req, 'status').toUpperCase();
  if (!raw) return '';
  if (!isOneOf(RECORD_STATUSES, raw)) throw new ValidationError({ status: [STATUS_MESSAGE] });
  return raw;
}

export function formsApi(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;
  const allowPrivate = config.webhookAllowPrivate;
  const form = (req: Request) => requireForm(db, pathId(req.params.id));

  router.get('/api/hr/forms/', async (req, res) => {
    const status = formsStatus(req);
    const paging = parsePaging(req);
    const { count, results } = await listForms(db, status, paging.page, paging.pageSize);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  router.post('/api/hr/forms/', async (req, res) => {
    const input = parseFormInput(req.body, allowPrivate);
    assertApiUnchanged(req.hr!.role === 'admin', input);
    res.status(201).json(await createForm(ctx, input, req.hr!.userId));
  });

  router.get('/api/hr/forms/:id/', async (req, res) => {
    res.json(await form(req));
  });

  router.put('/api/hr/forms/:id/', async (req, res) => {
    // An unknown form is a 404 whatever the payload holds.
    const current = await form(req);
    const input = parseFormInput(req.body, allowPrivate, current);
    assertApiUnchanged(req.hr!.role === 'admin', input, current);
    res.json(await updateForm(ctx, current, input, req.hr!.userId));
  });

  router.patch('/api/hr/forms/:id/', async (req, res) => {
    const current = await form(req);
    res.json(await changeFormStatus(ctx, current, parseStatusChange(req.body), req.hr!.userId));
  });

  router.delete('/api/hr/forms/:id/', async (req, res) => {
    const current = await form(req);
    await changeFormStatus(ctx, current, 'REMOVED', req.hr!.userId, 'form.remove');
    res.status(204).end();
  });

  router.get('/api/hr/forms/:id/entries/', async (req, res) => {
    const current = await form(req);
    const paging = parsePaging(req);
    const { count, results } = await listEntries(db, current, paging.page, paging.pageSize);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  router.get('/api/hr/forms/:id/entries/export/', async (req, res) => {
    await sendWorkbook(res, await entriesExport(db, pathId(req.params.id)));
  });

  router.get('/api/hr/forms/:id/entries/:entryId/', async (req, res) => {
    const current = await form(req);
    res.json(await getEntry(db, current, pathId(req.params.entryId, FORM_MESSAGES.entryNotFound)));
  });

  router.get('/api/hr/forms/:id/entries/:entryId/files/:fileId/download/', async (req, res) => {
    const file = await openEntryFile(
      ctx,
      pathId(req.params.id),
      pathId(req.params.entryId, FORM_MESSAGES.entryNotFound),
      pathId(req.params.fileId, FORM_MESSAGES.entryNotFound),
    );
    await sendDownload(res, file);
  });

  router.get('/api/hr/forms/:id/posts/', async (req, res) => {
    const current = await form(req);
    const status = parseFormPostStatus(req.query.status);
    const paging = parsePaging(req);
    const { count, results } = await formPosts(db, current.id, status, paging);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  router.get('/api/hr/forms/:id/posts/export/', async (req, res) => {
    await sendWorkbook(res, await formPostsWorkbook(db, pathId(req.params.id), parseFormPostStatus(req.query.status)));
  });

  // ---- Public ----

  router.get('/api/forms/:publicId/', async (req, res) => {
    res.json(toPublicForm(await getPublicForm(db, String(req.params.publicId))));
  });

  const setting = config.rateLimits.form;
  const limiter = dbRateLimit(ctx, { name: 'form', setting, message: tooManyMessage('submissions', setting.windowSeconds) });
  router.post('/api/forms/:publicId/submit/', limiter, async (req, res) => {
    // The form is checked before a byte of the body is read (the rest is drained, src/http/unread-body.ts).
    const current = await getPublicForm(db, String(req.params.publicId));
    assertAccepting(current);
    const received = await receiveMultipart(req, ctx.storage, uploadOptions(current));
    await submitEntry(ctx, current, received, { ip: req.ip });
    res.status(201).json({ detail: current.success_message || FORM_MESSAGES.submitted });
  });

  return router;
}

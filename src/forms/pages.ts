/**
 * The forms feature's pages (spec 02 section 2). HR (app.ts guards /hr): Manage Forms /hr/forms,
 * the form-builder island's /hr/forms/new and /hr/forms/{id}/edit, Entries and an entry, and a
 * form's API posts, rendered on the server from the same services as the API; the form-admin
 * island adds the actions, exports and file downloads. Public: /form/{publicId}, the public-form
 * island on a page that names the form (noindex, never in the sitemap).
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { pathId } from '../http/validate.js';
import { htmlPageNumber, htmlPager, queryString } from '../http/paging.js';
import { formatters } from '../render/formatters.js';
import { renderPage } from '../render/page.js';
import { formPosts } from '../posts/index.js';
import { RECORD_STATUSES, enumLabel, type RecordStatus } from '../shared/enums.js';
import { getEntry, listEntries, listForms } from './entries.service.js';
import { requireForm } from './manage.service.js';
import { FIELD_TYPES, type Form } from './types.js';
import { FORM_LIMITS, FORM_MESSAGES, fieldsInOrder } from './schema.js';
import { getPublicForm, toPublicForm } from './submit.service.js';

const PAGE_SIZE = 25;

/** A page's link with its query (blank values and page 1 left out). */
function link(path: string, params: Record<string, string | number>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v && !(k === 'page' && v === 1)) q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A list filter read as a page reads its query: an unknown value is no filter. */
function statusFilter(req: Request, list: readonly string[]): string {
  const raw = queryString(req, 'status').toUpperCase();
  return list.includes(raw) ? raw : '';
}

const builderOptions = {
  statuses: RECORD_STATUSES.map((value) => ({ value, label: enumLabel(value) })),
  fieldTypes: FIELD_TYPES.map((value) => ({ value, label: enumLabel(value) })),
  bytesPerMb: FORM_LIMITS.bytesPerMb,
};

export function formsPages(ctx: AppContext): Router {
  const router = Router();
  const { db } = ctx;
  const form = (req: Request) => requireForm(db, pathId(req.params.id));

  router.get('/hr/forms', async (req, res) => {
    const status = statusFilter(req, RECORD_STATUSES) as RecordStatus | '';
    const page = htmlPageNumber(req);
    const { count, results } = await listForms(db, status, page, PAGE_SIZE);
    const pager = htmlPager(page, count, PAGE_SIZE, (n) => link('/hr/forms', { status, page: n }));
    const filters = [{ value: '', label: 'All' }, ...RECORD_STATUSES.map((s) => ({ value: s, label: enumLabel(s) }))].map((f) => ({
      ...f,
      href: link('/hr/forms', { status: f.value }),
      current: f.value === status,
    }));
    renderPage(
      req,
      res,
      'pages/hr/forms',
      { title: 'Manage Forms', noindex: true },
      { forms: results, count, pager, filters, ...formatters(req) },
    );
  });

  router.get('/hr/forms/new', (req, res) => {
    renderPage(
      req,
      res,
      'pages/hr/form-builder',
      { title: 'Create Form', noindex: true },
      { heading: 'Create Form', props: { mode: 'create', formId: null, canChangeApi: req.hr?.role === 'admin', ...builderOptions } },
    );
  });

  router.get('/hr/forms/:id/edit', async (req, res) => {
    const current = await form(req);
    const heading = `Edit Form: ${current.title}`;
    renderPage(
      req,
      res,
      'pages/hr/form-builder',
      { title: heading, noindex: true },
      { heading, props: { mode: 'edit', formId: current.id, canChangeApi: req.hr?.role === 'admin', ...builderOptions } },
    );
  });

  router.get('/hr/forms/:id/entries', async (req, res) => {
    const current = await form(req);
    const page = htmlPageNumber(req);
    const { count, results } = await listEntries(db, current, page, PAGE_SIZE);
    const pager = htmlPager(page, count, PAGE_SIZE, (n) => link(`/hr/forms/${current.id}/entries`, { page: n }));
    renderPage(
      req,
      res,
      'pages/hr/form-entries',
      { title: `Entries: ${current.title}`, noindex: true },
      { form: current, entries: results, count, pager, labels: labelsOf(current), ...formatters(req) },
    );
  });

  router.get('/hr/forms/:id/entries/:entryId', async (req, res) => {
    const current = await form(req);
    const entry = await getEntry(db, current, pathId(req.params.entryId));
    renderPage(
      req,
      res,
      'pages/hr/form-entry',
      { title: `Entry #${entry.id}`, noindex: true },
      { form: current, entry, fields: fieldsInOrder(current), downloadFailed: FORM_MESSAGES.downloadFailed },
    );
  });

  router.get('/hr/forms/:id/posts', async (req, res) => {
    const current = await form(req);
    const status = statusFilter(req, ['SUCCESS', 'FAILED']);
    const page = htmlPageNumber(req);
    const { count, results } = await formPosts(db, current.id, status as 'SUCCESS' | 'FAILED' | '', { page, pageSize: PAGE_SIZE });
    const path = `/hr/forms/${current.id}/posts`;
    const pager = htmlPager(page, count, PAGE_SIZE, (n) => link(path, { status, page: n }));
    const filters = [
      { value: '', label: 'All' },
      { value: 'SUCCESS', label: 'Success' },
      { value: 'FAILED', label: 'Failed' },
    ].map((f) => ({ ...f, href: link(path, { status: f.value }), current: f.value === status }));
    renderPage(
      req,
      res,
      'pages/hr/form-posts',
      { title: `API Posts: ${current.title}`, noindex: true },
      { form: current, posts: results, count, pager, filters, status, refresh: link(path, { status, page }), ...formatters(req) },
    );
  });

  router.get('/form/:publicId', async (req, res) => {
    const found = await getPublicForm(db, String(req.params.publicId)).catch((err) => {
      if (err instanceof NotFound) return null;
      throw err;
    });
    if (!found)
      return renderPage(
        req,
        res,
        'pages/public/form-unavailable',
        { title: FORM_MESSAGES.notFound, noindex: true, status: 404 },
        { message: FORM_MESSAGES.notFound },
      );
    renderPage(
      req,
      res,
      'pages/public/form',
      { title: found.title, description: found.description.slice(0, 160), noindex: true },
      { form: toPublicForm(found) },
    );
  });

  return router;
}

/** Field labels by name, for the entries table's previews. */
function labelsOf(form: Form): Record<string, string> {
  return Object.fromEntries(fieldsInOrder(form).map((f) => [f.name, f.label || f.name]));
}

/** Reading what forms received (HR): the forms list, entries page by page, one entry, its files, the export. */
import type { Db } from '../db/knex.js';
import { unavailableOr, type Download } from '../http/download.js';
import { NotFound } from '../http/errors.js';
import { openReadable, type FileStorage } from '../storage/storage.js';
import * as queries from './queries.js';
import { FORM_MESSAGES } from './schema.js';
import type { Entry, Form, FormSummary } from './types.js';
import type { RecordStatus } from '../shared/enums.js';
import type { WorkbookSpec } from '../exports/xlsx.js';
import type { Logger } from '../log/logger.js';
import { formPostsExport } from '../posts/index.js';
import type { PostStatus } from '../posts/types.js';
import { requireForm } from './manage.service.js';

export function listForms(
  db: Db,
  status: RecordStatus | '',
  page: number,
  pageSize: number,
): Promise<{ count: number; results: FormSummary[] }> {
  return queries.pageForms(db, status, (page - 1) * pageSize, pageSize);
}

export function listEntries(db: Db, form: Form, page: number, pageSize: number): Promise<{ count: number; results: Entry[] }> {
  return queries.pageEntries(db, form, (page - 1) * pageSize, pageSize);
}

export async function getEntry(db: Db, form: Form, entryId: number): Promise<Entry> {
  const entry = await queries.findEntry(db, form, entryId);
  if (!entry) throw new NotFound(FORM_MESSAGES.entryNotFound);
  return entry;
}

/** An entry's file, opened before anything is sent: a missing row or file is a 404, never half a download. */
export async function openEntryFile(
  { db, storage, log }: { db: Db; storage: FileStorage; log: Logger },
  formId: number,
  entryId: number,
  fileId: number,
): Promise<Download> {
  const file = await queries.findEntryFile(db, formId, entryId, fileId);
  if (!file) throw new NotFound(FORM_MESSAGES.entryNotFound);
  try {
    return {
      name: file.original_name,
      contentType: file.content_type,
      size: file.size,
      stream: await openReadable(storage, file.storage_key),
    };
  } catch (err) {
    log.error({ entryId, fileId, key: file.storage_key, err: (err as Error).message }, '[forms] an entry file cannot be read from storage');
    throw unavailableOr(err, new NotFound(FORM_MESSAGES.entryNotFound));
  }
}

/** The entries workbook of a form (404 for an unknown form): its file name, columns and rows. */
export async function entriesExport(db: Db, formId: number): Promise<WorkbookSpec> {
  const form = await requireForm(db, formId);
  return {
    filename: `form_${form.id}_entries.xlsx`,
    sheetName: 'Entries',
    columns: queries.entryColumns(form),
    rows: queries.entryRows(db, form),
  };
}

/** The workbook of a form's API posts (404 for an unknown form); '' = every status. The outbox is the posts feature's. */
export async function formPostsWorkbook(db: Db, formId: number, status: PostStatus | ''): Promise<WorkbookSpec> {
  const form = await requireForm(db, formId);
  return formPostsExport(db, form.id, status);
}

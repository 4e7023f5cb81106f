/**
 * The public form: read it, and submit an entry. The entry, its files' rows and its API post are
 * committed in one transaction after the files are written (src/storage/committed-files.ts); a
 * refused submission leaves no row and no file.
 */
import type { Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { DB_RETRY_AFTER_SECONDS, describeDbError } from '../db/errors.js';
import { addressHash } from '../http/address-hash.js';
import { NotFound, ServiceUnavailable, ValidationError } from '../http/errors.js';
import type { FileRule, MultipartOptions, ReceivedFile, ReceivedForm } from '../http/multipart.js';
import { judgeUpload } from '../http/upload-type.js';
import { enqueueFormPost, type OutboxSignal } from '../posts/index.js';
import { downloadName } from '../shared/download-name.js';
import { CommitOutcomeUnknown, commitRows, discardFiles, withOwnedFiles } from '../storage/committed-files.js';
import type { FileStorage } from '../storage/storage.js';
import * as repo from './repo.js';
import { FORM_LIMITS, FORM_MESSAGES, valuesErrors, type FileFacts, fieldsInOrder } from './schema.js';
import type { EntryValue, Form, PublicForm } from './types.js';
import type { Logger } from '../log/logger.js';

/** The form's public face: never the API settings. */
export function toPublicForm(form: Form): PublicForm {
  const { public_id, title, description, success_message, inactive_notice, accepting_submissions, sections } = form;
  return { public_id, title, description, success_message, inactive_notice, accepting_submissions, sections };
}

/** A public form by its public id: REMOVED or unknown is the spec's 404 'Form not found or unavailable.' */
export async function getPublicForm(db: Db, publicId: string): Promise<Form> {
  const form = await repo.findFormByPublicId(db, publicId);
  if (!form || form.status === 'REMOVED') throw new NotFound(FORM_MESSAGES.notFound);
  return form;
}

/** An inactive form answers its notice (or the spec's default) before a byte of the body is read. */
export function assertAccepting(form: Form): void {
  if (!form.accepting_submissions) throw new ValidationError({}, form.inactive_notice || FORM_MESSAGES.notAccepting);
}

/** The honeypot part, sent beside `values`: people leave it empty, bots fill it. */
const FORM_HONEYPOT = 'website';

/** The multipart limits of one form's submission: one file part per file field, each within its own limit. */
export function uploadOptions(form: Form): MultipartOptions {
  const fileRules = new Map<string, FileRule>();
  for (const f of fieldsInOrder(form)) {
    if (f.field_type !== 'file') continue;
    // The type is judged from the stored bytes after the upload (judgeUpload); here only the size.
    fileRules.set(f.name, {
      maxBytes: f.max_file_size ?? FORM_LIMITS.defaultFileBytes,
      tooLargeMessage: FORM_MESSAGES.fileTooLarge,
      headBytes: 1,
      checkHead: () => null,
      tailBytes: () => 0,
    });
  }
  return {
    fileRules,
    maxTotalFileBytes: FORM_LIMITS.submissionFileBytes,
    maxFields: 4,
    maxFieldBytes: 1024 * 1024,
    maxTextBytes: 1024 * 1024 + 4096,
    maxParts: fileRules.size + 4,
    notMultipartMessage: 'Send the form as multipart/form-data.',
  };
}

export interface SubmitDeps {
  db: Db;
  storage: FileStorage;
  now: () => Date;
  log: Logger;
  outbox?: OutboxSignal;
  /** Keys the hash of the client address kept with the entry (none: no hash). */
  serverKey?: ServerKey;
}

export type SubmitOutcome = { kind: 'created'; entryId: number } | { kind: 'discarded' };

/** The `values` part as an object, or the 400 that says why not. */
function parseValues(form: ReceivedForm): Record<string, unknown> {
  if (form.repeated.has('values')) throw new ValidationError({ values: ['Give this part once.'] });
  const raw = form.fields.get('values') ?? '{}';
  let values: unknown;
  try {
    values = JSON.parse(raw);
  } catch {
    throw new ValidationError({ values: [FORM_MESSAGES.valuesNotObject] });
  }
  if (!values || typeof values !== 'object' || Array.isArray(values))
    throw new ValidationError({ values: [FORM_MESSAGES.valuesNotObject] });
  return values as Record<string, unknown>;
}

/** The name a file is kept and downloaded under: its cleaned base name and the detected type's extension. */
function storedName(file: ReceivedFile, fieldName: string, ext: string): string {
  const base = file.clientName.replace(/\.[^.]*$/, '');
  return downloadName([base], ext, fieldName);
}

/** What an API post carries for each mapped field: the value, or a file's {name, size, content_type} (never its bytes). */
function apiPayload(
  form: Form,
  data: Record<string, EntryValue>,
  files: Map<string, { name: string; size: number; content_type: string }>,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(form.api_mapping).map(([key, field]) => [key, files.get(field) ?? data[field] ?? null]));
}

/**
 * Takes ownership of the received files: kept with a committed entry (or when the commit's
 * outcome is unknown: 503), removed on any refusal. A filled honeypot is answered like a success,
 * with nothing kept.
 */
export async function submitEntry(
  deps: SubmitDeps,
  form: Form,
  received: ReceivedForm,
  meta: { ip?: string | null } = {},
): Promise<SubmitOutcome> {
  const keys = [...received.files.values()].map((f) => f.key);
  if (received.fields.get(FORM_HONEYPOT)?.trim()) {
    await discardFiles(deps.storage, keys, deps.log);
    return { kind: 'discarded' };
  }
  try {
    return await withOwnedFiles(deps.storage, keys, deps.log, async () => {
      const fields = fieldsInOrder(form);
      const values = parseValues(received);
      const known = new Set(fields.map((f) => f.name));
      const unknown = Object.keys(values).filter((k) => !known.has(k));
      if (unknown.length) throw new ValidationError({}, FORM_MESSAGES.unknownField(unknown[0]));
      const facts = new Map<string, FileFacts>([...received.files].map(([name, f]) => [name, { size: f.size, name: f.clientName }]));
      const { data, errors } = valuesErrors(fields, values, facts);
      // Types from the bytes, for the files the name checks let through.
      const kept = new Map<string, { name: string; size: number; content_type: string }>();
      for (const field of fields) {
        const file = received.files.get(field.name);
        if (field.field_type !== 'file' || !file || errors[field.name]) continue;
        const type = await judgeUpload(file.clientName, field.allowed_extensions, () => deps.storage.read(file.key));
        if (!type) errors[field.name] = FORM_MESSAGES.fileType;
        else kept.set(field.name, { name: storedName(file, field.name, type.ext), size: file.size, content_type: type.mime });
      }
      if (Object.keys(errors).length) throw new ValidationError(Object.fromEntries(Object.entries(errors).map(([k, m]) => [k, [m]])));

      const now = deps.now();
      const ipHash = await addressHash(deps.serverKey, meta.ip, 'form');
      const entryId = await commitRows(deps.db, async (trx) => {
        const id = await repo.insertEntry(
          trx,
          {
            formId: form.id,
            data,
            ipHash,
            files: [...kept].map(([field_name, f]) => {
              const file = received.files.get(field_name)!;
              return {
                field_name,
                storage_key: file.key,
                original_name: f.name,
                content_type: f.content_type,
                size: f.size,
                sha256: file.sha256,
              };
            }),
          },
          now,
        );
        if (form.api_enabled && form.api_url)
          await enqueueFormPost(trx, { formId: form.id, entryId: id, targetUrl: form.api_url, payload: apiPayload(form, data, kept), now });
        return id;
      });
      deps.outbox?.notify();
      return { kind: 'created', entryId } as const;
    });
  } catch (err) {
    if (err instanceof CommitOutcomeUnknown) {
      deps.log.error(
        { formId: form.id, cause: describeDbError(err.cause) },
        '[forms] the commit of an entry failed with its outcome unknown; its files are kept (the orphan sweep removes them if no row points at them)',
      );
      throw new ServiceUnavailable(
        'We could not confirm that your response was saved. Please wait a moment, then check with the form owner before sending it again.',
        DB_RETRY_AFTER_SECONDS,
      );
    }
    throw err;
  }
}

/** Managing forms (HR): validate, create, update, activate, deactivate, remove; each change audited. */
import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '../db/errors.js';
import { Forbidden, HttpError, NotFound, ValidationError } from '../http/errors.js';
import { isAllowedHost } from '../http/private-address.js';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { randomPublicId, slugPublicId } from '../shared/ids.js';
import { RECORD_STATUSES, isOneOf, type RecordStatus } from '../shared/enums.js';
import * as repo from './repo.js';
import { FORM_ERROR_ORDER, FORM_MESSAGES, duplicateFieldNames, formInputSchema, type FormInput } from './schema.js';
import type { Form } from './types.js';

export interface FormDeps {
  db: Db;
  now: () => Date;
}

/** Built once per address policy: building one costs more than a parse. */
const FORM_SCHEMAS = { public: formInputSchema({ apiHostAllowed: isAllowedHost }), private: formInputSchema({}) };

/**
 * Validates a form payload (src/forms/schema.ts): a 400 with every problem found, and with
 * `duplicate_field_names` ([{section_index, duplicates}]) when a field name repeats (spec 02 section 8).
 * `allowPrivateApi`: WEBHOOK_ALLOW_PRIVATE, API URLs may name local or private hosts. `current`: the
 * form being updated, whose stored API secret may come back unchanged.
 */
export function parseFormInput(body: unknown, allowPrivateApi: boolean, current?: Form): FormInput {
  const schema = current
    ? formInputSchema({ apiHostAllowed: allowPrivateApi ? undefined : isAllowedHost, storedApiSecret: current.api_secret })
    : FORM_SCHEMAS[allowPrivateApi ? 'private' : 'public'];
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error.issues, FORM_ERROR_ORDER);
  const sections = (body as { sections?: unknown } | null)?.sections;
  const duplicates = Array.isArray(sections) ? duplicateFieldNames(sections.map((s) => ({ fields: fieldsOf(s) }))) : [];
  if (duplicates.length) throw new HttpError(400, 'Invalid input.', { ...errors, duplicate_field_names: duplicates });
  throw new ValidationError(errors, errors.detail?.[0]);
}

/** The fields a section sent (objects only), for the duplicates report. */
function fieldsOf(section: unknown): { name: unknown }[] {
  const fields = (section as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? fields.filter((f): f is { name: unknown } => !!f && typeof f === 'object') : [];
}

export async function requireForm(db: Db, id: number): Promise<Form> {
  const form = await repo.findFormById(db, id);
  if (!form) throw new NotFound('Not found.');
  return form;
}

const DUPLICATE_PUBLIC_ID = 'A form with this public id already exists.';
const PUBLIC_ID_READ_ONLY = 'The public id cannot be changed.';

/** A public id made from the title (`-2`, `-3` ... on a clash), or random when the title has no letter or digit. */
async function newPublicId(db: Db, title: string): Promise<string> {
  const base = slugPublicId(title);
  if (!base) return randomPublicId();
  const candidates = [base, ...Array.from({ length: 19 }, (_, i) => `${base.slice(0, 60)}-${i + 2}`)];
  const taken = await repo.takenFormPublicIds(db, candidates);
  return candidates.find((c) => !taken.has(c)) ?? randomPublicId();
}

/** Creates a form (INACTIVE unless the payload says otherwise); a blank public id is made from the title. */
export async function createForm({ db, now }: FormDeps, input: FormInput, userId: number | null): Promise<Form> {
  const at = now();
  for (let attempt = 0; attempt < 5; attempt++) {
    const publicId = input.public_id ?? (attempt < 2 ? await newPublicId(db, input.title) : randomPublicId());
    try {
      const id = await db.transaction(async (trx) => {
        const formId = await repo.insertForm(trx, publicId, input, at);
        await repo.insertFormAudit(
          trx,
          { userId, action: 'form.create', formId, details: { public_id: publicId, title: input.title, status: input.status } },
          at,
        );
        return formId;
      });
      return (await repo.findFormById(db, id))!;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.public_id) throw new ValidationError({ public_id: [DUPLICATE_PUBLIC_ID] });
    }
  }
  throw new Error('Could not make a unique public id');
}

/** The settings that decide where a form's entries are sent. */
const API_FIELDS = ['api_enabled', 'api_url', 'api_secret'] as const;
const NO_API = { api_enabled: false, api_url: null, api_secret: null };

/**
 * Issue 28: where every later entry goes is an admin's choice. Anyone else (`isAdmin` false) may
 * create a form only without API posts and save one only with its API settings as stored (the
 * builder sends them back unchanged); otherwise 403. The mapping stays theirs: it only names
 * which of the form's fields go to the address an admin set.
 */
export function assertApiUnchanged(isAdmin: boolean, input: FormInput, current?: Form): void {
  if (isAdmin) return;
  const before: Pick<Form, (typeof API_FIELDS)[number]> = current ?? NO_API;
  if (API_FIELDS.some((f) => (before[f] || null) !== (input[f] || null))) throw new Forbidden(FORM_MESSAGES.apiAdminOnly);
}

const AUDITED = ['title', 'description', 'success_message', 'inactive_notice', 'status', 'api_enabled', 'api_url', 'api_secret'] as const;

/** Full update (PUT); the public id is fixed once made: it may be repeated or left out. */
export async function updateForm({ db, now }: FormDeps, current: Form, input: FormInput, userId: number | null): Promise<Form> {
  if (input.public_id !== null && input.public_id !== current.public_id) throw new ValidationError({ public_id: [PUBLIC_ID_READ_ONLY] });
  const changed: string[] = AUDITED.filter((f) => current[f] !== input[f]);
  if (JSON.stringify(current.api_mapping) !== JSON.stringify(input.api_mapping)) changed.push('api_mapping');
  if (JSON.stringify(current.sections) !== JSON.stringify(input.sections)) changed.push('sections');
  const at = now();
  await db.transaction(async (trx) => {
    await repo.updateForm(trx, current.id, input, at);
    await repo.insertFormAudit(
      trx,
      { userId, action: 'form.update', formId: current.id, details: { public_id: current.public_id, changed } },
      at,
    );
  });
  return (await repo.findFormById(db, current.id))!;
}

export const STATUS_MESSAGE = `Select a valid status: ${RECORD_STATUSES.join(', ')}.`;

/** PATCH `{status}`: Activate, Deactivate (and any status); a body without a valid status is a 400. */
export function parseStatusChange(body: unknown): RecordStatus {
  const status = (body as { status?: unknown } | null)?.status;
  if (!isOneOf(RECORD_STATUSES, status)) throw new ValidationError({ status: [STATUS_MESSAGE] });
  return status;
}

/** Sets a form's status; Remove (DELETE) is status REMOVED, entries and files kept. */
export async function changeFormStatus(
  { db, now }: FormDeps,
  current: Form,
  status: RecordStatus,
  userId: number | null,
  action = 'form.status',
): Promise<Form> {
  const at = now();
  await db.transaction(async (trx) => {
    await repo.setFormStatus(trx, current.id, status, at);
    await repo.insertFormAudit(
      trx,
      { userId, action, formId: current.id, details: { public_id: current.public_id, from: current.status, to: status } },
      at,
    );
  });
  return (await repo.findFormById(db, current.id))!;
}

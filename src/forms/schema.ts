/**
 * Input rules of the forms feature, Node-free (the form-builder and public-form islands import
 * them), with spec 02's messages declared once:
 * - a form (HR create/update): `formInputSchema`; errors keyed by field, nested as
 *   "sections.0.fields.1.name". Field names are unique across the whole form (an entry's `data` is
 *   keyed by name): `duplicateFieldNames` lists repeats per section for the 400's
 *   `duplicate_field_names` and the builder's highlight;
 * - a public submission: `valuesErrors` checks the values of some fields (one section in the
 *   island, all of them on the server) with the spec's per-field messages.
 */
import * as z from 'zod/mini';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { fileExtension, normaliseExtension } from '../shared/download-name.js';
import { RECORD_STATUSES, type RecordStatus } from '../shared/enums.js';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import {
  bool,
  choice,
  isBlank,
  isObject,
  multilineText,
  oneLine,
  oneLineListCheck,
  outboundUrl,
  publicIdInput,
  rowId,
  signingSecret,
  text,
  wholeNumber,
} from '../shared/input-rules.js';
import { CHOICE_FIELD_TYPES, FIELD_TYPES, type EntryValue, type FieldType, type FormField } from './types.js';

const MB = 1024 * 1024;

/** Limits of the form builder and of a submission; the islands set their inputs from these. */
export const FORM_LIMITS = {
  text: 191,
  description: 10_000,
  message: 2_000,
  sections: 20,
  fields: 100,
  fieldName: 64,
  options: 50,
  extensions: 30,
  mappings: 100,
  apiSecret: 255,
  shortAnswer: 1_000,
  longAnswer: 10_000,
  /** A file field without max_file_size. */
  defaultFileBytes: 10 * MB,
  /** All files of one submission together; also the largest max_file_size. */
  submissionFileBytes: 50 * MB,
  bytesPerMb: MB,
} as const;

export const FORM_MESSAGES = {
  // The builder (spec 02 section 5).
  fieldNameRequired: 'Field Name is required.',
  fieldLabelRequired: 'Field Label is required.',
  duplicateInSection: 'Duplicate field name in this section.',
  usedInSection: (n: number) => `Field name already used in section ${n}.`,
  fixHighlighted: 'Please fix highlighted fields before saving.',
  duplicatesDetected: 'Duplicate field names detected — Section',
  saveFailed: 'Save failed.',
  saved: 'Form saved.',
  fieldName: 'Use lowercase letters, digits and underscores.',
  noOptions: 'Add at least one option.',
  tooManyOptions: `At most ${FORM_LIMITS.options} options.`,
  optionTooLong: `Ensure each option has no more than ${FORM_LIMITS.text} characters.`,
  maxFileSize: `Enter a size above 0 and at most ${FORM_LIMITS.submissionFileBytes / MB} MB.`,
  extension: 'Use extensions such as pdf, docx or png (letters and digits).',
  tooManyExtensions: `At most ${FORM_LIMITS.extensions} extensions.`,
  tooManySections: `At most ${FORM_LIMITS.sections} sections.`,
  tooManyFields: `At most ${FORM_LIMITS.fields} fields in a form.`,
  order: 'A valid integer is required.',
  apiUrlInvalid: 'Enter a valid http or https URL.',
  apiUrlCredentials: 'API URL must not contain a user name or password.',
  apiUrlPrivate: 'API URL must not point to a private or local address.',
  apiUrlRequired: 'An API URL is required when API posts are enabled.',
  apiAdminOnly: 'Only an admin may change where entries are sent: API posts (on or off, URL, secret). Ask an admin of your team.',
  apiReadOnly: 'Only an admin can change these settings: each entry goes to this address.',
  mappingNotObject: 'Must be an object of external keys to field names.',
  mappingUnknownField: (name: string) => `No field is named ${name.slice(0, 64)}.`,
  tooManyMappings: `At most ${FORM_LIMITS.mappings} mappings.`,
  notObject: 'Expected a JSON object.',
  // The public form (spec 02 sections 5 and 8).
  required: 'This field is required.',
  fileRequired: 'File is required.',
  fileTooLarge: 'File too large.',
  fileType: 'File type not allowed.',
  email: 'Enter a valid email.',
  number: 'Enter a number.',
  option: 'Select a valid option.',
  options: 'Select valid options.',
  notFound: 'Form not found or unavailable.',
  formId: 'A valid form id is required.',
  notAccepting: 'This form is not accepting submissions.',
  fixAndRetry: 'Please fix the highlighted fields and try again.',
  submitFailed: 'Submission failed. Please try again later.',
  submitted: 'Your response has been submitted.',
  thanks: 'Thanks!',
  valuesNotObject: 'Send the values as a JSON object.',
  unknownField: (name: string) => `This form has no field named ${name.slice(0, 64)}.`,
  fileForTextField: 'This field does not take a file.',
  // HR screens.
  downloadFailed: 'Unable to download file. Please check your HR login or contact support.',
  exportFailed: 'Export failed. Please try again.',
  entryNotFound: 'Not found.',
} as const;

export interface FormInput {
  public_id: string | null;
  title: string;
  description: string;
  success_message: string;
  inactive_notice: string;
  status: RecordStatus;
  api_enabled: boolean;
  api_url: string | null;
  api_secret: string | null;
  api_mapping: Record<string, string>;
  sections: { title: string; order: number; fields: FormField[] }[];
}

/** What the form rules need from the server. */
export interface FormInputRules {
  /** Whether an API URL may name this host; absent, any host may be named (WEBHOOK_ALLOW_PRIVATE). */
  apiHostAllowed?: (hostname: string) => boolean;
  /** The API secret the form being updated has stored now: sent back unchanged, it passes whatever rule it was saved under. */
  storedApiSecret?: string | null;
}

/** The error keys' order: a form's, then a section's, then a field's. */
export const FORM_ERROR_ORDER = [
  'detail',
  'public_id',
  'title',
  'description',
  'success_message',
  'inactive_notice',
  'status',
  'api_enabled',
  'api_url',
  'api_secret',
  'api_mapping',
  'sections',
  'fields',
  'name',
  'label',
  'field_type',
  'required',
  'placeholder',
  'help_text',
  'options',
  'order',
  'max_file_size',
  'allowed_extensions',
] as const;

/**
 * What the builder's name input makes of typed text (spec 02 section 5: lowercase letters, digits
 * and underscore): capitals are lowered, accents dropped, spaces and dashes become an underscore;
 * any other character is left out and named in `dropped`, so the builder can say so.
 */
export function shapeFieldName(v: string): { name: string; dropped: string } {
  const plain = v
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s-]/g, '_');
  const dropped = [...new Set(plain.replace(/[a-z0-9_]/g, ''))].join('');
  return { name: plain.replace(/[^a-z0-9_]/g, '').slice(0, FORM_LIMITS.fieldName), dropped };
}

/** A field name made from its label: "Referrer Name" → `referrer_name` (at most 64 characters). */
export function fieldNameFromLabel(label: string): string {
  const { name } = shapeFieldName(label.replace(/[^\p{L}\p{N}]+/gu, ' ').trim());
  return name.replace(/_+/g, '_').replace(/^_|_$/g, '');
}

const FIELD_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;

/** A list of text entries, trimmed, blanks dropped, repeats collapsed (the same for options and extensions). */
const textList = (shape: (s: string) => string) =>
  z.unknown().check(
    z.refine((v) => isBlank(v) || (Array.isArray(v) && v.every((o) => typeof o === 'string')), FIELD_MESSAGES.notTextList),
    z.overwrite((v) => [
      ...new Set(
        (Array.isArray(v) ? v : [])
          .filter((o): o is string => typeof o === 'string')
          .map(shape)
          .filter(Boolean),
      ),
    ]),
  ) as z.ZodMiniType<string[]>;

const options = () =>
  textList((s) => s.trim()).check(
    z.refine((list) => list.length > 0, FORM_MESSAGES.noOptions),
    z.refine((list) => list.length <= FORM_LIMITS.options, FORM_MESSAGES.tooManyOptions),
    z.refine((list) => list.every((o) => o.length <= FORM_LIMITS.text), FORM_MESSAGES.optionTooLong),
    oneLineListCheck(),
  );

const extensions = () =>
  textList(normaliseExtension).check(
    z.refine((list) => list.every((e) => /^[a-z0-9]{1,10}$/.test(e)), FORM_MESSAGES.extension),
    z.refine((list) => list.length <= FORM_LIMITS.extensions, FORM_MESSAGES.tooManyExtensions),
  );

const maxFileSize = () => wholeNumber(1, FORM_LIMITS.submissionFileBytes, FORM_MESSAGES.maxFileSize);

function fieldSchema() {
  const optionList = options();
  const extensionList = extensions();
  const size = maxFileSize();
  return z
    .object({
      name: z.pipe(
        text(FORM_LIMITS.fieldName),
        z.string().check(
          z.refine((s) => s.length > 0, { error: FORM_MESSAGES.fieldNameRequired, abort: true }),
          z.regex(FIELD_NAME_PATTERN, FORM_MESSAGES.fieldName),
        ),
      ),
      label: z.pipe(oneLine(FORM_LIMITS.text), z.string().check(z.minLength(1, FORM_MESSAGES.fieldLabelRequired))),
      field_type: choice(FIELD_TYPES),
      required: bool(),
      placeholder: oneLine(FORM_LIMITS.text),
      help_text: multilineText(FORM_LIMITS.message),
      options: z.optional(z.unknown()),
      order: z.optional(wholeNumber(0, 9999, FORM_MESSAGES.order)),
      max_file_size: z.optional(z.unknown()),
      allowed_extensions: z.optional(z.unknown()),
    })
    .check(
      z.check(
        (ctx) => {
          // Options count for choice fields only, the file settings for file fields only (spec 02 section 5).
          const f = ctx.value as Record<string, unknown>;
          const own = <T>(key: string, schema: z.ZodMiniType<T>, applies: boolean, none: T) => {
            if (!applies) {
              f[key] = none;
              return;
            }
            const r = schema.safeParse(f[key]);
            f[key] = r.success ? r.data : none;
            for (const i of r.error?.issues ?? []) ctx.issues.push(issue(f[key], i.message, [key]));
          };
          const type = f.field_type as FieldType;
          own('options', optionList, CHOICE_FIELD_TYPES.includes(type), [] as string[]);
          own('max_file_size', size, type === 'file', null);
          own('allowed_extensions', extensionList, type === 'file', [] as string[]);
        },
        { when: () => true },
      ),
    ) as unknown as z.ZodMiniType<FormField>;
}

/** A list of at most `max` objects, each judged by `item` (a non-object is refused and judged as {}); `order` defaults to the position. */
function objects<T extends { order?: number | null }>(item: z.ZodMiniType<T>, max: number, tooMany: string) {
  return z.pipe(
    z.transform((v: unknown) => v ?? []),
    z.array(z.unknown(), FIELD_MESSAGES.notList).check(
      z.maxLength(max, { error: tooMany, abort: true }),
      z.check<unknown[]>((ctx) => {
        ctx.value = ctx.value.map((raw, i) => {
          if (!isObject(raw)) ctx.issues.push(issue(raw, FIELD_MESSAGES.notObject, [i]));
          const r = item.safeParse(isObject(raw) ? raw : {});
          for (const e of r.error?.issues ?? []) ctx.issues.push(issue(raw, e.message, [i, ...e.path]));
          // A failed item goes on as sent, so the checks across items (repeated names) still see it.
          return { ...((r.data ?? (isObject(raw) ? raw : {})) as T), order: r.data?.order ?? i };
        });
      }),
    ),
  ) as unknown as z.ZodMiniType<T[]>;
}

/** Field names repeated within one section, or used in an earlier one, per section (index from 0). */
export function duplicateFieldNames(sections: { fields: { name: unknown }[] }[]): { section_index: number; duplicates: string[] }[] {
  const out: { section_index: number; duplicates: string[] }[] = [];
  const earlier = new Set<string>();
  sections.forEach((s, section_index) => {
    const here = new Set<string>();
    const duplicates = new Set<string>();
    for (const field of s.fields) {
      const name = typeof field.name === 'string' ? field.name.trim() : '';
      if (!name) continue;
      if (here.has(name) || earlier.has(name)) duplicates.add(name);
      here.add(name);
    }
    for (const name of here) earlier.add(name);
    if (duplicates.size) out.push({ section_index, duplicates: [...duplicates] });
  });
  return out;
}

/** The builder's message for a save answered with duplicate_field_names (spec 02 section 8). */
export function duplicatesMessage(list: { section_index: number; duplicates: string[] }[]): string {
  return `Duplicate field names detected — ${list.map((d) => `Section ${d.section_index + 1}: ${d.duplicates.join(', ')}`).join('; ')}`;
}

/** Each repeated name's issue: in its own section, or naming the section (from 1) that used it first. */
function duplicateIssues(sections: { fields: { name: unknown }[] }[]): { path: (string | number)[]; message: string }[] {
  const firstSection = new Map<string, number>();
  const out: { path: (string | number)[]; message: string }[] = [];
  sections.forEach((s, si) => {
    const here = new Set<string>();
    s.fields.forEach((raw, fi) => {
      const f = { name: typeof raw.name === 'string' ? raw.name.trim() : '' };
      if (!f.name) return;
      const path = ['sections', si, 'fields', fi, 'name'];
      const before = firstSection.get(f.name);
      if (here.has(f.name)) out.push({ path, message: FORM_MESSAGES.duplicateInSection });
      else if (before !== undefined && before !== si) out.push({ path, message: FORM_MESSAGES.usedInSection(before + 1) });
      here.add(f.name);
      if (before === undefined) firstSection.set(f.name, si);
    });
  });
  return out;
}

/** `{external_key: field_name}`; a blank key or field drops the entry (spec 02 section 5). */
const apiMapping = () =>
  z.pipe(
    z.transform((v: unknown): unknown => v ?? {}),
    z.unknown().check(
      z.refine(isObject, { error: FORM_MESSAGES.mappingNotObject, abort: true }),
      z.refine((v) => Object.values(v as object).every((f) => f === null || typeof f === 'string'), {
        error: FORM_MESSAGES.mappingNotObject,
        abort: true,
      }),
      z.overwrite((v) =>
        Object.fromEntries(
          Object.entries(v as Record<string, string | null>)
            .map(([k, f]) => [k.trim(), (f ?? '').trim()])
            .filter(([k, f]) => k && f),
        ),
      ),
      z.refine((v) => Object.keys(v as object).length <= FORM_LIMITS.mappings, FORM_MESSAGES.tooManyMappings),
      z.refine((v) => Object.keys(v as object).every((k) => k.length <= FORM_LIMITS.text), FIELD_MESSAGES.tooLong(FORM_LIMITS.text)),
    ),
  ) as unknown as z.ZodMiniType<Record<string, string>>;

/** The form schema with the server's rules. */
export function formInputSchema(rules: FormInputRules = {}) {
  const section = z.object({
    title: oneLine(FORM_LIMITS.text),
    order: z.optional(wholeNumber(0, 9999, FORM_MESSAGES.order)),
    fields: objects(fieldSchema(), FORM_LIMITS.fields, FORM_MESSAGES.tooManyFields),
  }) as unknown as z.ZodMiniType<{ title: string; order: number; fields: FormField[] }>;
  return z
    .object(
      {
        public_id: publicIdInput(),
        title: oneLine(FORM_LIMITS.text, true),
        description: multilineText(FORM_LIMITS.description),
        success_message: multilineText(FORM_LIMITS.message),
        inactive_notice: multilineText(FORM_LIMITS.message),
        status: choice(RECORD_STATUSES, 'INACTIVE'),
        api_enabled: bool(),
        api_url: outboundUrl(
          { invalid: FORM_MESSAGES.apiUrlInvalid, credentials: FORM_MESSAGES.apiUrlCredentials, private: FORM_MESSAGES.apiUrlPrivate },
          rules.apiHostAllowed,
        ),
        api_secret: signingSecret(FORM_LIMITS.apiSecret, rules.storedApiSecret),
        api_mapping: apiMapping(),
        sections: objects(section, FORM_LIMITS.sections, FORM_MESSAGES.tooManySections),
      },
      FORM_MESSAGES.notObject,
    )
    .check(
      z.check(
        (ctx) => {
          // Rules across fields, judged on what each field made of its value even when another failed.
          const f = ctx.value as Partial<FormInput>;
          if (f.api_enabled === true && !f.api_url) ctx.issues.push(issue(f.api_url, FORM_MESSAGES.apiUrlRequired, ['api_url']));
          const sections = Array.isArray(f.sections) ? f.sections : [];
          if (sections.reduce((n, s) => n + (Array.isArray(s.fields) ? s.fields.length : 0), 0) > FORM_LIMITS.fields)
            ctx.issues.push(issue(sections, FORM_MESSAGES.tooManyFields, ['sections']));
          for (const d of duplicateIssues(sections.map((s) => ({ fields: Array.isArray(s.fields) ? s.fields : [] }))))
            ctx.issues.push(issue(null, d.message, d.path));
          const names = new Set(sections.flatMap((s) => (Array.isArray(s.fields) ? s.fields : []).map((x) => x.name)));
          for (const field of Object.values(f.api_mapping ?? {})) {
            if (!names.has(field)) ctx.issues.push(issue(field, FORM_MESSAGES.mappingUnknownField(field), ['api_mapping']));
          }
        },
        { when: (p) => typeof p.value === 'object' && p.value !== null },
      ),
    ) as unknown as z.ZodMiniType<FormInput>;
}

/** The fields of a form in section order (what exports, previews and the server's checks walk). */
export function fieldsInOrder(form: { sections: { fields: FormField[] }[] }): FormField[] {
  return form.sections.flatMap((s) => s.fields);
}

/** A file as the value checks see it: its size and the name it was sent with. */
export interface FileFacts {
  size: number;
  name: string;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** One field's value as stored, or its message (spec 02 section 5, checked per section). */
export function fieldValueError(field: FormField, value: unknown, file?: FileFacts | null): { error: string } | { value: EntryValue } {
  if (field.field_type === 'file') {
    if (!file) return field.required ? { error: FORM_MESSAGES.fileRequired } : { value: null };
    if (file.size > (field.max_file_size ?? FORM_LIMITS.defaultFileBytes)) return { error: FORM_MESSAGES.fileTooLarge };
    const allowed = field.allowed_extensions.map(normaliseExtension);
    if (allowed.length && !allowed.includes(fileExtension(file.name))) return { error: FORM_MESSAGES.fileType };
    return { value: null };
  }
  if (isEmpty(value)) return field.required ? { error: FORM_MESSAGES.required } : { value: field.field_type === 'checkbox' ? [] : null };
  switch (field.field_type) {
    case 'number': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value)
            ? Number(value)
            : NaN;
      return Number.isFinite(n) ? { value: n } : { error: FORM_MESSAGES.number };
    }
    case 'email': {
      if (typeof value !== 'string' || emailError(value)) return { error: FORM_MESSAGES.email };
      // Stored as applications store addresses, so an erase finds it exactly.
      return { value: storedEmail(value) };
    }
    case 'single_choice':
    case 'dropdown':
      return typeof value === 'string' && field.options.includes(value) ? { value } : { error: FORM_MESSAGES.option };
    case 'checkbox': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && field.options.includes(v)))
        return { error: FORM_MESSAGES.options };
      return { value: [...new Set(value as string[])] };
    }
    default: {
      if (typeof value !== 'string') return { error: FIELD_MESSAGES.notText };
      const max = field.field_type === 'long_text' ? FORM_LIMITS.longAnswer : FORM_LIMITS.shortAnswer;
      const clean = value.replace(/\u0000/g, '').trim();
      return [...clean].length > max ? { error: FIELD_MESSAGES.tooLong(max) } : { value: clean };
    }
  }
}

/** The values of `fields` as stored, and each failing field's message by name. */
export function valuesErrors(
  fields: FormField[],
  values: Record<string, unknown>,
  files: ReadonlyMap<string, FileFacts>,
): { data: Record<string, EntryValue>; errors: Record<string, string> } {
  const data: Record<string, EntryValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const r = fieldValueError(field, values[field.name], files.get(field.name) ?? null);
    if ('error' in r) errors[field.name] = r.error;
    else if (field.field_type !== 'file') data[field.name] = r.value;
  }
  return { data, errors };
}

/** The CLI's `--form` (forms purge): the one id rule. A function, so islands importing messages bundle no zod. */
export const formOptionSchema = () => rowId(FORM_MESSAGES.formId);

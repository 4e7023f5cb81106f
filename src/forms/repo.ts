/** All writes of the forms feature (forms, their sections and fields, entries and their files) and the reads writes need. */
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, fromDbJson, insertedId, toDbBool, toDbDate, toDbJson } from '../db/codecs.js';
import type { RecordStatus } from '../shared/enums.js';
import type { FormInput } from './schema.js';
import type { EntryValue, Form, FormField, FormSection } from './types.js';

type Row = Record<string, any>;

function mapField(r: Row): FormField {
  return {
    name: r.name,
    label: r.label,
    field_type: r.field_type,
    required: fromDbBool(r.required),
    placeholder: r.placeholder ?? '',
    help_text: r.help_text ?? '',
    options: fromDbJson<string[]>(r.options, []),
    order: Number(r.position),
    max_file_size: r.max_file_size === null || r.max_file_size === undefined ? null : Number(r.max_file_size),
    allowed_extensions: fromDbJson<string[]>(r.allowed_extensions, []),
  };
}

export function mapForm(r: Row, sections: FormSection[], sectionsCount = sections.length): Form {
  const status = r.status as RecordStatus;
  return {
    id: Number(r.id),
    public_id: r.public_id,
    title: r.title,
    description: r.description ?? '',
    success_message: r.success_message ?? '',
    inactive_notice: r.inactive_notice ?? '',
    status,
    api_enabled: fromDbBool(r.api_enabled),
    api_url: r.api_url || null,
    api_secret: r.api_secret || null,
    api_mapping: fromDbJson<Record<string, string>>(r.api_mapping, {}),
    sections,
    sections_count: sectionsCount,
    accepting_submissions: status === 'ACTIVE',
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/** The form's sections in order, each with its fields in order. */
async function loadSections(db: Knex, formId: number): Promise<FormSection[]> {
  const [sections, fields]: [Row[], Row[]] = await Promise.all([
    db('form_sections')
      .where({ form_id: formId })
      .orderBy([{ column: 'position' }, { column: 'id' }]),
    db('form_fields')
      .where({ form_id: formId })
      .orderBy([{ column: 'position' }, { column: 'id' }]),
  ]);
  return sections.map((s) => ({
    title: s.title ?? '',
    order: Number(s.position),
    fields: fields.filter((f) => Number(f.section_id) === Number(s.id)).map(mapField),
  }));
}

export async function findFormById(db: Knex, id: number): Promise<Form | null> {
  const row = await db('forms').where({ id }).first();
  return row ? mapForm(row, await loadSections(db, id)) : null;
}

/** Public ids compare exactly on both databases (utf8mb4_bin on MySQL, migration 004). */
export async function findFormByPublicId(db: Knex, publicId: string): Promise<Form | null> {
  const row = await db('forms').where({ public_id: publicId }).first();
  return row ? mapForm(row, await loadSections(db, Number(row.id))) : null;
}

/** Which of `ids` are public ids of existing forms (one query). */
export async function takenFormPublicIds(db: Knex, ids: string[]): Promise<Set<string>> {
  return new Set((await db('forms').whereIn('public_id', ids).pluck('public_id')) as string[]);
}

function formColumns(input: FormInput, now: Date): Row {
  return {
    title: input.title,
    description: input.description,
    success_message: input.success_message,
    inactive_notice: input.inactive_notice,
    status: input.status,
    api_enabled: toDbBool(input.api_enabled),
    api_url: input.api_url,
    api_secret: input.api_secret,
    api_mapping: toDbJson(input.api_mapping),
    updated_at: toDbDate(now),
  };
}

/** The sections and fields as sent, in their order; run inside the caller's transaction. */
async function replaceSections(trx: Knex, formId: number, sections: FormInput['sections']): Promise<void> {
  // Entries keep their values by field name, so fields need no stable ids: the old rows go.
  await trx('form_fields').where({ form_id: formId }).delete();
  await trx('form_sections').where({ form_id: formId }).delete();
  for (const section of sections) {
    const sectionId = insertedId(await trx('form_sections').insert({ form_id: formId, title: section.title, position: section.order }));
    if (!section.fields.length) continue;
    await trx('form_fields').insert(
      section.fields.map((f) => ({
        form_id: formId,
        section_id: sectionId,
        name: f.name,
        label: f.label,
        field_type: f.field_type,
        required: toDbBool(f.required),
        placeholder: f.placeholder,
        help_text: f.help_text,
        options: toDbJson(f.options),
        position: f.order,
        max_file_size: f.max_file_size,
        allowed_extensions: toDbJson(f.allowed_extensions),
      })),
    );
  }
}

export async function insertForm(trx: Knex, publicId: string, input: FormInput, now: Date): Promise<number> {
  const id = insertedId(await trx('forms').insert({ ...formColumns(input, now), public_id: publicId, created_at: toDbDate(now) }));
  await replaceSections(trx, id, input.sections);
  return id;
}

export async function updateForm(trx: Knex, id: number, input: FormInput, now: Date): Promise<void> {
  await trx('forms').where({ id }).update(formColumns(input, now));
  await replaceSections(trx, id, input.sections);
}

export async function setFormStatus(trx: Knex, id: number, status: RecordStatus, now: Date): Promise<void> {
  await trx('forms')
    .where({ id })
    .update({ status, updated_at: toDbDate(now) });
}

/** Who changed which form and when; written in the same transaction as the change. */
export async function insertFormAudit(
  trx: Knex,
  entry: { userId: number | null; action: string; formId: number; details: Record<string, unknown> },
  now: Date,
): Promise<void> {
  await trx('audit_log').insert({
    user_id: entry.userId,
    action: entry.action,
    entity: 'form',
    entity_id: entry.formId,
    details: toDbJson(entry.details),
    created_at: toDbDate(now),
  });
}

export interface NewEntryFile {
  field_name: string;
  storage_key: string;
  original_name: string;
  content_type: string;
  size: number;
  sha256: string;
}

/** An entry with its files' rows; run inside the caller's transaction. */
export async function insertEntry(
  trx: Knex,
  entry: { formId: number; data: Record<string, EntryValue>; ipHash: string | null; files: NewEntryFile[] },
  now: Date,
): Promise<number> {
  const at = toDbDate(now);
  const entryId = insertedId(
    await trx('form_entries').insert({ form_id: entry.formId, data: toDbJson(entry.data), ip_hash: entry.ipHash, created_at: at }),
  );
  for (const { field_name, ...file } of entry.files) {
    const fileId = insertedId(await trx('stored_files').insert({ ...file, created_at: at }));
    await trx('form_entry_files').insert({ entry_id: entryId, field_name, file_id: fileId });
  }
  return entryId;
}

/** Deletes entries (their files' rows, API posts and attempts go by cascade or here) with one audit row; run inside the caller's transaction. */
export async function deleteEntries(
  trx: Knex,
  entries: { id: number; keys: { fileId: number }[] }[],
  audit: { action: string; details: Record<string, unknown> },
  now: Date,
): Promise<void> {
  const ids = entries.map((e) => e.id);
  const fileIds = entries.flatMap((e) => e.keys.map((k) => k.fileId));
  for (let i = 0; i < ids.length; i += 500)
    await trx('form_entries')
      .whereIn('id', ids.slice(i, i + 500))
      .delete();
  for (let i = 0; i < fileIds.length; i += 500)
    await trx('stored_files')
      .whereIn('id', fileIds.slice(i, i + 500))
      .delete();
  await trx('audit_log').insert({
    user_id: null,
    action: audit.action,
    entity: 'form_entry',
    entity_id: null,
    details: toDbJson(audit.details),
    created_at: toDbDate(now),
  });
}

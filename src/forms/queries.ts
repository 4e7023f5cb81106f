/** Read models of the forms feature: the Manage Forms list, entries (page, one, export) and entry files. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, toDbDate } from '../db/codecs.js';
import { storedEmail } from '../shared/application-rules.js';
import type { CellValue, ExportColumn } from '../exports/xlsx.js';
import type { RecordStatus } from '../shared/enums.js';
import { mapForm } from './repo.js';
import { fieldsInOrder } from './schema.js';
import type { Entry, EntryFile, EntryValue, Form, FormSummary } from './types.js';

type Row = Record<string, any>;

/** A page of forms, newest first, with their section counts (one query for the counts). */
export async function pageForms(
  db: Knex,
  status: RecordStatus | '',
  offset: number,
  limit: number,
): Promise<{ count: number; results: FormSummary[] }> {
  const filtered = () => (status ? db('forms').where({ status }) : db('forms'));
  const [[{ n }], rows]: [Row[], Row[]] = await Promise.all([
    filtered().count({ n: '*' }),
    filtered()
      .select('id', 'public_id', 'title', 'status', 'api_enabled', 'api_url', 'created_at', 'updated_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset),
  ]);
  const ids = rows.map((r) => Number(r.id));
  const counts: Row[] = ids.length
    ? await db('form_sections').whereIn('form_id', ids).groupBy('form_id').select('form_id').count({ n: '*' })
    : [];
  const countOf = new Map(counts.map((c) => [Number(c.form_id), Number(c.n)]));
  const results = rows.map((r) => {
    const {
      sections: _s,
      api_secret: _a,
      api_mapping: _m,
      description: _d,
      success_message: _sm,
      inactive_notice: _i,
      ...summary
    } = mapForm(r, [], countOf.get(Number(r.id)) ?? 0);
    return summary;
  });
  return { count: Number(n), results };
}

const PREVIEW_VALUES = 3;
const PREVIEW_LENGTH = 100;

/** A value as one line of text (lists joined by ', '). */
function valueText(v: EntryValue | undefined): string {
  if (v === null || v === undefined) return '';
  return Array.isArray(v) ? v.join(', ') : String(v);
}

/** The first few fields with a value, each cut to PREVIEW_LENGTH characters. */
function preview(form: Form, data: Record<string, EntryValue>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = [...fieldsInOrder(form).map((f) => f.name), ...Object.keys(data)];
  for (const name of new Set(names)) {
    const text = valueText(data[name]);
    if (!text) continue;
    out[name] = [...text].length > PREVIEW_LENGTH ? `${[...text].slice(0, PREVIEW_LENGTH - 1).join('')}…` : text;
    if (Object.keys(out).length === PREVIEW_VALUES) break;
  }
  return out;
}

async function filesOf(db: Knex, entryIds: number[]): Promise<Map<number, EntryFile[]>> {
  const rows: Row[] = entryIds.length
    ? await db('form_entry_files as ef')
        .join('stored_files as f', 'f.id', 'ef.file_id')
        .whereIn('ef.entry_id', entryIds)
        .orderBy('ef.id')
        .select('ef.id', 'ef.entry_id', 'ef.field_name', 'f.original_name')
    : [];
  const out = new Map<number, EntryFile[]>();
  for (const r of rows) {
    const list = out.get(Number(r.entry_id)) ?? [];
    list.push({ id: Number(r.id), field_name: r.field_name, name: r.original_name });
    out.set(Number(r.entry_id), list);
  }
  return out;
}

function mapEntry(form: Form, r: Row, files: EntryFile[]): Entry {
  const data = fromDbJson<Record<string, EntryValue>>(r.data, {});
  return { id: Number(r.id), created_at: fromDbDate(r.created_at)!.toISOString(), preview: preview(form, data), data, files };
}

/** A page of a form's entries, newest first. */
export async function pageEntries(db: Knex, form: Form, offset: number, limit: number): Promise<{ count: number; results: Entry[] }> {
  const [[{ n }], rows]: [Row[], Row[]] = await Promise.all([
    db('form_entries').where({ form_id: form.id }).count({ n: '*' }),
    db('form_entries')
      .where({ form_id: form.id })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset),
  ]);
  const files = await filesOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  return { count: Number(n), results: rows.map((r) => mapEntry(form, r, files.get(Number(r.id)) ?? [])) };
}

export async function findEntry(db: Knex, form: Form, entryId: number): Promise<Entry | null> {
  const row = await db('form_entries').where({ id: entryId, form_id: form.id }).first();
  if (!row) return null;
  return mapEntry(form, row, (await filesOf(db, [entryId])).get(entryId) ?? []);
}

/** One file of one entry of one form (all three must match), or null. */
export async function findEntryFile(
  db: Knex,
  formId: number,
  entryId: number,
  fileId: number,
): Promise<{ storage_key: string; original_name: string; content_type: string; size: number; field_name: string } | null> {
  const r: Row | undefined = await db('form_entry_files as ef')
    .join('form_entries as e', 'e.id', 'ef.entry_id')
    .join('stored_files as f', 'f.id', 'ef.file_id')
    .where({ 'ef.id': fileId, 'ef.entry_id': entryId, 'e.form_id': formId })
    .first('f.storage_key', 'f.original_name', 'f.content_type', 'f.size', 'ef.field_name');
  return r
    ? {
        storage_key: r.storage_key,
        original_name: r.original_name,
        content_type: r.content_type,
        size: Number(r.size),
        field_name: r.field_name,
      }
    : null;
}

const EXPORT_BATCH = 1000;

/** The entries workbook's columns: Entry ID, Submitted At (UTC), then one per current field in section order. */
export function entryColumns(form: Form): ExportColumn[] {
  return [
    { header: 'Entry ID', width: 10 },
    { header: 'Submitted At (UTC)', width: 20 },
    ...fieldsInOrder(form).map((f) => ({ header: f.label || f.name, width: 24 })),
  ];
}

/** Batches of export rows, oldest entry first; a file field's cell names its files. */
export async function* entryRows(db: Knex, form: Form, batchSize = EXPORT_BATCH): AsyncGenerator<CellValue[][]> {
  const fields = fieldsInOrder(form);
  let after = 0;
  for (;;) {
    const rows: Row[] = await db('form_entries').where({ form_id: form.id }).andWhere('id', '>', after).orderBy('id').limit(batchSize);
    if (!rows.length) return;
    const files = await filesOf(
      db,
      rows.map((r) => Number(r.id)),
    );
    yield rows.map((r) => {
      const data = fromDbJson<Record<string, EntryValue>>(r.data, {});
      const own = files.get(Number(r.id)) ?? [];
      return [
        Number(r.id),
        fromDbDate(r.created_at),
        ...fields.map((f) => {
          if (f.field_type === 'file')
            return own
              .filter((x) => x.field_name === f.name)
              .map((x) => x.name)
              .join(', ');
          const v = data[f.name];
          return typeof v === 'number' ? v : valueText(v);
        }),
      ];
    });
    if (rows.length < batchSize) return;
    after = Number(rows[rows.length - 1].id);
  }
}

export interface EntryCriteria {
  createdBefore?: Date;
  formId?: number;
  /** Stored form (storedEmail). */
  email?: string;
}

/** The entries matching, with their files' keys (an email search reads only entries of forms with an email field that mention it). */
export async function removableEntries(
  db: Knex,
  c: EntryCriteria,
): Promise<{ id: number; form_id: number; keys: { fileId: number; key: string }[] }[]> {
  const q = db('form_entries').select('id', 'form_id', 'data');
  if (c.createdBefore) q.where('created_at', '<', toDbDate(c.createdBefore));
  if (c.formId) q.where('form_id', c.formId);
  let rows: Row[];
  if (c.email) {
    const emailFields: Row[] = await db('form_fields').where('field_type', 'email').select('form_id', 'name');
    if (!emailFields.length) return [];
    const byForm = new Map<number, string[]>();
    for (const f of emailFields) byForm.set(Number(f.form_id), [...(byForm.get(Number(f.form_id)) ?? []), f.name]);
    // A first sieve (LIKE wildcards in an address only widen it); the exact check follows.
    q.whereIn('form_id', [...byForm.keys()]).andWhere('data', 'like', `%${c.email}%`);
    rows = ((await q) as Row[]).filter((r) => {
      const data = fromDbJson<Record<string, unknown>>(r.data, {});
      return (byForm.get(Number(r.form_id)) ?? []).some(
        (name) => typeof data[name] === 'string' && storedEmail(data[name] as string) === c.email,
      );
    });
  } else {
    rows = await q;
  }
  const ids = rows.map((r) => Number(r.id));
  const files: Row[] = ids.length
    ? await db('form_entry_files as ef')
        .join('stored_files as f', 'f.id', 'ef.file_id')
        .whereIn('ef.entry_id', ids)
        .select('ef.entry_id', 'f.id', 'f.storage_key')
    : [];
  return rows.map((r) => ({
    id: Number(r.id),
    form_id: Number(r.form_id),
    keys: files.filter((f) => Number(f.entry_id) === Number(r.id)).map((f) => ({ fileId: Number(f.id), key: f.storage_key })),
  }));
}

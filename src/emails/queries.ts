/** The templates as HR reads them: all of them (a short list) or one. */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { EmailTemplate, TemplatePurpose } from './types.js';

const PURPOSES: readonly string[] = ['receipt', 'rejection', 'interview'];

function toTemplate(r: Record<string, unknown>): EmailTemplate {
  return {
    id: Number(r.id),
    name: String(r.name),
    subject: String(r.subject),
    body: String(r.body),
    purpose: PURPOSES.includes(String(r.purpose)) ? (r.purpose as TemplatePurpose) : null,
    created_at: fromDbDate(r.created_at)!.toISOString(),
    updated_at: fromDbDate(r.updated_at)!.toISOString(),
  };
}

/** Every template, by name (the defaults first, in their order). */
export async function listTemplates(db: Knex): Promise<EmailTemplate[]> {
  const rows = await db('email_templates').orderByRaw('CASE WHEN purpose IS NULL THEN 1 ELSE 0 END').orderBy('id');
  return rows.map(toTemplate);
}

export async function findTemplate(db: Knex, id: number): Promise<EmailTemplate | null> {
  const row = await db('email_templates').where({ id }).first();
  return row ? toTemplate(row) : null;
}

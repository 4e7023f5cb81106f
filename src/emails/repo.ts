/** The only writer of `email_templates` (issue 20's templates HR edits). */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { TemplateInput } from './schema.js';

export async function insertTemplate(trx: Knex, input: TemplateInput, at: Date): Promise<number> {
  const now = toDbDate(at);
  const [id] = await trx('email_templates').insert({
    name: input.name,
    subject: input.subject,
    body: input.body,
    default_delay_minutes: input.default_delay_minutes ?? null,
    remind_24h: input.remind_24h ?? null,
    remind_1h: input.remind_1h ?? null,
    purpose: null,
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

/** Answers whether the template was there. `remind_*` are null unless it is a reminder template (the schema sees to it). */
export async function updateTemplate(trx: Knex, id: number, input: TemplateInput, at: Date): Promise<boolean> {
  return (
    (await trx('email_templates')
      .where({ id })
      .update({
        name: input.name,
        subject: input.subject,
        body: input.body,
        default_delay_minutes: input.default_delay_minutes ?? null,
        remind_24h: input.remind_24h ?? null,
        remind_1h: input.remind_1h ?? null,
        updated_at: toDbDate(at),
      })) > 0
  );
}

export async function deleteTemplate(trx: Knex, id: number): Promise<boolean> {
  return (await trx('email_templates').where({ id }).delete()) > 0;
}

/**
 * Holds the template list still while a write checks names and counts (MySQL: the rows are
 * locked; SQLite has one writer, the transaction's).
 */
export async function lockTemplates(trx: Knex): Promise<{ id: number; name: string }[]> {
  const q = trx('email_templates').select('id', 'name').orderBy('id');
  const rows: { id: unknown; name: unknown }[] = await (isMysql(trx) ? q.forUpdate() : q);
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }));
}

/** Notes on applications (migration 014): written with their audit entry in one transaction (src/notes/service.ts). */
import type { Knex } from 'knex';
import { insertedId, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';

export async function insertNote(
  trx: Knex,
  note: { applicationId: number; userId: number | null; text: string },
  now: Date,
): Promise<number> {
  const at = toDbDate(now);
  return insertedId(
    await trx('application_notes').insert({
      application_id: note.applicationId,
      user_id: note.userId,
      text: note.text,
      created_at: at,
      updated_at: at,
    }),
  );
}

/**
 * The note `noteId` of application `applicationId` (undefined: none), locked for the rest of the
 * transaction on MySQL, so its author is checked and its change written as one step.
 */
export async function lockNote(
  trx: Knex,
  applicationId: number,
  noteId: number,
): Promise<{ id: number; user_id: number | null; text: string } | undefined> {
  const q = trx('application_notes').where({ id: noteId, application_id: applicationId }).first('id', 'user_id', 'text');
  const row = await (isMysql(trx) ? q.forUpdate() : q);
  return row && { id: Number(row.id), user_id: row.user_id === null ? null : Number(row.user_id), text: String(row.text) };
}

export async function updateNoteText(trx: Knex, noteId: number, text: string, now: Date): Promise<void> {
  await trx('application_notes')
    .where({ id: noteId })
    .update({ text, updated_at: toDbDate(now) });
}

export async function deleteNote(trx: Knex, noteId: number): Promise<void> {
  await trx('application_notes').where({ id: noteId }).delete();
}

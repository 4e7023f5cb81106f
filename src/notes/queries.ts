/** Notes on an application as HR reads them: newest first, with their author's name. */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { ApplicationNote } from './types.js';

type Row = Record<string, any>;

function noteColumns(db: Knex, applicationId: number) {
  return db('application_notes as n')
    .leftJoin('hr_users as u', 'u.id', 'n.user_id')
    .where('n.application_id', applicationId)
    .select('n.id', 'n.application_id', 'n.user_id', 'n.text', 'n.created_at', 'n.updated_at', { username: 'u.username' });
}

function toNote(r: Row, viewerId: number): ApplicationNote {
  const created = fromDbDate(r.created_at)!;
  const updated = fromDbDate(r.updated_at)!;
  const userId = r.user_id === null ? null : Number(r.user_id);
  return {
    id: Number(r.id),
    application_id: Number(r.application_id),
    text: String(r.text),
    author: userId === null || r.username === null ? null : { id: userId, username: String(r.username) },
    created_at: created.toISOString(),
    updated_at: updated.toISOString(),
    edited: updated.getTime() > created.getTime(),
    mine: userId !== null && userId === viewerId,
  };
}

/** One page of the application's notes, newest first, and how many it has. */
export async function pageNotes(
  db: Knex,
  applicationId: number,
  viewerId: number,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: ApplicationNote[] }> {
  const [rows, [{ n }]] = await Promise.all([
    noteColumns(db, applicationId)
      .orderBy('n.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db('application_notes').where('application_id', applicationId).count({ n: '*' }),
  ]);
  return { count: Number(n), results: rows.map((r: Row) => toNote(r, viewerId)) };
}

export async function findNote(db: Knex, applicationId: number, noteId: number, viewerId: number): Promise<ApplicationNote | null> {
  const row = await noteColumns(db, applicationId).where('n.id', noteId).first();
  return row ? toNote(row, viewerId) : null;
}

/** Whether the application exists. */
export async function applicationExists(db: Knex, applicationId: number): Promise<boolean> {
  return !!(await db('applications').where('id', applicationId).first('id'));
}

/**
 * Notes on an application (issue 20): HR users write plain-text notes; each may change or delete
 * only their own. Every write is audited with the application as entity (the note's id, never its
 * text), in the same transaction, so the timeline shows who added, edited and deleted notes and
 * a purge or erase removes them with the application.
 */
import type { Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound } from '../http/errors.js';
import { applicationExists, findNote, pageNotes } from './queries.js';
import { insertApplicationAudit, lockApplicationForChild } from '../applicants/index.js';
import { deleteNote, insertNote, lockNote, updateNoteText } from './repo.js';
import { NOTE_MESSAGES } from './schema.js';
import type { ApplicationNote } from './types.js';

export interface NoteDeps {
  db: Db;
  now: () => Date;
}

/** 403: the note is someone else's. */
class NotYourNote extends HttpError {
  constructor() {
    super(403, NOTE_MESSAGES.notYours, { detail: NOTE_MESSAGES.notYours });
  }
}

/** One page of an application's notes, newest first; 404 for an unknown application, or a page past the end. */
export async function listNotes(
  { db }: Pick<NoteDeps, 'db'>,
  applicationId: number,
  viewerId: number,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: ApplicationNote[] }> {
  const [exists, result] = await Promise.all([
    applicationExists(db, applicationId),
    pageNotes(db, applicationId, viewerId, page, pageSize),
  ]);
  if (!exists) throw new NotFound(NOTE_MESSAGES.notFound);
  return result;
}

/** Adds a note by `userId`; 404 when the application does not exist (or is being removed). */
export async function addNote(deps: NoteDeps, applicationId: number, userId: number, text: string): Promise<ApplicationNote> {
  const now = deps.now();
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      if (!(await lockApplicationForChild(trx, applicationId))) throw new NotFound(NOTE_MESSAGES.notFound);
      const noteId = await insertNote(trx, { applicationId, userId, text }, now);
      await insertApplicationAudit(trx, [{ userId, action: 'note_added', entityId: applicationId, details: { note_id: noteId } }], now);
      return noteId;
    }),
  );
  return (await findNote(deps.db, applicationId, id, userId))!;
}

/** The note, locked, when it is the caller's: 404 when the application has no such note, 403 when it is another user's. */
async function ownNote(trx: Db, applicationId: number, noteId: number, userId: number): Promise<{ text: string }> {
  const note = await lockNote(trx, applicationId, noteId);
  if (!note) throw new NotFound(NOTE_MESSAGES.notFound);
  if (note.user_id !== userId) throw new NotYourNote();
  return note;
}

/** Changes the text of the caller's own note. Saving the same text again changes nothing. */
export async function editNote(
  deps: NoteDeps,
  applicationId: number,
  noteId: number,
  userId: number,
  text: string,
): Promise<ApplicationNote> {
  const now = deps.now();
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      if ((await ownNote(trx, applicationId, noteId, userId)).text === text) return;
      await updateNoteText(trx, noteId, text, now);
      await insertApplicationAudit(trx, [{ userId, action: 'note_edited', entityId: applicationId, details: { note_id: noteId } }], now);
    }),
  );
  const note = await findNote(deps.db, applicationId, noteId, userId);
  if (!note) throw new NotFound(NOTE_MESSAGES.notFound);
  return note;
}

/** Deletes the caller's own note; its text is gone, the timeline keeps that a note was deleted. */
export async function removeNote(deps: NoteDeps, applicationId: number, noteId: number, userId: number): Promise<void> {
  const now = deps.now();
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      await ownNote(trx, applicationId, noteId, userId);
      await deleteNote(trx, noteId);
      await insertApplicationAudit(trx, [{ userId, action: 'note_deleted', entityId: applicationId, details: { note_id: noteId } }], now);
    }),
  );
}

/** A note brought in by a candidate import (issue 35), in the import's transaction: by the importing user (none from the CLI). */
export async function insertImportedNote(trx: Db, applicationId: number, text: string, userId: number | null, now: Date): Promise<void> {
  const noteId = await insertNote(trx, { applicationId, userId, text }, now);
  await insertApplicationAudit(trx, [{ userId, action: 'note_added', entityId: applicationId, details: { note_id: noteId } }], now);
}

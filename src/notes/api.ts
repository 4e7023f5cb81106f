/**
 * The notes API (issue 20; under /api/hr, which app.ts guards): an application's notes, plain
 * text, newest first. Only a note's author changes or deletes it (403 for anyone else).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pageResponse, parsePaging } from '../http/paging.js';
import { pathId, validate } from '../http/validate.js';
import { noteSchema } from './schema.js';
import { addNote, editNote, listNotes, removeNote } from './service.js';

export function notesApi(ctx: AppContext): Router {
  const router = Router();

  router.get('/api/hr/applications/:id/notes/', async (req, res) => {
    const paging = parsePaging(req);
    const { count, results } = await listNotes(ctx, pathId(req.params.id), req.hr!.userId, paging.page, paging.pageSize);
    res.json(pageResponse(req, ctx.config.publicBaseUrl, paging, count, results));
  });

  router.post('/api/hr/applications/:id/notes/', async (req, res) => {
    const id = pathId(req.params.id);
    const { text } = validate(noteSchema, req.body);
    res.status(201).json(await addNote(ctx, id, req.hr!.userId, text));
  });

  router.patch('/api/hr/applications/:id/notes/:noteId/', async (req, res) => {
    const id = pathId(req.params.id);
    const noteId = pathId(req.params.noteId);
    const { text } = validate(noteSchema, req.body);
    res.json(await editNote(ctx, id, noteId, req.hr!.userId, text));
  });

  router.delete('/api/hr/applications/:id/notes/:noteId/', async (req, res) => {
    await removeNote(ctx, pathId(req.params.id), pathId(req.params.noteId), req.hr!.userId);
    res.status(204).end();
  });

  return router;
}

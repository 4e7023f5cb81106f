/**
 * The people API (issue 35): the review list of suggested duplicates, merging and its undo, and an
 * application's other applications. Admins and recruiters only, but for the last (the access gate's
 * rules, src/teams/access.service.ts).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate, validateQuery } from '../http/validate.js';
import { FULL_ACCESS } from '../shared/access-scope.js';
import { dismissSchema, duplicatesQuerySchema, mergeSchema, PEOPLE_MESSAGES } from './schema.js';
import {
  dismissDuplicate,
  listDuplicates,
  listRecentMerges,
  mergePeople,
  personOtherApplications,
  undoPeopleMerge,
  type TimelineWriter,
} from './service.js';

export function peopleApi(ctx: AppContext, timeline: TimelineWriter): Router {
  const router = Router();

  router.get('/api/hr/applications/:id/other-applications/', async (req, res) => {
    const id = pathId(req.params.id, 'Application not found.');
    res.json({ results: await personOtherApplications(ctx.db, id, req.access ?? FULL_ACCESS) });
  });

  router.get('/api/hr/people/duplicates/', async (req, res) => {
    const { page } = validateQuery(req, duplicatesQuerySchema, ['page']);
    res.json(await listDuplicates(ctx.db, page));
  });

  router.post('/api/hr/people/duplicates/dismiss/', async (req, res) => {
    const { person_id, other_person_id } = validate(dismissSchema, req.body);
    await dismissDuplicate(ctx.db, person_id, other_person_id, req.hr!.userId, ctx.now());
    res.status(204).end();
  });

  router.get('/api/hr/people/merges/', async (_req, res) => {
    res.json({ results: await listRecentMerges(ctx.db, ctx.now()) });
  });

  router.post('/api/hr/people/merges/', async (req, res) => {
    const { person_id, into_person_id } = validate(mergeSchema, req.body);
    res.status(201).json(await mergePeople(ctx.db, timeline, person_id, into_person_id, req.hr!.userId, ctx.now()));
  });

  router.post('/api/hr/people/merges/:id/undo/', async (req, res) => {
    const id = pathId(req.params.id, PEOPLE_MESSAGES.mergeNotFound);
    res.json(await undoPeopleMerge(ctx.db, timeline, id, req.hr!.userId, ctx.now()));
  });

  return router;
}

/**
 * Interviewer availability API (issue 32), under /api/hr (app.ts guards it):
 * - `/api/hr/interviewers/me/settings/` (GET, PUT) and, for admins, `/api/hr/interviewers/{userId}/settings/`;
 * - `/api/hr/interviewers/me/calendars/` (GET, POST) and `{id}/` (DELETE): addresses never answered, only `url_hint`;
 * - `/api/hr/interviewers/find-time/`: the next slots when every chosen interviewer is free.
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { pathId, validate, validateQuery } from '../http/validate.js';
import { AVAILABILITY_MESSAGES as M, FIND_TIME_PARAMS, findTimeSchema, settingsSchema } from './availability.schema.js';
import { findSlots } from './availability.service.js';
import {
  addCalendar,
  calendarInputSchema,
  interviewerSettings,
  listCalendars,
  removeCalendar,
  replaceInterviewerSettings,
  settingsOwner,
  type Viewer,
} from './calendars.service.js';

const FIELD_ORDER = [
  'time_zone',
  'work_days',
  'work_start',
  'work_end',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'min_notice_minutes',
  'kind',
  'label',
  'url',
  'username',
  'password',
] as const;

const viewer = (req: Request): Viewer => ({ userId: req.hr!.userId, role: req.hr!.role });

export function availabilityApi(ctx: AppContext): Router {
  const router = Router();
  const owner = (req: Request) =>
    settingsOwner(ctx, viewer(req), req.params.userId === 'me' ? 'me' : pathId(req.params.userId, M.userNotFound));

  router.get('/api/hr/interviewers/find-time/', async (req, res) => {
    const q = validateQuery(req, findTimeSchema(), FIND_TIME_PARAMS);
    const found = await findSlots(ctx, {
      userIds: q.interviewers,
      durationMinutes: q.duration,
      from: q.from,
      days: q.days,
      count: q.count,
      stepMinutes: q.step,
    });
    res.json({ slots: found.slots, time_zone: q.tz ?? 'UTC', warnings: found.warnings });
  });

  router.get('/api/hr/interviewers/:userId/settings/', async (req, res) => {
    res.json(await interviewerSettings(ctx, await owner(req)));
  });
  router.put('/api/hr/interviewers/:userId/settings/', async (req, res) => {
    const userId = await owner(req);
    res.json(await replaceInterviewerSettings(ctx, userId, validate(settingsSchema(), req.body, FIELD_ORDER)));
  });

  router.get('/api/hr/interviewers/me/calendars/', async (req, res) => {
    res.json({ results: await listCalendars(ctx, viewer(req).userId) });
  });
  router.post('/api/hr/interviewers/me/calendars/', async (req, res) => {
    const input = validate(calendarInputSchema(ctx.config), req.body, FIELD_ORDER);
    res.status(201).json(await addCalendar(ctx, viewer(req).userId, input));
  });
  router.delete('/api/hr/interviewers/me/calendars/:id/', async (req, res) => {
    await removeCalendar(ctx, viewer(req).userId, pathId(req.params.id, M.calendarNotFound));
    res.status(204).end();
  });

  return router;
}

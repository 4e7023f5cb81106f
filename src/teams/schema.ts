/** The input rules of a job's hiring team (issue 31); Node-free, the job editor's Team tab checks with them. */
import { z as zod } from 'zod';
import { isRowId } from '../shared/input-rules.js';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { TEAM_ROLES, type TeamRole } from './types.js';

/** At most this many members on one job's team. */
export const TEAM_MAX = 50;

export const TEAM_MESSAGES = {
  members: `Members must be a list of at most ${TEAM_MAX} {user_id, role} entries.`,
  userId: 'user_id must be the id of an HR user.',
  role: `role must be one of ${TEAM_ROLES.join(', ')}.`,
  duplicate: (id: number) => `User ${id} is listed more than once: one role per user per job.`,
  unknownUser: (id: number) => `User ${id} is not an active HR user.`,
  jobNotFound: 'Job not found.',
} as const;

const userId = zod.union([zod.number(), zod.string()], { error: TEAM_MESSAGES.userId }).transform((v, ctx) => {
  const text = typeof v === 'number' ? String(v) : v.trim();
  if (!isRowId(text)) {
    ctx.addIssue({ code: 'custom', message: TEAM_MESSAGES.userId });
    return zod.NEVER;
  }
  return Number(text);
});

/** PUT /api/hr/jobs/{id}/team/: `{members: [{user_id, role}]}`, the whole team (it replaces the one kept). */
export const teamPutSchema = zod
  .object(
    {
      members: zod
        .array(
          zod.object({ user_id: userId, role: zod.enum(TEAM_ROLES, { error: TEAM_MESSAGES.role }) }, { error: FIELD_MESSAGES.notObject }),
          { error: TEAM_MESSAGES.members },
        )
        .max(TEAM_MAX, TEAM_MESSAGES.members),
    },
    { error: FIELD_MESSAGES.notObject },
  )
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.members.forEach((m, i) => {
      if (seen.has(m.user_id))
        ctx.addIssue({ code: 'custom', path: ['members', i, 'user_id'], message: TEAM_MESSAGES.duplicate(m.user_id) });
      seen.add(m.user_id);
    });
  });

export type TeamInput = { user_id: number; role: TeamRole }[];

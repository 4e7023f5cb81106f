/** The inputs of talent pools (issue 35) and their messages, shared by the API and the islands. Node-free. */
import { z as zod } from 'zod';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { isRowId } from '../shared/input-rules.js';

export const POOL_LIMITS = { name: 100, reason: 200, ids: 500 } as const;
/** The pool a rejection for "Position filled" puts the candidate in (made on first use). */
export const POSITION_FILLED = 'Position filled';

export const POOL_MESSAGES = {
  name: `A pool's name is 1 to ${POOL_LIMITS.name} characters on one line.`,
  nameTaken: 'A pool with this name exists already.',
  ids: `application_ids must be a list of 1 to ${POOL_LIMITS.ids} application ids.`,
  reason: `The reason is at most ${POOL_LIMITS.reason} characters on one line.`,
  poolNotFound: 'Talent pool not found.',
  memberNotFound: 'This person is not in the pool.',
  notMatched: 'This person is not offered for this job: not in a pool with consent, applied already, or invited already.',
  noEmail: 'Invitations need email: set SMTP_URL.',
} as const;

const oneLine = (max: number, message: string) =>
  zod
    .string({ error: message })
    .transform((v) => v.replace(/\s+/g, ' ').trim())
    .refine((v) => v.length > 0 && [...v].length <= max, message);

export const poolSchema = zod.object({ name: oneLine(POOL_LIMITS.name, POOL_MESSAGES.name) }, { error: FIELD_MESSAGES.notObject });

export const addMembersSchema = zod.object(
  {
    application_ids: zod
      .array(zod.unknown(), { error: POOL_MESSAGES.ids })
      .min(1, POOL_MESSAGES.ids)
      .max(POOL_LIMITS.ids, POOL_MESSAGES.ids)
      .refine((ids) => ids.every((v) => isRowId(typeof v === 'number' ? v : String(v))), POOL_MESSAGES.ids)
      .transform((ids) => [...new Set(ids.map(Number))]),
    reason: zod.optional(
      zod
        .string({ error: POOL_MESSAGES.reason })
        .transform((v) => v.replace(/\s+/g, ' ').trim())
        .refine((v) => [...v].length <= POOL_LIMITS.reason, POOL_MESSAGES.reason),
    ),
  },
  { error: FIELD_MESSAGES.notObject },
);

/**
 * The inputs of talent pools (issue 35) and their messages, shared by the API and the islands.
 * Node-free; the schemas are built inside functions (zod/mini), so an island that imports a limit
 * or a message bundles no zod.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { isRowId, oneLineCheck } from '../shared/input-rules.js';

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

/** Runs of white space made one space, the ends trimmed (a name or reason typed with a line break reads as one line). */
const collapsed = (v: string) => v.replace(/\s+/g, ' ').trim();
const chars = (v: string) => [...v].length;

/** One line of at most `max` characters (at least one unless `optional`), no control, invisible or text-direction characters. */
const oneLine = (max: number, message: string, optional = false) =>
  z.string({ error: message }).check(
    z.overwrite(collapsed),
    z.refine((v) => (optional || v.length > 0) && chars(v) <= max, { error: message, abort: true }),
    oneLineCheck(),
  );

/** POST /api/hr/pools/: `{name}`. */
export const poolSchema = () => z.object({ name: oneLine(POOL_LIMITS.name, POOL_MESSAGES.name) }, { error: FIELD_MESSAGES.notObject });

/** POST /api/hr/pools/{id}/members/: `{application_ids, reason?}`; the ids as numbers, each once. */
export const addMembersSchema = () =>
  z.object(
    {
      application_ids: z.pipe(
        z.array(z.unknown(), { error: POOL_MESSAGES.ids }).check(
          z.minLength(1, POOL_MESSAGES.ids),
          z.maxLength(POOL_LIMITS.ids, POOL_MESSAGES.ids),
          z.refine((ids) => ids.every((v) => isRowId(v)), POOL_MESSAGES.ids),
        ),
        z.transform((ids) => [...new Set(ids.map(Number))]),
      ),
      reason: z.optional(oneLine(POOL_LIMITS.reason, POOL_MESSAGES.reason, true)),
    },
    { error: FIELD_MESSAGES.notObject },
  );

/** The inputs of the people feature (issue 35) and their messages, shared by the API and the review island. Node-free. */
import { z as zod } from 'zod';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { isRowId } from '../shared/input-rules.js';

/** How long a merge may be undone. */
export const UNDO_DAYS = 7;

export const PEOPLE_MESSAGES = {
  personId: 'person_id must be the id of a person.',
  intoPersonId: 'into_person_id must be the id of a person.',
  otherPersonId: 'other_person_id must be the id of a person.',
  same: 'A person cannot be merged into themselves.',
  personNotFound: 'Person not found.',
  mergedAlready: 'This person has been merged into another already: merge that one instead.',
  mergeNotFound: 'Merge not found.',
  undone: 'This merge has been undone already.',
  undoExpired: `A merge can be undone for ${UNDO_DAYS} days only.`,
  undoBlocked: 'This merge cannot be undone: the person it merged into has been merged or erased since.',
  suggestionNotFound: 'These two people are not a suggested duplicate.',
  page: 'page must be a whole number from 1.',
} as const;

const rowId = (message: string) =>
  zod.union([zod.number(), zod.string()], { error: message }).transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    if (!isRowId(text)) {
      ctx.addIssue({ code: 'custom', message });
      return zod.NEVER;
    }
    return Number(text);
  });

/** POST /api/hr/people/merges/: `{person_id, into_person_id}`, the person whose applications move and the one they join. */
export const mergeSchema = zod
  .object(
    { person_id: rowId(PEOPLE_MESSAGES.personId), into_person_id: rowId(PEOPLE_MESSAGES.intoPersonId) },
    { error: FIELD_MESSAGES.notObject },
  )
  .refine((v) => v.person_id !== v.into_person_id, { path: ['into_person_id'], message: PEOPLE_MESSAGES.same });

/** POST /api/hr/people/duplicates/dismiss/: `{person_id, other_person_id}`, a suggested pair that is two people. */
export const dismissSchema = zod.object(
  { person_id: rowId(PEOPLE_MESSAGES.personId), other_person_id: rowId(PEOPLE_MESSAGES.otherPersonId) },
  { error: FIELD_MESSAGES.notObject },
);

/** GET /api/hr/people/duplicates/?page=N (absent: the first). */
export const duplicatesQuerySchema = zod.object({
  page: zod
    .string({ error: PEOPLE_MESSAGES.page })
    .regex(/^(|[1-9]\d{0,5})$/, PEOPLE_MESSAGES.page)
    .transform((v) => (v ? Number(v) : 1)),
});

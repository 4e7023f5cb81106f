/**
 * Notes on an application (issue 20): plain text, shown as text (never HTML); the rules and
 * messages are src/shared/note-rules.ts, which the island checks a note with.
 */
import { z as zod } from 'zod';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { NOTE_MESSAGES, noteTextError, shapeNoteText } from '../shared/note-rules.js';

export { NOTE_MESSAGES };

/** The body of POST and PATCH .../notes/: `{text}`. */
export const noteSchema = zod.object(
  {
    text: zod
      .string({ error: (i) => (i.input === undefined ? NOTE_MESSAGES.required : NOTE_MESSAGES.notText) })
      .transform(shapeNoteText)
      .superRefine((v, ctx) => {
        const problem = noteTextError(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  },
  { error: FIELD_MESSAGES.notObject },
);

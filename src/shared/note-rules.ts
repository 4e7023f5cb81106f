/**
 * The rules of a note on an application (issue 20), shared word for word by the notes island and
 * the notes API (src/applicants/schema.ts), so both say the same thing. Pure TypeScript.
 */
import { FIELD_MESSAGES } from './field-errors.js';
import { stripTextOverrides } from './input-rules.js';

/** The longest note, in characters: a long page of text. */
export const NOTE_TEXT_MAX = 10_000;

export const NOTE_MESSAGES = {
  required: FIELD_MESSAGES.required,
  blank: 'This field may not be blank.',
  notText: FIELD_MESSAGES.notText,
  tooLong: FIELD_MESSAGES.tooLong(NOTE_TEXT_MAX),
  notFound: 'Not found.',
  notYours: 'Only the author of a note may change or delete it.',
} as const;

/**
 * A note's text as stored: line breaks as \n, control characters other than tab and line break
 * removed, text-direction overrides and non-characters removed (stripTextOverrides: zero-width
 * joiners stay for emoji and scripts), trimmed.
 */
export function shapeNoteText(v: string): string {
  return stripTextOverrides(v.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')).trim();
}

/** The problem with a note's (shaped) text, or null. */
export function noteTextError(shaped: string): string | null {
  if (shaped === '') return NOTE_MESSAGES.blank;
  // Characters, not UTF-16 units: an emoji is one.
  let n = 0;
  for (const _ of shaped) if (++n > NOTE_TEXT_MAX) return NOTE_MESSAGES.tooLong;
  return null;
}

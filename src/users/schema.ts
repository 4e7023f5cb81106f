/**
 * Sign-in input (spec 01 'HR login'): the credentials of POST /api/auth/token/ (JSON or
 * form-encoded) and their messages, shared with the hr-login island. Node-free; the schema is built
 * once, in a function, so the island, which imports only the limit and messages, bundles no zod.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES } from '../shared/field-errors.js';

/** Longest username or password looked at; anything longer is refused before hashing. */
export const MAX_CREDENTIAL_LENGTH = 256;

export const USERNAME_PATTERN = /^[a-z0-9_.@+-]{3,150}$/;

/** A username as stored and compared: trimmed, lower-cased. */
export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

export const AUTH_MESSAGES = {
  /** Any failed sign-in, whatever was wrong: the page and the API say the same. */
  loginFailed: 'Invalid credentials or unauthorized.',
  required: FIELD_MESSAGES.required,
  notText: 'Not a valid string.',
  tooLong: FIELD_MESSAGES.tooLong(MAX_CREDENTIAL_LENGTH),
  blank: 'This field may not be blank.',
} as const;

/** One credential: text of at most 256 characters, not blank (a username of spaces is blank). */
function credential(trimmed: boolean) {
  return z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? AUTH_MESSAGES.required : AUTH_MESSAGES.notText) }).check(
    z.maxLength(MAX_CREDENTIAL_LENGTH, { error: AUTH_MESSAGES.tooLong, abort: true }),
    z.refine((v) => (trimmed ? v.trim() : v) !== '', AUTH_MESSAGES.blank),
  );
}

let credentials: z.ZodMiniType<{ username: string; password: string }> | undefined;

/** {username, password} as sent (checked before any hashing); only own properties count, and a body that is no object has neither. */
export function credentialsSchema(): z.ZodMiniType<{ username: string; password: string }> {
  credentials ??= z.pipe(
    z.transform((body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {})),
    z.object({ username: credential(true), password: credential(false) }),
  );
  return credentials;
}

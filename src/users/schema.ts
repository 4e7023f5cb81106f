/**
 * Sign-in input (spec 01 'HR login'): the credentials of POST /api/auth/token/ (JSON or
 * form-encoded) and their messages, shared with the hr-login island; and the team's inputs (the
 * Users page, /api/hr/users/, one-time sign-in links, the CLI): usernames, roles and the password
 * rules. Node-free; schemas are built in functions, so an island that imports only limits and
 * messages bundles no zod.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import { isObject } from '../shared/input-rules.js';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { USER_ROLES, type UserRole } from './types.js';

/** Longest username or password looked at; anything longer is refused before hashing. */
export const MAX_CREDENTIAL_LENGTH = 256;

export const USERNAME_MAX_LENGTH = 150;
export const USERNAME_PATTERN = new RegExp(`^[a-z0-9_.@+-]{3,${USERNAME_MAX_LENGTH}}$`);

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
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? AUTH_MESSAGES.required : AUTH_MESSAGES.notText) })
    .check(
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

/** Password rules of every new password (CLI, Users page, sign-in links). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** The problem with a new password, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}

/** The longest HR user's email address (the column's size, migration 025). */
export const USER_EMAIL_MAX_LENGTH = 191;

export const USER_MESSAGES = {
  username: 'Username must be 3 to 150 characters: letters, digits and . _ @ + -',
  usernameTaken: 'A user with that username already exists.',
  role: `Role must be one of ${USER_ROLES.join(', ')}.`,
  isActive: 'Must be true or false.',
  notObject: 'Expected a JSON object.',
  emptyPatch: 'Send role, is_active or email to change.',
  email: `Enter a valid email address of at most ${USER_EMAIL_MAX_LENGTH} characters, or leave it empty.`,
  emailTaken: 'Another user already has this email address.',
  notFound: 'User not found.',
  lastAdmin: 'At least one active admin must remain: make another user an admin first.',
  disabledLink: 'This user is disabled: enable them before sending a sign-in link.',
  linkInvalid: 'This sign-in link is not valid. Ask an admin for a new one.',
  linkUsed: 'This sign-in link has already been used. Sign in with your password, or ask an admin for a new link.',
  linkExpired: 'This sign-in link has expired. Ask an admin for a new one.',
  passwordsDiffer: 'The passwords do not match.',
} as const;

/** The body as an object of its own properties; anything else becomes {} with a `detail` issue. */
function body() {
  return z.transform((v: unknown, ctx) => {
    if (isObject(v)) return { ...v };
    ctx.issues.push(issue(v, USER_MESSAGES.notObject));
    return {};
  });
}

const requiredString = () =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? FIELD_MESSAGES.required : FIELD_MESSAGES.notText) });

/** A username as stored: trimmed, lower-cased, of USERNAME_PATTERN's shape. */
function usernameInput() {
  return z.pipe(
    requiredString().check(z.maxLength(MAX_CREDENTIAL_LENGTH, { error: USER_MESSAGES.username, abort: true })),
    z.pipe(z.transform(normaliseUsername), z.string().check(z.regex(USERNAME_PATTERN, USER_MESSAGES.username))),
  );
}

/** A new password: text following passwordProblem's rules. */
function passwordInput() {
  return requiredString().check(
    z.check<string>((ctx) => {
      const problem = passwordProblem(ctx.value);
      if (problem) ctx.issues.push(issue(ctx.value, problem));
    }),
  );
}

/**
 * An HR user's email address (company sign-in matches it): null for none ('' or null), else the
 * apply form's address rule, stored trimmed with ASCII letters lower-cased.
 */
function emailInput() {
  return z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v)),
    z.nullable(
      z.pipe(
        z
          .string({ error: USER_MESSAGES.email })
          .check(z.refine((v) => v.trim().length <= USER_EMAIL_MAX_LENGTH && emailError(v) === null, USER_MESSAGES.email)),
        z.transform(storedEmail),
      ),
    ),
  );
}

const roleInput = () => z.enum(USER_ROLES, { error: USER_MESSAGES.role });

export interface NewUserInput {
  username: string;
  role: UserRole;
  /** null: the user gets a one-time sign-in link instead. */
  password: string | null;
  /** null: none (company sign-in cannot find the user). */
  email: string | null;
}

/** POST /api/hr/users/: {username, role?, password?}; role defaults to recruiter, no password means a sign-in link. */
export function newUserSchema(): z.ZodMiniType<NewUserInput> {
  return z.pipe(
    body(),
    z.object({
      username: usernameInput(),
      role: z.pipe(
        z.transform((v: unknown) => v ?? 'recruiter'),
        roleInput(),
      ),
      password: z.pipe(
        z.transform((v: unknown) => (v === '' ? null : (v ?? null))),
        z.nullable(passwordInput()),
      ),
      email: emailInput(),
    }),
  ) as z.ZodMiniType<NewUserInput>;
}

export interface UserPatchInput {
  role?: UserRole;
  is_active?: boolean;
  /** null removes the address. */
  email?: string | null;
}

/** PATCH /api/hr/users/{id}/: {role?, is_active?, email?}, at least one. */
export function userPatchSchema(): z.ZodMiniType<UserPatchInput> {
  return z.pipe(
    body(),
    z
      .object({
        role: z.optional(roleInput()),
        is_active: z.optional(z.boolean({ error: USER_MESSAGES.isActive })),
        email: z.optional(emailInput()),
      })
      .check(z.refine((v) => v.role !== undefined || v.is_active !== undefined || v.email !== undefined, USER_MESSAGES.emptyPatch)),
  ) as z.ZodMiniType<UserPatchInput>;
}

/** POST /api/hr/users/{id}/password/: {password}. */
export function newPasswordSchema(): z.ZodMiniType<{ password: string }> {
  return z.pipe(body(), z.object({ password: passwordInput() }));
}

/** POST /api/auth/link/: {token, password}: a one-time link's token and the password it sets. */
export function linkPasswordSchema(): z.ZodMiniType<{ token: string; password: string }> {
  return z.pipe(
    body(),
    z.object({ token: requiredString().check(z.maxLength(MAX_CREDENTIAL_LENGTH, USER_MESSAGES.linkInvalid)), password: passwordInput() }),
  );
}

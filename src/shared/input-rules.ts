/**
 * The validation kit's common pieces (DESIGN.md section 2, `src/shared/`): the zod/mini rules every
 * feature's input schema is built from, Node-free so islands share them. Built inside functions,
 * never at module level (an island that imports a constant bundles no zod).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from './field-errors.js';

export const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';
export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Text: strings only (a number, list or object is refused rather than stored as its string form); missing or null is blank. */
export const textInput = () =>
  z.pipe(
    z.transform((v: unknown) => v ?? ''),
    z.string({ error: FIELD_MESSAGES.notText }),
  );

/** Trimmed text without NUL, at most `max` characters. */
export function text(max: number, required = false) {
  return z.pipe(
    textInput(),
    z.string().check(
      z.overwrite((s) => s.replace(/\u0000/g, '').trim()),
      ...(required ? [z.minLength(1, FIELD_MESSAGES.required)] : []),
      z.maxLength(max, FIELD_MESSAGES.tooLong(max)),
    ),
  );
}

/** Plain text kept with its line breaks (CRLF becomes LF), without text-direction overrides (stripTextOverrides), at most `max` characters. */
export function multilineText(max: number) {
  return z.pipe(
    textInput(),
    z.string().check(
      z.overwrite((s) => stripTextOverrides(s.replace(/\u0000/g, '').replace(/\r\n?/g, '\n')).trim()),
      z.maxLength(max, FIELD_MESSAGES.tooLong(max)),
    ),
  );
}

/**
 * The one character rule of one-line texts (issue 28): titles, names, subjects, departments,
 * locations, labels, options, reasons. Each kind of character refused has its own message.
 * - control: C0 and C1 controls (tab and line breaks too), U+2028/U+2029;
 * - invisible: zero-width and text-direction characters, which make a text read differently from
 *   what it holds (U+202E shows "txt.exe" as "exe.txt"): U+061C, U+200B-U+200F,
 *   U+202A-U+202E, U+2060-U+2064, U+2066-U+206F, U+FEFF;
 * - notText: the Unicode non-characters (U+FDD0-U+FDEF, U+FFFE, U+FFFF and U+nFFFE/U+nFFFF of
 *   every plane) and lone surrogates, which are no text and break XML (the job feeds).
 */
export const ONE_LINE_MESSAGES = {
  control: 'Enter this on one line, without control characters.',
  invisible: 'Remove the invisible or text-direction characters (such as U+200B or U+202E).',
  notText: 'Remove the characters that are not text (such as U+FFFE).',
} as const;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const INVISIBLE_CHARACTERS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
const NOT_TEXT = /\p{Noncharacter_Code_Point}|\p{Cs}/u;

/** What is wrong with a one-line text's characters (the message), or null. */
export function oneLineProblem(s: string): string | null {
  if (CONTROL_CHARACTERS.test(s)) return ONE_LINE_MESSAGES.control;
  if (INVISIBLE_CHARACTERS.test(s)) return ONE_LINE_MESSAGES.invisible;
  if (NOT_TEXT.test(s)) return ONE_LINE_MESSAGES.notText;
  return null;
}

/** oneLineProblem as a zod/mini check of a string. */
export const oneLineCheck = () =>
  z.check<string>((ctx) => {
    const problem = oneLineProblem(ctx.value);
    if (problem) ctx.issues.push(issue(ctx.value, problem));
  });

/** oneLineProblem of each text of a list (choice options), reported once. */
export const oneLineListCheck = () =>
  z.check<unknown>((ctx) => {
    const problem = (ctx.value as string[]).map(oneLineProblem).find(Boolean);
    if (problem) ctx.issues.push(issue(ctx.value, problem));
  });

/**
 * Multi-line texts (notes, descriptions, messages, an email's body) as stored: the text-direction
 * overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069) and the non-characters are
 * removed. Zero-width joiners and non-joiners, the marks U+200E/U+200F and U+200B stay: emoji
 * sequences and several scripts need them, and they cannot reorder what follows them.
 */
export function stripTextOverrides(s: string): string {
  return s.replace(/[\u202a-\u202e\u2066-\u2069]|\p{Noncharacter_Code_Point}|\p{Cs}/gu, '');
}

/**
 * A one-line field (a title, a location, a username): text() that refuses line breaks, tabs,
 * every other control character, invisible and text-direction characters and non-characters
 * (oneLineProblem), so it can go into an email's body or a header as one line and reads as it is.
 */
export function oneLine(max: number, required = false) {
  return z.pipe(text(max, required), z.string().check(oneLineCheck()));
}

const SECRET_MESSAGES = {
  whsec: 'A whsec_ secret must be whsec_ followed by the base64 of 24 to 64 bytes.',
  plain: 'Use at least 16 characters, or whsec_ followed by the base64 of 24 to 64 bytes.',
} as const;

/** Bytes a standard base64 text decodes to, or null when it is not standard base64. */
function base64Bytes(text: string): number | null {
  if (!text || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/**
 * A signing secret (job webhooks, form API posts; DESIGN.md section 3): `whsec_` and the base64
 * of 24-64 bytes (what the Standard Webhooks libraries take), or plain text of at least 16
 * characters. Blank is none (null). `stored`: the secret saved now, which an update may send back
 * unchanged whatever rule it was saved under.
 */
export function signingSecret(max: number, stored?: string | null) {
  const checked = z.pipe(
    text(max),
    z.string().check(
      z.check<string>((ctx) => {
        const v = ctx.value;
        if (!v || v === stored) return;
        if (v.startsWith('whsec_')) {
          const n = base64Bytes(v.slice(6));
          if (n === null || n < 24 || n > 64) ctx.issues.push(issue(v, SECRET_MESSAGES.whsec));
        } else if ([...v].length < 16) {
          ctx.issues.push(issue(v, SECRET_MESSAGES.plain));
        }
      }),
    ),
  );
  return z.pipe(
    checked,
    z.transform((s: string) => s || null),
  );
}

const BOOLEAN_MESSAGE = 'Must be true or false.';

/** true/false, 1/0 or "true"/"false"; blank is false. */
export const bool = () =>
  z.pipe(
    z.transform((v: unknown) => (isBlank(v) ? false : v === 1 || v === 'true' ? true : v === 0 || v === 'false' ? false : v)),
    z.boolean({ error: BOOLEAN_MESSAGE }),
  );

const oneOfMessage = (list: readonly string[]) => `Must be one of ${list.join(', ')}.`;

/** One of `list`; blank is `blank` when given, else required. */
export function choice<T extends string>(list: readonly [T, ...T[]], blank?: T) {
  const values = z.enum(list, { error: (iss) => (iss.input || blank ? oneOfMessage(list) : FIELD_MESSAGES.required) });
  return blank
    ? z.pipe(
        z.transform((v: unknown) => (isBlank(v) ? blank : v)),
        values,
      )
    : values;
}

/** Largest row id: a signed 32-bit integer, the id columns' range on both databases. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The one id rule (paths, queries, bodies, CLI options): a positive whole number written
 * canonically, without sign, leading zero, decimals, exponent or spaces, up to MAX_ROW_ID.
 * '007', '1.0', '1e3', '-1', '0' and 20 digits name no row.
 */
export function isRowId(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 1 && v <= MAX_ROW_ID;
  return typeof v === 'string' && /^[1-9]\d{0,9}$/.test(v) && Number(v) <= MAX_ROW_ID;
}

/** A row id given as text (a query parameter, a CLI option), surrounding spaces ignored, as a number. */
export function rowId(message: string) {
  return z.pipe(z.string({ error: message }).check(z.trim(), z.refine(isRowId, message)), z.transform(Number));
}

/**
 * A job or form named as HR sees it (a CLI option): its numeric id, or its public id. Text that
 * is a row id is always the id.
 */
export function rowRef(message: string) {
  return z.pipe(
    z.string({ error: message }).check(
      z.trim(),
      z.refine((v) => isRowId(v) || PUBLIC_ID_PATTERN.test(v), message),
    ),
    z.transform((v): { id: number } | { publicId: string } => (isRowId(v) ? { id: Number(v) } : { publicId: v })),
  );
}

/** Public ids of jobs and forms: HR's own, else made from the title. */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const PUBLIC_ID_MESSAGE = 'Use 1 to 64 letters, digits, hyphens or underscores.';

/** An optional public id: blank is null (one is made), else it must match PUBLIC_ID_PATTERN. */
export const publicIdInput = () =>
  z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || String(v).trim() === '' ? null : v)),
    z.nullable(z.string({ error: PUBLIC_ID_MESSAGE }).check(z.trim(), z.regex(PUBLIC_ID_PATTERN, PUBLIC_ID_MESSAGE))),
  );

/** An absolute http(s) URL with a host, parsed the WHATWG way; anything else is null. */
function parseHttpUrl(v: string): URL | null {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u : null;
  } catch {
    return null;
  }
}

const OUTBOUND_URL_MAX = 2048;

export interface OutboundUrlMessages {
  invalid: string;
  credentials: string;
  private: string;
}

/**
 * An address the server posts to (job webhooks, form API posts), as stored: WHATWG-normalised
 * (`http:/example.com` -> `http://example.com/`), http or https, without credentials, naming a
 * host the server's address policy allows (absent: any host). Blank is null.
 */
export function outboundUrl(messages: OutboundUrlMessages, hostAllowed?: (hostname: string) => boolean) {
  const max = OUTBOUND_URL_MAX;
  const url = z.pipe(
    textInput(),
    z.string().check(
      z.overwrite((s) => s.replace(/\u0000/g, '').trim()),
      z.maxLength(max, FIELD_MESSAGES.tooLong(max)),
      z.check<string>((ctx) => {
        if (!ctx.value) return;
        const url = parseHttpUrl(ctx.value);
        if (!url) return void ctx.issues.push(issue(ctx.value, messages.invalid));
        ctx.value = url.href;
        if (url.username || url.password) ctx.issues.push(issue(url.href, messages.credentials));
        else if (hostAllowed && !hostAllowed(url.hostname)) ctx.issues.push(issue(url.href, messages.private));
        // Normalising percent-encodes spaces and non-ASCII characters, so the length is checked again.
        else if (url.href.length > max) ctx.issues.push(issue(url.href, FIELD_MESSAGES.tooLong(max)));
      }),
    ),
  );
  return z.pipe(
    url,
    z.transform((s) => s || null),
  );
}

/** A whole number from `min` to `max`, given as a number or digits; blank is null. */
export function wholeNumber(min: number, max: number, message: string) {
  return z.unknown().check(
    z.refine(
      (v) =>
        isBlank(v) ||
        (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) ||
        (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max),
      message,
    ),
    z.overwrite((v) => (isBlank(v) ? null : Number(v))),
  ) as z.ZodMiniType<number | null>;
}

/** A field that must be given (neither missing nor null: "This field is required."), then shaped by `inner`. */
export const present = <T extends z.ZodMiniType>(inner: T) =>
  z.pipe(z.unknown().check(z.refine((v) => v !== undefined && v !== null, FIELD_MESSAGES.required)), inner);

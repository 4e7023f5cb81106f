/**
 * The validation kit's common pieces (DESIGN.md section 2, `src/shared/`): the zod/mini rules every
 * feature's input schema is built from, Node-free so islands share them. Built inside functions,
 * never at module level (an island that imports a constant bundles no zod).
 */
import { z } from 'zod/mini';
import { FIELD_MESSAGES, issue } from './field-errors.js';

export const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';
export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Text: strings only (a number, list or object is refused rather than stored as its string form); missing or null is blank. */
const textInput = () => z.pipe(z.transform((v: unknown) => v ?? ''), z.string({ error: FIELD_MESSAGES.notText }));

/** Trimmed text without NUL, at most `max` characters. */
export function text(max: number, required = false) {
  return z.pipe(textInput(), z.string().check(
    z.overwrite((s) => s.replace(/\u0000/g, '').trim()),
    ...(required ? [z.minLength(1, FIELD_MESSAGES.required)] : []),
    z.maxLength(max, FIELD_MESSAGES.tooLong(max)),
  ));
}

/** Plain text kept with its line breaks (CRLF becomes LF), at most `max` characters. */
export function multilineText(max: number) {
  return z.pipe(textInput(), z.string().check(
    z.overwrite((s) => s.replace(/\u0000/g, '').replace(/\r\n?/g, '\n').trim()),
    z.maxLength(max, FIELD_MESSAGES.tooLong(max)),
  ));
}

const BOOLEAN_MESSAGE = 'Must be true or false.';

/** true/false, 1/0 or "true"/"false"; blank is false. */
export const bool = () => z.pipe(
  z.transform((v: unknown) => (isBlank(v) ? false : v === 1 || v === 'true' ? true : v === 0 || v === 'false' ? false : v)),
  z.boolean({ error: BOOLEAN_MESSAGE }),
);

const oneOfMessage = (list: readonly string[]) => `Must be one of ${list.join(', ')}.`;

/** One of `list`; blank is `blank` when given, else required. */
export function choice<T extends string>(list: readonly [T, ...T[]], blank?: T) {
  const values = z.enum(list, { error: (iss) => (iss.input || blank ? oneOfMessage(list) : FIELD_MESSAGES.required) });
  return blank ? z.pipe(z.transform((v: unknown) => (isBlank(v) ? blank : v)), values) : values;
}

/** Public ids of jobs and forms: HR's own, else made from the title. */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const PUBLIC_ID_MESSAGE = 'Use 1 to 64 letters, digits, hyphens or underscores.';

/** An optional public id: blank is null (one is made), else it must match PUBLIC_ID_PATTERN. */
export const publicIdInput = () => z.pipe(
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
  const url = z.pipe(textInput(), z.string().check(
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
  ));
  return z.pipe(url, z.transform((s) => s || null));
}

/** A whole number from `min` to `max`, given as a number or digits; blank is null. */
export function wholeNumber(min: number, max: number, message: string) {
  return z.unknown().check(
    z.refine((v) => isBlank(v) || (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) || (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max), message),
    z.overwrite((v) => (isBlank(v) ? null : Number(v))),
  ) as z.ZodMiniType<number | null>;
}

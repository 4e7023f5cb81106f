/**
 * Reading an API error body, one walker for both specs. The apply wizard (spec 01 section 8): field-keyed messages joined with a
 * comma for the fields they belong to, a single general message (the detail; else the first
 * email error; else the first text of any field), and the whole body flattened into lines.
 * The HR islands (spec 02 section 8, job save failure): errorLines / fieldErrors below.
 * Pure TypeScript, used by islands; the bodies come from DESIGN.md's `{field: [messages], detail?}`.
 */

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isText(v: Json): v is string | number {
  return (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
}

/** A server body that is an HTML page (a proxy's error page, say) is not a message for people. */
function looksLikeHtml(s: string): boolean {
  return /^\s*</.test(s);
}

/** Keys whose messages are general ones, shown without a "field:" prefix (spec 01). */
const GENERAL_KEYS = new Set(['detail', 'non_field_errors']);

/** One field's messages under its dotted path ('' for a bare message in a list body). */
type Entry = [path: string, messages: string[]];

/** A non-text leaf as the HR islands show it: a string as is, anything else as JSON. */
function shown(v: Json): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * The one walker behind both flavours: objects and lists of objects are walked down with their
 * keys and indexes joined by dots ('questions.0.text'); a message or a list of messages is one
 * entry. Strict (spec 01): only non-blank texts are messages, any other leaf makes the body
 * unreadable (throws). Lenient (spec 02): any leaf is a message, non-text ones shown as JSON.
 */
function walk(value: Json, path: string, out: Entry[], lenient: boolean): void {
  if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) walk(v, path ? `${path}.${key}` : key, out, lenient);
  } else if (Array.isArray(value)) {
    const plain = lenient ? value.every((x) => x === null || typeof x !== 'object') : value.every(isText);
    if (!plain) {
      value.forEach((item, i) => {
        walk(item, path ? `${path}.${i}` : '', out, lenient);
      });
    } else if (path || lenient) {
      out.push([path, value.map(lenient ? shown : String)]);
    } else {
      // A bare list of messages: one line per message.
      for (const t of value) out.push(['', [String(t)]]);
    }
  } else if (lenient) {
    if (path) out.push([path, [shown(value)]]);
  } else if (isText(value)) {
    out.push([path, [String(value)]]);
  } else if (value !== null && value !== undefined && value !== '') {
    throw new TypeError('Unexpected value in an error body');
  }
}

/**
 * The body as lines: a text body as is, a list joined by lines, an object as "field: messages"
 * (nested as "field.sub: message"). Null when the body cannot be flattened (nothing readable,
 * an HTML page, an unexpected shape): the caller then says 'Failed to submit application.'.
 */
export function flattenErrorBody(body: Json): string[] | null {
  try {
    if (typeof body === 'string') return body.trim() && !looksLikeHtml(body) ? [body.trim()] : null;
    if (!Array.isArray(body) && !isRecord(body)) return null;
    const out: Entry[] = [];
    walk(body, '', out, false);
    const lines = out.map(([path, msgs]) => `${path && !GENERAL_KEYS.has(path) ? `${path}: ` : ''}${msgs.join(', ')}`);
    return lines.length ? lines : null;
  } catch {
    return null;
  }
}

/** Spec 02 section 8: the text shown when a failed save has no details. */
export const UNKNOWN_ERROR = 'Unknown error.';

/** HR field errors keyed by their full path ('title', 'questions.0.text'), messages joined by a space. */
export function fieldErrors(body: Json): Record<string, string> {
  const out: Entry[] = [];
  if (isRecord(body)) walk(body, '', out, true);
  return Object.fromEntries(out.map(([path, msgs]) => [path, msgs.join(' ')]));
}

/**
 * Spec 02 section 8, the lines under 'Failed to save job.': no body -> UNKNOWN_ERROR, a plain
 * string as is, a list one line per item, an object as 'field: messages' lines (nested as
 * 'field.sub'); a top-level `detail` is shown as its message alone.
 */
export function errorLines(body: Json): string[] {
  if (body === null || body === undefined || body === '') return [UNKNOWN_ERROR];
  if (typeof body === 'string') return [body];
  if (Array.isArray(body)) return body.length ? body.map(shown) : [UNKNOWN_ERROR];
  if (isRecord(body)) {
    const lines = Object.entries(fieldErrors(body)).map(([field, msg]) => (field === 'detail' ? msg : `${field}: ${msg}`));
    return lines.length ? lines : [UNKNOWN_ERROR];
  }
  return [String(body)];
}

function firstText(value: Json): string | null {
  if (isText(value)) return String(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const t = firstText(item);
      if (t) return t;
    }
  } else if (isRecord(value)) {
    for (const v of Object.values(value)) {
      const t = firstText(v);
      if (t) return t;
    }
  }
  return null;
}

/** Single-message extraction: the detail string; else the first email error; else the first text of any field. */
export function extractErrorMessage(body: Json): string | null {
  if (typeof body === 'string') return body.trim() && !looksLikeHtml(body) ? body.trim() : null;
  if (Array.isArray(body)) return firstText(body);
  if (!isRecord(body)) return null;
  if (isText(body.detail)) return String(body.detail);
  const email = firstText(body.email);
  if (email) return email;
  return firstText(body);
}

/**
 * Every top-level key holding a message or a list of messages, joined with a comma:
 * `{"email": ["a", "b"]}` -> `{email: "a, b"}`. Nested keys such as `professional_experiences.0.company`
 * arrive flat from this API and are kept as they are; `detail` is not a field.
 */
export function fieldErrorMessages(body: Json, only?: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(body)) return out;
  for (const [key, value] of Object.entries(body)) {
    if (GENERAL_KEYS.has(key) || (only && !only.includes(key))) continue;
    const texts = Array.isArray(value) ? value.filter(isText).map(String) : isText(value) ? [String(value)] : [];
    if (texts.length) out[key] = texts.join(', ');
  }
  return out;
}

/**
 * Reading an API error body the way spec 01 section 8 says: field-keyed messages joined with a
 * comma for the fields they belong to, a single general message (the detail; else the first
 * email error; else the first text of any field), and the whole body flattened into lines.
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

/** Keys whose messages are general ones, shown without a "field:" prefix. */
const GENERAL_KEYS = new Set(['detail', 'non_field_errors']);

function linesOf(value: Json, path: string, out: string[]): void {
  const prefix = path && !GENERAL_KEYS.has(path) ? `${path}: ` : '';
  if (isText(value)) {
    out.push(`${prefix}${value}`);
  } else if (Array.isArray(value)) {
    const texts = value.filter(isText);
    if (texts.length === value.length) {
      // A list of messages: one line per field at the top, one line per message in a bare list.
      if (path) out.push(`${prefix}${texts.join(', ')}`);
      else out.push(...texts.map(String));
    } else {
      value.forEach((item, i) => linesOf(item, path ? `${path}.${i}` : '', out));
    }
  } else if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) linesOf(v, path ? `${path}.${key}` : key, out);
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
    const out: string[] = [];
    linesOf(body, '', out);
    return out.length ? out : null;
  } catch {
    return null;
  }
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

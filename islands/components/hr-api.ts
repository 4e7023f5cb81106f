/**
 * JSON calls for HR islands, on top of hrFetch (Bearer header, 401 -> login), and the spec's way
 * of turning an error body into lines (spec 02 section 8, job save failure): no body -> an
 * unknown-error text, a plain string as is, a list one line per item, an object as
 * 'field: messages' lines with nested keys as 'field.sub'.
 */
import { hrFetch } from './session.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The body as JSON when it parses, else its text; null when empty. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An HR JSON call; throws ApiError with the parsed body on a non-2xx answer. */
export async function hrJson<T>(url: string, opts: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await hrFetch(url, { method: opts.method ?? 'GET', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, body);
  return body as T;
}

export const UNKNOWN_ERROR = 'Unknown error.';

function messages(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ');
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function isPlainList(v: unknown[]): boolean {
  return v.every((x) => x === null || typeof x !== 'object');
}

/** Field errors keyed by their full path ('title', 'questions.0.text'), messages joined. */
export function fieldErrors(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, child] of Object.entries(v)) walk(path ? `${path}.${k}` : k, child);
    } else if (Array.isArray(v) && !isPlainList(v)) {
      v.forEach((child, i) => walk(`${path}.${i}`, child));
    } else if (path) {
      out[path] = messages(v);
    }
  };
  if (body && typeof body === 'object' && !Array.isArray(body)) walk('', body);
  return out;
}

/** Lines shown under 'Failed to save job.' (a top-level `detail` is shown as its message alone). */
export function errorLines(body: unknown): string[] {
  if (body === null || body === undefined || body === '') return [UNKNOWN_ERROR];
  if (typeof body === 'string') return [body];
  if (Array.isArray(body)) return body.length ? body.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : [UNKNOWN_ERROR];
  if (typeof body === 'object') {
    const lines = Object.entries(fieldErrors(body)).map(([field, msg]) => (field === 'detail' ? msg : `${field}: ${msg}`));
    return lines.length ? lines : [UNKNOWN_ERROR];
  }
  return [String(body)];
}

/**
 * JSON calls for HR islands, on top of hrFetch (Bearer header, 401 -> login). Error bodies are
 * turned into lines by src/shared/api-errors.ts (errorLines, fieldErrors).
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
async function readBody(res: Response): Promise<unknown> {
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
  const res = await hrFetch(url, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, body);
  return body as T;
}

/**
 * Where to go after signing in (`/hrviewlogin?next=`): one function for the server (its 302 and
 * the island's props) and the hr-login island (before it navigates), so both decide alike.
 * Node-free: islands import it.
 *
 * The decision is made on the target as a browser will see it, not on the text given: the WHATWG
 * URL parser (the browser's own) resolves backslashes to slashes, dot segments and their encoded
 * spellings (%2e), and drops tabs and newlines, so `/hr/..//evil.example` or `/.%2e/\evil.example`
 * look local but end up as `//evil.example`, another site. Only a path on this site is kept; the
 * caller falls back to the dashboard.
 */

export const DEFAULT_LANDING = '/hr/dashboard';
const MAX_NEXT_LENGTH = 2048;

/** A stand-in origin to resolve against, as the browser resolves against this site (.invalid never resolves). */
const BASE = 'http://same-site.invalid';

function resolve(path: string): URL | null {
  try {
    const url = new URL(path, BASE);
    return url.origin === BASE ? url : null;
  } catch {
    return null;
  }
}

/**
 * The normalised same-site path (path, query and fragment) to go to, or null when `raw` is not
 * one: not a string, empty or longer than 2,048 characters, not starting with '/', holding a
 * control character, resolving to another origin or to a path that starts with '//' (which a
 * browser reads as another host), or naming the login page itself or the API.
 */
export function safeNextPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NEXT_LENGTH) return null;
  // Control characters are refused, not cleaned: the parser drops tabs and newlines, so
  // '/\t/evil.example' would become '//evil.example'.
  if (!raw.startsWith('/') || /[\u0000-\u001f\u007f]/.test(raw)) return null;
  const target = resolve(raw);
  if (!target) return null;
  const path = target.pathname + target.search + target.hash;
  // The string is resolved once more by whoever gets it (a Location header, location.assign): it
  // must be a path-absolute reference (one '/', then neither '/' nor '\') that resolves to this
  // same target.
  if (!/^\/(?![/\\])/.test(path) || resolve(path)?.href !== target.href) return null;
  if (isExcluded(target.pathname)) return null;
  return path;
}

/** The login page (a loop) and the API (JSON, not a page) are no place to land; routes match in any case. */
function isExcluded(pathname: string): boolean {
  let p = pathname.toLowerCase();
  try {
    p = decodeURIComponent(p);
  } catch {
    // Malformed percent-encoding: judged as written (the server answers such paths with 404).
  }
  return p.startsWith('/hrviewlogin') || p === '/api' || p.startsWith('/api/');
}

/** `next` made safe, else the dashboard. */
export function landingPath(raw: unknown): string {
  return safeNextPath(raw) ?? DEFAULT_LANDING;
}

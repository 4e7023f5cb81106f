/**
 * Client session helpers (spec 01 section 4): the token lives under the name jwt in localStorage
 * and in a cookie of the same name. HR calls send it as a Bearer header; a 401 clears it and,
 * under /hr, sends the user to /hrviewlogin (keeping the page as `next`).
 *
 * Sliding sessions (issue 30): every signed-in page and HR answer says how long the session has
 * left (X-Session-Expires-In, X-Session-Limit-In; the page's #hr-session data). That is kept in
 * localStorage as `careers:session` (times on this browser's clock), shared by the tabs, so the
 * "Stay signed in" offer (session-watch.ts) and the login page (why the session ended) agree.
 */
export const TOKEN_NAME = 'jwt';
const LOGIN_PATH = '/hrviewlogin';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    } catch {
      return null;
    }
  }
  return null;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked by the browser's settings
  }
}

function getToken(): string | null {
  return readCookie(TOKEN_NAME) ?? storage()?.getItem(TOKEN_NAME) ?? null;
}

function cookieAttributes(maxAgeSeconds: number): string {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  return `Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
}

/** Spec 01 section 9: Max-Age from configuration, path /, SameSite Lax, Secure on https. */
export function storeToken(token: string, maxAgeSeconds: number): void {
  storage()?.setItem(TOKEN_NAME, token);
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser
  document.cookie = `${TOKEN_NAME}=${encodeURIComponent(token)}; ${cookieAttributes(Math.max(0, Math.floor(maxAgeSeconds)))}`;
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_NAME);
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser
  document.cookie = `${TOKEN_NAME}=; ${cookieAttributes(0)}`;
}

const SESSION_RECORD = 'careers:session';
/** Dispatched on window when this tab learns a new expiry (other tabs get a storage event). */
export const SESSION_EVENT = 'careers:session';

/** What the browser knows of its session: when it ends without activity, and at the latest. */
export interface SessionRecord {
  /** The user's id, for draft keys. */
  user: number;
  /** Epoch ms (this browser's clock). */
  endsAt: number;
  limitAt: number;
}

export function readSessionRecord(): SessionRecord | null {
  try {
    const v = JSON.parse(storage()?.getItem(SESSION_RECORD) ?? 'null');
    return v && typeof v === 'object' && [v.user, v.endsAt, v.limitAt].every(Number.isFinite)
      ? { user: v.user, endsAt: v.endsAt, limitAt: v.limitAt }
      : null;
  } catch {
    return null;
  }
}

/** Notes the time left the server announced (seconds from now). */
export function noteSession(expiresIn: number, limitIn: number, user?: number): void {
  const known = readSessionRecord();
  const who = user ?? known?.user;
  if (who === undefined || !Number.isFinite(expiresIn) || !Number.isFinite(limitIn)) return;
  const now = Date.now();
  const record: SessionRecord = { user: who, endsAt: now + expiresIn * 1000, limitAt: now + limitIn * 1000 };
  storage()?.setItem(SESSION_RECORD, JSON.stringify(record));
  window.dispatchEvent(new CustomEvent(SESSION_EVENT));
}

export function forgetSession(): void {
  storage()?.removeItem(SESSION_RECORD);
}

/** Why the session of this browser ended by itself, once it has: 'idle' or 'limit'; null when it did not (or is unknown). */
export function endedReason(record = readSessionRecord(), now = Date.now()): 'idle' | 'limit' | null {
  if (!record || record.endsAt > now) return null;
  return record.endsAt >= record.limitAt - 1000 ? 'limit' : 'idle';
}

function noteHeaders(res: Response): void {
  const expiresIn = res.headers.get('X-Session-Expires-In');
  const limitIn = res.headers.get('X-Session-Limit-In');
  if (expiresIn !== null && limitIn !== null) noteSession(Number(expiresIn), Number(limitIn));
}

let signingIn = false;
/** Whether this page is on its way to the login page after a 401: work is kept as drafts, so no "leave this page?" prompt. */
export function leavingToSignIn(): boolean {
  return signingIn;
}

/** The HR area is /hr and below; /hrviewlogin is not part of it. */
function isHrPath(pathname: string): boolean {
  return pathname === '/hr' || pathname.startsWith('/hr/');
}

function loginUrl(): string {
  const next = location.pathname + location.search;
  return `${LOGIN_PATH}?next=${encodeURIComponent(next)}`;
}

/** After a 401: forget the token and, inside the HR area, go to the login page. */
function handleUnauthorized(): void {
  clearToken();
  // Ended by itself: the login page says why. Otherwise (signed out elsewhere, disabled) it says nothing.
  if (!endedReason()) forgetSession();
  if (isHrPath(location.pathname)) {
    signingIn = true;
    location.assign(loginUrl());
  }
}

/** To the login page with this page as `next`, after the session ended (its work is kept as drafts). */
export function signInAgain(): void {
  clearToken();
  signingIn = true;
  location.assign(loginUrl());
}

/** fetch for HR calls: adds the Bearer header when the jwt cookie exists, handles 401. */
export async function hrFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = readCookie(TOKEN_NAME) ? getToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const res = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  if (res.status === 401) handleUnauthorized();
  else noteHeaders(res);
  return res;
}

/** Revokes the token on the server (best effort), clears both places, goes to the login page. */
export async function logout(): Promise<void> {
  const token = getToken();
  if (token) {
    await fetch('/api/auth/logout/', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  }
  clearToken();
  forgetSession();
  location.assign(LOGIN_PATH);
}

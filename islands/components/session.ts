/**
 * Client session helpers (spec 01 section 4): the token lives under the name jwt in localStorage
 * and in a cookie of the same name. HR calls send it as a Bearer header; a 401 clears it and,
 * under /hr, sends the user to /hrviewlogin (keeping the page as `next`).
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
  if (isHrPath(location.pathname)) location.assign(loginUrl());
}

/** fetch for HR calls: adds the Bearer header when the jwt cookie exists, handles 401. */
export async function hrFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = readCookie(TOKEN_NAME) ? getToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const res = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  if (res.status === 401) handleUnauthorized();
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
  location.assign(LOGIN_PATH);
}

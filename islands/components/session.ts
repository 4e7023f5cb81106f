/**
 * Client session helpers (spec 01 section 4): the token lives under the name jwt in localStorage
 * and in a cookie of the same name. HR calls send it as a Bearer header; a 401 clears it and,
 * under /hr, sends the user to /hrviewlogin.
 */
export const TOKEN_NAME = 'jwt';

export function readCookie(name: string): string | null {
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : null;
}

export function getToken(): string | null {
  return readCookie(TOKEN_NAME) ?? (typeof localStorage !== 'undefined' ? localStorage.getItem(TOKEN_NAME) : null);
}

export function storeToken(token: string, maxAgeSeconds: number): void {
  localStorage.setItem(TOKEN_NAME, token);
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TOKEN_NAME}=${encodeURIComponent(token)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_NAME);
  } catch {
    /* storage may be unavailable */
  }
  document.cookie = `${TOKEN_NAME}=; Max-Age=0; Path=/; SameSite=Lax`;
}

export function loginUrl(): string {
  const next = location.pathname + location.search;
  return `/hrviewlogin?next=${encodeURIComponent(next)}`;
}

/** After a 401: forget the token and, inside the HR area, go to the login page. */
export function handleUnauthorized(): void {
  clearToken();
  if (location.pathname.startsWith('/hr')) location.assign(loginUrl());
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

export async function logout(): Promise<void> {
  const token = getToken();
  if (token) {
    await fetch('/api/auth/logout/', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  }
  clearToken();
  location.assign('/hrviewlogin');
}

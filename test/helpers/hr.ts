/**
 * HR users and signing in, for every test that needs a signed-in HR user: a user written through
 * the real repo (with HR_PASSWORD unless told), a session token either from the real
 * POST /api/auth/token/ or straight from the session store (for tests that must not spend the
 * sign-in rate limit or that only need a token), and a browser tab signed in as the login page
 * leaves it. Tests of signing in itself (the login form, its rate limit) drive it their own way.
 */
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { hashPassword, type ScryptParams } from '../../src/users/lib/passwords.js';
import { createSession, insertUser, setActive } from '../../src/users/repo.js';
import type { UserRole } from '../../src/users/types.js';
import { openPage, type PageWithErrors } from './browser.js';

export const HR_PASSWORD = 'correct horse battery';

/**
 * The users made here get a cheaper scrypt than the app's: a sign-in checks a password with the
 * parameters stored in its hash, and a run signs in thousands of times. Passwords the app sets
 * (`user create`, the team page, an invitation) keep the app's parameters, which
 * test/users/credentials.test.ts checks; the sign-in timing test makes its user at the app's cost.
 * One hash per password in a test process, shared by the users made with it.
 */
const FIXTURE_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1 };
const hashes = new Map<string, Promise<string>>();
const passwordHash = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password, FIXTURE_SCRYPT));
  return hashes.get(password)!;
};

/** An HR user: an admin unless `role` says otherwise (as `careers-admin user create` makes them). */
export async function createHrUser(
  db: Knex,
  username = 'hr',
  opts: { password?: string; active?: boolean; role?: UserRole } = {},
): Promise<number> {
  const id = await insertUser(db, username, await passwordHash(opts.password ?? HR_PASSWORD), new Date(), opts.role ?? 'admin');
  if (opts.active === false) await setActive(db, id, false);
  return id;
}

/** A session straight from the store (no sign-in request), valid for `ttlSeconds` from now. */
export async function liveToken(db: Knex, userId: number, ttlSeconds = 3600): Promise<string> {
  return (await createSession(db, userId, ttlSeconds, new Date())).token;
}

/** A session that ended an hour ago (created with a clock two hours back). */
export async function expiredToken(db: Knex, userId: number): Promise<string> {
  const past = new Date(Date.now() - 2 * 3600_000);
  return (await createSession(db, userId, 3600, past)).token;
}

/** A new HR user with a live session from the store: the usual start of an HR test. */
export async function hrSession(db: Knex, username = 'hr', ttlSeconds = 3600): Promise<{ token: string; userId: number }> {
  const userId = await createHrUser(db, username);
  return { token: await liveToken(db, userId, ttlSeconds), userId };
}

/** POST /api/auth/token/ as is: a JSON body, or a form body when given a string. */
export async function postToken(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const isString = typeof body === 'string';
  return fetch(`${baseUrl}/api/auth/token/`, {
    method: 'POST',
    headers: { 'Content-Type': isString ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: isString ? body : JSON.stringify(body),
  });
}

/** Signs in through the real POST /api/auth/token/ and returns the access token (throws unless 200). */
export async function signInOverHttp(baseUrl: string, username: string, password = HR_PASSWORD): Promise<string> {
  const res = await postToken(baseUrl, { username, password });
  if (res.status !== 200) throw new Error(`sign-in as ${username}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/** A tab signed in as HR: the jwt cookie and localStorage, as the login page leaves them. */
export async function openHrPage(
  browser: Browser,
  baseUrl: string,
  token: string,
  opts: Parameters<typeof openPage>[1] = {},
): Promise<PageWithErrors> {
  const t = await openPage(browser, opts);
  await t.context.addCookies([{ name: 'jwt', value: token, url: baseUrl }]);
  // Every frame runs it; the browser's PDF viewer frame has no localStorage.
  await t.context.addInitScript((value) => window.localStorage?.setItem('jwt', value), token);
  return t;
}

/** HR users and sessions for the sign-in tests, written through the real repo and session store. */
import type { Knex } from 'knex';
import { hashPassword } from '../../src/auth/passwords.js';
import { createSession } from '../../src/auth/sessions.js';
import { insertUser, setActive } from '../../src/auth/users.repo.js';

export const PASSWORD = 'correct horse battery';

export async function createHrUser(db: Knex, username: string, opts: { password?: string; active?: boolean } = {}): Promise<number> {
  const id = await insertUser(db, username, await hashPassword(opts.password ?? PASSWORD));
  if (opts.active === false) await setActive(db, id, false);
  return id;
}

/** A session that ended an hour ago (created with a clock two hours back). */
export async function expiredToken(db: Knex, userId: number): Promise<string> {
  const past = new Date(Date.now() - 2 * 3600_000);
  return (await createSession(db, userId, 3600, past)).token;
}

export async function liveToken(db: Knex, userId: number, ttlSeconds = 3600): Promise<string> {
  return (await createSession(db, userId, ttlSeconds, new Date())).token;
}

export async function postToken(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const isString = typeof body === 'string';
  return fetch(`${baseUrl}/api/auth/token/`, {
    method: 'POST',
    headers: { 'Content-Type': isString ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: isString ? body : JSON.stringify(body),
  });
}

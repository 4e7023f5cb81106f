/**
 * HR users and their sessions: what sign-in, logout and `careers-admin user ...` do. Changing a
 * password or disabling a user signs out all of their sessions.
 */
import type { Db } from '../db/knex.js';
import { hashPassword } from './passwords.js';
import * as repo from './repo.js';
import type { UserRole } from './types.js';

export { findSession, type HrSession, type HrUser } from './repo.js';

/** Opens a session for a user who just proved their password; answers the token. */
export async function startSession(db: Db, userId: number, ttlSeconds: number, now: Date, meta: { ip?: string; userAgent?: string }): Promise<string> {
  const { token } = await repo.createSession(db, userId, ttlSeconds, now, meta);
  await repo.touchLastLogin(db, userId, now);
  // Housekeeping: expired rows go on every sign-in (an indexed range delete).
  await repo.deleteExpiredSessions(db, now);
  return token;
}

/** Ends the session of a token; answers whether it was a live one (an expired row goes too). */
export async function endSession(db: Db, token: string, now: Date): Promise<boolean> {
  const session = await repo.findSession(db, token, now);
  await repo.revokeSession(db, token);
  return !!session;
}

export function findUser(db: Db, username: string): Promise<repo.HrUser | null> {
  return repo.findUserByUsername(db, username);
}

export function listUsers(db: Db): Promise<repo.HrUser[]> {
  return repo.listUsers(db);
}

export function countUsers(db: Db): Promise<number> {
  return repo.countUsers(db);
}

/** `password` null: the user has none (company sign-in only, or a link later). */
export async function createUser(db: Db, username: string, password: string | null, role: UserRole = 'admin', email: string | null = null): Promise<void> {
  await repo.insertUser(db, username, password === null ? repo.NO_PASSWORD : await hashPassword(password), new Date(), role, email);
}

export function findUserByEmail(db: Db, email: string): Promise<repo.HrUser | null> {
  return repo.findUserByEmail(db, email);
}

/** Sets a new password and signs the user out everywhere; answers how many sessions ended. */
export async function changePassword(db: Db, user: repo.HrUser, password: string): Promise<number> {
  await repo.setPassword(db, user.id, await hashPassword(password));
  return repo.revokeUserSessions(db, user.id);
}

/** Disables a user (if active) and signs them out everywhere; answers how many sessions ended. */
export async function disableUser(db: Db, user: repo.HrUser): Promise<number> {
  if (user.is_active) await repo.setActive(db, user.id, false);
  return repo.revokeUserSessions(db, user.id);
}

export async function enableUser(db: Db, user: repo.HrUser): Promise<void> {
  if (!user.is_active) await repo.setActive(db, user.id, true);
}

/**
 * HR users and their sessions: what sign-in, logout and `careers-admin user ...` do. Changing a
 * password or disabling a user signs out all of their sessions.
 *
 * Sessions slide (issue 30): each authenticated request moves the expiry to now + the idle
 * timeout, never past the absolute limit counted from sign-in. So that a busy user does not cost
 * a database write per request, the new expiry is written only when it moved by more than
 * RENEW_STEP_MS (a minute; a tenth of the idle timeout when that is shorter, so a 1-minute test
 * timeout still slides): a session may end up to that much before a full idle timeout.
 */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { hashPassword } from './lib/passwords.js';
import * as repo from './repo.js';
import type { UserRole } from './types.js';

/** The login page; the start-up log and `careers-admin user create` print its full URL. */
export const LOGIN_PATH = '/hrviewlogin';

/** The login page's full address, for people reading a log or a terminal. */
export function signInUrl(config: Pick<Config, 'publicBaseUrl'>): string {
  return config.publicBaseUrl + LOGIN_PATH;
}

export type { HrUser } from './repo.js';

/** How long sessions last: SESSION_IDLE_MINUTES and SESSION_MAX_HOURS. */
export interface SessionTimes {
  idleMinutes: number;
  maxHours: number;
}

export function sessionTimes(config: { sessionIdleMinutes: number; sessionMaxHours: number }): SessionTimes {
  return { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours };
}

const RENEW_STEP_MS = 60_000;

/** The smallest move of the expiry that is written (see above). */
function renewStepMs(times: SessionTimes): number {
  return Math.min(RENEW_STEP_MS, (times.idleMinutes * 60_000) / 10);
}

/** A session's first lifetime in seconds: the idle timeout, or the absolute limit when shorter. */
export function firstLifetimeSeconds(times: SessionTimes): number {
  return Math.min(times.idleMinutes * 60, times.maxHours * 3600);
}

/** A live session as a request uses it: its expiry after renewal and its absolute limit. */
export interface UsedSession extends repo.HrSession {
  /** Sign-in + SESSION_MAX_HOURS: no renewal goes past it. */
  limitAt: Date;
  /** Whether this request wrote a new expiry (the jwt cookie is then refreshed to match). */
  renewed: boolean;
}

/**
 * The live session of a token, renewed for this request (see above); null when unknown, expired,
 * revoked, past its absolute limit or its user disabled.
 */
export async function renewSession(db: Db, token: string, now: Date, times: SessionTimes): Promise<UsedSession | null> {
  const session = await repo.findSession(db, token, now);
  if (!session) return null;
  const limitAt = new Date(session.createdAt.getTime() + times.maxHours * 3_600_000);
  // A setting lowered since sign-in applies at once.
  if (limitAt <= now) return null;
  const wanted = new Date(Math.min(now.getTime() + times.idleMinutes * 60_000, limitAt.getTime()));
  const step = renewStepMs(times);
  // Compared here first: most requests of a busy user read only.
  const renewed =
    wanted.getTime() - session.expiresAt.getTime() > step && (await repo.extendSession(db, session.sessionId, wanted, step, now));
  return { ...session, expiresAt: renewed ? wanted : new Date(Math.min(session.expiresAt.getTime(), limitAt.getTime())), limitAt, renewed };
}

/** Opens a session for a user who just proved their password; answers the token. */
export async function startSession(
  db: Db,
  userId: number,
  times: SessionTimes,
  now: Date,
  meta: { ip?: string; userAgent?: string },
): Promise<string> {
  const { token } = await repo.createSession(db, userId, firstLifetimeSeconds(times), now, meta);
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
export async function createUser(
  db: Db,
  username: string,
  password: string | null,
  role: UserRole = 'admin',
  email: string | null = null,
): Promise<void> {
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

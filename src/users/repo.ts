/**
 * The users feature's tables: HR users (usernames compared case-insensitively, stored lower-case,
 * each an admin or a recruiter), their sessions (DESIGN.md section 3): an opaque random token of
 * 256 bits is handed out as `access`; only its SHA-256 is stored, with an expiry. Logout deletes
 * the row. One-time sign-in links (`hr_user_links`) are tokens of the same kind, used once.
 */
import { normaliseUsername } from './schema.js';
import { storedEmail } from '../shared/application-rules.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, toDbBool, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import { USER_ROLES, type UserRole } from './types.js';

export interface HrUser {
  id: number;
  username: string;
  password_hash: string;
  role: UserRole;
  is_active: boolean;
  /** Stored trimmed with ASCII letters lower-cased (migration 025); null: none given. */
  email: string | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** A stored password of a user who has none yet (invited by link): no password ever matches it. */
export const NO_PASSWORD = '!';

/** A role read from the database; anything unknown counts as the least one, interviewer (deny by default). */
function toRole(v: unknown): UserRole {
  return USER_ROLES.includes(v as UserRole) ? (v as UserRole) : 'interviewer';
}

function mapUser(r: Record<string, any>): HrUser {
  return {
    id: Number(r.id),
    username: r.username,
    password_hash: r.password_hash,
    role: toRole(r.role),
    is_active: fromDbBool(r.is_active),
    email: r.email ?? null,
    created_at: fromDbDate(r.created_at)!,
    last_login_at: fromDbDate(r.last_login_at),
  };
}

export async function findUserByUsername(db: Knex, username: string): Promise<HrUser | null> {
  const row = await db('hr_users')
    .where({ username: normaliseUsername(username) })
    .first();
  return row ? mapUser(row) : null;
}

export async function countUsers(db: Knex): Promise<number> {
  const [{ n }] = await db('hr_users').count({ n: '*' });
  return Number(n);
}

export async function listUsers(db: Knex): Promise<HrUser[]> {
  return (await db('hr_users').orderBy('username')).map(mapUser);
}

export async function findUserById(db: Knex, id: number): Promise<HrUser | null> {
  const row = await db('hr_users').where({ id }).first();
  return row ? mapUser(row) : null;
}

/** One page of users by username. */
export async function listUsersPage(db: Knex, page: { page: number; pageSize: number }): Promise<HrUser[]> {
  return (
    await db('hr_users')
      .orderBy('username')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
  ).map(mapUser);
}

/** The user of an email address (as storedEmail writes it: compared byte for byte), or null. */
export async function findUserByEmail(db: Knex, email: string): Promise<HrUser | null> {
  const row = await db('hr_users')
    .where({ email: storedEmail(email) })
    .first();
  return row ? mapUser(row) : null;
}

/** A new user: an admin unless told (the CLI's default, and the column's). */
export async function insertUser(
  db: Knex,
  username: string,
  passwordHash: string,
  now = new Date(),
  role: UserRole = 'admin',
  email: string | null = null,
): Promise<number> {
  const [id] = await db('hr_users').insert({
    username: normaliseUsername(username),
    password_hash: passwordHash,
    email: email === null ? null : storedEmail(email),
    role,
    is_active: toDbBool(true),
    created_at: toDbDate(now),
    updated_at: toDbDate(now),
  });
  return Number(id);
}

export async function setPassword(db: Knex, id: number, passwordHash: string, now = new Date()): Promise<void> {
  await db('hr_users')
    .where({ id })
    .update({ password_hash: passwordHash, updated_at: toDbDate(now) });
}

export async function setActive(db: Knex, id: number, active: boolean, now = new Date()): Promise<void> {
  await db('hr_users')
    .where({ id })
    .update({ is_active: toDbBool(active), updated_at: toDbDate(now) });
}

export async function setEmail(db: Knex, id: number, email: string | null, now = new Date()): Promise<void> {
  await db('hr_users')
    .where({ id })
    .update({ email: email === null ? null : storedEmail(email), updated_at: toDbDate(now) });
}

export async function setRole(db: Knex, id: number, role: UserRole, now = new Date()): Promise<void> {
  await db('hr_users')
    .where({ id })
    .update({ role, updated_at: toDbDate(now) });
}

/**
 * Ids of the active admins. In a transaction on MySQL their rows are locked (FOR UPDATE), so two
 * admins demoting each other at once are taken one after the other and the second sees the first's
 * change; SQLite runs one write transaction at a time anyway.
 */
export async function activeAdminIds(trx: Knex): Promise<number[]> {
  const q = trx('hr_users')
    .where({ role: 'admin', is_active: toDbBool(true) })
    .select('id');
  return ((await (isMysql(trx) ? q.forUpdate() : q)) as { id: unknown }[]).map((r) => Number(r.id));
}

export async function touchLastLogin(db: Knex, id: number, now: Date): Promise<void> {
  await db('hr_users')
    .where({ id })
    .update({ last_login_at: toDbDate(now) });
}

export interface HrSession {
  sessionId: number;
  userId: number;
  username: string;
  role: UserRole;
  expiresAt: Date;
  /** When it was signed in: the absolute limit counts from here. */
  createdAt: Date;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens are 43 base64url characters; anything else is refused before touching the database. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function createSession(
  db: Knex,
  userId: number,
  ttlSeconds: number,
  now: Date,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db('hr_sessions').insert({
    user_id: userId,
    token_hash: hashToken(token),
    created_at: toDbDate(now),
    expires_at: toDbDate(expiresAt),
    ip: meta.ip?.slice(0, 64) ?? null,
    user_agent: meta.userAgent?.slice(0, 191) ?? null,
  });
  return { token, expiresAt };
}

/** The live session for a token, or null when unknown, expired, revoked or its user disabled. */
export async function findSession(db: Knex, token: string, now: Date): Promise<HrSession | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db('hr_sessions as s')
    .join('hr_users as u', 'u.id', 's.user_id')
    .where('s.token_hash', hashToken(token))
    .first('s.id as session_id', 's.user_id', 's.created_at', 's.expires_at', 'u.username', 'u.role', 'u.is_active');
  if (!row || !fromDbBool(row.is_active)) return null;
  const expiresAt = fromDbDate(row.expires_at)!;
  if (expiresAt <= now) return null;
  return {
    sessionId: Number(row.session_id),
    userId: Number(row.user_id),
    username: row.username,
    role: toRole(row.role),
    expiresAt,
    createdAt: fromDbDate(row.created_at)!,
  };
}

/**
 * Moves a live session's expiry on to `expiresAt`, only when that is more than `minStepMs` later
 * than the stored one (so a busy user costs one write a minute, not one a request) and the row has
 * not expired meanwhile; never backwards, so two requests at once cannot shorten it. Answers
 * whether it wrote.
 */
export async function extendSession(db: Knex, sessionId: number, expiresAt: Date, minStepMs: number, now: Date): Promise<boolean> {
  const n = await db('hr_sessions')
    .where({ id: sessionId })
    .where('expires_at', '>', toDbDate(now))
    .where('expires_at', '<', toDbDate(new Date(expiresAt.getTime() - minStepMs)))
    .update({ expires_at: toDbDate(expiresAt) });
  return n > 0;
}

export async function revokeSession(db: Knex, token: string): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  return (
    (await db('hr_sessions')
      .where({ token_hash: hashToken(token) })
      .delete()) > 0
  );
}

export async function revokeUserSessions(db: Knex, userId: number): Promise<number> {
  return db('hr_sessions').where({ user_id: userId }).delete();
}

export async function deleteExpiredSessions(db: Knex, now: Date): Promise<number> {
  return db('hr_sessions').where('expires_at', '<=', toDbDate(now)).delete();
}

export type LinkPurpose = 'invite' | 'reset';

export interface SignInLinkRow {
  id: number;
  userId: number;
  purpose: LinkPurpose;
  expiresAt: Date;
  usedAt: Date | null;
  userActive: boolean;
  username: string;
}

/** A new one-time link for a user; answers the token (only its hash is stored). */
export async function createLink(
  db: Knex,
  userId: number,
  purpose: LinkPurpose,
  ttlSeconds: number,
  now: Date,
  createdBy: number | null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db('hr_user_links').insert({
    user_id: userId,
    token_hash: hashToken(token),
    purpose,
    created_by: createdBy,
    created_at: toDbDate(now),
    expires_at: toDbDate(expiresAt),
    used_at: null,
  });
  return { token, expiresAt };
}

/** The link of a token (used, expired or not), or null when the token names none. */
export async function findLink(db: Knex, token: string): Promise<SignInLinkRow | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db('hr_user_links as l')
    .join('hr_users as u', 'u.id', 'l.user_id')
    .where('l.token_hash', hashToken(token))
    .first('l.id', 'l.user_id', 'l.purpose', 'l.expires_at', 'l.used_at', 'u.is_active', 'u.username');
  if (!row) return null;
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    purpose: row.purpose === 'reset' ? 'reset' : 'invite',
    expiresAt: fromDbDate(row.expires_at)!,
    usedAt: fromDbDate(row.used_at),
    userActive: fromDbBool(row.is_active),
    username: row.username,
  };
}

/** Marks a link used; false when it already was (so two requests with one link cannot both win). */
export async function markLinkUsed(db: Knex, id: number, now: Date): Promise<boolean> {
  return (
    (await db('hr_user_links')
      .where({ id })
      .whereNull('used_at')
      .update({ used_at: toDbDate(now) })) > 0
  );
}

/** Deletes a user's links not used yet (a newer link replaces them; disabling voids them). */
export async function deleteOpenLinks(db: Knex, userId: number): Promise<number> {
  return db('hr_user_links').where({ user_id: userId }).whereNull('used_at').delete();
}

/**
 * The users feature's tables: HR users (usernames compared case-insensitively, stored lower-case)
 * and their sessions (DESIGN.md section 3): an opaque random token of 256 bits is handed out as
 * `access`; only its SHA-256 is stored, with an expiry. Logout deletes the row.
 */
import { normaliseUsername } from './schema.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, toDbBool, toDbDate } from '../db/codecs.js';

export interface HrUser {
  id: number;
  username: string;
  password_hash: string;
  is_active: boolean;
  created_at: Date;
  last_login_at: Date | null;
}


function mapUser(r: Record<string, any>): HrUser {
  return {
    id: Number(r.id),
    username: r.username,
    password_hash: r.password_hash,
    is_active: fromDbBool(r.is_active),
    created_at: fromDbDate(r.created_at)!,
    last_login_at: fromDbDate(r.last_login_at),
  };
}

export async function findUserByUsername(db: Knex, username: string): Promise<HrUser | null> {
  const row = await db('hr_users').where({ username: normaliseUsername(username) }).first();
  return row ? mapUser(row) : null;
}

export async function countUsers(db: Knex): Promise<number> {
  const [{ n }] = await db('hr_users').count({ n: '*' });
  return Number(n);
}

export async function listUsers(db: Knex): Promise<HrUser[]> {
  return (await db('hr_users').orderBy('username')).map(mapUser);
}

export async function insertUser(db: Knex, username: string, passwordHash: string, now = new Date()): Promise<number> {
  const [id] = await db('hr_users').insert({
    username: normaliseUsername(username),
    password_hash: passwordHash,
    is_active: toDbBool(true),
    created_at: toDbDate(now),
    updated_at: toDbDate(now),
  });
  return Number(id);
}

export async function setPassword(db: Knex, id: number, passwordHash: string, now = new Date()): Promise<void> {
  await db('hr_users').where({ id }).update({ password_hash: passwordHash, updated_at: toDbDate(now) });
}

export async function setActive(db: Knex, id: number, active: boolean, now = new Date()): Promise<void> {
  await db('hr_users').where({ id }).update({ is_active: toDbBool(active), updated_at: toDbDate(now) });
}

export async function touchLastLogin(db: Knex, id: number, now: Date): Promise<void> {
  await db('hr_users').where({ id }).update({ last_login_at: toDbDate(now) });
}

export interface HrSession {
  sessionId: number;
  userId: number;
  username: string;
  expiresAt: Date;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens are 43 base64url characters; anything else is refused before touching the database. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function createSession(db: Knex, userId: number, ttlSeconds: number, now: Date, meta: { ip?: string; userAgent?: string } = {}): Promise<{ token: string; expiresAt: Date }> {
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
    .first('s.id as session_id', 's.user_id', 's.expires_at', 'u.username', 'u.is_active');
  if (!row || !fromDbBool(row.is_active)) return null;
  const expiresAt = fromDbDate(row.expires_at)!;
  if (expiresAt <= now) return null;
  return { sessionId: Number(row.session_id), userId: Number(row.user_id), username: row.username, expiresAt };
}

export async function revokeSession(db: Knex, token: string): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  return (await db('hr_sessions').where({ token_hash: hashToken(token) }).delete()) > 0;
}

export async function revokeUserSessions(db: Knex, userId: number): Promise<number> {
  return db('hr_sessions').where({ user_id: userId }).delete();
}

export async function deleteExpiredSessions(db: Knex, now: Date): Promise<number> {
  return db('hr_sessions').where('expires_at', '<=', toDbDate(now)).delete();
}


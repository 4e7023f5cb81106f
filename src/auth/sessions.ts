/**
 * HR sessions (DESIGN.md section 3): an opaque random token of 256 bits is handed out as
 * `access`; only its SHA-256 is stored, with an expiry. Logout deletes the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, toDbDate } from '../db/codecs.js';

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


/** HR users in the database. Usernames are compared case-insensitively (stored lower-case). */
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

export const USERNAME_PATTERN = /^[a-z0-9_.@+-]{3,150}$/;

export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
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

/**
 * The token of a candidate's status page link (issue 35): the person's id, when it expires, and
 * an HMAC of both under the server key (src/db/server-key.ts), so it needs no row and cannot be
 * made up or stretched. `12.1790000000.<32 hex>`; an erased person's token names no one.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ServerKey } from '../../db/server-key.js';

const MAC_CHARS = 32;
const TOKEN = /^([1-9]\d{0,9})\.([1-9]\d{0,10})\.([0-9a-f]{32})$/;

const macOf = async (key: ServerKey, personId: number, expires: number) =>
  (await key.hash(`candidate-status:${personId}:${expires}`)).slice(0, MAC_CHARS);

export async function makeStatusToken(key: ServerKey, personId: number, expiresAt: Date): Promise<string> {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${personId}.${expires}.${await macOf(key, personId, expires)}`;
}

/** The person a token names, or why it names no one: not one of ours (or changed), or past its time. */
export async function readStatusToken(
  key: ServerKey,
  token: unknown,
  now: Date,
): Promise<{ personId: number } | { problem: 'invalid' | 'expired' }> {
  const m = typeof token === 'string' ? TOKEN.exec(token) : null;
  if (!m) return { problem: 'invalid' };
  const [personId, expires] = [Number(m[1]), Number(m[2])];
  const mac = await macOf(key, personId, expires);
  if (!timingSafeEqual(Buffer.from(mac), Buffer.from(m[3]))) return { problem: 'invalid' };
  return expires * 1000 <= now.getTime() ? { problem: 'expired' } : { personId };
}

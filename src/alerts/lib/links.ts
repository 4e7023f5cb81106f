/**
 * The signed links of job alerts (DESIGN.md "Signed links": an HMAC under the server key over the
 * purpose, the subject and the expiry; single purpose): confirm, unsubscribe, renew. A token is
 * `<alert id>.<expiry, seconds since 1970, base 36>.<signature>`; the signature also covers the
 * alert's creation time, so a link of a deleted alert never works for a later one with its id.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ServerKey } from '../../db/server-key.js';

export type LinkPurpose = 'confirm' | 'unsubscribe' | 'renew';

const TOKEN = /^([1-9]\d{0,11})\.([0-9a-z]{1,10})\.([0-9a-f]{40})$/;
const PATHS: Record<LinkPurpose, string> = { confirm: 'confirm', unsubscribe: 'unsubscribe', renew: 'renew' };

async function signature(key: ServerKey, purpose: LinkPurpose, id: number, createdAt: Date, exp: number): Promise<string> {
  return (await key.hash(`job-alert/${purpose}/${id}/${createdAt.getTime()}/${exp}`)).slice(0, 40);
}

/** The token of a link of `purpose` to alert `id` (created at `createdAt`), working until `expires`. */
export async function signLink(
  key: ServerKey,
  purpose: LinkPurpose,
  alert: { id: number; created_at: Date },
  expires: Date,
): Promise<string> {
  const exp = Math.ceil(expires.getTime() / 1000);
  return `${alert.id}.${exp.toString(36)}.${await signature(key, purpose, alert.id, alert.created_at, exp)}`;
}

/** The absolute URL of a link. */
export function linkUrl(baseUrl: string, purpose: LinkPurpose, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}/job-alerts/${PATHS[purpose]}/${token}`;
}

/** A token's alert id and expiry as written, or null when it is not shaped like one. */
export function readToken(token: string): { id: number; exp: number; sig: string } | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  return { id: Number(m[1]), exp: Number.parseInt(m[2], 36), sig: m[3] };
}

/** Whether the token was signed for this purpose and alert; 'expired' when it was, but its time has passed. */
export async function checkLink(
  key: ServerKey,
  purpose: LinkPurpose,
  token: { id: number; exp: number; sig: string },
  alert: { id: number; created_at: Date },
  now: Date,
): Promise<'ok' | 'bad' | 'expired'> {
  const expected = Buffer.from(await signature(key, purpose, alert.id, alert.created_at, token.exp));
  const given = Buffer.from(token.sig);
  if (token.id !== alert.id || expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad';
  return token.exp * 1000 > now.getTime() ? 'ok' : 'expired';
}

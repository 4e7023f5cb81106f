/**
 * A client address as it is kept with a submission (applications, form entries): a hash keyed
 * with the server key, never the address itself, so rows can be compared (the same sender)
 * without storing who sent them, and the hash cannot be matched against guessed addresses.
 */
import type { ServerKey } from '../db/server-key.js';

export async function addressHash(
  serverKey: ServerKey | undefined,
  ip: string | null | undefined,
  purpose: string,
): Promise<string | null> {
  return ip && serverKey ? serverKey.hash(`${purpose}:${ip}`) : null;
}

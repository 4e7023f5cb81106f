/**
 * A client address as it is kept with a submission (applications, form entries): a hash, never
 * the address itself, so rows can be compared (the same sender) without storing who sent them.
 */
import { createHash } from 'node:crypto';

export function addressHash(ip: string | null | undefined, purpose: string): string | null {
  return ip ? createHash('sha256').update(`careers-${purpose}:${ip}`).digest('hex') : null;
}

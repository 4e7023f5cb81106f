/** Password hashing with scrypt from node:crypto: per-user salt, constant-time compare. */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

const PARAMS: ScryptParams = { N: 16384, r: 8, p: 1 };
const KEYLEN = 64;

/**
 * Format: scrypt$N$r$p$salt(base64)$hash(base64) so parameters can be raised later: a check uses the
 * parameters stored with the hash. `params` is for test fixtures alone; the app always hashes with PARAMS.
 */
export async function hashPassword(password: string, params: ScryptParams = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...params, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, hashB64] = parts;
  const expected = Buffer.from(hashB64, 'base64');
  if (expected.length < 16) return false;
  try {
    const key = await scrypt(password.normalize('NFKC'), Buffer.from(saltB64, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 64 * 1024 * 1024,
    });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false; // a damaged stored value (bad parameters) is a failed check, not a server error
  }
}

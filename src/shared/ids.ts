/** Unambiguous alphabet: no 0/O, 1/l/I, so ids survive being read aloud or retyped. */
export const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

// Random bytes at or above this (the largest multiple of the alphabet's size within 256) are
// dropped, so that `byte % size` picks every character equally often (no modulo bias).
const LIMIT = 256 - (256 % ALPHABET.length);

/** A random public id. Web Crypto, so this module stays importable from islands (no Node built-ins). */
export function randomPublicId(length = 10): string {
  let s = '';
  // Twice the length covers the dropped bytes almost always; getRandomValues takes at most 64 KiB.
  const bytes = new Uint8Array(Math.min(65_536, Math.max(1, length * 2)));
  while (s.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (s.length === length) break;
      if (b < LIMIT) s += ALPHABET[b % ALPHABET.length];
    }
  }
  return s;
}

/**
 * A public id made from a title (DESIGN.md section 3): `Senior Backend Engineer` ->
 * `senior-backend-engineer`; accents folded, every other run of characters one '-', at most 60
 * characters (room for a `-2` on a clash). '' when the title has no letter or digit to keep.
 */
export function slugPublicId(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, 60).replace(/-+$/, '');
}

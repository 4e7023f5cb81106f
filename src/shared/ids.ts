import slugify from '@sindresorhus/slugify';

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
 * `senior-backend-engineer`, other scripts and accents transliterated by @sindresorhus/slugify
 * (`Développeur Back-end` -> `developpeur-back-end`, `Ingeniør` -> `ingenior`), at most `max`
 * characters cut at a hyphen where one is near. '' when nothing is left to keep.
 */
export function slugPublicId(title: string, max = 60): string {
  const slug = slugify(title, { decamelize: false }).replace(/[^a-z0-9-]+/g, '');
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > max / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}

/** The `n`th id made from `base` (`base`, then `base-2`, `base-3` ...), at most `max` characters. */
export function numberedPublicId(base: string, n: number, max = 64): string {
  if (n < 2) return base.slice(0, max);
  const suffix = `-${n}`;
  return `${base.slice(0, max - suffix.length).replace(/-+$/, '')}${suffix}`;
}

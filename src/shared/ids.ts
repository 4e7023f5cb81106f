import { randomInt } from 'node:crypto';

/** Unambiguous alphabet: no 0/O, 1/l/I, so ids survive being read aloud or retyped. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function randomPublicId(length = 10): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

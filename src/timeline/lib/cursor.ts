/**
 * The timeline's page cursor (`?before=`, issue 33): where the previous page ended, as the keyset
 * of its last entry (time in ms, rank, sequence, source; queries.ts `TimelineKey`) and the
 * application it belongs to. Opaque to callers: base64url of the key, a dot, then an HMAC under the
 * server key (DESIGN.md: one key signs what the server hands out), so a cursor changed by hand, made
 * up, or taken from another application's timeline is refused with a 400, never read.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ServerKey } from '../../db/server-key.js';
import { ValidationError } from '../../http/errors.js';
import { KEY_LIMITS, type TimelineKey } from '../queries.js';

/** Longer than any cursor this makes (about 60 characters): refused before it is read. */
const CURSOR_MAX = 200;
/** Hex characters of the HMAC kept in a cursor (128 bits). */
const MAC_HEX = 32;

export const CURSOR_MESSAGES = {
  one: 'Give one cursor: the `before` of a `next` link, once.',
  tooLong: `This cursor is too long: a timeline cursor has at most ${CURSOR_MAX} characters.`,
  invalid: "This cursor is not valid for this application's timeline: use the `next` link of its last page.",
} as const;

const bad = (message: string) => new ValidationError({ before: [message] });

const payloadOf = (applicationId: number, k: TimelineKey) => `${applicationId}.${k.ms}.${k.rank}.${k.seq}.${k.src}`;

const mac = async (key: ServerKey, payload: string) => (await key.hash(`timeline-cursor:${payload}`)).slice(0, MAC_HEX);

export async function encodeCursor(key: ServerKey, applicationId: number, k: TimelineKey): Promise<string> {
  const payload = payloadOf(applicationId, k);
  return `${Buffer.from(payload).toString('base64url')}.${await mac(key, payload)}`;
}

/**
 * The key a `before` query value stands for: undefined when there is none (the first page), else
 * the key, or a ValidationError (400 `{before: [message]}`) for anything this server did not hand
 * out for this application.
 */
export async function decodeCursor(key: ServerKey, applicationId: number, raw: unknown): Promise<TimelineKey | undefined> {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw bad(CURSOR_MESSAGES.one);
  const text = raw.trim();
  if (text === '') return undefined;
  if (text.length > CURSOR_MAX) throw bad(CURSOR_MESSAGES.tooLong);
  const m = /^([A-Za-z0-9_-]{1,160})\.([0-9a-f]{32})$/.exec(text);
  if (!m) throw bad(CURSOR_MESSAGES.invalid);
  const payload = Buffer.from(m[1], 'base64url').toString('latin1');
  const expected = Buffer.from(await mac(key, payload));
  if (!timingSafeEqual(expected, Buffer.from(m[2]))) throw bad(CURSOR_MESSAGES.invalid);
  // Signed by this server, so made by encodeCursor; read strictly all the same.
  const parts = /^(\d{1,15})\.(-?\d{1,16})\.(\d)\.(\d{1,15})\.(\d)$/.exec(payload);
  if (!parts || Number(parts[1]) !== applicationId) throw bad(CURSOR_MESSAGES.invalid);
  const k: TimelineKey = { ms: Number(parts[2]), rank: Number(parts[3]), seq: Number(parts[4]), src: Number(parts[5]) };
  if (
    !Number.isSafeInteger(k.ms) ||
    Math.abs(k.ms) > KEY_LIMITS.ms ||
    k.rank > KEY_LIMITS.rank ||
    !Number.isSafeInteger(k.seq) ||
    k.src > KEY_LIMITS.src
  )
    throw bad(CURSOR_MESSAGES.invalid);
  return k;
}

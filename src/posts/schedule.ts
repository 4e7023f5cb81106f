/** When a failed post is tried again: POSTS_RETRY_SCHEDULE with ±20 % jitter, or the receiver's Retry-After. */

const JITTER = 0.2;
/** A Retry-After further away than this is cut to it: a receiver cannot park a post for ever. */
const MAX_RETRY_AFTER_SECONDS = 7 * 86_400;

/**
 * Milliseconds until the next attempt after `attempts` attempts (1 = the first failed), or null
 * when the schedule is used up. `random` in [0, 1) spreads retries so receivers coming back up
 * are not hit by every post at the same second.
 */
export function retryDelayMs(attempts: number, schedule: number[], random: () => number = Math.random): number | null {
  const seconds = schedule[attempts - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), MAX_RETRY_AFTER_SECONDS);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

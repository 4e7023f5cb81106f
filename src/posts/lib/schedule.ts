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

/** RFC 9110 section 5.6.7: IMF-fixdate, the obsolete RFC 850 form and asctime's form. */
const HTTP_DATE = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * Retry-After as seconds: a non-negative whole number of seconds, or an HTTP date in the future;
 * null for anything else (`-5`, `5.5`, `10, 20`, a date in the past), so the schedule is used.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), MAX_RETRY_AFTER_SECONDS);
  if (!HTTP_DATE.some((re) => re.test(v))) return null;
  const at = Date.parse(/GMT$/.test(v) ? v : `${v} GMT`);
  if (Number.isNaN(at) || at <= now.getTime()) return null;
  return Math.min(Math.ceil((at - now.getTime()) / 1000), MAX_RETRY_AFTER_SECONDS);
}

/**
 * The words of sliding sessions (issue 30), shared by the login page and the HR pages' "Stay
 * signed in" offer: why a session ended, from SESSION_IDLE_MINUTES and SESSION_MAX_HOURS.
 */
export interface SessionTimesText {
  idleMinutes: number;
  maxHours: number;
}

/** How a session ended by itself: idle past the timeout, or at the absolute limit after sign-in. */
export type SessionEnd = 'idle' | 'limit';

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** "You were signed out after 60 minutes without activity" ("1 minute" when 1), or the limit's own words. */
export function signedOutMessage(end: SessionEnd, times: SessionTimesText): string {
  return end === 'idle'
    ? `You were signed out after ${count(times.idleMinutes, 'minute')} without activity`
    : `You were signed out after ${count(times.maxHours, 'hour')}; please sign in again.`;
}

/** The idle timeout in words, for the offer ("60 minutes", "1 minute"). */
export function idleText(times: SessionTimesText): string {
  return count(times.idleMinutes, 'minute');
}

/** The limit in words ("12 hours", "1 hour"). */
export function limitText(times: SessionTimesText): string {
  return count(times.maxHours, 'hour');
}

/** How long before the end the offer shows: two minutes, or half the idle timeout when that is under four minutes. */
export function offerLeadMs(times: SessionTimesText): number {
  return times.idleMinutes >= 4 ? 120_000 : times.idleMinutes * 30_000;
}

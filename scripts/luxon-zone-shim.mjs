/**
 * What islands get for `luxon` (scripts/build.mjs): the one part a shared schema uses there,
 * `IANAZone.isValidZone`, on the browser's Intl; luxon itself would add 70 KB to an island
 * (issue 32: interviews.schema.ts checks time zones with it). Any other name imported from luxon
 * in an island fails the build ("No matching export"), so nothing is silently missing.
 */
export const IANAZone = {
  /** Whether the runtime knows `zone` (an IANA name such as Europe/Berlin, or UTC). */
  isValidZone(zone) {
    if (!zone || typeof zone !== 'string') return false;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone }).format();
      return true;
    } catch {
      return false;
    }
  },
};

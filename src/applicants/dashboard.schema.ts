/**
 * The dashboard's "Today's interviews" query (issue 32): `?tz=` the viewer's IANA time zone, whose
 * calendar day is "today" (UTC when left out). Node-free (the runtime's Intl knows the zones).
 */
import * as z from 'zod/mini';

const DASHBOARD_MESSAGES = {
  tz: 'Give a time zone by its IANA name, e.g. Europe/Berlin.',
} as const;

/** Whether the runtime knows `zone` as an IANA time zone. */
function isTimeZone(zone: string): boolean {
  if (zone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `?tz=`: one text value, trimmed; blank means UTC. */
export const todayInterviewsQuerySchema = z.object({
  tz: z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null ? '' : v)),
    z
      .string({ error: DASHBOARD_MESSAGES.tz })
      .check(z.overwrite((s) => s.trim()))
      .check(z.refine((s) => s === '' || isTimeZone(s), DASHBOARD_MESSAGES.tz)),
  ),
});

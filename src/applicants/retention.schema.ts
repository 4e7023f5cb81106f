/** Retention's input (careers-admin applicants purge): the age `--older-than` names. */
const AGE_UNITS_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, mo: 30 * 86_400_000, y: 365 * 86_400_000 };

/** The oldest age a purge takes: older ages name no date the databases can hold. */
const RETENTION_AGE_MAX_MS = 100 * AGE_UNITS_MS.y;

/**
 * `--older-than` of the purge: a whole number and a unit (h, d, w, mo = 30 days, y = 365 days),
 * e.g. `180d`, up to 100 years; the age in ms, or the usage message.
 */
export function parseRetentionAge(raw: string): { ms: number } | { error: string } {
  const m = /^(\d{1,6})\s*(h|d|w|mo|y)$/.exec(raw.trim().toLowerCase());
  if (!m) return { error: `--older-than must be a whole number and a unit (h, d, w, mo, y), e.g. 180d (got "${raw}")` };
  if (Number(m[1]) < 1)
    return {
      error: `--older-than must be a positive whole number and a unit, such as 1d or 180d: 0 would match everything up to now (got "${raw}")`,
    };
  const ms = Number(m[1]) * AGE_UNITS_MS[m[2]];
  return ms > RETENTION_AGE_MAX_MS ? { error: `--older-than must be at most 100 years (got "${raw}")` } : { ms };
}

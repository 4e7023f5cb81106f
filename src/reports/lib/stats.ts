/** Order statistics of the reports. */

/** The median (the mean of the two middle values for an even count) and the 90th percentile (nearest rank); null for none. */
export function medianAndP90(values: number[]): { count: number; median_seconds: number | null; p90_seconds: number | null } {
  if (!values.length) return { count: 0, median_seconds: null, p90_seconds: null };
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  const p90 = v[Math.ceil(0.9 * v.length) - 1];
  return { count: v.length, median_seconds: Math.round(median), p90_seconds: Math.round(p90) };
}

/** `part` of `whole` in percent, one decimal; null when `whole` is 0. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

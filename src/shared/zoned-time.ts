/**
 * Wall-clock times in a named time zone, with the runtime's Intl alone (islands: no date library
 * in the bundle). Issue 32: the interview dialog takes a date, a start and an end in the chosen
 * zone and sends instants; a reschedule shows the interview's own wall-clock times again.
 */

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let fmt = partsFormats.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(zone, fmt);
  }
  return fmt;
}

/** Whether the runtime knows `zone` as a time zone. */
export function isKnownTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    partsFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `instant` (ms) in `zone`: 'YYYY-MM-DD' and 'HH:MM'. */
export function wallClock(instant: number, zone: string): { date: string; time: string } {
  const p = Object.fromEntries(
    partsFormat(zone)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, zone: string): number {
  const p = Object.fromEntries(
    partsFormat(zone)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, Number(x.value)]),
  );
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ms) when `zone`'s clock shows `date` ('YYYY-MM-DD') at `time` ('HH:MM'); null for
 * a malformed date or time. A time the clocks skip (spring forward) is read with the offset before the gap (02:30 becomes 03:30); one they
 * pass twice (fall back) is its first pass.
 */
export function zonedInstant(date: string, time: string, zone: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da, h, mi] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, da, h, mi);
  if (new Date(wall).getUTCDate() !== da) return null;
  // The offsets a day either side: any change of offset near this wall time lies between them.
  const candidates = [...new Set([offsetAt(wall - 86_400_000, zone), offsetAt(wall + 86_400_000, zone)])].map((o) => wall - o);
  const shows = candidates.filter((i) => {
    const w = wallClock(i, zone);
    return w.date === date && w.time === time;
  });
  return shows.length ? Math.min(...shows) : Math.max(...candidates);
}

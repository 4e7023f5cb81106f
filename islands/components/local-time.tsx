/** A time in the viewer's time zone, zone named, in the one format of HR screens (src/shared/time-format.ts). */
import { formatTime, viewerTimeZone, type TimeKind } from '../../src/shared/time-format.js';

const zone = viewerTimeZone();

export function LocalTime({ iso, kind = 'time' }: { iso: string; kind?: TimeKind }) {
  return (
    <time dateTime={iso} data-local={kind} title={zone ?? undefined}>
      {formatTime(iso, kind)}
    </time>
  );
}

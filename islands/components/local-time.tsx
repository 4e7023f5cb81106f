/** A time in the viewer's time zone, zone named, in the one format of HR screens (src/shared/time-format.ts). */
import { Fragment } from 'react';
import { timeParts, viewerTimeZone, type TimeKind } from '../../src/shared/time-format.js';

const zone = viewerTimeZone();

export function LocalTime({ iso, kind = 'time' }: { iso: string; kind?: TimeKind }) {
  return (
    <time dateTime={iso} data-local={kind} title={zone ?? undefined}>
      {timeParts(iso, kind).map((part, i) => (
        <Fragment key={i}>
          {i ? ' ' : ''}
          <span className="time-part">{part}</span>
        </Fragment>
      ))}
    </time>
  );
}

/**
 * The iCalendar of an invitation (issue 32; RFC 5545, sent as iMIP, RFC 6047): one VEVENT with the
 * interview's stable UID and SEQUENCE, the organizer (MAIL_FROM's address under the company's
 * name), every participant and the candidate as attendees asked to answer (RSVP=TRUE,
 * PARTSTAT=NEEDS-ACTION), its start and end in the interview's zone with that zone's VTIMEZONE
 * (timezones-ical-library), and where it takes place. Written by ical-generator.
 */
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';

export interface CalendarEvent {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
  organizer: { name: string; email: string };
  attendees: { name: string; email: string }[];
  /** DTSTAMP: when this message was made. */
  now: Date;
}

/** The zone's VTIMEZONE block and the TZID it names ("UTC" is "Etc/UTC" there); null when the library has none. */
function vtimezone(zone: string): { tzid: string; block: string } | null {
  const got = tzlib_get_ical_block(zone);
  if (!Array.isArray(got) || !got[0]) return null;
  const tzid = /^TZID:(.+)$/m.exec(got[0])?.[1]?.trim();
  return tzid ? { tzid, block: got[0] } : null;
}

/** The VCALENDAR text of one invitation, update or cancellation. */
export function calendarText(e: CalendarEvent): string {
  const cal = ical({
    prodId: { company: 'Careers', product: 'Interviews', language: 'EN' },
    method: e.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const zone = vtimezone(e.timeZone);
  // The generator writes each event's VTIMEZONE; no calendar-wide zone, so DTSTAMP stays in UTC.
  if (zone) cal.timezone({ name: null, generator: (tz) => (tz === zone.tzid ? zone.block : null) });
  const start = DateTime.fromJSDate(e.startsAt, { zone: 'utc' });
  const end = DateTime.fromJSDate(e.endsAt, { zone: 'utc' });
  cal.createEvent({
    id: e.uid,
    sequence: e.sequence,
    stamp: e.now,
    start: zone ? start.setZone(zone.tzid) : start,
    end: zone ? end.setZone(zone.tzid) : end,
    ...(zone ? { timezone: zone.tzid } : {}),
    summary: e.summary,
    description: e.description,
    ...(e.location ? { location: e.location } : {}),
    ...(e.url ? { url: e.url } : {}),
    status: e.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: e.organizer.name, email: e.organizer.email },
    attendees: e.attendees.map((a) => ({
      name: a.name,
      email: a.email,
      rsvp: true,
      status: ICalAttendeeStatus.NEEDSACTION,
      role: ICalAttendeeRole.REQ,
    })),
  });
  return cal.toString();
}

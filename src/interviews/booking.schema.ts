/**
 * The input of a booking link (issue 32, "Self-booking by the candidate") and the booking pages'
 * messages, shared by the API and the islands. A link says what the interview will be (the
 * interview's own fields but its times), how long it lasts, and what is offered: slots picked by
 * hand, or any free slot of the HR interviewers in the next `window_days` days. Node-free.
 */
import * as z from 'zod/mini';
import { present } from '../shared/input-rules.js';
import { INTERVIEW_MESSAGES, type InterviewerInput, interviewFields } from './interviews.schema.js';
import type { InterviewType } from './interviews.types.js';

export const BOOKING_LIMITS = {
  slots: 50,
  minMinutes: 15,
  maxMinutes: 480,
  windowDays: 60,
  expiresDays: 60,
  cutoffHours: 168,
  /** The slots a page offers at most in "any free slot" mode. */
  shown: 40,
} as const;

const BOOKING_DEFAULTS = { expiresInDays: 14, cutoffHours: 24 } as const;

const L = BOOKING_LIMITS;
export const BOOKING_MESSAGES = {
  duration: `The length is a whole number of minutes from ${L.minMinutes} to ${L.maxMinutes}.`,
  offer: 'Offer either slots picked by hand (slots) or any free slot of the interviewers in the next days (window_days).',
  slots: `Give 1 to ${L.slots} slots, each a start time with its time zone, such as 2026-12-01T09:00:00+01:00.`,
  slotPast: 'Each slot must start in the future.',
  slotTwice: 'Each slot is offered once.',
  windowDays: `window_days is a whole number of days from 1 to ${L.windowDays}.`,
  windowNeedsUser: "Any free slot needs at least one HR user among the interviewers: outside people's calendars are not known here.",
  expiresInDays: `expires_in_days is a whole number of days from 1 to ${L.expiresDays}.`,
  cutoffHours: `cutoff_hours is a whole number of hours from 0 to ${L.cutoffHours}.`,
  noEmail: 'This application has no email address to send the link to.',
  linkNotFound: 'This booking link does not exist. Check that it was copied whole.',
  linkExpired: 'This booking link has expired. Ask the recruiter who sent it for a new one.',
  linkRevoked: 'This booking link was withdrawn. Ask the recruiter who sent it for a new one.',
  linkUsed: 'This booking link was used and its interview cancelled. Ask the recruiter who sent it for a new one.',
  alreadyRevoked: 'This booking link is already withdrawn.',
  taken: 'That time was just taken. Please choose another.',
  notOffered: 'That time is not offered. Please choose one of the times shown.',
  alreadyBooked: 'Your interview is already booked: you can move it to another time below.',
  cutoff: (hours: number) =>
    `Changes are possible online until ${hours} hours before the interview. Please answer the invitation email to change it now.`,
  booked: 'Your interview is booked. An invitation is on its way to your email address.',
  rescheduled: 'Your interview was moved. An updated invitation is on its way to your email address.',
  cancelled: 'Your interview is cancelled. We have told the recruiter.',
  linkNotFoundHr: 'Booking link not found.',
} as const;
const M = BOOKING_MESSAGES;

const wholeIn = (min: number, max: number, message: string) =>
  z.pipe(
    z.unknown().check(z.refine((v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max, message)),
    z.transform((v) => v as number),
  );

/** What a booking link stores of its interview-to-be (`booking_links.details`). */
export interface BookingDetails {
  type: InterviewType;
  time_zone: string;
  interviewers: InterviewerInput[];
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
}

export interface BookingLinkInput extends BookingDetails {
  stage_id?: number;
  duration_minutes: number;
  /** Hand-picked starts (sorted), or null with `window_days`. */
  slots: Date[] | null;
  window_days: number | null;
  expires_in_days: number;
  cutoff_hours: number;
}

/** POST /api/hr/applications/{id}/booking-links/ (`now`: the server's clock, for slots in the past). */
export function bookingLinkSchema(now: Date) {
  const f = interviewFields();
  return z.pipe(
    z.object(
      {
        type: present(f.type),
        time_zone: present(f.time_zone),
        interviewers: present(f.interviewers),
        location: z.optional(f.location),
        video_url: z.optional(f.video_url),
        candidate_notes: z.optional(f.candidate_notes),
        stage_id: z.optional(f.stage_id),
        duration_minutes: present(wholeIn(L.minMinutes, L.maxMinutes, M.duration)),
        slots: z.optional(
          z.pipe(
            z.unknown().check(z.refine((v) => Array.isArray(v) && v.length >= 1 && v.length <= L.slots, M.slots)),
            z.array(z.pipe(z.unknown().check(z.refine((v) => typeof v === 'string', M.slots)), f.starts_at)),
          ),
        ),
        window_days: z.optional(wholeIn(1, L.windowDays, M.windowDays)),
        expires_in_days: z.optional(wholeIn(1, L.expiresDays, M.expiresInDays)),
        cutoff_hours: z.optional(wholeIn(0, L.cutoffHours, M.cutoffHours)),
      },
      { error: INTERVIEW_MESSAGES.notObject },
    ),
    z.transform((v, ctx): BookingLinkInput => {
      const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', input: v, path: [path], message });
      const slots = v.slots ? [...v.slots].sort((a, b) => a.getTime() - b.getTime()) : null;
      if ((slots === null) === (v.window_days === undefined)) issue(slots ? 'window_days' : 'slots', M.offer);
      if (slots?.some((s) => s.getTime() <= now.getTime())) issue('slots', M.slotPast);
      if (slots?.some((s, i) => i > 0 && s.getTime() === slots[i - 1].getTime())) issue('slots', M.slotTwice);
      if (v.window_days !== undefined && !v.interviewers.some((i) => i.kind === 'user')) issue('interviewers', M.windowNeedsUser);
      return {
        type: v.type,
        time_zone: v.time_zone,
        interviewers: v.interviewers,
        location: v.location ?? null,
        video_url: v.video_url ?? null,
        candidate_notes: v.candidate_notes ?? null,
        ...(v.stage_id !== undefined ? { stage_id: v.stage_id } : {}),
        duration_minutes: v.duration_minutes,
        slots,
        window_days: v.window_days ?? null,
        expires_in_days: v.expires_in_days ?? BOOKING_DEFAULTS.expiresInDays,
        cutoff_hours: v.cutoff_hours ?? BOOKING_DEFAULTS.cutoffHours,
      };
    }),
  );
}

/** The order of field errors in answers. */
export const BOOKING_FIELD_ORDER = [
  'type',
  'time_zone',
  'interviewers',
  'location',
  'video_url',
  'candidate_notes',
  'stage_id',
  'duration_minutes',
  'slots',
  'window_days',
  'expires_in_days',
  'cutoff_hours',
] as const;

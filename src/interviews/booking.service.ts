/**
 * Self-booking by the candidate (issue 32): HR sends a booking link; the candidate opens
 * `/book/{token}` (no account), picks one of the offered times and so books the interview, and may
 * move or cancel it with the same link until `cutoff_hours` before it. The token is 32 random
 * bytes; only its SHA-256 is stored (as feedback and sign-in links). A link is single-purpose: it
 * books one interview of one application; once that interview is cancelled the link is used up.
 *
 * Booking takes the time atomically: the interview is written in a transaction that locks the
 * link and the HR interviewers and finds their time still free (`claim` of scheduleInterview), so
 * of candidates racing for one slot exactly one wins; the others are told and shown the rest.
 */
import { brandedConfig } from '../branding/index.js';
import { createHash, randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound } from '../http/errors.js';
import { enqueueSentEmail, htmlOfText, oneLine } from '../posts/index.js';
import { findSlots } from './availability.service.js';
import { BOOKING_LIMITS, BOOKING_MESSAGES as M, type BookingDetails, type BookingLinkInput } from './booking.schema.js';
import { activeUserEmail, busyTimes } from './booking.queries.js';
import {
  bookingLinksOf,
  type BookingLinkRow,
  findBookingLink,
  findBookingLinkByToken,
  insertBookingLink,
  lockBookingLink,
  revokeBookingLink,
} from './booking.repo.js';
import type { BookingLink, BookingLinkStatus } from './booking.types.js';
import { INTERVIEW_MESSAGES } from './interviews.schema.js';
import { cancelInterview, checkInterviewers, rescheduleInterview, scheduleInterview, type TimeClaim } from './interviews.service.js';
import { findApplication, stageOfJob } from './interviews.repo.js';
import { INTERVIEW_TYPE_LABELS } from './interviews.types.js';

type Deps = Pick<AppContext, 'db' | 'now' | 'outbox' | 'config' | 'cache' | 'serverKey' | 'log'>;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const MINUTE = 60_000;

/** 409 or 410 with `{detail}`. */
class Refused extends HttpError {
  constructor(status: 409 | 410, detail: string) {
    super(status, detail, { detail });
  }
}

const bookingUrl = (deps: Pick<Deps, 'config'>, token: string) => `${deps.config.publicBaseUrl.replace(/\/$/, '')}/book/${token}`;

function statusOf(link: BookingLinkRow, now: Date): BookingLinkStatus {
  if (link.revoked_at) return 'revoked';
  if (link.interview?.status === 'scheduled') return 'booked';
  if (link.interview) return 'used';
  return link.expires_at.getTime() <= now.getTime() ? 'expired' : 'open';
}

function linkView(link: BookingLinkRow, now: Date): BookingLink {
  return {
    id: link.id,
    application_id: link.application_id,
    status: statusOf(link, now),
    duration_minutes: link.duration_minutes,
    slots: link.window_days === null ? link.slots.map((s) => s.toISOString()) : null,
    window_days: link.window_days,
    cutoff_hours: link.cutoff_minutes / 60,
    expires_at: link.expires_at.toISOString(),
    interview_id: link.interview?.id ?? null,
    created_by: link.created_by,
    created_at: link.created_at.toISOString(),
  };
}

async function application(deps: Pick<Deps, 'db'>, id: number) {
  const app = await findApplication(deps.db, id);
  if (!app) throw new NotFound(INTERVIEW_MESSAGES.applicationNotFound);
  return app;
}

// ---- HR: making, listing and withdrawing links ----

/** Makes a booking link for the application and emails it to the candidate; the answer carries its URL (shown once). */
export async function createBookingLink(deps: Deps, applicationId: number, input: BookingLinkInput, by: number): Promise<BookingLink> {
  const app = await application(deps, applicationId);
  await checkInterviewers(deps.db, input.interviewers);
  let stageId = app.stage_id;
  if (input.stage_id !== undefined) {
    if (!(await stageOfJob(deps.db, app.job_id, input.stage_id)))
      throw new HttpError(400, INTERVIEW_MESSAGES.stage, { stage_id: [INTERVIEW_MESSAGES.stage] });
    stageId = input.stage_id;
  }
  const details: BookingDetails = {
    type: input.type,
    time_zone: input.time_zone,
    interviewers: input.interviewers,
    location: input.location,
    video_url: input.video_url,
    candidate_notes: input.candidate_notes,
  };
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + input.expires_in_days * 86_400_000);
  const url = bookingUrl(deps, token);
  const mail = !!deps.config.mail.smtpUrl && !!app.email;
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const linkId = await insertBookingLink(
        trx,
        {
          applicationId: app.id,
          stageId,
          tokenHash: hashToken(token),
          details,
          durationMinutes: input.duration_minutes,
          windowDays: input.window_days,
          cutoffMinutes: input.cutoff_hours * 60,
          expiresAt,
          slots: input.slots,
          createdBy: by,
        },
        now,
      );
      if (mail) {
        const company = oneLine((await brandedConfig(trx, deps.config)).company.name);
        const first = oneLine(app.name.split(' ')[0] || app.name);
        const text = [
          `Hello ${first},`,
          `${company} would like to meet you for ${oneLine(app.job_title)}: a ${INTERVIEW_TYPE_LABELS[details.type].toLowerCase()} interview of ${input.duration_minutes} minutes. Please choose a time that suits you:\n${url}`,
          `The times are shown in your own time zone. With the same link you can move or cancel the interview until ${input.cutoff_hours} hours before it. The link works until ${expiresAt.toUTCString()}.`,
          company,
        ].join('\n\n');
        await enqueueSentEmail(
          trx,
          {
            applicationId: app.id,
            message: {
              to: app.email,
              subject: `Choose a time for your interview: ${oneLine(app.job_title)}`,
              text,
              html: htmlOfText(text),
            },
            sender: { sentBy: by, templateId: null, templateName: 'Booking link' },
          },
          now,
        );
      }
      return linkId;
    }),
  );
  if (mail) deps.outbox.notify();
  const link = (await findBookingLink(deps.db, app.id, id))!;
  return { ...linkView(link, deps.now()), url, email_queued: mail };
}

export async function listBookingLinks(deps: Deps, applicationId: number): Promise<{ items: BookingLink[] }> {
  await application(deps, applicationId);
  const now = deps.now();
  return { items: (await bookingLinksOf(deps.db, applicationId)).map((l) => linkView(l, now)) };
}

/** Withdraws a link: it stops working at once (a booked interview stays; cancel it on its own). */
export async function revokeBookingLinkOf(deps: Deps, applicationId: number, linkId: number): Promise<BookingLink> {
  const link = await findBookingLink(deps.db, applicationId, linkId);
  if (!link) throw new NotFound(M.linkNotFoundHr);
  if (!(await revokeBookingLink(deps.db, link.id, deps.now()))) throw new Refused(409, M.alreadyRevoked);
  return linkView((await findBookingLink(deps.db, applicationId, linkId))!, deps.now());
}

// ---- The candidate's page ----

/** What /book/{token} shows. */
export interface BookingView {
  candidate: string;
  jobTitle: string;
  company: string;
  typeLabel: string;
  durationMinutes: number;
  location: string | null;
  videoUrl: string | null;
  notes: string | null;
  /** The interview's own time zone: the page's, until the candidate's is known. */
  zone: string;
  /** The booked interview (scheduled), if any, and whether it has ended. */
  booked: { startsAt: Date; endsAt: Date; past: boolean } | null;
  /** Whether the candidate may still book, move or cancel. */
  canChange: boolean;
  cutoffHours: number;
  /** The times offered now (starts), oldest first. */
  offered: Date[];
}

/** The live link of a token: 404 when it names none, 410 when withdrawn, expired unbooked, or used up. */
async function liveLink(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<BookingLinkRow> {
  if (!TOKEN_PATTERN.test(token)) throw new NotFound(M.linkNotFound);
  const link = await findBookingLinkByToken(deps.db, hashToken(token));
  if (!link) throw new NotFound(M.linkNotFound);
  const status = statusOf(link, deps.now());
  if (status === 'revoked') throw new Refused(410, M.linkRevoked);
  if (status === 'expired') throw new Refused(410, M.linkExpired);
  if (status === 'used') throw new Refused(410, M.linkUsed);
  return link;
}

const people = (d: BookingDetails) => ({
  userIds: d.interviewers.flatMap((i) => (i.kind === 'user' ? [i.userId] : [])),
  emails: d.interviewers.flatMap((i) => (i.kind === 'email' ? [i.email.toLowerCase()] : [])),
});

/** The times the link offers now (never the booked one): its hand-picked slots still free, or the interviewers' next free slots in its window. */
async function offeredTimes(deps: Deps, link: BookingLinkRow): Promise<Date[]> {
  const booked = link.interview?.status === 'scheduled' ? link.interview.starts_at.getTime() : null;
  return (await freeTimes(deps, link)).filter((s) => s.getTime() !== booked);
}

async function freeTimes(deps: Deps, link: BookingLinkRow): Promise<Date[]> {
  const now = deps.now().getTime();
  const length = link.duration_minutes * MINUTE;
  const own = link.interview?.status === 'scheduled' ? link.interview.id : null;
  if (link.window_days !== null) {
    const { slots } = await findSlots(deps, {
      userIds: people(link.details).userIds,
      durationMinutes: link.duration_minutes,
      days: link.window_days,
      count: BOOKING_LIMITS.shown,
    });
    return slots.map((s) => new Date(s.starts_at));
  }
  const ahead = link.slots.filter((s) => s.getTime() > now);
  if (!ahead.length) return [];
  const busy = await busyTimes(deps.db, people(link.details), ahead[0], new Date(ahead.at(-1)!.getTime() + length), own);
  return ahead.filter((s) => !busy.some((b) => b.start < s.getTime() + length && b.end > s.getTime()));
}

const changeable = (link: BookingLinkRow, now: Date) =>
  !link.interview || link.interview.starts_at.getTime() - link.cutoff_minutes * MINUTE > now.getTime();

export async function bookingView(deps: Deps, token: string): Promise<BookingView> {
  const link = await liveLink(deps, token);
  const app = await application(deps, link.application_id);
  const now = deps.now();
  const canChange = changeable(link, now) && (!link.interview || link.interview.ends_at.getTime() > now.getTime());
  return {
    candidate: app.name,
    jobTitle: app.job_title,
    company: (await brandedConfig(deps.db, deps.config)).company.name,
    typeLabel: INTERVIEW_TYPE_LABELS[link.details.type],
    durationMinutes: link.duration_minutes,
    location: link.details.location,
    videoUrl: link.details.video_url,
    notes: link.details.candidate_notes,
    zone: link.details.time_zone,
    booked: link.interview
      ? { startsAt: link.interview.starts_at, endsAt: link.interview.ends_at, past: link.interview.ends_at.getTime() <= now.getTime() }
      : null,
    canChange,
    cutoffHours: link.cutoff_minutes / 60,
    offered: canChange ? await offeredTimes(deps, link) : [],
  };
}

/** Tells the link's maker what the candidate did (to their HR email address, when they have one). */
async function tellRecruiter(deps: Deps, link: BookingLinkRow, what: string): Promise<void> {
  if (!deps.config.mail.smtpUrl || link.created_by === null) return;
  const to = await activeUserEmail(deps.db, link.created_by);
  if (!to) return;
  const app = await application(deps, link.application_id);
  const text = `${oneLine(app.name)} ${what}\n\n${deps.config.publicBaseUrl.replace(/\/$/, '')}/hr/applicants/${app.id}\n`;
  await deps.db.transaction((trx) =>
    enqueueSentEmail(
      trx,
      {
        applicationId: app.id,
        message: {
          to,
          subject: `${oneLine(app.name)}: interview for ${oneLine(app.job_title)}`,
          text,
          html: htmlOfText(text),
        },
        sender: { sentBy: null, templateId: null, templateName: 'Booking notice' },
      },
      deps.now(),
    ),
  );
  deps.outbox.notify();
}

/** "Tue 1 Dec 2026, 09:00–09:45 (Europe/Berlin)" in the interview's own zone, for the recruiter. */
function when(link: BookingLinkRow, startsAt: Date): string {
  const zone = link.details.time_zone;
  const start = DateTime.fromJSDate(startsAt, { zone });
  return `${start.toFormat('ccc d LLL yyyy, HH:mm')}–${start.plus({ minutes: link.duration_minutes }).toFormat('HH:mm')} (${zone})`;
}

/** Books (or, when booked, moves the interview to) the chosen time; answers which. */
export async function bookTime(deps: Deps, token: string, startsAt: Date): Promise<'booked' | 'rescheduled'> {
  const link = await liveLink(deps, token);
  const now = deps.now();
  if (!changeable(link, now)) throw new Refused(409, M.cutoff(link.cutoff_minutes / 60));
  const offered = await offeredTimes(deps, link);
  if (!offered.some((s) => s.getTime() === startsAt.getTime())) {
    const inOffer =
      link.window_days === null
        ? link.slots.some((s) => s.getTime() === startsAt.getTime())
        : startsAt.getTime() > now.getTime() && startsAt.getTime() < now.getTime() + link.window_days * 86_400_000;
    throw inOffer ? new Refused(409, M.taken) : new HttpError(400, M.notOffered, { slot: [M.notOffered] });
  }
  const endsAt = new Date(startsAt.getTime() + link.duration_minutes * MINUTE);
  const booked = link.interview?.status === 'scheduled' ? link.interview : null;
  const claim: TimeClaim = {
    taken: M.taken,
    check: async (trx) => {
      const { scheduled } = await lockBookingLink(trx, link.id);
      if (scheduled !== !!booked) throw new Refused(409, booked ? M.linkUsed : M.alreadyBooked);
    },
  };
  if (booked) {
    await rescheduleInterview(deps, { interviewId: booked.id, patch: { starts_at: startsAt, ends_at: endsAt }, by: null, claim });
    await tellRecruiter(deps, link, `moved their interview for the booking link to ${when(link, startsAt)}.`);
    return 'rescheduled';
  }
  await scheduleInterview(deps, {
    applicationId: link.application_id,
    input: { ...link.details, starts_at: startsAt, ends_at: endsAt, ...(link.stage_id !== null ? { stage_id: link.stage_id } : {}) },
    by: null,
    bookingLinkId: link.id,
    claim,
  });
  await tellRecruiter(deps, link, `booked their interview: ${when(link, startsAt)}.`);
  return 'booked';
}

/** Cancels the booked interview (before the cut-off); the link is then used up. */
export async function cancelBooking(deps: Deps, token: string): Promise<void> {
  const link = await liveLink(deps, token);
  if (link.interview?.status !== 'scheduled') throw new Refused(409, M.linkNotFound);
  if (!changeable(link, deps.now())) throw new Refused(409, M.cutoff(link.cutoff_minutes / 60));
  await cancelInterview(deps, { interviewId: link.interview.id, by: null });
  await tellRecruiter(deps, link, `cancelled their interview of ${when(link, link.interview.starts_at)}.`);
}

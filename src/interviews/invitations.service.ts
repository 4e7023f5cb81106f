/**
 * Invitations any calendar accepts (issue 32; iMIP, RFC 6047): each interviewer and the candidate
 * get their own email through the email outbox, carrying the interview as `text/calendar;
 * method=REQUEST` (a new interview or an update: same UID, higher SEQUENCE) or `method=CANCEL`.
 * Interviewers' emails carry the link to their kit and scorecard. Also what reminders say of an
 * interview (their texts are the emails feature's reminder templates).
 * Queued only when email is on (SMTP_URL), in the caller's transaction.
 */
import { brandedConfig } from '../branding/index.js';
import { DateTime } from 'luxon';
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import type { ReminderFacts } from '../emails/index.js';
import { enqueueSentEmail, htmlOfText, oneLine, type EmailMessage } from '../posts/index.js';
import { calendarText } from './lib/ical.js';
import { INTERVIEW_TYPE_LABELS, type InterviewType } from './interviews.types.js';

type Deps = Pick<AppContext, 'config'>;

/** What an invitation says about the interview. */
export interface InvitationInterview {
  uid: string;
  sequence: number;
  type: InterviewType;
  stage_name: string;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
}

export interface InvitationPeople {
  applicationId: number;
  candidate: { name: string; email: string };
  jobTitle: string;
  /** Every interviewer, with the link to their kit and scorecard (null: the link they were sent before). */
  interviewers: { name: string; email: string; link: string | null }[];
}

/** What is sent: a new invitation, an update, a cancellation to everyone, or a cancellation to interviewers taken off it. */
export type InvitationKind = 'new' | 'update' | 'cancel';

const KIND_WORDS: Record<InvitationKind, { subject: string; template: string }> = {
  new: { subject: '', template: 'Interview invitation' },
  update: { subject: 'Updated: ', template: 'Interview update' },
  cancel: { subject: 'Cancelled: ', template: 'Interview cancellation' },
};

/** MAIL_FROM's bare address. */
const fromAddress = (from: string) => (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();

/** "Tuesday 1 December 2026, 10:00–10:45 (Europe/Berlin)". */
function whenText(startsAt: Date, endsAt: Date, zone: string): string {
  const s = DateTime.fromJSDate(startsAt).setZone(zone).setLocale('en-GB');
  const e = DateTime.fromJSDate(endsAt).setZone(zone).setLocale('en-GB');
  const endText = s.hasSame(e, 'day') ? e.toFormat('HH:mm') : e.toFormat('cccc d LLLL yyyy, HH:mm');
  return `${s.toFormat('cccc d LLLL yyyy, HH:mm')}–${endText} (${zone})`;
}

function placeLines(i: InvitationInterview): string[] {
  const out: string[] = [];
  if (i.location) out.push(`Where: ${oneLine(i.location)}`);
  if (i.video_url) out.push(`Video link: ${i.video_url}`);
  return out;
}

const names = (p: InvitationPeople) => p.interviewers.map((x) => oneLine(x.name)).join(', ');

function candidateText(
  deps: Deps,
  i: InvitationInterview,
  p: InvitationPeople,
  kind: InvitationKind,
): { subject: string; text: string; description: string } {
  const company = oneLine(deps.config.company.name);
  const job = oneLine(p.jobTitle);
  const type = INTERVIEW_TYPE_LABELS[i.type];
  const when = whenText(i.starts_at, i.ends_at, i.time_zone);
  const opening =
    kind === 'cancel'
      ? `Your ${type.toLowerCase()} interview for ${job} at ${company} on ${when} is cancelled. We will be in touch about what happens next.`
      : kind === 'update'
        ? `Your interview for ${job} at ${company} has changed. Here it is as it stands now:`
        : `${company} invites you to a ${type.toLowerCase()} interview for ${job}.`;
  const details = kind === 'cancel' ? [] : [[`When: ${when}`, ...placeLines(i), `With: ${names(p)}`].join('\n')];
  const notes = kind !== 'cancel' && i.candidate_notes ? [i.candidate_notes] : [];
  const calendar =
    kind === 'cancel'
      ? 'The attached cancellation removes it from your calendar.'
      : 'The invitation is attached: add it to your calendar, and accept or decline it there.';
  const text = [`Hello ${oneLine(p.candidate.name)},`, opening, ...details, ...notes, calendar, company].join('\n\n');
  const description = [...notes, ...(i.video_url ? [`Video link: ${i.video_url}`] : [])].join('\n\n');
  return { subject: `${KIND_WORDS[kind].subject}Interview for ${job} at ${company}`, text: `${text}\n`, description };
}

function interviewerText(
  deps: Deps,
  i: InvitationInterview,
  p: InvitationPeople,
  who: { name: string; link: string | null },
  kind: InvitationKind,
): { subject: string; text: string; description: string } {
  const company = oneLine(deps.config.company.name);
  const job = oneLine(p.jobTitle);
  const candidate = oneLine(p.candidate.name);
  const stage = oneLine(i.stage_name);
  const about = `${candidate} for ${job}${stage ? ` (${stage})` : ''}`;
  const when = whenText(i.starts_at, i.ends_at, i.time_zone);
  const opening =
    kind === 'cancel'
      ? `The interview with ${about} on ${when} is cancelled, or you are no longer on it.`
      : kind === 'update'
        ? `The interview with ${about} has changed. Here it is as it stands now:`
        : `You are invited to interview ${about}: a ${INTERVIEW_TYPE_LABELS[i.type].toLowerCase()} interview.`;
  const details = kind === 'cancel' ? [] : [[`When: ${when}`, ...placeLines(i), `With: ${names(p)}`].join('\n')];
  const link =
    kind === 'cancel'
      ? []
      : [
          who.link
            ? `Your interview kit and scorecard: ${who.link}`
            : 'Your interview kit and scorecard: use the feedback link of our earlier email; it works until you submit.',
        ];
  const text = [`Hello ${oneLine(who.name)},`, opening, ...details, ...link, company].join('\n\n');
  return { subject: `${KIND_WORDS[kind].subject}Interview: ${about}`, text: `${text}\n`, description: link.join('\n') };
}

/**
 * Queues the emails of one change in the caller's transaction: to the candidate and each
 * interviewer of `p` (`kind`), or, with `only`, to those people alone (interviewers taken off an
 * interview get a CANCEL naming only themselves). Answers how many were queued.
 */
export async function queueInvitations(
  trx: Db,
  given: Deps,
  m: {
    interview: InvitationInterview;
    people: InvitationPeople;
    kind: InvitationKind;
    by: number | null;
    only?: { name: string; email: string }[];
  },
  now: Date,
): Promise<number> {
  if (!given.config.mail.smtpUrl) return 0;
  // The company as the site settings name it (issue 35), read in the caller's transaction.
  const deps: Deps = { ...given, config: await brandedConfig(trx, given.config) };
  const { interview: i, people: p, kind } = m;
  const organizer = { name: oneLine(deps.config.company.name), email: fromAddress(deps.config.mail.from) };
  const everyone = [{ name: p.candidate.name, email: p.candidate.email }, ...p.interviewers.map((x) => ({ name: x.name, email: x.email }))];
  const method = kind === 'cancel' ? 'CANCEL' : 'REQUEST';
  const messages: EmailMessage[] = [];
  const make = (to: string, texts: { subject: string; text: string; description: string }, summary: string, attendees: typeof everyone) => {
    const content = calendarText({
      method,
      uid: i.uid,
      sequence: i.sequence,
      startsAt: i.starts_at,
      endsAt: i.ends_at,
      timeZone: i.time_zone,
      summary,
      description: texts.description,
      location: i.location ?? i.video_url,
      url: i.video_url,
      organizer,
      attendees: attendees.map((a) => ({ name: oneLine(a.name), email: a.email })),
      now,
    });
    messages.push({ to, subject: texts.subject, text: texts.text, html: htmlOfText(texts.text), calendar: { method, content } });
  };
  const company = oneLine(deps.config.company.name);
  const candidateSummary = `Interview for ${oneLine(p.jobTitle)} at ${company}`;
  const interviewerSummary = `Interview: ${oneLine(p.candidate.name)} (${oneLine(p.jobTitle)})`;
  if (m.only) {
    for (const who of m.only)
      make(who.email, interviewerText(deps, i, p, { name: who.name, link: null }, 'cancel'), interviewerSummary, [who]);
  } else {
    make(p.candidate.email, candidateText(deps, i, p, kind), candidateSummary, everyone);
    for (const who of p.interviewers) make(who.email, interviewerText(deps, i, p, who, kind), interviewerSummary, everyone);
  }
  for (const message of messages)
    await enqueueSentEmail(
      trx,
      { applicationId: p.applicationId, message, sender: { sentBy: m.by, templateId: null, templateName: KIND_WORDS[kind].template } },
      now,
    );
  return messages.length;
}

/**
 * What a reminder (issue 32) says about the interview, for the reminder templates' variables: when
 * (in the interview's zone, as its invitation), where, of which type, with whom, the candidate's
 * notes, and the interview's stage.
 */
export function reminderFacts(i: InvitationInterview, interviewers: { name: string }[]): ReminderFacts {
  const place = [i.location ? oneLine(i.location) : null, i.video_url ? `video link ${i.video_url}` : null].filter(Boolean).join('; ');
  return {
    interview_time: whenText(i.starts_at, i.ends_at, i.time_zone),
    interview_type: INTERVIEW_TYPE_LABELS[i.type],
    interview_place: place || (i.type === 'phone' ? 'by phone' : 'to be confirmed'),
    interviewers: interviewers.map((x) => oneLine(x.name)).join(', '),
    interview_notes: i.candidate_notes?.replace(/\r\n?/g, '\n').trim() ?? '',
    stage: oneLine(i.stage_name),
  };
}

/** An interviewer's kit and scorecard in a reminder: an HR user's applicant page; an outside person's link was in the invitation. */
export function scorecardLinkText(deps: Deps, applicationId: number, hrUser: boolean): string {
  return hrUser
    ? `${deps.config.publicBaseUrl.replace(/\/$/, '')}/hr/applicants/${applicationId}`
    : 'the feedback link of our earlier email (it works until you submit)';
}

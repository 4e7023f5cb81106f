/**
 * The candidate's side (issue 35): a status page reached by a signed link (no account), showing
 * each application in plain words per stage (texts admins write per stage name, built-in ones
 * otherwise, never status codes), upcoming interviews and booking links sent; the candidate
 * withdraws an application, downloads their data and asks for erasure, which HR confirms in one
 * click. A new link is emailed on request, answered the same whether the address is known or not.
 */
import { DateTime } from 'luxon';
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { NotFound } from '../http/errors.js';
import type { FileStorage } from '../storage/storage.js';
import type { Logger } from '../log/logger.js';
import { openResume, removeApplications } from '../applicants/index.js';
import { removeEntries } from '../forms/index.js';
import { eraseAlertsOf } from '../alerts/index.js';
import { personOfAddress, personOfStatusToken, statusLink } from '../people/index.js';
import { withdrawApplication } from '../pipeline/index.js';
import { givePoolConsent, personPoolState, poolConsentText, withdrawPoolConsent } from '../pools/index.js';
import { enqueueEmails, htmlOfText, oneLine } from '../posts/index.js';
import {
  addressesOf,
  erasureRequestOf,
  insertErasureRequest,
  deleteErasureRequest,
  findErasureRequest,
  openErasureRequests,
  saveTexts,
  stageKey,
  stageNamesInUse,
  writtenTexts,
} from './repo.js';
import {
  applicationsData,
  offersWaiting,
  openBookingLinks,
  personApplications,
  upcomingInterviews,
  type StatusApplication,
} from './queries.js';
import { CANDIDATE_MESSAGES } from './schema.js';
import type { ErasureRequest, StageStatusText } from './types.js';

export interface CandidateDeps {
  db: Db;
  serverKey: ServerKey;
  storage: FileStorage;
  log: Logger;
  config: Config;
  now: () => Date;
}

/** What candidates read at a stage when no admin wrote a text: one per default stage, and one naming any other. */
const DEFAULT_TEXTS: Record<string, string> = {
  applied: 'We have your application. Our hiring team reads every application and answers within 10 working days.',
  screen: 'We are reviewing your application and may call you for a short first conversation.',
  interview: 'You are in our interviews. We send each interview’s time and place by email, and they are listed below.',
  offer: 'We are preparing an offer for you. We will send it by email.',
  hired: 'You accepted our offer. Welcome aboard: we will be in touch about your first day.',
};
const defaultText = (stage: string) =>
  DEFAULT_TEXTS[stageKey(stage)] ??
  `Your application is at the “${stage}” step with our hiring team. We will tell you by email when it moves on.`;
const OUTCOME_TEXTS = {
  REJECTED: 'This application did not go further. Thank you for the time you gave it; you are welcome to apply for other jobs.',
  WITHDREW: 'You withdrew this application.',
} as const;

/** One application on the status page. */
interface StatusEntry {
  id: number;
  job_title: string;
  job_url: string | null;
  applied_on: string;
  /** "In progress", "Closed" or "Withdrawn". */
  state: string;
  /** The stage's name as candidates read it (null once closed). */
  stage: string | null;
  text: string;
  can_withdraw: boolean;
}

export interface StatusView {
  name: string;
  email: string;
  applications: StatusEntry[];
  interviews: {
    job_title: string;
    what: string;
    when: string;
    zone: string;
    location: string | null;
    video_url: string | null;
    notes: string | null;
  }[];
  booking: { job_title: string; sent_on: string; until: string }[];
  /** Offers sent and waiting for an answer: on their own page, by the link emailed with them. */
  offers: { job_title: string; sent_on: string; until: string }[];
  erasure_requested_on: string | null;
  /** Talent pools (issue 35): whether they are kept for other jobs, and what agreeing says. */
  future_jobs: { in_pools: boolean; consent: 'given' | 'waiting' | 'expired'; until: string | null; text: string };
}

const dayText = (d: Date) => DateTime.fromJSDate(d, { zone: 'UTC' }).setLocale('en-GB').toFormat('d LLLL yyyy');

function entryOf(a: StatusApplication, texts: Map<string, { text: string }>, base: string): StatusEntry {
  const open = a.outcome === null && a.stage_kind !== 'HIRED';
  const outcomeText = a.outcome === 'REJECTED' || a.outcome === 'WITHDREW' ? OUTCOME_TEXTS[a.outcome] : null;
  const stage = a.stage ?? 'Applied';
  return {
    id: a.id,
    job_title: a.job_title,
    job_url: a.job_status === 'ACTIVE' ? `${base}/careers/${encodeURIComponent(a.job_public_id)}` : null,
    applied_on: dayText(a.created_at),
    state: a.outcome === 'WITHDREW' ? 'Withdrawn' : open ? 'In progress' : 'Closed',
    stage: outcomeText ? null : stage,
    text: outcomeText ?? texts.get(stageKey(stage))?.text ?? defaultText(stage),
    can_withdraw: open,
  };
}

const INTERVIEW_TYPES: Record<string, string> = {
  phone: 'Phone interview',
  video: 'Video interview',
  onsite: 'Interview on site',
  other: 'Interview',
};

/** The status page of the person a link names, or why there is none ('invalid' or 'expired'). */
export async function statusView(
  deps: CandidateDeps,
  token: string,
): Promise<{ personId: number; view: StatusView } | { problem: 'invalid' | 'expired' }> {
  const now = deps.now();
  const found = await personOfStatusToken(deps, token, now);
  if ('problem' in found) return found;
  const apps = await personApplications(deps.db, found.personId);
  if (!apps.length) return { problem: 'invalid' };
  const ids = apps.map((a) => a.id);
  const [texts, interviews, links, erasure, pools, offers] = await Promise.all([
    writtenTexts(deps.db),
    upcomingInterviews(deps.db, ids, now),
    openBookingLinks(deps.db, ids, now),
    erasureRequestOf(deps.db, found.personId),
    personPoolState(deps.db, found.personId, now),
    offersWaiting(deps.db, ids),
  ]);
  const titleOf = (id: number) => apps.find((a) => a.id === id)?.job_title ?? '';
  return {
    personId: found.personId,
    view: {
      name: apps[0].first_name,
      email: apps[0].email,
      applications: apps.map((a) => entryOf(a, texts, deps.config.publicBaseUrl)),
      interviews: interviews.map((i) => {
        const start = DateTime.fromJSDate(i.starts_at, { zone: i.time_zone }).setLocale('en-GB');
        const end = DateTime.fromJSDate(i.ends_at, { zone: i.time_zone }).setLocale('en-GB');
        return {
          job_title: titleOf(i.application_id),
          what: `${INTERVIEW_TYPES[i.type] ?? 'Interview'} (${i.stage_name})`,
          when: `${start.toFormat('cccc d LLLL yyyy, HH:mm')}–${end.toFormat('HH:mm')}`,
          zone: i.time_zone,
          location: i.location,
          video_url: i.video_url,
          notes: i.candidate_notes,
        };
      }),
      booking: links.map((l) => ({ job_title: titleOf(l.application_id), sent_on: dayText(l.created_at), until: dayText(l.expires_at) })),
      offers: offers.map((o) => ({
        job_title: titleOf(o.application_id),
        sent_on: dayText(o.sent_at),
        until: dayText(new Date(`${o.expires_on}T00:00:00Z`)),
      })),
      erasure_requested_on: erasure ? dayText(erasure) : null,
      future_jobs: {
        in_pools: pools.in_pools,
        consent: pools.consent,
        until: pools.until ? dayText(pools.until) : null,
        text: poolConsentText(deps.config.company.name, deps.config.poolConsentDays),
      },
    },
  };
}

/** The person a live link names, or 404 with why (the pages answer a dead link's page). */
async function personOfLink(deps: CandidateDeps, token: string): Promise<number> {
  const found = await personOfStatusToken(deps, token, deps.now());
  if ('problem' in found) throw new NotFound(found.problem === 'expired' ? CANDIDATE_MESSAGES.expiredLink : CANDIDATE_MESSAGES.invalidLink);
  return found.personId;
}

/** The application, when it is the person's (404 otherwise). */
async function ownApplication(deps: CandidateDeps, personId: number, applicationId: number): Promise<StatusApplication> {
  const app = (await personApplications(deps.db, personId)).find((a) => a.id === applicationId);
  if (!app) throw new NotFound(CANDIDATE_MESSAGES.notYours);
  return app;
}

/** Withdraws one of the person's open applications; which message the page shows. */
export async function withdraw(
  deps: CandidateDeps,
  token: string,
  applicationId: number,
  reason: string,
): Promise<'withdrawn' | 'alreadyWithdrawn' | 'closed'> {
  const personId = await personOfLink(deps, token);
  const app = await ownApplication(deps, personId, applicationId);
  if (app.outcome === 'WITHDREW') return 'alreadyWithdrawn';
  if (app.outcome !== null || app.stage_kind === 'HIRED') return 'closed';
  await withdrawApplication(deps, applicationId, reason || null);
  return 'withdrawn';
}

/** The person's data as one JSON document: what an erase removes of their applications. */
export async function personData(deps: CandidateDeps, token: string): Promise<Record<string, unknown>> {
  const personId = await personOfLink(deps, token);
  const apps = await personApplications(deps.db, personId);
  return {
    exported_at: deps.now().toISOString(),
    company: deps.config.company.name,
    addresses: await addressesOf(deps.db, personId),
    applications: await applicationsData(
      deps.db,
      apps.map((a) => a.id),
    ),
  };
}

/** The resume of one of the person's applications, to download. */
export async function personResume(deps: CandidateDeps, token: string, applicationId: number) {
  const personId = await personOfLink(deps, token);
  await ownApplication(deps, personId, applicationId);
  return openResume(deps, applicationId);
}

/** The candidate agrees (again) to be kept for other jobs, or withdraws that and leaves every talent pool. */
export async function setFutureJobs(deps: CandidateDeps, token: string, keep: boolean): Promise<void> {
  const personId = await personOfLink(deps, token);
  if (keep) await givePoolConsent(deps, personId);
  else await withdrawPoolConsent(deps.db, personId);
}

/** Records the person's request to be erased (HR confirms it). */
export async function requestErasure(deps: CandidateDeps, token: string): Promise<void> {
  const personId = await personOfLink(deps, token);
  await insertErasureRequest(deps.db, personId, deps.now());
}

/**
 * Emails a fresh link to the address, if anyone applied with it, through the email outbox (on the
 * timeline of their latest application). Answers nothing either way: the page says the same.
 */
export async function sendNewLink(deps: CandidateDeps, email: string): Promise<void> {
  if (!deps.config.mail.smtpUrl) return;
  const personId = await personOfAddress(deps.db, email);
  if (personId === null) return;
  const apps = await personApplications(deps.db, personId);
  if (!apps.length) return;
  const now = deps.now();
  const link = await statusLink(deps, personId, now);
  const company = oneLine(deps.config.company.name);
  const text = `Dear ${oneLine(apps[0].first_name)},\n\nHere is your link to see where your applications to ${company} stand, withdraw one or ask for your data. It works until ${dayText(link.expiresAt)}:\n\n${link.url}\n\nIf you did not ask for it, you can ignore this email.\n\n${company} Careers\n`;
  await deps.db.transaction((trx) =>
    enqueueEmails(
      trx,
      apps[0].id,
      [
        {
          template: 'candidate_status_link',
          message: { to: email, subject: `Your applications to ${company}`, text, html: htmlOfText(text) },
        },
      ],
      now,
    ),
  );
}

/** The stage names in use with the text candidates read at each (Status texts page). */
export async function stageTexts(db: Db): Promise<StageStatusText[]> {
  const [names, written] = await Promise.all([stageNamesInUse(db), writtenTexts(db)]);
  return names.map((stage) => {
    const own = written.get(stageKey(stage));
    return { stage, text: own?.text ?? defaultText(stage), default_text: defaultText(stage), custom: own !== undefined };
  });
}

/** Saves admins' texts (an empty one, or the default's words, returns to the default). */
export async function saveStageTexts(
  db: Db,
  texts: { stage: string; text: string }[],
  userId: number,
  now: Date,
): Promise<StageStatusText[]> {
  const own = texts.map((t) => ({ stage: t.stage, text: t.text === defaultText(t.stage) ? '' : t.text }));
  await db.transaction((trx) => saveTexts(trx, own, userId, now));
  return stageTexts(db);
}

export async function erasureRequests(db: Db): Promise<ErasureRequest[]> {
  return (await openErasureRequests(db)).map((r) => ({
    id: Number(r.id),
    person_id: Number(r.person_id),
    name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
    email: String(r.email),
    applications: Number(r.applications),
    requested_at: (r.requested_at as Date).toISOString(),
  }));
}

/**
 * HR confirms a candidate's erasure request: every application of the person (all their
 * addresses), the form entries and job alerts of those addresses go, with their files, as the
 * CLI's erase does; the request goes with the person. 404 for a request not open.
 */
export async function confirmErasure(
  deps: CandidateDeps,
  requestId: number,
  userId: number,
): Promise<{ applications: number; entries: number; alerts: number }> {
  const request = await findErasureRequest(deps.db, requestId);
  if (!request) throw new NotFound(CANDIDATE_MESSAGES.requestNotFound);
  const addresses = await addressesOf(deps.db, request.person_id);
  let applications = 0;
  let entries = 0;
  let alerts = 0;
  for (const email of addresses) {
    applications += (await removeApplications(deps, { email }, { action: 'erase', userId })).applications;
    entries += (await removeEntries(deps, { email }, 'erase')).entries;
    alerts += await eraseAlertsOf(deps, email);
  }
  // A person whose applications were all gone before already (a purge) leaves the request: it goes here.
  await deleteErasureRequest(deps.db, requestId);
  return { applications, entries, alerts };
}

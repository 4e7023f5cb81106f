/**
 * Scheduling interviews (issue 32): create, change and cancel an application's interview at a
 * stage, each in one transaction with its invitations (invitations.service.ts), its scorecard
 * requests (the scorecards feature), its webhook event and its line on the timeline. Scheduling
 * over another scheduled interview of the same interviewer is allowed, with a warning naming it;
 * further checks (working hours, calendars' busy times) come in as `conflicts`.
 */
import { randomUUID } from 'node:crypto';
import { insertApplicationAudit } from '../applicants/index.js';
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import type { Db } from '../db/knex.js';
import { Conflict, NotFound, ValidationError } from '../http/errors.js';
import { enqueueApplicationEvent } from '../posts/index.js';
import { requestInterviewScorecard, withdrawInterviewScorecards } from '../scorecards/index.js';
import {
  INTERVIEW_MESSAGES as M,
  timeProblems,
  type InterviewInput,
  type InterviewPatch,
  type InterviewerInput,
} from './interviews.schema.js';
import {
  findApplication,
  hrUsersById,
  insertInterview,
  kitIdOfStage,
  lockInterview,
  lockUsers,
  markCancelled,
  replaceParticipants,
  stageOfJob,
  updateInterview,
  type ApplicationRow,
  type InterviewValues,
  type ParticipantValues,
} from './interviews.repo.js';
import { findInterview, interviewsOfApplication, overlappingInterviews, type InterviewRecord } from './interviews.queries.js';
import { queueInvitations, type InvitationInterview } from './invitations.service.js';
import { INTERVIEW_TYPE_LABELS, type Interview, type InterviewAnswer, type InterviewWarning } from './interviews.types.js';

/** A further check of a time for some HR users (helper B's working hours and calendars); answers what it collides with. */
export type ConflictCheck = (
  deps: Pick<AppContext, 'db' | 'now' | 'config'>,
  q: { userIds: number[]; startsAt: Date; endsAt: Date; ignoreInterviewId?: number },
) => Promise<{ kind: 'busy' | 'outside_hours'; user_id: number; interviewer: string; detail: string }[]>;

export type InterviewDeps = Pick<AppContext, 'db' | 'now' | 'outbox' | 'config'> & { conflicts?: ConflictCheck };

const view = ({ uid: _u, reminded_24h_at: _a, reminded_1h_at: _b, ...rest }: InterviewRecord): Interview => rest;

async function application(db: Db, id: number): Promise<ApplicationRow> {
  const app = await findApplication(db, id);
  if (!app) throw new NotFound(M.applicationNotFound);
  return app;
}

async function interviewRecord(db: Db, id: number): Promise<InterviewRecord> {
  const found = await findInterview(db, id);
  if (!found) throw new NotFound(M.interviewNotFound);
  return found;
}

export async function listInterviews(deps: InterviewDeps, applicationId: number): Promise<{ items: Interview[] }> {
  await application(deps.db, applicationId);
  return { items: (await interviewsOfApplication(deps.db, applicationId)).map(view) };
}

export async function getInterview(deps: InterviewDeps, id: number): Promise<Interview> {
  return view(await interviewRecord(deps.db, id));
}

/** The interviewers as participants: HR users active with an email address, outside people as given; else 400 naming each. */
export async function checkInterviewers(db: Db, list: InterviewerInput[]): Promise<ParticipantValues[]> {
  const users = await hrUsersById(
    db,
    list.flatMap((i) => (i.kind === 'user' ? [i.userId] : [])),
  );
  const errors: Record<string, string[]> = {};
  const out: ParticipantValues[] = [];
  const seen = new Set<string>();
  list.forEach((i, n) => {
    let p: ParticipantValues;
    if (i.kind === 'user') {
      const u = users.get(i.userId);
      if (!u?.active) {
        errors[`interviewers.${n}.user_id`] = [M.interviewerUser];
        return;
      }
      if (!u.email) {
        errors[`interviewers.${n}.user_id`] = [M.interviewerNoEmail];
        return;
      }
      p = { hr_user_id: u.id, email: u.email.toLowerCase(), name: u.username };
    } else {
      p = { hr_user_id: null, email: i.email.toLowerCase(), name: i.name };
    }
    if (seen.has(p.email)) {
      errors.interviewers = [M.interviewerTwice];
      return;
    }
    seen.add(p.email);
    out.push(p);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}

/** The stage (default: the application's current one), its name and kit. */
async function stageValues(db: Db, app: ApplicationRow, stageId: number | undefined) {
  const id = stageId ?? app.stage_id;
  if (id === null) return { stage_id: null, stage_name: '', kit_id: null };
  const stage = await stageOfJob(db, app.job_id, id);
  if (!stage) {
    if (stageId !== undefined) throw new ValidationError({ stage_id: [M.stage] });
    return { stage_id: null, stage_name: '', kit_id: null };
  }
  return { stage_id: stage.id, stage_name: stage.name, kit_id: await kitIdOfStage(db, stage.id) };
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** The warnings of a time for these interviewers: other scheduled interviews of theirs, and the further checks. */
async function warningsFor(
  deps: InterviewDeps,
  people: ParticipantValues[],
  startsAt: Date,
  endsAt: Date,
  ignore: number | null,
): Promise<InterviewWarning[]> {
  const rows = await overlappingInterviews(
    deps.db,
    { userIds: people.flatMap((p) => (p.hr_user_id !== null ? [p.hr_user_id] : [])), emails: people.map((p) => p.email) },
    startsAt,
    endsAt,
    ignore,
  );
  const warnings: InterviewWarning[] = [];
  const said = new Set<string>();
  // In the order the interviewers were given, then by time.
  const rank = (r: (typeof rows)[number]) =>
    people.findIndex((p) => (p.hr_user_id !== null && p.hr_user_id === r.user_id) || p.email === r.email.toLowerCase());
  rows.sort((x, y) => rank(x) - rank(y) || x.starts_at.getTime() - y.starts_at.getTime());
  for (const r of rows) {
    const who = people.find((p) => (p.hr_user_id !== null && p.hr_user_id === r.user_id) || p.email === r.email.toLowerCase());
    if (!who) continue;
    const key = `${who.email}|${r.interview_id}`;
    if (said.has(key)) continue;
    said.add(key);
    const day =
      r.starts_at.toISOString().slice(0, 10) === startsAt.toISOString().slice(0, 10) ? '' : `${r.starts_at.toISOString().slice(0, 10)} `;
    const stage = r.stage_name || 'an interview';
    warnings.push({
      kind: 'overlap',
      interviewer: who.name,
      detail: `Overlaps ${stage} with ${r.candidate} (${r.job_title}) ${day}${hhmm(r.starts_at)}–${hhmm(r.ends_at)} UTC`,
    });
  }
  if (deps.conflicts) {
    const userIds = people.flatMap((p) => (p.hr_user_id !== null ? [p.hr_user_id] : []));
    if (userIds.length)
      for (const c of await deps.conflicts(deps, { userIds, startsAt, endsAt, ...(ignore !== null ? { ignoreInterviewId: ignore } : {}) }))
        warnings.push({ kind: c.kind, interviewer: c.interviewer, detail: c.detail });
  }
  return warnings;
}

const invitation = (uid: string, sequence: number, v: InterviewValues): InvitationInterview => ({ uid, sequence, ...v });

/** The scorecard link of each interviewer (asking those not asked yet at the stage). */
async function interviewerLinks(
  trx: Db,
  deps: InterviewDeps,
  app: ApplicationRow,
  v: InterviewValues,
  people: ParticipantValues[],
  by: number | null,
  now: Date,
): Promise<{ name: string; email: string; link: string | null }[]> {
  const out = [];
  for (const p of people) {
    const link =
      v.stage_id === null
        ? p.hr_user_id !== null
          ? `${deps.config.publicBaseUrl.replace(/\/$/, '')}/hr/applicants/${app.id}`
          : null
        : await requestInterviewScorecard(
            trx,
            deps,
            {
              applicationId: app.id,
              stageId: v.stage_id,
              stageName: v.stage_name,
              userId: p.hr_user_id,
              email: p.email,
              name: p.name,
              interviewAt: v.starts_at,
              requestedBy: by,
            },
            now,
          );
    out.push({ name: p.name, email: p.email, link });
  }
  return out;
}

/** The scorecards asked of these people for the interview (at its stage and time) are withdrawn: it was cancelled, or they were taken off it. */
async function withdrawScorecards(trx: Db, applicationId: number, v: InterviewValues, people: ParticipantValues[], now: Date) {
  if (v.stage_id === null || !people.length) return;
  await withdrawInterviewScorecards(
    trx,
    { applicationId, stageId: v.stage_id, interviewAt: v.starts_at, people: people.map((p) => ({ userId: p.hr_user_id, email: p.email })) },
    now,
  );
}

/** The event every interview webhook posts. */
function webhookEvent(
  event: string,
  id: number,
  app: ApplicationRow,
  v: InterviewValues,
  people: ParticipantValues[],
  status: string,
  now: Date,
) {
  return {
    event,
    application_id: app.id,
    interview_id: id,
    stage: v.stage_name,
    type: v.type,
    starts_at: v.starts_at.toISOString(),
    ends_at: v.ends_at.toISOString(),
    time_zone: v.time_zone,
    interviewers: people.map((p) => p.name),
    status,
    at: now.toISOString(),
  };
}

const timelineText = (what: string, v: InterviewValues, people: ParticipantValues[]) =>
  `Interview ${what}: ${INTERVIEW_TYPE_LABELS[v.type]}${v.stage_name ? ` (${v.stage_name})` : ''}, ${v.starts_at.toISOString().slice(0, 10)} ${hhmm(v.starts_at)}–${hhmm(v.ends_at)} UTC, with ${people.map((p) => p.name).join(', ')}`;

/** The host part of the interviews' UIDs: the site's own. */
const uidHost = (deps: InterviewDeps) => {
  try {
    return new URL(deps.config.publicBaseUrl).hostname || 'careers';
  } catch {
    return 'careers';
  }
};

/**
 * A booking's claim on a time (the candidate's self-booking): inside the transaction that writes
 * the interview, the HR interviewers' rows are locked (MySQL; SQLite runs one transaction at a
 * time) and the time must still be free of their scheduled interviews, else 409 `taken`; `check`
 * adds the booking link's own rule (used once). Two candidates racing for one slot: one wins.
 */
export interface TimeClaim {
  taken: string;
  check?: (trx: Db) => Promise<void>;
}

async function claimTime(trx: Db, people: ParticipantValues[], startsAt: Date, endsAt: Date, ignore: number | null, claim: TimeClaim) {
  const userIds = people.flatMap((p) => (p.hr_user_id !== null ? [p.hr_user_id] : []));
  await lockUsers(trx, userIds);
  await claim.check?.(trx);
  const clash = await overlappingInterviews(trx, { userIds, emails: people.map((p) => p.email) }, startsAt, endsAt, ignore);
  if (clash.length) throw new Conflict(claim.taken);
}

/** Schedules an interview (HR, or `by` null and a booking link for a candidate's booking): invitations, scorecards, webhook, timeline. */
export async function scheduleInterview(
  deps: InterviewDeps,
  a: { applicationId: number; input: InterviewInput; by: number | null; bookingLinkId?: number | null; claim?: TimeClaim },
): Promise<InterviewAnswer> {
  const app = await application(deps.db, a.applicationId);
  const stage = await stageValues(deps.db, app, a.input.stage_id);
  const people = await checkInterviewers(deps.db, a.input.interviewers);
  const values: InterviewValues = {
    ...stage,
    type: a.input.type,
    starts_at: a.input.starts_at,
    ends_at: a.input.ends_at,
    time_zone: a.input.time_zone,
    location: a.input.location,
    video_url: a.input.video_url,
    candidate_notes: a.input.candidate_notes,
  };
  const warnings = await warningsFor(deps, people, values.starts_at, values.ends_at, null);
  const uid = `${randomUUID()}@${uidHost(deps)}`;
  let mailed = 0;
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const now = deps.now();
      if (a.claim) await claimTime(trx, people, values.starts_at, values.ends_at, null, a.claim);
      const newId = await insertInterview(
        trx,
        { ...values, application_id: app.id, uid, created_by: a.by, booking_link_id: a.bookingLinkId ?? null },
        people,
        now,
      );
      const interviewers = await interviewerLinks(trx, deps, app, values, people, a.by, now);
      await insertApplicationAudit(
        trx,
        [
          {
            userId: a.by,
            action: 'interview_scheduled',
            entityId: app.id,
            details: { text: timelineText('scheduled', values, people), interview_id: newId },
          },
        ],
        now,
      );
      if (app.webhook_url)
        await enqueueApplicationEvent(trx, {
          applicationId: app.id,
          jobId: app.job_id,
          targetUrl: app.webhook_url,
          event: webhookEvent('interview.scheduled', newId, app, values, people, 'scheduled', now),
          now,
        });
      mailed = await queueInvitations(
        trx,
        deps,
        {
          interview: invitation(uid, 0, values),
          people: { applicationId: app.id, candidate: { name: app.name, email: app.email }, jobTitle: app.job_title, interviewers },
          kind: 'new',
          by: a.by,
        },
        now,
      );
      return newId;
    }),
  );
  if (mailed || app.webhook_url) deps.outbox.notify();
  return { interview: await getInterview(deps, id), warnings };
}

const sameTime = (a: Date, b: Date) => a.getTime() === b.getTime();

/** Changes an interview (any of its fields): an update to everyone on it (same UID, higher SEQUENCE), a CANCEL to interviewers taken off. */
export async function rescheduleInterview(
  deps: InterviewDeps,
  a: { interviewId: number; patch: InterviewPatch; by: number | null; claim?: TimeClaim },
): Promise<InterviewAnswer> {
  const current = await interviewRecord(deps.db, a.interviewId);
  if (current.status !== 'scheduled') throw new Conflict(M.cancelled);
  const app = await application(deps.db, current.application_id);
  const p = a.patch;
  const stage =
    p.stage_id !== undefined && p.stage_id !== current.stage_id
      ? await stageValues(deps.db, app, p.stage_id)
      : { stage_id: current.stage_id, stage_name: current.stage_name, kit_id: current.kit_id };
  const values: InterviewValues = {
    ...stage,
    type: p.type ?? current.type,
    starts_at: p.starts_at ?? new Date(current.starts_at),
    ends_at: p.ends_at ?? new Date(current.ends_at),
    time_zone: p.time_zone ?? current.time_zone,
    location: p.location !== undefined ? p.location : current.location,
    video_url: p.video_url !== undefined ? p.video_url : current.video_url,
    candidate_notes: p.candidate_notes !== undefined ? p.candidate_notes : current.candidate_notes,
  };
  const timeChanged = !sameTime(values.starts_at, new Date(current.starts_at)) || !sameTime(values.ends_at, new Date(current.ends_at));
  if (timeChanged) {
    const problems = timeProblems(values.starts_at, values.ends_at, deps.now());
    if (problems.length) throw new ValidationError(Object.fromEntries(problems.map((x) => [x.field, [x.message]])));
  }
  const before: ParticipantValues[] = current.interviewers.map((i) => ({ hr_user_id: i.user_id, email: i.email, name: i.name }));
  const people = p.interviewers ? await checkInterviewers(deps.db, p.interviewers) : before;
  const kept = people.filter((x) => before.some((b) => b.email === x.email));
  const added = people.filter((x) => !before.some((b) => b.email === x.email));
  const removed = before.filter((b) => !people.some((x) => x.email === b.email));
  const changed =
    timeChanged ||
    added.length > 0 ||
    removed.length > 0 ||
    (['stage_id', 'type', 'time_zone', 'location', 'video_url', 'candidate_notes'] as const).some(
      (k) => values[k] !== (current as unknown as Record<string, unknown>)[k],
    );
  const warnings = await warningsFor(deps, people, values.starts_at, values.ends_at, current.id);
  if (!changed) return { interview: view(current), warnings };
  let mailed = 0;
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const now = deps.now();
      const locked = await lockInterview(trx, current.id);
      if (!locked) throw new NotFound(M.interviewNotFound);
      if (locked.status !== 'scheduled') throw new Conflict(M.cancelled);
      if (a.claim) await claimTime(trx, people, values.starts_at, values.ends_at, current.id, a.claim);
      const sequence = locked.sequence + 1;
      await updateInterview(trx, current.id, values, sequence, timeChanged, now);
      await replaceParticipants(
        trx,
        current.id,
        kept.map((x) => x.email),
        added,
      );
      const interviewers = await interviewerLinks(trx, deps, app, values, people, a.by, now);
      const what = timeChanged ? 'rescheduled' : 'updated';
      await insertApplicationAudit(
        trx,
        [
          {
            userId: a.by,
            action: `interview_${what}`,
            entityId: app.id,
            details: { text: timelineText(what, values, people), interview_id: current.id },
          },
        ],
        now,
      );
      if (app.webhook_url)
        await enqueueApplicationEvent(trx, {
          applicationId: app.id,
          jobId: app.job_id,
          targetUrl: app.webhook_url,
          event: webhookEvent('interview.rescheduled', current.id, app, values, people, 'scheduled', now),
          now,
        });
      const invitationPeople = {
        applicationId: app.id,
        candidate: { name: app.name, email: app.email },
        jobTitle: app.job_title,
        interviewers,
      };
      mailed = await queueInvitations(
        trx,
        deps,
        { interview: invitation(current.uid, sequence, values), people: invitationPeople, kind: 'update', by: a.by },
        now,
      );
      await withdrawScorecards(
        trx,
        app.id,
        { ...values, stage_id: current.stage_id, starts_at: new Date(current.starts_at) },
        removed,
        now,
      );
      if (removed.length)
        mailed += await queueInvitations(
          trx,
          deps,
          { interview: invitation(current.uid, sequence, values), people: invitationPeople, kind: 'cancel', by: a.by, only: removed },
          now,
        );
    }),
  );
  if (mailed || app.webhook_url) deps.outbox.notify();
  return { interview: await getInterview(deps, current.id), warnings };
}

/** Cancels an interview: METHOD:CANCEL to everyone on it; 409 when it already is. */
export async function cancelInterview(
  deps: InterviewDeps,
  a: { interviewId: number; by: number | null },
): Promise<{ interview: Interview }> {
  const current = await interviewRecord(deps.db, a.interviewId);
  if (current.status !== 'scheduled') throw new Conflict(M.alreadyCancelled);
  const app = await application(deps.db, current.application_id);
  const values: InterviewValues = {
    stage_id: current.stage_id,
    stage_name: current.stage_name,
    kit_id: current.kit_id,
    type: current.type,
    starts_at: new Date(current.starts_at),
    ends_at: new Date(current.ends_at),
    time_zone: current.time_zone,
    location: current.location,
    video_url: current.video_url,
    candidate_notes: current.candidate_notes,
  };
  const people: ParticipantValues[] = current.interviewers.map((i) => ({ hr_user_id: i.user_id, email: i.email, name: i.name }));
  let mailed = 0;
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const now = deps.now();
      const locked = await lockInterview(trx, current.id);
      if (!locked) throw new NotFound(M.interviewNotFound);
      const sequence = locked.sequence + 1;
      if (locked.status !== 'scheduled' || !(await markCancelled(trx, current.id, sequence, now))) throw new Conflict(M.alreadyCancelled);
      await withdrawScorecards(trx, app.id, values, people, now);
      await insertApplicationAudit(
        trx,
        [
          {
            userId: a.by,
            action: 'interview_cancelled',
            entityId: app.id,
            details: { text: timelineText('cancelled', values, people), interview_id: current.id },
          },
        ],
        now,
      );
      if (app.webhook_url)
        await enqueueApplicationEvent(trx, {
          applicationId: app.id,
          jobId: app.job_id,
          targetUrl: app.webhook_url,
          event: webhookEvent('interview.cancelled', current.id, app, values, people, 'cancelled', now),
          now,
        });
      mailed = await queueInvitations(
        trx,
        deps,
        {
          interview: invitation(current.uid, sequence, values),
          people: {
            applicationId: app.id,
            candidate: { name: app.name, email: app.email },
            jobTitle: app.job_title,
            interviewers: people.map((x) => ({ name: x.name, email: x.email, link: null })),
          },
          kind: 'cancel',
          by: a.by,
        },
        now,
      );
    }),
  );
  if (mailed || app.webhook_url) deps.outbox.notify();
  return { interview: await getInterview(deps, current.id) };
}

/**
 * Interview kits and scorecards (issue 31): the operations, used by the API and the pages.
 *
 * Blind until submitted: a viewer with a scorecard of their own on an application that they have
 * not submitted yet sees the other scorecards of that application without their content (ratings,
 * notes, recommendation), so their own judgement is not anchored on what others said first. A
 * draft's content is only ever shown to its author. Only the author edits a scorecard; after
 * submitting, for EDIT_WINDOW_HOURS, then only amendments (a note shown with it).
 */
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import { Conflict, Forbidden, NotFound, ValidationError } from '../http/errors.js';
import {
  EDIT_WINDOW_HOURS,
  KIT_LIMITS,
  SCORECARD_MESSAGES as M,
  type AmendmentInput,
  type DecisionInput,
  type DraftInput,
  type KitTemplateInput,
  type RequestInput,
  type StageKitInput,
} from './scorecards.schema.js';
import {
  activeHrUsers,
  alreadyAsked,
  rejectionReasonNames,
  amendmentsOf,
  deleteTemplate,
  decisionsOf,
  findApplication,
  insertDecision,
  jobWebhookUrl,
  findHrUser,
  findJob,
  findScorecard,
  findTemplate,
  insertAmendment,
  insertScorecard,
  insertTemplate,
  kitOfStage,
  kitsOfJob,
  listTemplates,
  lockTemplateNames,
  markSubmitted,
  moveInterviewAt,
  saveKit,
  scorecardsOf,
  stagesOfJob,
  updateScorecardContent,
  updateTemplate,
  type ApplicationRow,
  type ScorecardRow,
  withdrawForInterview,
} from './scorecards.repo.js';
import {
  RECOMMENDATION_LABELS,
  type Debrief,
  type JobKits,
  type KitContent,
  type KitTemplate,
  type Scorecard,
  type ScorecardChoices,
  type ScorecardList,
} from './scorecards.types.js';
import { insertApplicationAudit } from '../applicants/index.js';
import { enqueueApplicationEvent } from '../posts/index.js';
import { changePipeline } from '../pipeline/index.js';
import { inviteOutsideInterviewer, newFeedbackLink } from './feedback.service.js';
import type { Db } from '../db/knex.js';

type Deps = Pick<AppContext, 'db' | 'now' | 'outbox' | 'config'>;
/** Who is asking: the signed-in HR user. */
export interface Viewer {
  userId: number;
  role: string;
}

const HOUR = 3_600_000;

// ---- Kit templates ----

export function kitTemplates({ db }: Deps): Promise<KitTemplate[]> {
  return listTemplates(db);
}

export async function kitTemplate({ db }: Deps, id: number): Promise<KitTemplate> {
  const found = await findTemplate(db, id);
  if (!found) throw new NotFound(M.templateNotFound);
  return found;
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

export async function createKitTemplate(deps: Deps, input: KitTemplateInput): Promise<KitTemplate> {
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const names = await lockTemplateNames(trx);
      if (names.length >= KIT_LIMITS.templates) throw new ValidationError({}, M.tooManyTemplates);
      if (names.some((t) => sameName(t.name, input.name))) throw new ValidationError({ name: [M.templateName] });
      return insertTemplate(trx, input, deps.now());
    }),
  );
  return kitTemplate(deps, id);
}

export async function replaceKitTemplate(deps: Deps, id: number, input: KitTemplateInput): Promise<KitTemplate> {
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const names = await lockTemplateNames(trx);
      if (!names.some((t) => t.id === id)) throw new NotFound(M.templateNotFound);
      if (names.some((t) => t.id !== id && sameName(t.name, input.name))) throw new ValidationError({ name: [M.templateName] });
      await updateTemplate(trx, id, input, deps.now());
    }),
  );
  return kitTemplate(deps, id);
}

/** Deletes a template; the stage kits started from it keep their content. */
export async function removeKitTemplate({ db }: Deps, id: number): Promise<void> {
  if (!(await deleteTemplate(db, id))) throw new NotFound(M.templateNotFound);
}

// ---- A job's stage kits ----

export async function jobKits({ db }: Deps, jobId: number): Promise<JobKits> {
  const job = await findJob(db, jobId);
  if (!job || job.status === 'REMOVED') throw new NotFound(M.jobNotFound);
  const [stages, kits] = await Promise.all([stagesOfJob(db, jobId), kitsOfJob(db, jobId)]);
  const byStage = new Map(kits.map((k) => [k.stage_id, k]));
  return {
    job: { id: job.id, title: job.title },
    stages: stages.map((s) => {
      const k = byStage.get(s.id);
      return {
        stage_id: s.id,
        stage_name: s.name,
        kit: k
          ? {
              template_id: k.template_id,
              instructions: k.instructions,
              questions: k.questions,
              attributes: k.attributes,
              updated_at: k.updated_at,
            }
          : null,
      };
    }),
  };
}

export async function replaceStageKit(deps: Deps, jobId: number, stageId: number, input: StageKitInput, viewer: Viewer): Promise<JobKits> {
  const job = await findJob(deps.db, jobId);
  if (!job || job.status === 'REMOVED') throw new NotFound(M.jobNotFound);
  if (!(await stagesOfJob(deps.db, jobId)).some((s) => s.id === stageId)) throw new NotFound(M.stageNotFound);
  const templateId = input.template_id ?? null;
  if (templateId !== null && !(await findTemplate(deps.db, templateId))) throw new ValidationError({ template_id: [M.templateId] });
  await withDbRetry(() =>
    deps.db.transaction((trx) => saveKit(trx, jobId, stageId, { ...input, template_id: templateId }, viewer.userId, deps.now())),
  );
  return jobKits(deps, jobId);
}

// ---- Scorecards ----

async function application(db: Deps['db'], id: number): Promise<ApplicationRow> {
  const app = await findApplication(db, id);
  if (!app) throw new NotFound(M.applicationNotFound);
  return app;
}

/** When a scorecard is due: 24 h after its interview, or after it was asked for when no time was given. */
const dueAt = (s: Pick<ScorecardRow, 'interview_at' | 'requested_at'>) =>
  new Date((s.interview_at ?? s.requested_at).getTime() + 24 * HOUR);

/** Whether `viewer` has a scorecard of their own on these that is not submitted (the others are then hidden). */
const isBlind = (rows: ScorecardRow[], viewer: Viewer) => rows.some((r) => r.interviewer_user_id === viewer.userId && !r.submitted_at);

function view(
  row: ScorecardRow,
  viewer: Viewer,
  blind: boolean,
  now: Date,
  extra: { kit: KitContent | null; amendments: Scorecard['amendments'] },
): Scorecard {
  const mine = row.interviewer_user_id === viewer.userId;
  const hiddenReason = mine ? null : !row.submitted_at ? M.hiddenDraft : blind ? M.hiddenUntilSubmitted : null;
  return {
    id: row.id,
    application_id: row.application_id,
    stage_id: row.stage_id,
    stage_name: row.stage_name,
    interviewer: { user_id: row.interviewer_user_id, name: row.interviewer_name, email: row.interviewer_email },
    interview_at: row.interview_at?.toISOString() ?? null,
    requested_at: row.requested_at.toISOString(),
    requested_by: row.requested_by_name,
    status: row.submitted_at ? 'submitted' : 'draft',
    submitted_at: row.submitted_at?.toISOString() ?? null,
    editable_until: row.submitted_at ? new Date(row.submitted_at.getTime() + EDIT_WINDOW_HOURS * HOUR).toISOString() : null,
    overdue: !row.submitted_at && now.getTime() > dueAt(row).getTime(),
    mine,
    content_hidden: hiddenReason !== null,
    hidden_reason: hiddenReason,
    ratings: hiddenReason ? [] : row.ratings,
    recommendation: hiddenReason ? null : row.recommendation,
    amendments: hiddenReason ? [] : extra.amendments,
    kit: mine ? extra.kit : null,
  };
}

async function views(deps: Deps, rows: ScorecardRow[], all: ScorecardRow[], viewer: Viewer): Promise<Scorecard[]> {
  const blind = isBlind(all, viewer);
  const amendments = await amendmentsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const kits = new Map<number, KitContent | null>();
  for (const r of rows) {
    if (r.interviewer_user_id === viewer.userId && !kits.has(r.stage_id)) {
      const k = await kitOfStage(deps.db, r.stage_id);
      kits.set(r.stage_id, k ? { instructions: k.instructions, questions: k.questions, attributes: k.attributes } : null);
    }
  }
  const now = deps.now();
  return rows.map((r) =>
    view(r, viewer, blind, now, {
      kit: kits.get(r.stage_id) ?? null,
      amendments: amendments.filter((a) => a.scorecard_id === r.id).map(({ scorecard_id: _, ...a }) => a),
    }),
  );
}

export async function listScorecards(deps: Deps, applicationId: number, viewer: Viewer): Promise<ScorecardList> {
  await application(deps.db, applicationId);
  const rows = await scorecardsOf(deps.db, applicationId);
  return { results: await views(deps, rows, rows, viewer), blind: isBlind(rows, viewer) };
}

export async function getScorecard(deps: Deps, applicationId: number, id: number, viewer: Viewer): Promise<Scorecard> {
  await application(deps.db, applicationId);
  const rows = await scorecardsOf(deps.db, applicationId);
  const row = rows.find((r) => r.id === id);
  if (!row) throw new NotFound(M.scorecardNotFound);
  return (await views(deps, [row], rows, viewer))[0];
}

/** Asks an HR user or an outside person (by email) for feedback on the application at a stage of its job. */
export async function requestScorecard(deps: Deps, applicationId: number, input: RequestInput, viewer: Viewer): Promise<Scorecard> {
  const app = await application(deps.db, applicationId);
  const stage = (await stagesOfJob(deps.db, app.job_id)).find((s) => s.id === input.stage);
  if (!stage) throw new ValidationError({ stage: [M.stage] });
  let who: { userId: number | null; email: string | null; name: string };
  if (input.interviewer.kind === 'user') {
    const user = await findHrUser(deps.db, input.interviewer.userId);
    if (!user?.active) throw new ValidationError({ interviewer_user_id: [M.interviewerUser] });
    who = { userId: user.id, email: null, name: user.username };
  } else {
    who = { userId: null, email: input.interviewer.email, name: input.interviewer.name };
  }
  const key = who.userId !== null ? { userId: who.userId } : { email: who.email! };
  if (await alreadyAsked(deps.db, app.id, stage.id, key)) throw new Conflict(M.alreadyAsked);
  const requester = (await findHrUser(deps.db, viewer.userId))?.username ?? 'A recruiter';
  let emailed = false;
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const cardId = await insertScorecard(
        trx,
        {
          applicationId: app.id,
          stageId: stage.id,
          stageName: stage.name,
          userId: who.userId,
          email: who.email,
          name: who.name,
          interviewAt: input.interviewAt,
          requestedBy: viewer.userId,
        },
        deps.now(),
      );
      if (who.email)
        emailed = await inviteOutsideInterviewer(
          trx,
          deps,
          {
            scorecardId: cardId,
            email: who.email,
            name: who.name,
            candidate: app.name,
            jobTitle: app.job_title,
            stageName: stage.name,
            requestedBy: requester,
            applicationId: app.id,
            requestedById: viewer.userId,
          },
          deps.now(),
        );
      return cardId;
    }),
  );
  if (emailed) deps.outbox.notify();
  const card = await getScorecard(deps, app.id, id, viewer);
  return who.email ? { ...card, feedback_link: emailed ? 'emailed' : 'not_emailed' } : card;
}

/**
 * Asks an interview's interviewer for a scorecard at its stage (issue 32), in the caller's
 * transaction, unless they are already asked at that stage (then a scorecard not submitted yet
 * takes the interview's time, so it falls due 24 h after the interview as it now stands). Answers the link their invitation
 * carries: the applicant page for an HR user; for an outside person asked now, a new
 * /feedback/{token} link; null for an outside person asked before (the link they were sent stands).
 */
export async function requestInterviewScorecard(
  trx: Db,
  deps: Pick<AppContext, 'config'>,
  v: {
    applicationId: number;
    stageId: number;
    stageName: string;
    userId: number | null;
    email: string;
    name: string;
    interviewAt: Date;
    requestedBy: number | null;
  },
  now: Date,
): Promise<string | null> {
  const base = deps.config.publicBaseUrl.replace(/\/$/, '');
  const key = v.userId !== null ? { userId: v.userId } : { email: v.email };
  const asked = await alreadyAsked(trx, v.applicationId, v.stageId, key);
  if (asked) await moveInterviewAt(trx, v.applicationId, v.stageId, key, v.interviewAt);
  else {
    const id = await insertScorecard(
      trx,
      {
        applicationId: v.applicationId,
        stageId: v.stageId,
        stageName: v.stageName,
        userId: v.userId,
        email: v.userId !== null ? null : v.email,
        name: v.name,
        interviewAt: v.interviewAt,
        requestedBy: v.requestedBy,
      },
      now,
    );
    if (v.userId === null) return (await newFeedbackLink(trx, deps, id, now)).url;
  }
  return v.userId !== null ? `${base}/hr/applicants/${v.applicationId}` : null;
}

/** An interview was cancelled or people taken off it (issue 32): their unsubmitted scorecards asked for it are withdrawn. */
export async function withdrawInterviewScorecards(
  trx: Db,
  v: { applicationId: number; stageId: number; interviewAt: Date; people: { userId: number | null; email: string }[] },
  now: Date,
): Promise<void> {
  const who = v.people.map((p) => (p.userId !== null ? { userId: p.userId } : { email: p.email }));
  await withdrawForInterview(trx, v.applicationId, v.stageId, who, v.interviewAt, now);
}

/** The scorecard its author may change now: 404 unknown, 403 someone else's, 409 after the edit window. */
async function ownScorecard(deps: Deps, applicationId: number, id: number, viewer: Viewer): Promise<ScorecardRow> {
  await application(deps.db, applicationId);
  const row = await findScorecard(deps.db, applicationId, id);
  if (!row) throw new NotFound(M.scorecardNotFound);
  if (row.interviewer_user_id !== viewer.userId) throw new Forbidden(M.notAuthor);
  return row;
}

const editClosed = (row: ScorecardRow, now: Date) =>
  !!row.submitted_at && now.getTime() - row.submitted_at.getTime() > EDIT_WINDOW_HOURS * HOUR;

/** The ratings checked against the stage's kit: only its attributes, in its order. */
async function checkedRatings(deps: Deps, row: ScorecardRow, ratings: DraftInput['ratings']): Promise<ScorecardRow['ratings']> {
  if (ratings === undefined) return row.ratings;
  const kit = await kitOfStage(deps.db, row.stage_id);
  const names = (kit?.attributes ?? []).map((a) => a.name);
  const byKey = new Map(names.map((n) => [n.toLocaleLowerCase('en'), n]));
  const out = [];
  for (const [i, r] of ratings.entries()) {
    const name = byKey.get(r.attribute.toLocaleLowerCase('en'));
    if (!name) throw new ValidationError({ [`ratings.${i}.attribute`]: [M.ratingAttribute] });
    out.push({ attribute: name, rating: r.rating, note: r.note });
  }
  return out.sort((a, b) => names.indexOf(a.attribute) - names.indexOf(b.attribute));
}

/** Saves the author's draft (or, within 24 h of submitting, the submitted scorecard). */
export async function saveDraft(deps: Deps, applicationId: number, id: number, input: DraftInput, viewer: Viewer): Promise<Scorecard> {
  const row = await ownScorecard(deps, applicationId, id, viewer);
  if (editClosed(row, deps.now())) throw new Conflict(M.editClosed);
  const ratings = await checkedRatings(deps, row, input.ratings);
  const recommendation = input.recommendation === undefined ? row.recommendation : input.recommendation;
  if (row.submitted_at && recommendation === null) throw new ValidationError({ recommendation: [M.recommendationNeeded] });
  await withDbRetry(() => deps.db.transaction((trx) => updateScorecardContent(trx, row.id, { ratings, recommendation }, deps.now())));
  return getScorecard(deps, applicationId, id, viewer);
}

/** Submits the author's draft (once; a recommendation is needed). `onSubmitted` runs after, with the scorecard as submitted. */
export async function submitScorecard(deps: Deps, applicationId: number, id: number, viewer: Viewer): Promise<Scorecard> {
  const row = await ownScorecard(deps, applicationId, id, viewer);
  if (row.submitted_at) throw new Conflict(M.alreadySubmitted);
  if (!row.recommendation) throw new ValidationError({ recommendation: [M.recommendationNeeded] });
  if (!(await recordSubmission(deps, row, viewer.userId))) throw new Conflict(M.alreadySubmitted);
  return getScorecard(deps, applicationId, id, viewer);
}

/**
 * Marks a scorecard submitted (once), with its line on the timeline and, when the job posts to a
 * webhook, its `scorecard.submitted` event in the outbox, in one transaction. False when it was
 * already submitted. `byUserId`: the HR user who submitted it (null: an outside interviewer).
 */
export async function recordSubmission(deps: Deps, row: ScorecardRow, byUserId: number | null): Promise<boolean> {
  const app = await application(deps.db, row.application_id);
  const webhook = await jobWebhookUrl(deps.db, app.job_id);
  const done = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const now = deps.now();
      if (!(await markSubmitted(trx, row.id, now))) return false;
      const label = RECOMMENDATION_LABELS[row.recommendation!];
      await insertApplicationAudit(
        trx,
        [
          {
            userId: byUserId,
            action: 'scorecard_submitted',
            entityId: app.id,
            details: { text: `Scorecard submitted by ${row.interviewer_name} (${label})`, stage: row.stage_name, scorecard_id: row.id },
          },
        ],
        now,
      );
      if (webhook) {
        const event = {
          event: 'scorecard.submitted',
          application_id: app.id,
          stage: row.stage_name,
          interviewer: row.interviewer_name,
          recommendation: row.recommendation!,
          submitted_at: now.toISOString(),
        };
        await enqueueApplicationEvent(trx, { applicationId: app.id, jobId: app.job_id, targetUrl: webhook, event, now });
      }
      return true;
    }),
  );
  if (done && webhook) deps.outbox.notify();
  return done;
}

/** Adds a visible note to the author's submitted scorecard. */
export async function amendScorecard(
  deps: Deps,
  applicationId: number,
  id: number,
  input: AmendmentInput,
  viewer: Viewer,
): Promise<Scorecard> {
  const row = await ownScorecard(deps, applicationId, id, viewer);
  if (!row.submitted_at) throw new Conflict(M.amendDraft);
  await insertAmendment(deps.db, row.id, viewer.userId, input.note, deps.now());
  return getScorecard(deps, applicationId, id, viewer);
}

// ---- Debrief ----

/** Every submitted scorecard side by side per stage, the spread of each attribute, and the decisions made. */
export async function debrief(deps: Deps, applicationId: number, viewer: Viewer): Promise<Debrief> {
  await application(deps.db, applicationId);
  const [rows, decisions] = await Promise.all([scorecardsOf(deps.db, applicationId), decisionsOf(deps.db, applicationId)]);
  const shaped = decisions.map((d) => ({ ...d, decision: d.decision as Debrief['decisions'][number]['decision'] }));
  if (isBlind(rows, viewer)) return { stages: [], decisions: shaped, hidden_reason: M.hiddenUntilSubmitted };
  const submitted = rows.filter((r) => r.submitted_at && r.recommendation);
  const stageIds = [...new Set(submitted.map((r) => r.stage_id))];
  const stages = [];
  for (const stageId of stageIds) {
    const cards = submitted.filter((r) => r.stage_id === stageId);
    const kit = await kitOfStage(deps.db, stageId);
    // The kit's attributes in its order, then any rated under a name the kit no longer has.
    const names = [...(kit?.attributes.map((a) => a.name) ?? [])];
    for (const c of cards) for (const r of c.ratings) if (!names.includes(r.attribute)) names.push(r.attribute);
    stages.push({
      stage_id: stageId,
      stage_name: cards[0].stage_name,
      interviewers: cards.map((c) => ({
        scorecard_id: c.id,
        name: c.interviewer_name,
        recommendation: c.recommendation!,
        submitted_at: c.submitted_at!.toISOString(),
      })),
      attributes: names.map((name) => {
        const ratings = cards.map((c) => c.ratings.find((r) => r.attribute === name)?.rating ?? null);
        const given = ratings.filter((r): r is number => r !== null);
        return { name, min: given.length ? Math.min(...given) : null, max: given.length ? Math.max(...given) : null, ratings };
      }),
    });
  }
  return { stages, decisions: shaped, hidden_reason: null };
}

/**
 * Records the debrief's decision on the application at its current stage, with who made it:
 * advance (moves it to the next stage of its job) and reject (with a reason from the list) go
 * through the pipeline's own operation, in its transaction; offer is recorded (offers come later).
 */
export async function decide(deps: Deps, applicationId: number, input: DecisionInput, viewer: Viewer): Promise<Debrief> {
  const app = await application(deps.db, applicationId);
  const rows = await scorecardsOf(deps.db, applicationId);
  if (isBlind(rows, viewer)) throw new Conflict(M.decisionBlind);
  const stages = await stagesOfJob(deps.db, app.job_id);
  const at = stages.findIndex((s) => s.id === app.stage_id);
  const current = stages[at] ?? null;
  const who = (await findHrUser(deps.db, viewer.userId))?.username ?? 'someone';
  const stageName = current?.name ?? '';
  const record = async (trx: typeof deps.db, text: string) => {
    const now = deps.now();
    await insertDecision(
      trx,
      {
        applicationId: app.id,
        stageId: current?.id ?? null,
        stageName,
        decision: input.decision,
        reason: input.reason,
        userId: viewer.userId,
      },
      now,
    );
    await insertApplicationAudit(
      trx,
      [{ userId: viewer.userId, action: 'debrief_decision', entityId: app.id, details: { text, stage: stageName } }],
      now,
    );
  };
  if (input.decision === 'advance') {
    const next = at >= 0 ? stages[at + 1] : undefined;
    if (app.outcome === 'REJECTED') throw new Conflict(M.advanceRejected);
    if (!next) throw new Conflict(M.noNextStage);
    await changePipeline(deps, [app.id], { kind: 'stage', stage: next.id }, viewer.userId, (trx) =>
      record(trx, `Debrief decision by ${who}: advance to ${next.name}`),
    );
  } else if (input.decision === 'reject') {
    await changePipeline(deps, [app.id], { kind: 'outcome', outcome: 'REJECTED', reason: input.reason! }, viewer.userId, (trx) =>
      record(trx, `Debrief decision by ${who}: reject (${input.reason})`),
    );
  } else {
    await withDbRetry(() => deps.db.transaction((trx) => record(trx, `Debrief decision by ${who}: offer`)));
  }
  return debrief(deps, applicationId, viewer);
}

/** The choices of the applicant page's Scorecards section. */
export async function scorecardChoices(deps: Deps, applicationId: number): Promise<ScorecardChoices> {
  const app = await application(deps.db, applicationId);
  const [stages, kits, interviewers, reasons] = await Promise.all([
    stagesOfJob(deps.db, app.job_id),
    kitsOfJob(deps.db, app.job_id),
    activeHrUsers(deps.db),
    rejectionReasonNames(deps.db),
  ]);
  const withKit = new Set(kits.map((k) => k.stage_id));
  return {
    stages: stages.map((s) => ({ id: s.id, name: s.name, has_kit: withKit.has(s.id), current: s.id === app.stage_id })),
    interviewers,
    reasons,
  };
}

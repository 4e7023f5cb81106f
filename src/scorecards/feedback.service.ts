/**
 * Feedback without an account (issue 31): an outside interviewer (asked by email) gets one link,
 * `/feedback/{token}`, by email through the outbox. The token is 32 random bytes; only its SHA-256
 * is stored (as sign-in links are, src/users). The link shows only the candidate's name and
 * resume, the job's title, the stage's kit and the interviewer's own scorecard; it expires after
 * FEEDBACK_LINK_DAYS and dies when the scorecard is submitted (410).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound } from '../http/errors.js';
import { openResume } from '../applicants/index.js';
import { enqueueSentEmail, htmlOfText, oneLine } from '../posts/index.js';
import type { DraftInput } from './scorecards.schema.js';
import {
  findApplication,
  findScorecardByToken,
  kitOfStage,
  setScorecardToken,
  updateScorecardContent,
  type ScorecardRow,
} from './scorecards.repo.js';
import type { KitContent } from './scorecards.types.js';
import { recordSubmission } from './scorecards.service.js';

/** How long an outside interviewer's link works. */
const FEEDBACK_LINK_DAYS = 14;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const FEEDBACK_MESSAGES = {
  notFound: 'This feedback link does not exist. Check that it was copied whole.',
  submitted: 'This feedback link no longer works: the scorecard was submitted. Thank you for your feedback.',
  expired: 'This feedback link has expired. Ask the recruiter who sent it for a new one.',
  saved: 'Draft saved. You can come back to this link to finish it.',
} as const;

/** 410: the link existed and has died (submitted or expired). */
class Gone extends HttpError {
  constructor(detail: string) {
    super(410, detail, { detail });
  }
}

/** Makes a new link for an outside interviewer's scorecard (in the caller's transaction): its address and when it expires. */
export async function newFeedbackLink(
  trx: Db,
  deps: Pick<AppContext, 'config'>,
  scorecardId: number,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + FEEDBACK_LINK_DAYS * 86_400_000);
  await setScorecardToken(trx, scorecardId, hashToken(token), expiresAt);
  return { url: `${deps.config.publicBaseUrl.replace(/\/$/, '')}/feedback/${token}`, expiresAt };
}

/**
 * Makes the link of a new outside interviewer's scorecard and queues its email (when email is on),
 * inside the caller's transaction. Answers whether the email was queued.
 */
export async function inviteOutsideInterviewer(
  trx: Db,
  deps: Pick<AppContext, 'config'>,
  v: {
    scorecardId: number;
    email: string;
    name: string;
    candidate: string;
    jobTitle: string;
    stageName: string;
    requestedBy: string;
    applicationId: number;
    requestedById: number;
  },
  now: Date,
): Promise<boolean> {
  const { url, expiresAt } = await newFeedbackLink(trx, deps, v.scorecardId, now);
  if (!deps.config.mail.smtpUrl) return false;
  const company = oneLine(deps.config.company.name);
  const text = [
    `Hello ${oneLine(v.name)},`,
    `${oneLine(v.requestedBy)} at ${company} asks for your feedback on ${oneLine(v.candidate)}, who interviewed for ${oneLine(v.jobTitle)} (${oneLine(v.stageName)}).`,
    `This link shows the candidate's resume and the interview kit, and keeps your scorecard as you fill it in:\n${url}`,
    `It is for you only, works until ${expiresAt.toUTCString()}, and stops working once you submit your scorecard.`,
    company,
  ].join('\n\n');
  await enqueueSentEmail(
    trx,
    {
      applicationId: v.applicationId,
      message: {
        to: v.email,
        subject: `Your feedback on ${oneLine(v.candidate)} for ${oneLine(v.jobTitle)}`,
        text,
        html: htmlOfText(text),
      },
      sender: { sentBy: v.requestedById, templateId: null, templateName: 'Feedback request' },
    },
    now,
  );
  return true;
}

/** What the feedback page shows: nothing of the application but the candidate's name and the job's title. */
export interface FeedbackView {
  card: ScorecardRow;
  candidate: string;
  jobTitle: string;
  kit: KitContent | null;
  hasResume: boolean;
}

/** The live scorecard of a link: 404 when it names none, 410 when it was submitted or has expired. */
async function liveCard(deps: Pick<AppContext, 'db' | 'now'>, token: string): Promise<ScorecardRow> {
  if (!TOKEN_PATTERN.test(token)) throw new NotFound(FEEDBACK_MESSAGES.notFound);
  const card = await findScorecardByToken(deps.db, hashToken(token));
  if (!card) throw new NotFound(FEEDBACK_MESSAGES.notFound);
  if (card.submitted_at) throw new Gone(FEEDBACK_MESSAGES.submitted);
  if (!card.token_expires_at || card.token_expires_at.getTime() <= deps.now().getTime()) throw new Gone(FEEDBACK_MESSAGES.expired);
  return card;
}

export async function feedbackView(deps: Pick<AppContext, 'db' | 'now'>, token: string): Promise<FeedbackView> {
  const card = await liveCard(deps, token);
  const app = await findApplication(deps.db, card.application_id);
  if (!app) throw new NotFound(FEEDBACK_MESSAGES.notFound);
  const kit = await kitOfStage(deps.db, card.stage_id);
  return {
    card,
    candidate: app.name,
    jobTitle: app.job_title,
    kit: kit ? { instructions: kit.instructions, questions: kit.questions, attributes: kit.attributes } : null,
    hasResume: app.has_resume,
  };
}

/** Saves the outside interviewer's draft, and submits it when asked (then the link dies). */
export async function saveFeedback(
  deps: Pick<AppContext, 'db' | 'now' | 'outbox' | 'config'>,
  token: string,
  input: DraftInput,
  submit: boolean,
): Promise<'saved' | 'submitted' | { recommendation: string }> {
  const card = await liveCard(deps, token);
  const kit = await kitOfStage(deps.db, card.stage_id);
  const names = (kit?.attributes ?? []).map((a) => a.name);
  const ratings = (input.ratings ?? []).filter((r) => names.includes(r.attribute));
  const recommendation = input.recommendation === undefined ? card.recommendation : input.recommendation;
  if (submit && !recommendation) return { recommendation: 'Choose an overall recommendation before submitting.' };
  await withDbRetry(() => deps.db.transaction((trx) => updateScorecardContent(trx, card.id, { ratings, recommendation }, deps.now())));
  if (!submit) return 'saved';
  if (!(await recordSubmission(deps, { ...card, recommendation }, null))) throw new Gone(FEEDBACK_MESSAGES.submitted);
  return 'submitted';
}

/** The candidate's resume, for the link's holder only. */
export async function feedbackResume(deps: Pick<AppContext, 'db' | 'now' | 'storage' | 'log'>, token: string) {
  const card = await liveCard(deps, token);
  return openResume(deps, card.application_id);
}

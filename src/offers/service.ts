/**
 * Offers (issue 34): an application's offer with its terms and letter, its approval, sending it to
 * the candidate, and the candidate's answer by a link without sign-in.
 *
 * - Approval: the job's chain or the default one (repo: offer_approval_chains). ORDER asks each
 *   approver in turn; ANY asks all of them (or every active admin) and needs `required` approvals.
 *   With `only_out_of_range`, an offer whose pay is inside the job's range needs none. Each asked
 *   approver gets an email with a link (/offer-approvals/{token}) and may also decide in the app.
 *   A rejection sends the offer back to draft with the comment. A change of the terms of a
 *   submitted offer makes a new version, and its approval starts again.
 * - Sending: the letter is rendered to a PDF (lib/pdf.ts), stored, and its SHA-256 kept; the
 *   candidate's email (through the outbox) carries the link /offer/{token} (only its SHA-256 is
 *   stored). The job's webhook gets `offer.sent`.
 * - Signing: the candidate types their full name; the record keeps it, the time, the keyed hash of
 *   the client address and the SHA-256 of the PDF shown (checked against the stored file), and the
 *   signed PDF is that PDF with a signature page appended. `offer.accepted` carries the offer's
 *   data; a decline (`offer.declined`) keeps its optional reason. An expired or withdrawn offer
 *   cannot be signed; answered offers cannot be answered again.
 * - Expiry: the posts sweep (server cron, `careers-admin cron`) marks sent offers past their
 *   expiry date expired; signing checks the date itself too.
 * Every change writes its timeline entry in the same transaction.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { Forbidden, HttpError, NotFound, ValidationError } from '../http/errors.js';
import { unavailableOr, type Download } from '../http/download.js';
import { addressHash } from '../http/address-hash.js';
import { sanitizeRichText } from '../shared/sanitize.js';
import { emailRecipients, insertApplicationAudit, type EmailRecipient } from '../applicants/index.js';
import { TEMPLATE_VARIABLES, applicantValues, fillVariables } from '../emails/index.js';
import { enqueueApplicationEvent, enqueueEmails, enqueueSentEmail, htmlOfText, oneLine } from '../posts/index.js';
import { payInRange } from '../publishing/index.js';
import type { UserRole } from '../users/types.js';
import { appendSignaturePage, letterText, renderLetterPdf } from './lib/pdf.js';
import { activeAdminIds, hrUsers, jobFacts, jobOfApplication, jobWebhookUrl, onOfferTeam, type HrUser, type JobFacts } from './queries.js';
import {
  approvalsOf,
  askApproval,
  closePendingApprovals,
  decideApprovalRow,
  defaultTemplate,
  expiredSentOffers,
  findApprovalByToken,
  findChain,
  findOffer,
  findOfferByToken,
  findTemplate,
  hasOpenOffer,
  insertApprovals,
  insertOffer,
  insertPdfRecord,
  lockApplication,
  offersOfApplication,
  updateOffer,
  type ApprovalRow,
  type ChainRow,
  type OfferRow,
} from './repo.js';
import { OFFER_LIMITS, OFFER_MESSAGES as M, type OfferInput, unknownVariables } from './schema.js';
import {
  EDITABLE_STATUSES,
  OFFER_STATUS_LABELS,
  OFFER_VARIABLES,
  WITHDRAWABLE_STATUSES,
  type Offer,
  type OfferApproval,
  type OfferStatus,
} from './types.js';

export type Deps = Pick<AppContext, 'db' | 'config' | 'now' | 'outbox' | 'storage' | 'serverKey' | 'log'>;

/** Who asks: the session's user and role. */
export interface Viewer {
  userId: number;
  role: UserRole;
}

/** Every variable a letter may use: the email templates' and the offer's. */
export const LETTER_VARIABLES: readonly string[] = [...TEMPLATE_VARIABLES, ...OFFER_VARIABLES];

/** How long an approver's link works. */
const APPROVAL_LINK_DAYS = 14;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const conflict = (detail: string) => new HttpError(409, detail, { detail });
const gone = (detail: string) => new HttpError(410, detail, { detail });
const baseUrl = (deps: Pick<Deps, 'config'>) => deps.config.publicBaseUrl.replace(/\/$/, '');

const PERIOD_WORD = { YEAR: 'year', MONTH: 'month', HOUR: 'hour' } as const;

/** The UTC calendar day of `d`, YYYY-MM-DD. */
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** "1 March 2027". */
export function longDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "120,000" or "45.50". */
function money(n: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 });
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The offer's own variables' values. */
function offerValues(
  o: Pick<OfferRow, 'base_pay' | 'salary_period' | 'currency' | 'start_date' | 'expires_on' | 'bonus' | 'equity' | 'benefits'>,
) {
  return {
    base_pay: money(o.base_pay),
    pay_period: PERIOD_WORD[o.salary_period],
    currency: o.currency,
    start_date: longDate(o.start_date),
    expiry_date: longDate(o.expires_on),
    bonus: o.bonus || 'None',
    equity: o.equity || 'None',
    benefits: o.benefits || 'None',
  };
}

/** The letter with every variable filled in (values escaped, the result sanitised again). */
function filledLetter(config: Deps['config'], offer: OfferRow, to: EmailRecipient, senderName: string): string {
  const values = { ...applicantValues(config, to, oneLine(senderName)), ...offerValues(offer) };
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)]));
  return sanitizeRichText(fillVariables(offer.letter, escaped));
}

/** A letter as HR sent it: sanitised, its variables known, not empty. */
function cleanLetter(raw: string): string {
  const clean = sanitizeRichText(raw);
  if (!clean) throw new ValidationError({ letter: [M.letterEmpty] });
  const unknown = unknownVariables(clean, LETTER_VARIABLES);
  if (unknown.length) throw new ValidationError({ letter: [M.unknownVariables(unknown)] });
  return clean;
}

/** The expiry must be today or later and neither date too far ahead. */
function checkDates(input: Partial<OfferInput>, now: Date): void {
  const today = dayOf(now);
  const last = dayOf(new Date(now.getTime() + OFFER_LIMITS.days * 86_400_000));
  const errors: Record<string, string[]> = {};
  if (input.expires_on !== undefined) {
    if (input.expires_on < today) errors.expires_on = [M.expiryPast];
    else if (input.expires_on > last) errors.expires_on = [M.tooFar];
  }
  if (input.start_date !== undefined && input.start_date > last) errors.start_date = [M.tooFar];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function recipientOf(db: Db, applicationId: number): Promise<EmailRecipient> {
  const [to] = await emailRecipients(db, [applicationId]);
  if (!to) throw new NotFound(M.applicationNotFound);
  return to;
}

async function requireOffer(db: Db, id: number): Promise<OfferRow> {
  const offer = await findOffer(db, id);
  if (!offer) throw new NotFound(M.notFound);
  return offer;
}

/** Whether the offer's pay is inside its job's range (null: no range in that currency). */
function inRange(job: JobFacts | null, o: Pick<OfferRow, 'base_pay' | 'salary_period' | 'currency'>): boolean | null {
  if (!job) return null;
  return payInRange(job, { amount: o.base_pay, period: o.salary_period, currency: o.currency });
}

/** Who is asked now: in ORDER the first undecided approver; in ANY every undecided one. */
function askedNow(offer: OfferRow, approvals: ApprovalRow[]): ApprovalRow[] {
  if (offer.status !== 'pending_approval') return [];
  const pending = approvals.filter((a) => a.decision === 'PENDING');
  return offer.approval_mode === 'ORDER' ? pending.slice(0, 1) : pending;
}

/** The offer as the API answers it, for `viewer`. */
async function present(deps: Pick<Deps, 'db'>, offer: OfferRow, viewer: Viewer | null): Promise<Offer> {
  const [approvals, job] = await Promise.all([approvalsOf(deps.db, offer.id, offer.version), jobFacts(deps.db, offer.job_id)]);
  const users = await hrUsers(
    deps.db,
    approvals.map((a) => a.approver_id),
  );
  const asked = new Set(askedNow(offer, approvals).map((a) => a.id));
  const shown: OfferApproval[] = approvals.map((a) => ({
    id: a.id,
    position: a.position,
    approver_id: a.approver_id,
    approver: users.get(a.approver_id)?.username ?? '',
    decision: a.decision,
    comment: a.comment,
    asked: asked.has(a.id),
    decided_at: a.decided_at?.toISOString() ?? null,
  }));
  return {
    id: offer.id,
    application_id: offer.application_id,
    job_id: offer.job_id,
    status: offer.status,
    status_label: OFFER_STATUS_LABELS[offer.status],
    version: offer.version,
    base_pay: offer.base_pay,
    salary_period: offer.salary_period,
    currency: offer.currency,
    start_date: offer.start_date,
    expires_on: offer.expires_on,
    bonus: offer.bonus,
    equity: offer.equity,
    benefits: offer.benefits,
    template_id: offer.template_id,
    letter: offer.letter,
    approval_needed: offer.approval_needed,
    in_range: inRange(job, offer),
    rejection_comment: offer.rejection_comment,
    approvals: shown,
    can_decide: !!viewer && shown.some((a) => a.asked && a.approver_id === viewer.userId),
    sent_at: offer.sent_at?.toISOString() ?? null,
    decided_at: offer.decided_at?.toISOString() ?? null,
    signed_name: offer.signed_name,
    pdf_sha256: offer.pdf_sha256,
    decline_reason: offer.decline_reason,
    withdraw_reason: offer.withdraw_reason,
    created_at: offer.created_at.toISOString(),
    updated_at: offer.updated_at.toISOString(),
  };
}

/**
 * Who sees offers (issue 34): admins and recruiters (every job is theirs, as the access gate has
 * it) and, of the other roles the gate lets through, only a hiring manager who is on the job's team
 * as its hiring manager or a recruiter; another team role (a coordinator, an interviewer) gets 403.
 * An unknown application or offer is left to the route (404).
 */
export async function assertSeesOffers(db: Db, viewer: Viewer, by: { applicationId: number } | { offerId: number }): Promise<void> {
  if (viewer.role === 'admin' || viewer.role === 'recruiter') return;
  const jobId = 'offerId' in by ? (await findOffer(db, by.offerId))?.job_id : (await jobOfApplication(db, by.applicationId))?.id;
  if (jobId === undefined) return;
  if (viewer.role !== 'hiring_manager' || !(await onOfferTeam(db, jobId, viewer.userId))) throw new Forbidden(M.offersHidden);
}

/** An application's offers, newest first: a list as every list answers (DESIGN.md), on one page (an application has few). */
export async function listOffers(
  deps: Pick<Deps, 'db'>,
  applicationId: number,
  viewer: Viewer,
): Promise<{ count: number; next: null; previous: null; results: Offer[] }> {
  if (!(await jobOfApplication(deps.db, applicationId))) throw new NotFound(M.applicationNotFound);
  const rows = await offersOfApplication(deps.db, applicationId);
  const results = await Promise.all(rows.map((o) => present(deps, o, viewer)));
  return { count: results.length, next: null, previous: null, results };
}

export async function getOffer(deps: Pick<Deps, 'db'>, id: number, viewer: Viewer): Promise<Offer> {
  return present(deps, await requireOffer(deps.db, id), viewer);
}

/** A new draft offer on the application; its letter is the template's (the default one unless named) unless written. */
/** One line on the application's timeline (applicants' audit entries), by `userId` (null: the candidate or the system). */
const onTimeline = (trx: Db, applicationId: number, userId: number | null, action: string, details: Record<string, unknown>, now: Date) =>
  insertApplicationAudit(trx, [{ userId, action, entityId: applicationId, details }], now);

export async function createOffer(deps: Deps, applicationId: number, input: Partial<OfferInput>, viewer: Viewer): Promise<Offer> {
  const job = await jobOfApplication(deps.db, applicationId);
  if (!job) throw new NotFound(M.applicationNotFound);
  const full = input as OfferInput;
  const now = deps.now();
  checkDates(full, now);
  const template = full.template_id === null ? await defaultTemplate(deps.db) : await findTemplate(deps.db, full.template_id);
  if (full.template_id !== null && !template) throw new ValidationError({ template_id: [M.templateNotFound] });
  const letter = cleanLetter(full.letter ?? template?.body ?? '');
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      // Two offers made at once for one application: the application's row lock (MySQL) lets one through; SQLite writes one at a time.
      await lockApplication(trx, applicationId);
      if (await hasOpenOffer(trx, applicationId)) throw conflict(M.openOffer);
      const { template_id: _t, letter: _l, ...terms } = full;
      const offerId = await insertOffer(
        trx,
        { ...terms, application_id: applicationId, job_id: job.id, template_id: template?.id ?? null, letter, created_by: viewer.userId },
        now,
      );
      await onTimeline(
        trx,
        applicationId,
        viewer.userId,
        'offer_created',
        {
          text: `Offer drafted: ${money(full.base_pay)} ${full.currency} per ${PERIOD_WORD[full.salary_period]}`,
          offer_id: offerId,
        },
        now,
      );
      return offerId;
    }),
  );
  return getOffer(deps, id, viewer);
}

const TERM_FIELDS = ['base_pay', 'salary_period', 'currency', 'start_date', 'expires_on', 'bonus', 'equity', 'benefits', 'letter'] as const;

/**
 * Changes the offer's terms or letter (draft, pending approval or approved). When a submitted
 * offer changes, it gets a new version and its approval starts again (as a submission does).
 */
export async function changeOffer(deps: Deps, id: number, input: Partial<OfferInput>, viewer: Viewer): Promise<Offer> {
  const offer = await requireOffer(deps.db, id);
  if (!EDITABLE_STATUSES.includes(offer.status)) throw conflict(M.notEditable(OFFER_STATUS_LABELS[offer.status].toLowerCase()));
  const now = deps.now();
  checkDates(input, now);
  const changes: Partial<Pick<OfferRow, (typeof TERM_FIELDS)[number] | 'template_id'>> = {};
  if (input.template_id !== undefined && input.template_id !== null) {
    const template = await findTemplate(deps.db, input.template_id);
    if (!template) throw new ValidationError({ template_id: [M.templateNotFound] });
    changes.template_id = template.id;
    if (input.letter === undefined || input.letter === null) changes.letter = cleanLetter(template.body);
  }
  if (input.letter !== undefined && input.letter !== null) changes.letter = cleanLetter(input.letter);
  for (const k of TERM_FIELDS) {
    if (k === 'letter') continue;
    const v = input[k];
    if (v !== undefined && v !== null) (changes as Record<string, unknown>)[k] = v;
  }
  const changed = TERM_FIELDS.filter((k) => changes[k] !== undefined && changes[k] !== offer[k]);
  if (!changed.length && changes.template_id === undefined) return present(deps, offer, viewer);
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const current = await findOffer(trx, id, true);
      if (!current || !EDITABLE_STATUSES.includes(current.status))
        throw conflict(M.notEditable(OFFER_STATUS_LABELS[current?.status ?? offer.status].toLowerCase()));
      if (current.version !== offer.version) throw conflict(M.changedMeanwhile);
      const restart = current.status !== 'draft' && changed.length > 0;
      const version = current.version + 1;
      if (!(await updateOffer(trx, id, { version: current.version }, { ...changes, version }, now))) throw conflict(M.changedMeanwhile);
      await onTimeline(
        trx,
        current.application_id,
        viewer.userId,
        'offer_changed',
        {
          text: `Offer changed (${changed.join(', ') || 'template'})${restart ? ': its approval starts again' : ''}`,
          offer_id: id,
          fields: changed,
        },
        now,
      );
      if (restart) {
        await closePendingApprovals(trx, id);
        await startApproval(deps, trx, { ...current, ...changes, version } as OfferRow, viewer, now, true);
      }
    }),
  );
  deps.outbox.notify();
  return getOffer(deps, id, viewer);
}

/** The chain that applies to the job: its own, else the default one (one approval by any admin if even that is gone). */
async function chainOf(db: Db, jobId: number): Promise<ChainRow> {
  return (
    (await findChain(db, jobId)) ??
    (await findChain(db, null)) ?? { job_id: null, mode: 'ANY', required: 1, approver_ids: null, only_out_of_range: false }
  );
}

/** Roles that may approve offers (interviewers never see them). */
const APPROVER_ROLES = ['admin', 'recruiter', 'hiring_manager'];

/** The chain's approvers who can approve now: active, of a role that sees offers; "any admin" is every active admin. */
async function approversOf(db: Db, chain: ChainRow): Promise<HrUser[]> {
  const ids = chain.approver_ids ?? (await activeAdminIds(db));
  const users = await hrUsers(db, ids);
  return ids.map((i) => users.get(i)).filter((u): u is HrUser => !!u && u.is_active && APPROVER_ROLES.includes(u.role));
}

/**
 * Submits the offer (in the caller's transaction): approved at once when its chain needs no
 * approval for it, else pending approval with its approvers' rows, the first ones asked by email.
 */
async function startApproval(deps: Deps, trx: Db, offer: OfferRow, viewer: Viewer, now: Date, restart: boolean): Promise<void> {
  const [chain, job] = await Promise.all([chainOf(trx, offer.job_id), jobFacts(trx, offer.job_id)]);
  const range = inRange(job, offer);
  const needed = !(chain.only_out_of_range && range === true);
  if (!needed) {
    await updateOffer(
      trx,
      offer.id,
      { version: offer.version },
      { status: 'approved', approval_needed: false, approval_mode: null, approvals_required: 0, rejection_comment: '' },
      now,
    );
    await onTimeline(
      trx,
      offer.application_id,
      viewer.userId,
      'offer_approved',
      { text: "Offer approved without an approval: its pay is inside the job's range", offer_id: offer.id },
      now,
    );
    return;
  }
  const approvers = await approversOf(trx, chain);
  const required = chain.mode === 'ORDER' ? approvers.length : chain.required;
  if (!approvers.length || approvers.length < required) throw conflict(M.noApprovers);
  await updateOffer(
    trx,
    offer.id,
    { version: offer.version },
    { status: 'pending_approval', approval_needed: true, approval_mode: chain.mode, approvals_required: required, rejection_comment: '' },
    now,
  );
  await insertApprovals(
    trx,
    offer.id,
    offer.version,
    approvers.map((a) => a.id),
    now,
  );
  const names = approvers.map((a) => a.username).join(', ');
  await onTimeline(
    trx,
    offer.application_id,
    viewer.userId,
    'offer_submitted',
    {
      text: `Offer ${restart ? 'resubmitted' : 'submitted'} for approval (${chain.mode === 'ORDER' ? `in order: ${names}` : `${required} of ${names}`})`,
      offer_id: offer.id,
    },
    now,
  );
  const fresh = { ...offer, status: 'pending_approval' as const, approval_mode: chain.mode };
  await askApprovers(deps, trx, fresh, askedNow(fresh, await approvalsOf(trx, offer.id, offer.version)), now);
}

/** Gives each newly asked approver their link, and emails it to those with an address (when email is on). */
async function askApprovers(deps: Deps, trx: Db, offer: OfferRow, asked: ApprovalRow[], now: Date): Promise<void> {
  const fresh = asked.filter((a) => !a.asked_at);
  if (!fresh.length) return;
  const [users, to] = await Promise.all([
    hrUsers(
      trx,
      fresh.map((a) => a.approver_id),
    ),
    recipientOf(trx, offer.application_id),
  ]);
  const emails: { template: string; message: { to: string; subject: string; text: string; html: string } }[] = [];
  for (const a of fresh) {
    const token = newToken();
    await askApproval(trx, a.id, sha256(token), now);
    const user = users.get(a.approver_id);
    if (!deps.config.mail.smtpUrl || !user?.email) continue;
    const candidate = oneLine(`${to.first_name} ${to.last_name}`);
    const link = `${baseUrl(deps)}/offer-approvals/${token}`;
    const text = [
      `Hello ${oneLine(user.username)},`,
      `An offer to ${candidate} for ${oneLine(to.job_title)} waits for your approval: ${money(offer.base_pay)} ${offer.currency} per ${PERIOD_WORD[offer.salary_period]}, starting ${longDate(offer.start_date)}.`,
      `Approve or reject it with a comment here (no sign-in needed; the link works for ${APPROVAL_LINK_DAYS} days and once):\n${link}`,
      `Or in the app: ${baseUrl(deps)}/hr/applicants/${offer.application_id}`,
    ].join('\n\n');
    emails.push({
      template: 'offer_approval_request',
      message: { to: user.email, subject: `Offer to approve: ${candidate} for ${oneLine(to.job_title)}`, text, html: htmlOfText(text) },
    });
  }
  await enqueueEmails(trx, null, emails, now);
}

/** Sends a draft offer to its approval (or approves it at once when none is needed). */
export async function submitOffer(deps: Deps, id: number, viewer: Viewer): Promise<Offer> {
  const offer = await requireOffer(deps.db, id);
  if (offer.status !== 'draft') throw conflict(M.notDraft);
  const now = deps.now();
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const current = await findOffer(trx, id, true);
      if (current?.status !== 'draft' || current.version !== offer.version) throw conflict(M.notDraft);
      // A new version: the approvals of an earlier submission (rejected) stay with theirs.
      const version = current.version + 1;
      await updateOffer(trx, id, { version: current.version }, { version }, now);
      await startApproval(deps, trx, { ...current, version }, viewer, now, false);
    }),
  );
  deps.outbox.notify();
  return getOffer(deps, id, viewer);
}

/**
 * Records one approver's decision on the offer's current version (in a transaction): a rejection
 * sends the offer back to draft with the comment; an approval asks the next approver (ORDER) or,
 * with enough approvals, approves the offer.
 */
async function recordDecision(
  deps: Deps,
  offerId: number,
  approvalId: number,
  approve: boolean,
  comment: string,
  now: Date,
): Promise<void> {
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const offer = await findOffer(trx, offerId, true);
      if (offer?.status !== 'pending_approval') throw conflict(M.notPending);
      const approvals = await approvalsOf(trx, offerId, offer.version);
      const mine = askedNow(offer, approvals).find((a) => a.id === approvalId);
      if (!mine) throw new Forbidden(M.notApprover);
      if (!(await decideApprovalRow(trx, approvalId, approve ? 'APPROVED' : 'REJECTED', comment, now))) throw conflict(M.notPending);
      const users = await hrUsers(trx, [mine.approver_id]);
      const by = users.get(mine.approver_id)?.username ?? 'An approver';
      await onTimeline(
        trx,
        offer.application_id,
        mine.approver_id,
        approve ? 'offer_approval_given' : 'offer_rejected',
        { text: `Offer ${approve ? 'approved' : 'rejected'} by ${by}${comment ? `: ${comment}` : ''}`, offer_id: offerId },
        now,
      );
      if (!approve) {
        await closePendingApprovals(trx, offerId);
        await updateOffer(trx, offerId, { version: offer.version }, { status: 'draft', rejection_comment: comment }, now);
        await tellCreator(
          deps,
          trx,
          offer,
          `Offer rejected by ${by}`,
          `${by} rejected the offer.${comment ? `\n\nComment:\n${comment}` : ''}`,
          now,
        );
        return;
      }
      const after = approvals.map((a) => (a.id === approvalId ? { ...a, decision: 'APPROVED' as const } : a));
      const approved = after.filter((a) => a.decision === 'APPROVED').length;
      if (approved >= (offer.approvals_required ?? 1)) {
        await closePendingApprovals(trx, offerId);
        await updateOffer(trx, offerId, { version: offer.version }, { status: 'approved' }, now);
        await onTimeline(
          trx,
          offer.application_id,
          null,
          'offer_approved',
          { text: 'Offer approved: it can be sent', offer_id: offerId },
          now,
        );
        await tellCreator(deps, trx, offer, 'Offer approved', 'The offer was approved and can be sent to the candidate.', now);
      } else await askApprovers(deps, trx, offer, askedNow(offer, after), now);
    }),
  );
  deps.outbox.notify();
}

/** Emails whoever made the offer about it (when email is on and they have an address). */
async function tellCreator(deps: Deps, trx: Db, offer: OfferRow, subject: string, body: string, now: Date): Promise<void> {
  if (!deps.config.mail.smtpUrl || offer.created_by === null) return;
  const user = (await hrUsers(trx, [offer.created_by])).get(offer.created_by);
  if (!user?.email) return;
  const to = await recipientOf(trx, offer.application_id);
  const text = `${body}\n\n${baseUrl(deps)}/hr/applicants/${offer.application_id}`;
  await enqueueEmails(
    trx,
    null,
    [
      {
        template: 'offer_news',
        message: { to: user.email, subject: `${subject}: ${oneLine(`${to.first_name} ${to.last_name}`)}`, text, html: htmlOfText(text) },
      },
    ],
    now,
  );
}

/** An approver's decision in the app. */
export async function decideOffer(deps: Deps, id: number, approve: boolean, comment: string, viewer: Viewer): Promise<Offer> {
  const offer = await requireOffer(deps.db, id);
  if (offer.status !== 'pending_approval') throw conflict(M.notPending);
  const mine = askedNow(offer, await approvalsOf(deps.db, id, offer.version)).find((a) => a.approver_id === viewer.userId);
  if (!mine) throw new Forbidden(M.notApprover);
  await recordDecision(deps, id, mine.id, approve, comment, deps.now());
  return getOffer(deps, id, viewer);
}

/** What the approver's link page shows. */
export interface ApprovalView {
  approver: string;
  candidate: string;
  jobTitle: string;
  company: string;
  terms: [string, string][];
  letter: string[];
  inRange: boolean | null;
}

async function liveApproval(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<{ approval: ApprovalRow; offer: OfferRow }> {
  if (!TOKEN_PATTERN.test(token)) throw new NotFound(M.approvalLinkNotFound);
  const approval = await findApprovalByToken(deps.db, sha256(token));
  if (!approval) throw gone(M.approvalLinkDone);
  const offer = await findOffer(deps.db, approval.offer_id);
  const expired = !approval.asked_at || approval.asked_at.getTime() + APPROVAL_LINK_DAYS * 86_400_000 <= deps.now().getTime();
  if (offer?.status !== 'pending_approval' || offer.version !== approval.version || expired) throw gone(M.approvalLinkDone);
  return { approval, offer };
}

function termsOf(o: OfferRow): [string, string][] {
  return [
    ['Base pay', `${money(o.base_pay)} ${o.currency} per ${PERIOD_WORD[o.salary_period]}`],
    ['Start date', longDate(o.start_date)],
    ['Offer open until', longDate(o.expires_on)],
    ['Bonus', o.bonus],
    ['Equity', o.equity],
    ['Benefits', o.benefits],
  ];
}

export async function approvalView(deps: Deps, token: string): Promise<ApprovalView> {
  const { approval, offer } = await liveApproval(deps, token);
  const [to, users, job] = await Promise.all([
    recipientOf(deps.db, offer.application_id),
    hrUsers(deps.db, [approval.approver_id, offer.created_by ?? approval.approver_id]),
    jobFacts(deps.db, offer.job_id),
  ]);
  const sender = users.get(offer.created_by ?? -1)?.username ?? '';
  return {
    approver: users.get(approval.approver_id)?.username ?? '',
    candidate: `${to.first_name} ${to.last_name}`,
    jobTitle: to.job_title,
    company: deps.config.company.name,
    terms: termsOf(offer),
    letter: letterText(filledLetter(deps.config, offer, to, sender)),
    inRange: inRange(job, offer),
  };
}

/** An approver's decision by their link; the link dies with it. */
export async function decideByLink(deps: Deps, token: string, approve: boolean, comment: string): Promise<void> {
  const { approval, offer } = await liveApproval(deps, token);
  await recordDecision(deps, offer.id, approval.id, approve, comment, deps.now());
}

/** The letter's PDF of the offer as it stands. */
async function renderPdf(deps: Pick<Deps, 'db' | 'config'>, offer: OfferRow, senderId: number | null): Promise<Buffer> {
  const to = await recipientOf(deps.db, offer.application_id);
  const sender = senderId === null ? '' : ((await hrUsers(deps.db, [senderId])).get(senderId)?.username ?? '');
  return renderLetterPdf(
    {
      company: deps.config.company.name,
      heading: 'Offer of employment',
      subtitle: `${to.first_name} ${to.last_name}, ${to.job_title}`,
      letter: filledLetter(deps.config, offer, to, sender),
      terms: termsOf(offer),
      footer: `${deps.config.company.name} - offer ${offer.id}, version ${offer.version}`,
    },
    deps.config.offerPdfFonts,
  );
}

async function readAll(deps: Pick<Deps, 'storage'>, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await deps.storage.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function store(deps: Pick<Deps, 'storage'>, data: Buffer): Promise<string> {
  const key = deps.storage.newKey();
  await deps.storage.write(key, Readable.from([data]));
  return key;
}

/** The offer's letter stored as a PDF with its SHA-256 (the benchmark's unit of work, bench/offer-pdf.ts). */
export async function renderAndStorePdf(deps: Pick<Deps, 'db' | 'config' | 'storage'>, offer: OfferRow, senderId: number | null) {
  const pdf = await renderPdf(deps, offer, senderId);
  return { key: await store(deps, pdf), sha256: sha256(pdf), bytes: pdf.length };
}

/** The job's webhook event, in the caller's transaction; answers whether one was queued. */
async function offerEvent(trx: Db, offer: OfferRow, event: Record<string, unknown> & { event: string }, now: Date): Promise<boolean> {
  const webhook = await jobWebhookUrl(trx, offer.job_id);
  if (!webhook) return false;
  await enqueueApplicationEvent(trx, { applicationId: offer.application_id, jobId: offer.job_id, targetUrl: webhook, event, now });
  return true;
}

/** The accepted offer's data for an HR system to take over. */
function offerPayload(o: OfferRow, to: EmailRecipient) {
  return {
    offer_id: o.id,
    application_id: o.application_id,
    job_id: o.job_id,
    job_title: to.job_title,
    candidate: { first_name: to.first_name, last_name: to.last_name, email: to.email },
    base_pay: o.base_pay,
    salary_period: o.salary_period,
    currency: o.currency,
    start_date: o.start_date,
    expires_on: o.expires_on,
    bonus: o.bonus,
    equity: o.equity,
    benefits: o.benefits,
  };
}

/** Sends an approved offer: its PDF stored, the candidate's link emailed, `offer.sent` posted. */
export async function sendOffer(deps: Deps, id: number, viewer: Viewer): Promise<Offer> {
  const offer = await requireOffer(deps.db, id);
  if (offer.status !== 'approved') throw conflict(M.notApproved);
  const now = deps.now();
  if (offer.expires_on < dayOf(now)) throw conflict(M.expiredBeforeSend);
  if (!deps.config.mail.smtpUrl) throw conflict(M.noEmail);
  const to = await recipientOf(deps.db, offer.application_id);
  const sender = (await hrUsers(deps.db, [viewer.userId])).get(viewer.userId);
  const pdf = await renderAndStorePdf(deps, offer, viewer.userId);
  const token = newToken();
  const link = `${baseUrl(deps)}/offer/${token}`;
  const company = oneLine(deps.config.company.name);
  const text = [
    `Dear ${oneLine(to.first_name)} ${oneLine(to.last_name)},`,
    `${company} is pleased to offer you the position of ${oneLine(to.job_title)}.`,
    `Read your offer letter, and accept it by signing with your full name or decline it, here:\n${link}`,
    `The offer is open until ${longDate(offer.expires_on)}. The link is for you only.`,
    sender ? `${oneLine(sender.username)}\n${company}` : company,
  ].join('\n\n');
  try {
    await withDbRetry(() =>
      deps.db.transaction(async (trx) => {
        const ok = await updateOffer(
          trx,
          id,
          { version: offer.version, statuses: ['approved'] },
          { status: 'sent', token_hash: sha256(token), pdf_key: pdf.key, pdf_sha256: pdf.sha256, sent_by: viewer.userId, sent_at: now },
          now,
        );
        if (!ok) throw conflict(M.notApproved);
        await insertPdfRecord(trx, { key: pdf.key, name: `offer-${id}.pdf`, size: pdf.bytes, sha256: pdf.sha256 }, now);
        await enqueueSentEmail(
          trx,
          {
            applicationId: offer.application_id,
            message: { to: to.email, subject: `Your offer from ${company}: ${oneLine(to.job_title)}`, text, html: htmlOfText(text) },
            sender: { sentBy: viewer.userId, templateId: null, templateName: 'Offer' },
          },
          now,
        );
        await onTimeline(
          trx,
          offer.application_id,
          viewer.userId,
          'offer_sent',
          { text: `Offer sent to the candidate (open until ${longDate(offer.expires_on)})`, offer_id: id },
          now,
        );
        await offerEvent(trx, offer, { event: 'offer.sent', ...offerPayload(offer, to), status: 'sent', sent_at: now.toISOString() }, now);
      }),
    );
  } catch (err) {
    await deps.storage.remove(pdf.key).catch(() => undefined);
    throw err;
  }
  deps.outbox.notify();
  return getOffer(deps, id, viewer);
}

/** Withdraws an offer not yet answered; its links die (the candidate's page says it was withdrawn). */
export async function withdrawOffer(deps: Deps, id: number, reason: string, viewer: Viewer): Promise<Offer> {
  const offer = await requireOffer(deps.db, id);
  if (!WITHDRAWABLE_STATUSES.includes(offer.status)) throw conflict(M.notWithdrawable(OFFER_STATUS_LABELS[offer.status].toLowerCase()));
  const now = deps.now();
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      if (!(await updateOffer(trx, id, { statuses: WITHDRAWABLE_STATUSES }, { status: 'withdrawn', withdraw_reason: reason }, now)))
        throw conflict(M.notWithdrawable('answered'));
      await closePendingApprovals(trx, id);
      await onTimeline(
        trx,
        offer.application_id,
        viewer.userId,
        'offer_withdrawn',
        { text: `Offer withdrawn${reason ? `: ${reason}` : ''}`, offer_id: id },
        now,
      );
    }),
  );
  return getOffer(deps, id, viewer);
}

/** The offer's PDF for HR: the signed one once accepted, the one sent once sent, else rendered now. */
export async function offerPdf(deps: Deps, id: number): Promise<Download> {
  const offer = await requireOffer(deps.db, id);
  const name = `offer-${offer.id}${offer.signed_pdf_key ? '-signed' : ''}.pdf`;
  const key = offer.signed_pdf_key ?? offer.pdf_key;
  // A storage that cannot be reached is a 503 (unavailableOr); a file that is gone, a 404.
  const data = key
    ? await readAll(deps, key).catch((err) => {
        throw unavailableOr(err, new NotFound(M.pdfMissing));
      })
    : await renderPdf(deps, offer, offer.created_by);
  return { name, contentType: 'application/pdf', size: data.length, stream: Readable.from([data]) };
}

// The candidate's page

/** What the candidate's page shows. */
export interface CandidateView {
  offer: OfferRow;
  status: OfferStatus;
  candidate: string;
  jobTitle: string;
  company: string;
  terms: [string, string][];
  letter: string[];
}

async function offerOfToken(deps: Pick<Deps, 'db'>, token: string): Promise<OfferRow> {
  if (!TOKEN_PATTERN.test(token)) throw new NotFound(M.linkNotFound);
  const offer = await findOfferByToken(deps.db, sha256(token));
  if (!offer) throw new NotFound(M.linkNotFound);
  return offer;
}

/** 410 with the plain reason when the offer can no longer be signed: withdrawn or expired. */
function assertSignable(offer: OfferRow, now: Date): void {
  if (offer.status === 'withdrawn') throw gone(M.withdrawn);
  if (offer.status === 'expired' || (offer.status === 'sent' && offer.expires_on < dayOf(now)))
    throw gone(M.expired(longDate(offer.expires_on)));
}

export async function candidateView(deps: Deps, token: string): Promise<CandidateView> {
  const offer = await offerOfToken(deps, token);
  assertSignable(offer, deps.now());
  const to = await recipientOf(deps.db, offer.application_id);
  const sender = offer.sent_by === null ? '' : ((await hrUsers(deps.db, [offer.sent_by])).get(offer.sent_by)?.username ?? '');
  return {
    offer,
    status: offer.status,
    candidate: `${to.first_name} ${to.last_name}`,
    jobTitle: to.job_title,
    company: deps.config.company.name,
    terms: termsOf(offer),
    letter: letterText(filledLetter(deps.config, offer, to, sender)),
  };
}

/** The PDF the candidate was shown (or, once they signed, the signed one). */
export async function candidatePdf(deps: Deps, token: string): Promise<Download> {
  const offer = await offerOfToken(deps, token);
  assertSignable(offer, deps.now());
  const key = offer.signed_pdf_key ?? offer.pdf_key;
  if (!key) throw new NotFound(M.pdfMissing);
  const data = await readAll(deps, key).catch((err) => {
    throw unavailableOr(err, new NotFound(M.pdfMissing));
  });
  return {
    name: `offer-${oneLine(deps.config.company.name)}${offer.signed_pdf_key ? '-signed' : ''}.pdf`,
    contentType: 'application/pdf',
    size: data.length,
    stream: Readable.from([data]),
  };
}

/** Why an offer cannot be answered now (409), or null. */
function answeredProblem(offer: OfferRow): string | null {
  if (offer.status === 'accepted') return M.alreadyAccepted;
  if (offer.status === 'declined') return M.alreadyDeclined;
  return offer.status === 'sent' ? null : M.linkNotFound;
}

/**
 * The candidate accepts with their typed name: the PDF shown is read back and its SHA-256 checked,
 * the signature page appended and stored, and the acceptance written (guarded: one answer only).
 */
export async function acceptOffer(deps: Deps, token: string, fullName: string, ip: string | null | undefined): Promise<void> {
  const offer = await offerOfToken(deps, token);
  const now = deps.now();
  assertSignable(offer, now);
  const problem = answeredProblem(offer);
  if (problem) throw conflict(problem);
  const shown = await readAll(deps, offer.pdf_key!);
  const shownSha = sha256(shown);
  if (shownSha !== offer.pdf_sha256) throw new Error(`offer ${offer.id}: the stored PDF no longer matches its SHA-256`);
  const hash = await addressHash(deps.serverKey, ip, 'offer-signature');
  const signed = await appendSignaturePage(
    shown,
    {
      company: deps.config.company.name,
      offerLabel: `offer ${offer.id} (version ${offer.version})`,
      signedName: fullName,
      signedAt: now,
      addressHash: hash,
      pdfSha256: shownSha,
    },
    deps.config.offerPdfFonts,
  );
  const key = await store(deps, signed);
  const to = await recipientOf(deps.db, offer.application_id);
  try {
    await withDbRetry(() =>
      deps.db.transaction(async (trx) => {
        const ok = await updateOffer(
          trx,
          offer.id,
          { statuses: ['sent'] },
          { status: 'accepted', signed_name: fullName, signer_address_hash: hash, signed_pdf_key: key, decided_at: now },
          now,
        );
        if (!ok) {
          const current = await findOffer(trx, offer.id);
          throw conflict((current && answeredProblem(current)) ?? M.linkNotFound);
        }
        await insertPdfRecord(trx, { key, name: `offer-${offer.id}-signed.pdf`, size: signed.length, sha256: sha256(signed) }, now);
        await onTimeline(
          trx,
          offer.application_id,
          null,
          'offer_accepted',
          { text: `Offer accepted: signed by ${oneLine(fullName)}`, offer_id: offer.id },
          now,
        );
        await offerEvent(
          trx,
          offer,
          {
            event: 'offer.accepted',
            ...offerPayload(offer, to),
            status: 'accepted',
            sent_at: offer.sent_at?.toISOString() ?? null,
            accepted_at: now.toISOString(),
            signed_name: fullName,
            pdf_sha256: shownSha,
          },
          now,
        );
        await tellCreator(deps, trx, offer, 'Offer accepted', `The candidate accepted the offer, signed "${oneLine(fullName)}".`, now);
        // The candidate's copy: where the signed offer is (the same link, which now offers the signed PDF).
        if (deps.config.mail.smtpUrl) {
          const company = oneLine(deps.config.company.name);
          const text = [
            `Dear ${oneLine(to.first_name)} ${oneLine(to.last_name)},`,
            `Thank you for accepting our offer for ${oneLine(to.job_title)}, signed "${oneLine(fullName)}" on ${now.toUTCString()}.`,
            `Your signed offer (PDF) is here:\n${baseUrl(deps)}/offer/${token}`,
            company,
          ].join('\n\n');
          await enqueueEmails(
            trx,
            offer.application_id,
            [
              {
                template: 'offer_signed',
                message: { to: to.email, subject: `Your signed offer from ${company}`, text, html: htmlOfText(text) },
              },
            ],
            now,
          );
        }
      }),
    );
  } catch (err) {
    await deps.storage.remove(key).catch(() => undefined);
    throw err;
  }
  deps.outbox.notify();
}

/** The candidate declines, with an optional reason. */
export async function declineOffer(deps: Deps, token: string, reason: string): Promise<void> {
  const offer = await offerOfToken(deps, token);
  const now = deps.now();
  assertSignable(offer, now);
  const problem = answeredProblem(offer);
  if (problem) throw conflict(problem);
  const to = await recipientOf(deps.db, offer.application_id);
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      if (
        !(await updateOffer(trx, offer.id, { statuses: ['sent'] }, { status: 'declined', decline_reason: reason, decided_at: now }, now))
      ) {
        const current = await findOffer(trx, offer.id);
        throw conflict((current && answeredProblem(current)) ?? M.linkNotFound);
      }
      await onTimeline(
        trx,
        offer.application_id,
        null,
        'offer_declined',
        { text: `Offer declined by the candidate${reason ? `: ${reason}` : ''}`, offer_id: offer.id },
        now,
      );
      await offerEvent(
        trx,
        offer,
        {
          event: 'offer.declined',
          offer_id: offer.id,
          application_id: offer.application_id,
          job_id: offer.job_id,
          job_title: to.job_title,
          status: 'declined',
          declined_at: now.toISOString(),
          reason,
        },
        now,
      );
      await tellCreator(
        deps,
        trx,
        offer,
        'Offer declined',
        `The candidate declined the offer.${reason ? `\n\nReason:\n${reason}` : ''}`,
        now,
      );
    }),
  );
  deps.outbox.notify();
}

/** The sweep's part (server cron, `careers-admin cron`): sent offers past their expiry date become expired. Answers how many. */
export async function expireOffers(deps: Pick<Deps, 'db' | 'now'>): Promise<number> {
  const now = deps.now();
  let n = 0;
  for (;;) {
    const due = await expiredSentOffers(deps.db, dayOf(now), 100);
    if (!due.length) return n;
    for (const offer of due) {
      await withDbRetry(() =>
        deps.db.transaction(async (trx) => {
          if (!(await updateOffer(trx, offer.id, { statuses: ['sent'] }, { status: 'expired' }, now))) return;
          n += 1;
          await onTimeline(
            trx,
            offer.application_id,
            null,
            'offer_expired',
            { text: `Offer expired unanswered (it was open until ${longDate(offer.expires_on)})`, offer_id: offer.id },
            now,
          );
        }),
      );
    }
  }
}

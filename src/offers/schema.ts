/**
 * The offers feature's inputs and messages (issue 34), Node-free (islands import the limits and
 * messages; schemas are built in functions, so an import of a constant bundles no zod):
 * - an offer (POST /api/hr/applications/{id}/offers/, PATCH /api/hr/offers/{id}/): its terms and letter;
 * - an offer template (POST/PUT /api/hr/offer-templates/);
 * - an approval chain (PUT /api/hr/offer-approval-chains/default/ and /{jobId}/);
 * - an approver's decision, a withdrawal, and the candidate's acceptance or decline.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import { SALARY_PERIODS, type SalaryPeriod } from '../shared/enums.js';
import { bool, choice, isBlank, isObject, isRowId, multilineText, oneLine, text } from '../shared/input-rules.js';
import { APPROVAL_MODES, type ApprovalMode } from './types.js';

export const OFFER_LIMITS = {
  pay: 999_999_999_999,
  terms: 1000,
  benefits: 2000,
  letter: 100_000,
  templateName: 100,
  comment: 1000,
  reason: 1000,
  signedName: 200,
  approvers: 20,
  templates: 100,
  /** The latest expiry and start dates: this many days ahead. */
  days: 730,
} as const;

export const OFFER_MESSAGES = {
  notObject: 'Expected a JSON object.',
  required: FIELD_MESSAGES.required,
  pay: 'Enter the base pay as a number greater than 0 with at most 2 decimals.',
  payMax: `Ensure this value is less than or equal to ${OFFER_LIMITS.pay}.`,
  currency: 'Enter a valid ISO 4217 currency code, such as USD.',
  date: 'Enter a date as YYYY-MM-DD.',
  expiryPast: 'The expiry date must be today or later.',
  tooFar: `Choose a date at most ${OFFER_LIMITS.days} days ahead.`,
  letterEmpty: 'The letter is empty: write it or choose a template.',
  unknownVariables: (names: string[]) => `Unknown variables: ${names.map((n) => `{${n}}`).join(', ')}.`,
  notFound: 'Offer not found.',
  offersHidden:
    "Offers are seen by admins, recruiters and the job's hiring manager and recruiters on its hiring team; you are on this job's team in another role.",
  applicationNotFound: 'Application not found.',
  templateNotFound: 'Offer template not found.',
  templateId: 'Choose an offer template by its id.',
  lastTemplate: 'This is the only offer template: add another before removing it.',
  tooManyTemplates: `There can be at most ${OFFER_LIMITS.templates} offer templates. Remove one first.`,
  jobNotFound: 'Job not found.',
  approverIds: 'Give a list of HR user ids, or null for any admin.',
  approverUnknown: 'No active HR user who may see offers has this id (an admin, a recruiter or a hiring manager).',
  approverDuplicate: 'Each approver may be named once.',
  approversOrder: 'An approval in order needs at least one approver.',
  tooManyApprovers: `Name at most ${OFFER_LIMITS.approvers} approvers.`,
  requiredCount: `Give how many approvals are needed: a whole number from 1 to ${OFFER_LIMITS.approvers}.`,
  requiredAbove: 'More approvals are needed than there are approvers.',
  commentRequired: 'Write why the offer is rejected, so whoever made it knows what to change.',
  signedName: 'Type your full name to sign.',
  signedNameMismatch: 'Type your full name as it appears on the offer.',
  notEditable: (status: string) => `An offer that is ${status} cannot be changed; withdraw it and make a new one if the terms must change.`,
  notDraft: 'Only a draft offer can be submitted for approval.',
  changedMeanwhile: 'The offer was changed meanwhile: reload it and try again.',
  notPending: 'This offer is not waiting for approval.',
  notApprover: 'You are not asked to approve this offer now.',
  notApproved: 'The offer cannot be sent until it is approved.',
  notWithdrawable: (status: string) => `An offer that is ${status} cannot be withdrawn.`,
  expiredBeforeSend: 'The offer expires before it could be answered: move its expiry date to today or later.',
  noEmail: 'Email is off (SMTP_URL is not set): the offer cannot be sent.',
  openOffer: 'This application already has an open offer: withdraw it before making another.',
  noApprovers: 'No one can approve this offer: the approval chain names no active HR user. Ask an admin to fix the approval chain.',
  pdfMissing: 'The PDF of this offer is missing.',
  linkNotFound: 'This offer link does not exist. Check that it was copied whole.',
  approvalLinkNotFound: 'This approval link does not exist. Check that it was copied whole.',
  approvalLinkDone:
    'This approval link no longer works: the decision was made, or the offer changed since it was sent (a new link goes out when the offer asks again).',
  withdrawn: 'This offer was withdrawn by the company and can no longer be signed. Please contact the recruiter who sent it.',
  expired: (date: string) =>
    `This offer expired on ${date} and can no longer be signed. Please contact the recruiter who sent it if you would still like to accept.`,
  alreadyAccepted: 'You have already accepted this offer; it cannot be signed again.',
  alreadyDeclined: 'You have declined this offer; it can no longer be signed.',
} as const;

/** The order of an offer's error keys. */
export const OFFER_ERROR_ORDER = [
  'detail',
  'base_pay',
  'salary_period',
  'currency',
  'start_date',
  'expires_on',
  'bonus',
  'equity',
  'benefits',
  'template_id',
  'letter',
  'name',
  'body',
  'mode',
  'required',
  'approver_ids',
  'only_out_of_range',
  'comment',
  'reason',
  'full_name',
] as const;

export interface OfferInput {
  base_pay: number;
  salary_period: SalaryPeriod;
  currency: string;
  start_date: string;
  expires_on: string;
  bonus: string;
  equity: string;
  benefits: string;
  template_id: number | null;
  /** The letter's HTML (sanitised by the service); null: the template's. */
  letter: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD that exists. */
function isDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** A pay figure: a number or a plain decimal string, > 0, at most 2 decimals; null when it is not. */
function payOf(v: unknown): number | null | 'max' {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,15}(?:\.\d{1,2})?$/.test(s)) return null;
  const n = Number(s);
  if (!(n > 0)) return null;
  return n > OFFER_LIMITS.pay ? 'max' : n;
}

const CURRENCY = /^[A-Z]{3}$/;

/** The ISO 4217 codes this runtime knows (all of them on Node 20), else the pattern alone. */
function isCurrency(v: unknown): v is string {
  if (typeof v !== 'string' || !CURRENCY.test(v)) return false;
  const known = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('currency');
  return !known || known.includes(v);
}

type Ctx = { issues: unknown[] };
const push = (ctx: Ctx, input: unknown, message: string, path: string) => ctx.issues.push(issue(input, message, [path]));

/** A string rule's output, or its messages pushed under `path`. */
function run<T>(
  ctx: Ctx,
  rule: { safeParse(v: unknown): { success: boolean; data?: T; error?: { issues: { message: string }[] } } },
  v: unknown,
  path: string,
): T | undefined {
  const r = rule.safeParse(v);
  if (r.success) return r.data as T;
  for (const i of r.error?.issues ?? []) push(ctx, v, i.message, path);
  return undefined;
}

/**
 * An offer's fields: all required on create (but bonus, equity, benefits, template_id, letter),
 * only those given on a change (`partial`). Unknown keys are ignored.
 */
export function offerSchema(partial: boolean) {
  return z.transform((v: unknown, ctx): Partial<OfferInput> => {
    const c = ctx as unknown as Ctx;
    if (!isObject(v)) {
      c.issues.push(issue(v, OFFER_MESSAGES.notObject));
      return {};
    }
    const out: Partial<OfferInput> = {};
    const given = (k: string) => !partial || k in v;
    const required = (k: string) => {
      if (isBlank(v[k])) {
        push(c, v[k], OFFER_MESSAGES.required, k);
        return false;
      }
      return true;
    };
    if (given('base_pay') && required('base_pay')) {
      const pay = payOf(v.base_pay);
      if (pay === null) push(c, v.base_pay, OFFER_MESSAGES.pay, 'base_pay');
      else if (pay === 'max') push(c, v.base_pay, OFFER_MESSAGES.payMax, 'base_pay');
      else out.base_pay = pay;
    }
    if (given('salary_period') && required('salary_period'))
      out.salary_period = run(c, choice(SALARY_PERIODS), v.salary_period, 'salary_period');
    if (given('currency') && required('currency')) {
      if (isCurrency(v.currency)) out.currency = v.currency;
      else push(c, v.currency, OFFER_MESSAGES.currency, 'currency');
    }
    for (const k of ['start_date', 'expires_on'] as const)
      if (given(k) && required(k)) {
        if (isDate(v[k])) out[k] = v[k];
        else push(c, v[k], OFFER_MESSAGES.date, k);
      }
    for (const k of ['bonus', 'equity'] as const) if (k in v) out[k] = run(c, multilineText(OFFER_LIMITS.terms), v[k], k);
    if ('benefits' in v) out.benefits = run(c, multilineText(OFFER_LIMITS.benefits), v.benefits, 'benefits');
    if ('template_id' in v) {
      if (isBlank(v.template_id)) out.template_id = null;
      else if (typeof v.template_id === 'number' && isRowId(v.template_id)) out.template_id = v.template_id;
      else push(c, v.template_id, OFFER_MESSAGES.templateId, 'template_id');
    }
    if ('letter' in v) {
      if (v.letter === null || v.letter === undefined) out.letter = null;
      else if (typeof v.letter !== 'string') push(c, v.letter, FIELD_MESSAGES.notText, 'letter');
      else if ([...v.letter].length > OFFER_LIMITS.letter) push(c, v.letter, FIELD_MESSAGES.tooLong(OFFER_LIMITS.letter), 'letter');
      else out.letter = v.letter.replace(/\u0000/g, '');
    }
    if (!partial) {
      out.bonus ??= '';
      out.equity ??= '';
      out.benefits ??= '';
      out.template_id ??= null;
      out.letter ??= null;
    }
    return out;
  });
}

export interface TemplateInput {
  name: string;
  body: string;
}

/** An offer template: a name and its HTML (sanitised by the service), whose variables must be `known`. */
export function templateSchema(known: readonly string[]) {
  return z.transform((v: unknown, ctx): TemplateInput => {
    const c = ctx as unknown as Ctx;
    if (!isObject(v)) {
      c.issues.push(issue(v, OFFER_MESSAGES.notObject));
      return { name: '', body: '' };
    }
    const name = run<string>(c, oneLine(OFFER_LIMITS.templateName, true), v.name, 'name') ?? '';
    let body = '';
    if (isBlank(v.body)) push(c, v.body, OFFER_MESSAGES.required, 'body');
    else if (typeof v.body !== 'string') push(c, v.body, FIELD_MESSAGES.notText, 'body');
    else if ([...v.body].length > OFFER_LIMITS.letter) push(c, v.body, FIELD_MESSAGES.tooLong(OFFER_LIMITS.letter), 'body');
    else {
      body = v.body.replace(/\u0000/g, '');
      const unknown = unknownVariables(body, known);
      if (unknown.length) push(c, v.body, OFFER_MESSAGES.unknownVariables(unknown), 'body');
    }
    return { name, body };
  });
}

const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variables used in `text` that are not `known`, each once. */
export function unknownVariables(text: string, known: readonly string[]): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]).filter((n) => !known.includes(n)))];
}

export interface ChainInput {
  mode: ApprovalMode;
  required: number;
  approver_ids: number[] | null;
  only_out_of_range: boolean;
}

/** An approval chain: in ORDER every approver named approves in turn; ANY: `required` of them (or of the admins, approver_ids null). */
export function chainSchema() {
  return z.transform((v: unknown, ctx): ChainInput => {
    const c = ctx as unknown as Ctx;
    const out: ChainInput = { mode: 'ANY', required: 1, approver_ids: null, only_out_of_range: false };
    if (!isObject(v)) {
      c.issues.push(issue(v, OFFER_MESSAGES.notObject));
      return out;
    }
    out.mode = run(c, choice(APPROVAL_MODES, 'ANY'), v.mode, 'mode') ?? 'ANY';
    out.only_out_of_range = run(c, bool(), v.only_out_of_range, 'only_out_of_range') ?? false;
    if (v.approver_ids !== undefined && v.approver_ids !== null) {
      if (!Array.isArray(v.approver_ids) || !v.approver_ids.every((id) => typeof id === 'number' && isRowId(id)))
        push(c, v.approver_ids, OFFER_MESSAGES.approverIds, 'approver_ids');
      else if (v.approver_ids.length > OFFER_LIMITS.approvers) push(c, v.approver_ids, OFFER_MESSAGES.tooManyApprovers, 'approver_ids');
      else if (new Set(v.approver_ids).size !== v.approver_ids.length)
        push(c, v.approver_ids, OFFER_MESSAGES.approverDuplicate, 'approver_ids');
      else out.approver_ids = v.approver_ids as number[];
    }
    if (out.mode === 'ORDER' && (out.approver_ids === null || !out.approver_ids.length) && !c.issues.length)
      push(c, v.approver_ids, OFFER_MESSAGES.approversOrder, 'approver_ids');
    const req = isBlank(v.required) ? 1 : v.required;
    if (typeof req !== 'number' || !Number.isInteger(req) || req < 1 || req > OFFER_LIMITS.approvers)
      push(c, v.required, OFFER_MESSAGES.requiredCount, 'required');
    else if (out.mode === 'ANY' && out.approver_ids && req > out.approver_ids.length)
      push(c, v.required, OFFER_MESSAGES.requiredAbove, 'required');
    else out.required = out.mode === 'ORDER' ? (out.approver_ids?.length ?? 1) : req;
    if (out.approver_ids?.length === 0) out.approver_ids = null;
    return out;
  });
}

/** An approver's decision: a comment, required to reject. */
export function decisionSchema(reject: boolean) {
  return z.transform((v: unknown, ctx): { comment: string } => {
    const c = ctx as unknown as Ctx;
    const body = v === undefined || v === null ? {} : v;
    if (!isObject(body)) {
      c.issues.push(issue(v, OFFER_MESSAGES.notObject));
      return { comment: '' };
    }
    const comment = run<string>(c, multilineText(OFFER_LIMITS.comment), body.comment, 'comment') ?? '';
    if (reject && !comment && !c.issues.length) push(c, body.comment, OFFER_MESSAGES.commentRequired, 'comment');
    return { comment };
  });
}

/** A withdrawal or a decline: an optional reason. */
export function reasonSchema() {
  return z.transform((v: unknown, ctx): { reason: string } => {
    const c = ctx as unknown as Ctx;
    const body = v === undefined || v === null ? {} : v;
    if (!isObject(body)) {
      c.issues.push(issue(v, OFFER_MESSAGES.notObject));
      return { reason: '' };
    }
    return { reason: run<string>(c, multilineText(OFFER_LIMITS.reason), body.reason, 'reason') ?? '' };
  });
}

/** The candidate's signature: their full name, typed. */
export function signSchema() {
  return z.transform((v: unknown, ctx): { full_name: string } => {
    const c = ctx as unknown as Ctx;
    const body = isObject(v) ? v : {};
    const name = run<string>(c, text(OFFER_LIMITS.signedName), body.full_name, 'full_name');
    if (name === '') push(c, body.full_name, OFFER_MESSAGES.signedName, 'full_name');
    else if (name !== undefined) {
      const line = run<string>(c, oneLine(OFFER_LIMITS.signedName), name, 'full_name');
      if (line !== undefined) return { full_name: line };
    }
    return { full_name: '' };
  });
}

/**
 * The publishing feature's inputs and messages (issue 34), Node-free (the pay-rules island and the
 * job editor import the limits and messages; schemas are built in functions, so they bundle no zod):
 * - a pay rule (POST /api/hr/pay-rules/, PUT /api/hr/pay-rules/{id}/);
 * - `override_checks: {note}` on a job's save or approval: an admin's override of blocking checks;
 * - an approval decision (POST /api/hr/jobs/{id}/approve/ and /reject/): a comment.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import { bool, choice, isBlank, isObject, multilineText, oneLine, textInput } from '../shared/input-rules.js';
import { RULE_PERIODS, WIDTH_UNITS, type RulePeriod, type WidthUnit } from './types.js';

export const PUBLISHING_LIMITS = {
  label: 100,
  regionCode: 10,
  regionName: 100,
  note: 500,
  /** The largest amount a width may be: the salaries' own limit. */
  widthAmount: 999_999_999_999,
  widthPercent: 1000,
  overrideNote: 1000,
  comment: 1000,
  rules: 500,
} as const;

export const PUBLISHING_MESSAGES = {
  notObject: 'Expected a JSON object.',
  required: FIELD_MESSAGES.required,
  country: 'Enter an ISO 3166-1 alpha-2 country code, such as DE or US.',
  regionCode: 'Use 1 to 10 letters or digits, as locations write the region (such as CA or ON), or leave it blank for the whole country.',
  regionNameWithoutCode: "Give the region's code too, or leave both blank for a rule of the whole country.",
  width: 'The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.',
  widthAmountMax: `Ensure this value is less than or equal to ${PUBLISHING_LIMITS.widthAmount}.`,
  widthPercentMax: `A percentage must be at most ${PUBLISHING_LIMITS.widthPercent}.`,
  checksNothing: 'This rule requires no range and sets no largest width, so it checks nothing: require a range or set a width.',
  duplicate: 'A rule for this place already exists: edit that one instead.',
  tooManyRules: `There can be at most ${PUBLISHING_LIMITS.rules} pay rules. Remove one first.`,
  notFound: 'Pay rule not found.',
  /** Under `status` when blocking checks refuse an activation (the other reasons under their fields). */
  activationRefused:
    'This job cannot be active until the problems named here are fixed; an admin may override them with a note (override_checks).',
  overrideNotObject: 'Send override_checks as an object: {"note": "why the checks may be overridden"}.',
  overrideNote: 'Write why the checks may be overridden.',
  overrideAdminOnly: 'Only an admin may override the publishing checks. Ask an admin of your team.',
  commentRequired: 'Write why the job is rejected, so its recruiter knows what to change.',
  approvalOff: 'Job approval is off (JOB_APPROVAL): there is nothing to approve.',
  notPending: 'This job is not waiting for approval.',
  notApprover: "Only the job's hiring manager or an admin may approve or reject it, and never the person who asked.",
} as const;

export interface PayRuleInput {
  label: string;
  country: string;
  region_code: string;
  region_name: string;
  range_required: boolean;
  max_width: number | null;
  width_unit: WidthUnit;
  salary_period: RulePeriod;
  note: string;
}

/** The order of a rule's error keys. */
export const RULE_ERROR_ORDER = [
  'detail',
  'label',
  'country',
  'region_code',
  'region_name',
  'range_required',
  'max_width',
  'width_unit',
  'salary_period',
  'note',
] as const;

/** Decimal places of a number as JavaScript prints it or of a plain decimal string ('1.500' has one). */
function decimalPlaces(s: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) return Infinity;
  return Math.max(0, (m[1] ?? '').replace(/0+$/, '').length - Number(m[2] ?? 0));
}

/** A width: blank is no limit (null); else a number above 0 with at most 2 decimals, a JSON number or a decimal string. */
const width = () =>
  z.transform((v: unknown, ctx): number | null => {
    if (isBlank(v) || (typeof v === 'string' && !v.trim())) return null;
    let n = NaN;
    let places = Infinity;
    if (typeof v === 'number' && Number.isFinite(v)) [n, places] = [v, decimalPlaces(String(v))];
    else if (typeof v === 'string' && /^\s*\d{1,15}(\.\d{1,20})?\s*$/.test(v)) [n, places] = [Number(v), decimalPlaces(v.trim())];
    if (!Number.isFinite(n) || n <= 0 || places > 2) {
      ctx.issues.push(issue(v, PUBLISHING_MESSAGES.width));
      return null;
    }
    if (n > PUBLISHING_LIMITS.widthAmount) {
      ctx.issues.push(issue(v, PUBLISHING_MESSAGES.widthAmountMax));
      return null;
    }
    return n;
  });

/** A pay rule. `isCountryCode`: the server's list of ISO 3166-1 countries (the island leaves that to the server). */
export function payRuleSchema(isCountryCode?: (code: string) => boolean) {
  return z
    .object(
      {
        label: oneLine(PUBLISHING_LIMITS.label, true),
        country: z.pipe(
          z.transform((v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v)),
          z
            .string(PUBLISHING_MESSAGES.country)
            .check(z.refine((c) => /^[A-Z]{2}$/.test(c) && (!isCountryCode || isCountryCode(c)), PUBLISHING_MESSAGES.country)),
        ),
        // As locations write it, dots dropped ("D.C." is DC).
        region_code: z.pipe(
          textInput(),
          z.pipe(
            z.transform((s: string) => s.trim().replace(/\./g, '').toUpperCase()),
            z.string().check(z.refine((s) => s === '' || /^[A-Z0-9]{1,10}$/.test(s), PUBLISHING_MESSAGES.regionCode)),
          ),
        ),
        region_name: oneLine(PUBLISHING_LIMITS.regionName),
        // Left out: required (the rules exist for that); null: not required.
        range_required: z.transform((v: unknown, ctx): boolean => {
          if (v === undefined) return true;
          const r = bool().safeParse(v);
          for (const i of r.error?.issues ?? []) ctx.issues.push(issue(v, i.message));
          return r.data ?? true;
        }),
        max_width: width(),
        width_unit: choice(WIDTH_UNITS, 'AMOUNT'),
        salary_period: choice(RULE_PERIODS, 'ANY'),
        note: oneLine(PUBLISHING_LIMITS.note),
      },
      PUBLISHING_MESSAGES.notObject,
    )
    .check(
      z.check(
        (ctx) => {
          const r = ctx.value;
          if (typeof r.region_name === 'string' && r.region_name && r.region_code === '')
            ctx.issues.push(issue(r.region_name, PUBLISHING_MESSAGES.regionNameWithoutCode, ['region_name']));
          if (r.width_unit === 'PERCENT' && typeof r.max_width === 'number' && r.max_width > PUBLISHING_LIMITS.widthPercent)
            ctx.issues.push(issue(r.max_width, PUBLISHING_MESSAGES.widthPercentMax, ['max_width']));
          if (r.range_required === false && r.max_width === null)
            ctx.issues.push(issue(r, PUBLISHING_MESSAGES.checksNothing, ['range_required']));
        },
        { when: (p) => isObject(p.value) },
      ),
    ) as unknown as z.ZodMiniType<PayRuleInput>;
}

/** `override_checks` as sent: absent or null is none; else `{note}` with a note of 1 to 1000 characters. */
export function overrideSchema() {
  return z.transform((v: unknown, ctx): { note: string } | null => {
    if (v === undefined || v === null) return null;
    if (!isObject(v)) {
      ctx.issues.push(issue(v, PUBLISHING_MESSAGES.overrideNotObject, ['override_checks']));
      return null;
    }
    const note = multilineText(PUBLISHING_LIMITS.overrideNote).safeParse(v.note);
    if (!note.success) {
      for (const i of note.error.issues) ctx.issues.push(issue(v.note, i.message, ['override_checks', 'note']));
      return null;
    }
    if (!note.data) {
      ctx.issues.push(issue(v.note, PUBLISHING_MESSAGES.overrideNote, ['override_checks', 'note']));
      return null;
    }
    return { note: note.data };
  });
}

/** An approval decision: a comment (required to reject), and an admin's override of blocking checks when approving makes the job active. */
export function decisionSchema(commentRequired: boolean) {
  return z
    .object(
      {
        comment: multilineText(PUBLISHING_LIMITS.comment),
        override_checks: z.optional(z.unknown()),
      },
      PUBLISHING_MESSAGES.notObject,
    )
    .check(
      z.check(
        (ctx) => {
          if (commentRequired && typeof ctx.value.comment === 'string' && !ctx.value.comment)
            ctx.issues.push(issue(ctx.value.comment, PUBLISHING_MESSAGES.commentRequired, ['comment']));
        },
        { when: (p) => isObject(p.value) },
      ),
    ) as unknown as z.ZodMiniType<{ comment: string; override_checks?: unknown }>;
}

/**
 * Input schema of `POST /api/jobs/{publicId}/apply/`: the multipart text fields checked with the
 * wizard's own rules (src/shared/application-rules.ts), so both say the same thing in the spec's
 * words. Errors are keyed by field, nested as `professional_experiences.0.company` and
 * `answers.<question_id>`; a list with a bad entry also gets its step message as a summary.
 */
import * as z from 'zod/mini';
import { FieldErrorBag } from '../http/errors.js';
import { FIELD_MESSAGES, fieldErrorsOf, issue, orFallback } from '../shared/field-errors.js';
import {
  LIMITS,
  MESSAGES,
  emailError,
  storedEmail,
  firstNameError,
  lastNameError,
  numberAnswerError,
  normaliseSkills,
  shapeEmail,
  shapeName,
  validateAnswers,
  validateEducation,
  validateExperiences,
  type AnswerValue,
  type EducationEntry,
  type EntryErrors,
  type ExperienceEntry,
} from '../shared/application-rules.js';
import { DIAL_CODES, splitPhone } from '../shared/dial-codes.js';
import type { JobQuestion } from '../jobs/types.js';
import type { AnswerRow } from './repo.js';
import { internationalPhone } from '../shared/phone-rule.js';
import { PHONE_RULE_MESSAGES, type PhoneRule } from '../shared/phone-rule-names.js';

/** Hidden field of the wizard that people leave empty and form-filling bots do not. */
export const HONEYPOT_FIELD = 'website';

const FIELD_ORDER = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'resume',
  'professional_experiences',
  'education',
  'skills',
  'answers',
  'consent',
] as const;
const KNOWN_TEXT_FIELDS = new Set<string>([...FIELD_ORDER.filter((f) => f !== 'resume'), HONEYPOT_FIELD]);

const EXTRA_MESSAGES = {
  invalidJson: 'Value must be valid JSON.',
  notList: FIELD_MESSAGES.notList,
  notObject: FIELD_MESSAGES.notObject,
  notText: FIELD_MESSAGES.notText,
  repeated: 'This field was sent more than once.',
  tooManyItems: (n: number) => `Ensure this list has no more than ${n} items.`,
  tooLong: FIELD_MESSAGES.tooLong,
  answerTooLong: `Ensure this answer has no more than ${LIMITS.answerText} characters.`,
  notAChoice: (v: string) => `Select a valid choice. ${JSON.stringify(v.slice(0, 40))} is not one of the available choices.`,
  notChoices: 'Must be a list of options.',
  badQuestionId: 'Each answer needs a question_id (a whole number).',
  unknownQuestion: 'This question is not part of this job.',
  answeredTwice: 'This question is answered more than once.',
} as const;

export interface ApplicationInput {
  first_name: string;
  last_name: string;
  /** Lower-cased. */
  email: string;
  /** Dial code and digits joined, e.g. +919876543210. */
  phone: string;
  experiences: ExperienceEntry[];
  education: EducationEntry[];
  skills: string[];
  answers: AnswerRow[];
}

/**
 * Removes control characters other than tab and line breaks. Used ONLY where removing them is the
 * spec's own shaping or harmless:
 * - free text (experience and education texts, skills, text answers): no rule of the spec applies
 *   to their characters, the text is shown to HR and written to Excel exports (whose XML cannot
 *   hold NUL and most C0 controls), and a stray NUL pasted from a PDF is noise, not meaning;
 * - the phone, which "keeps only digits" (spec 01 section 5).
 * Never for names, email or dates: the rules must see what was sent, so `As\0ha` fails the name
 * pattern instead of being stored as "Asha", and an email with a NUL is refused rather than
 * stored as a different address.
 */
function cleanText(v: string): string {
  return v.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

/**
 * Empty or just the dial code: "can't be empty"; otherwise, under PHONE_RULE ten-digits (the
 * spec's), a known dial code and exactly 10 digits; under international, any number valid for
 * its country, stored in E.164 (src/shared/phone-rule.ts).
 */
function parsePhone(raw: string, rule: PhoneRule): { phone: string } | { error: string } {
  const compact = raw.replace(/[\s()-]/g, '');
  if (!compact || DIAL_CODES.some((d) => d.code === compact)) return { error: MESSAGES.phoneRequired };
  if (rule === 'international') {
    const e164 = internationalPhone(compact);
    return e164 ? { phone: e164 } : { error: PHONE_RULE_MESSAGES.invalid };
  }
  const split = splitPhone(compact);
  return split ? { phone: `${split.code}${split.digits}` } : { error: MESSAGES.phoneInvalid };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list field sent as a JSON string of at most `max` items; absent or empty means an empty list. */
function jsonList(max: number) {
  return z.pipe(
    z.transform((raw: string | undefined, ctx): unknown => {
      if (raw === undefined || raw.trim() === '') return [];
      try {
        return JSON.parse(raw);
      } catch {
        ctx.issues.push(issue(raw, EXTRA_MESSAGES.invalidJson));
      }
    }),
    z.array(z.unknown(), EXTRA_MESSAGES.notList).check(z.maxLength(max, EXTRA_MESSAGES.tooManyItems(max))),
  );
}

/** Date properties of entries: checked by their pattern as sent, never cleaned. */
const DATE_KEYS = new Set(['start', 'end']);

/**
 * One list entry's text properties, type- and length-checked, with control characters removed from
 * free text. An entry that is no object, or a property that is no text, is reported and judged as
 * blank, so the entry rules (e.g. 'Required') speak too.
 */
function entry<K extends string>(limits: Record<K, number>) {
  return z.transform((raw: unknown, ctx) => {
    if (!isObject(raw)) ctx.issues.push(issue(raw, EXTRA_MESSAGES.notObject));
    const obj = isObject(raw) ? raw : {};
    const out = {} as Record<K, string>;
    for (const key of Object.keys(limits) as K[]) {
      const v = obj[key];
      if (v === undefined || v === null) out[key] = '';
      else if (typeof v === 'string' || typeof v === 'number') out[key] = (DATE_KEYS.has(key) ? String(v) : cleanText(String(v))).trim();
      else {
        ctx.issues.push(issue(v, EXTRA_MESSAGES.notText, [key]));
        out[key] = '';
      }
      if (out[key].length > limits[key]) ctx.issues.push(issue(v, EXTRA_MESSAGES.tooLong(limits[key]), [key]));
    }
    return out;
  });
}

/** A list field of entries (see entry). */
function entryList<E>(max: number, limits: Record<keyof E & string, number>) {
  return z.pipe(jsonList(max), z.array(entry(limits))) as unknown as z.ZodMiniType<E[]>;
}

/** The wizard's step rules on a list of entries; any entry problem also puts the step's message on the list. */
function stepRules<E>(rules: (list: E[]) => EntryErrors[], stepMessage: string) {
  return z.check<E[]>((ctx) => {
    let any = false;
    rules(ctx.value).forEach((errors, i) => {
      for (const [field, message] of Object.entries(errors)) {
        ctx.issues.push(issue(ctx.value[i], message, [i, field]));
        any = true;
      }
    });
    if (any) ctx.issues.push(issue(ctx.value, stepMessage));
  });
}

const T = LIMITS.textField;

function skills() {
  // Duplicates collapse, so allow twice the limit in before counting what is left.
  return z.pipe(
    jsonList(LIMITS.skills * 2),
    z.array(z.unknown()).check(
      z.refine((list) => list.every((s) => typeof s === 'string'), { error: FIELD_MESSAGES.notTextList, abort: true }),
      z.overwrite((list) => normaliseSkills((list as string[]).map(cleanText))),
      z.maxLength(LIMITS.skills, EXTRA_MESSAGES.tooManyItems(LIMITS.skills)),
    ),
  ) as unknown as z.ZodMiniType<string[]>;
}

/** One answer checked against its question: the stored form, null when left empty, or the message. */
function answerRow(q: JobQuestion, raw: unknown): AnswerRow | null | { error: string } {
  const bad = (error: string) => ({ error });
  const base = { question_id: q.id, question_text: q.text, answer_number: null, choices: [] as string[] };
  if (raw === undefined || raw === null) return null;
  switch (q.answer_type) {
    case 'short_text':
    case 'long_text': {
      if (typeof raw !== 'string') return bad(EXTRA_MESSAGES.notText);
      const v = cleanText(raw).trim();
      if (!v) return null;
      if (v.length > LIMITS.answerText) return bad(EXTRA_MESSAGES.answerTooLong);
      return { ...base, answer: JSON.stringify(v), answer_key: v.toLowerCase().slice(0, 191) };
    }
    case 'number': {
      const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
      if (s === null) return bad(MESSAGES.numberInvalid);
      if (s === '') return null;
      const message = numberAnswerError(s);
      if (message) return bad(message);
      const n = Number(s) || 0; // -0 is stored as 0
      // answer_number is DECIMAL(20,4): MySQL rounds to 4 decimals, SQLite would keep the double;
      // rounded here, both databases hold (and analytics count) the same value.
      const atScale = Number(n.toFixed(4)) || 0;
      return { ...base, answer: JSON.stringify(n), answer_key: String(n), answer_number: atScale };
    }
    case 'single_choice': {
      if (typeof raw !== 'string') return bad(EXTRA_MESSAGES.notText);
      if (raw === '') return null;
      if (!q.options.includes(raw)) return bad(EXTRA_MESSAGES.notAChoice(raw));
      return { ...base, answer: JSON.stringify(raw), answer_key: raw.slice(0, 191) };
    }
    case 'checkbox': {
      if (!Array.isArray(raw) || raw.some((c) => typeof c !== 'string')) return bad(EXTRA_MESSAGES.notChoices);
      const wrong = (raw as string[]).find((c) => !q.options.includes(c));
      if (wrong !== undefined) return bad(EXTRA_MESSAGES.notAChoice(wrong));
      const choices = [...new Set(raw as string[])];
      if (!choices.length) return null;
      return { ...base, answer: JSON.stringify(choices), answer_key: null, choices };
    }
  }
}

/** The wizard's shape of a raw answer, for the shared required/number rules. */
function asAnswerValue(raw: unknown): AnswerValue | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) return raw.filter((c): c is string => typeof c === 'string');
  if (typeof raw === 'string' || typeof raw === 'number') return String(raw);
  return undefined;
}

/** The answers, `[{question_id, answer}]`, keyed `answers.<question_id>`: the wizard's rules first (required, numeric), with its messages. */
function answers(questions: JobQuestion[]) {
  const byId = new Map(questions.map((q) => [q.id, q]));
  // A malformed list is reported and judged as no answers, so required questions are reported too.
  return orFallback(jsonList(Math.max(questions.length, 1) * 2), []).check(
    z.check<unknown[]>((ctx) => {
      const add = (path: PropertyKey[], message: string) => ctx.issues.push(issue(ctx.value, message, path));
      const given = new Map<number, unknown>();
      for (const item of ctx.value) {
        if (!isObject(item)) {
          add([], 'Each answer must be an object with question_id and answer.');
          continue;
        }
        const rawId = item.question_id;
        const id = typeof rawId === 'number' ? rawId : typeof rawId === 'string' && /^\d{1,10}$/.test(rawId) ? Number(rawId) : NaN;
        if (!Number.isSafeInteger(id) || id <= 0) add([], EXTRA_MESSAGES.badQuestionId);
        else if (!byId.has(id)) add([id], EXTRA_MESSAGES.unknownQuestion);
        else if (given.has(id)) add([id], EXTRA_MESSAGES.answeredTwice);
        else given.set(id, item.answer);
      }

      const values: Record<number, AnswerValue> = {};
      for (const [id, raw] of given) {
        const v = asAnswerValue(raw);
        if (v !== undefined) values[id] = v;
      }
      const ruleErrors = validateAnswers(questions, values);
      const reported = new Set(ctx.issues.map((i) => String(i.path?.[0])));
      let missing = false;
      const rows: AnswerRow[] = [];
      for (const q of questions) {
        const raw = given.get(q.id);
        // A value of the wrong shape (an object, a boolean) gets answerRow's type message instead.
        const wrongShape = raw !== undefined && raw !== null && asAnswerValue(raw) === undefined;
        const ruleError = wrongShape ? null : ruleErrors[q.id];
        if (ruleError === MESSAGES.required) missing = true;
        if (ruleError) {
          add([q.id], ruleError);
          continue;
        }
        const row = answerRow(q, raw);
        if (row && 'error' in row) add([q.id], row.error);
        else if (row) rows.push(row);
        else if (q.required && !reported.has(String(q.id))) {
          // Empty after cleaning (e.g. only control characters).
          add([q.id], MESSAGES.required);
          missing = true;
        }
      }
      if (missing) add([], MESSAGES.questionsStep);
      ctx.value = rows;
    }),
  ) as unknown as z.ZodMiniType<AnswerRow[]>;
}

/** A basic field as the wizard shapes it, judged by the wizard's rule for it, stored in its final form. */
function basic(shape: (v: string) => string, rule: (v: string) => string | null, stored: (v: string) => string) {
  return z.pipe(
    z.transform((v: string | undefined) => shape(v ?? '')),
    z.string().check(
      z.check<string>((ctx) => {
        const message = rule(ctx.value);
        if (message) ctx.issues.push(issue(ctx.value, message));
      }),
      z.overwrite(stored),
    ),
  );
}

const fixedFields = new Map<PhoneRule, ReturnType<typeof buildFixedFields>>();

/** The fields whose rules do not depend on the job or the date, built once per phone rule (building costs more than a parse). */
function buildFixedFields(rule: PhoneRule) {
  return {
    first_name: basic(shapeName, firstNameError, (v) => v.trim()),
    last_name: basic(
      shapeName,
      (v) => lastNameError(v.trim() ? v : ''),
      (v) => v.trim(),
    ),
    email: basic(shapeEmail, emailError, storedEmail),
    // "Phone keeps only digits": stray control characters go with the separators.
    phone: z.transform((v: string | undefined, ctx) => {
      const phone = parsePhone(cleanText(v ?? ''), rule);
      if ('phone' in phone) return phone.phone;
      ctx.issues.push(issue(v, phone.error));
      return '';
    }),
    experiences: entryList<ExperienceEntry>(LIMITS.experiences, {
      company: T,
      role: T,
      start: 7,
      end: 7,
      notice_period: T,
      salary: T,
      description: LIMITS.description,
    }),
    education: entryList<EducationEntry>(LIMITS.education, { school: T, degree: T, field: T, start: 7, end: 7 }),
    skills: skills(),
  };
}

/**
 * The application's text fields (the multipart fields by name): the basic fields as sent, with only
 * the spec's shaping (section 5), so control characters reach the rules; the lists as JSON; dates
 * judged against `now`, answers against the job's questions.
 */
export function applicationSchema(questions: JobQuestion[], now: Date, phoneRule: PhoneRule = 'ten-digits') {
  let fixed = fixedFields.get(phoneRule);
  if (!fixed) {
    fixed = buildFixedFields(phoneRule);
    fixedFields.set(phoneRule, fixed);
  }
  return z.object({
    first_name: fixed.first_name,
    last_name: fixed.last_name,
    email: fixed.email,
    phone: fixed.phone,
    professional_experiences: fixed.experiences.check(stepRules((list) => validateExperiences(list, now), MESSAGES.experienceStep)),
    education: fixed.education.check(stepRules((list) => validateEducation(list, now), MESSAGES.educationStep)),
    skills: fixed.skills,
    answers: answers(questions),
  });
}

/** Checks every text field; the caller adds the resume's errors to the same bag. `input` is null when a field is wrong. */
export function parseApplicationFields(
  fields: Map<string, string>,
  repeated: Set<string>,
  questions: JobQuestion[],
  now: Date,
  bag = new FieldErrorBag(),
  phoneRule: PhoneRule = 'ten-digits',
): { input: ApplicationInput | null; bag: FieldErrorBag } {
  for (const name of repeated) if (KNOWN_TEXT_FIELDS.has(name)) bag.add(name, EXTRA_MESSAGES.repeated);
  const result = applicationSchema(questions, now, phoneRule).safeParse(Object.fromEntries(fields));
  if (result.success) {
    const { first_name, last_name, email, phone, professional_experiences: experiences, education, skills, answers } = result.data;
    return { input: { first_name, last_name, email, phone, experiences, education, skills, answers }, bag };
  }
  for (const [field, messages] of Object.entries(fieldErrorsOf(result.error.issues))) for (const m of messages) bag.add(field, m);
  return { input: null, bag };
}

/** Field errors in the wizard's order (basic fields first), so the first one is the most useful. */
export function orderedErrors(fields: Record<string, string[]>): Record<string, string[]> {
  const rank = (k: string) => {
    const i = FIELD_ORDER.indexOf(k.split('.')[0] as (typeof FIELD_ORDER)[number]);
    return i === -1 ? FIELD_ORDER.length : i;
  };
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => rank(a) - rank(b)));
}

// ---- Applicants list and status changes (HR) ----
// Self-contained (zod): the list's query (API, page, island), a status change and a bulk change.
// Its imports sit here, under names of their own, so this section does not depend on the rest.
import { z as zod } from 'zod';
import * as enums from '../shared/enums.js';
import { isRowId, oneLineProblem } from '../shared/input-rules.js';
import { CAMPAIGN_MAX_LENGTH } from '../shared/campaign.js';
import { APPLICANT_LIMITS, APPLICANT_ORDERINGS, REJECTED_COLUMN, type ApplicantFilters } from './types.js';

type ApplicationStatus = enums.ApplicationStatus;

const APPLICANT_Q_MAX = APPLICANT_LIMITS.search;
const BULK_STATUS_MAX = 500;

export const APPLICANT_MESSAGES = {
  oneValue: 'Give this parameter once, with one value.',
  id: 'A valid id is required.',
  jobId: 'A valid job id is required.',
  q: `Ensure the search has no more than ${APPLICANT_Q_MAX} characters.`,
  status: 'Select a valid status: NEW, REVIEWED or ARCHIVED.',
  date: 'Enter a valid date as YYYY-MM-DD.',
  reversedDates: 'The to date must not be before the from date.',
  ordering: `Ordering must be one of ${APPLICANT_ORDERINGS.join(', ')}.`,
  source: 'Ensure the source has no more than 100 characters.',
  detailed: 'detailed must be true or false.',
  ids: `Select between 1 and ${BULK_STATUS_MAX} applications.`,
  notFound: 'Not found.',
  resumeMissing: 'Resume not found.',
  noPreview: 'No preview for this file; download it.',
  previewBusy: 'Previews are busy just now; try again in a moment, or download the file.',
  downloadFailed: 'Unable to download resume. Please check your HR login or contact support.',
  exportFailed: 'Export failed. Please try again.',
  empty: 'No applicants found.',
} as const;

const STAGE_NAME_MAX = APPLICANT_LIMITS.stageName;
const STAGES_MAX = 20;
const REASON_NAME_MAX = APPLICANT_LIMITS.reasonName;
const REASONS_MAX = 30;
/** Cards per board column and request (the newest first; "show more" asks for the next ones). */
const BOARD_CARDS = 25;
const BOARD_CARDS_MAX = 100;

export const PIPELINE_MESSAGES = {
  stage: "Select a stage of this application's job.",
  stageFilter: `Ensure the stage has no more than ${STAGE_NAME_MAX} characters.`,
  removedJob: 'This job was removed: its applications cannot move and its stages cannot change.',
  outcome: 'Outcome must be REJECTED.',
  reason: 'Select a rejection reason from the list.',
  reasonWithoutOutcome: 'A reason is given only with the outcome REJECTED.',
  oneChange: 'Send one of status, stage or outcome (with its reason).',
  stages: `A job has between 1 and ${STAGES_MAX} stages.`,
  stageName: `Enter a stage name of 1 to ${STAGE_NAME_MAX} characters on one line.`,
  stageDuplicate: 'Two stages cannot have the same name.',
  stageReserved: `"${REJECTED_COLUMN}" is the column of rejected applications; choose another name.`,
  stageId: "This stage is not one of this job's stages.",
  stageIdTwice: 'This stage is listed twice.',
  stageInUse: (name: string, n: number) =>
    `The stage "${name}" has ${n} ${n === 1 ? 'applicant' : 'applicants'}; move them to another stage before removing it.`,
  reasons: `Keep between 1 and ${REASONS_MAX} rejection reasons.`,
  reasonName: `Enter a reason of 1 to ${REASON_NAME_MAX} characters on one line.`,
  reasonDuplicate: 'Two reasons cannot have the same name.',
  reasonId: 'This reason is not in the list.',
  column: 'Select a column of this board.',
  offset: 'offset must be a whole number from 0 to 100000.',
  limit: `limit must be a whole number from 1 to ${BOARD_CARDS_MAX}.`,
} as const;

/** A real calendar day written YYYY-MM-DD. */
function isCalendarDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** One query parameter: a string (an array, i.e. the name given twice, is refused), trimmed. */
const param = zod.string({ error: APPLICANT_MESSAGES.oneValue }).trim().optional();
const optionalDay = param.refine((v) => !v || isCalendarDay(v), APPLICANT_MESSAGES.date).transform((v) => v || null);

export const applicantListQuerySchema = zod
  .object({
    job_id: param.refine((v) => !v || isRowId(v), APPLICANT_MESSAGES.jobId).transform((v) => (v ? Number(v) : null)),
    q: param.refine((v) => !v || [...v].length <= APPLICANT_Q_MAX, APPLICANT_MESSAGES.q).transform((v) => v ?? ''),
    status: param
      .refine((v) => !v || enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status)
      .transform((v) => (v || null) as ApplicationStatus | null),
    date_from: optionalDay,
    date_to: optionalDay,
    ordering: param
      .refine((v) => !v || (APPLICANT_ORDERINGS as readonly string[]).includes(v), APPLICANT_MESSAGES.ordering)
      .transform((v) => (v || '-created_at') as ApplicantFilters['ordering']),
    detailed: param.refine((v) => !v || v === 'true' || v === 'false', APPLICANT_MESSAGES.detailed).transform((v) => v === 'true'),
    // A stage name (any job's stage of that name), or 'Rejected'.
    stage: param.refine((v) => !v || [...v].length <= STAGE_NAME_MAX, PIPELINE_MESSAGES.stageFilter).transform((v) => v || null),
    // Issue 21: a source as stored, or '(direct)' for applications without one.
    source: param.refine((v) => !v || [...v].length <= CAMPAIGN_MAX_LENGTH, APPLICANT_MESSAGES.source).transform((v) => v?.trim() || null),
    // Read by the paging helper; only checked here for being given once.
    page: param,
    page_size: param,
  })
  .superRefine((v, ctx) => {
    if (v.date_from && v.date_to && v.date_to < v.date_from)
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: APPLICANT_MESSAGES.reversedDates });
  });

export type ApplicantListQuery = zod.output<typeof applicantListQuerySchema>;

const statusField = zod
  .string({ error: APPLICANT_MESSAGES.status })
  .refine((v) => enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status);

/** The CLI's `--status` (applicants purge): the API's rule, in any case. */
export const statusOptionSchema = zod
  .string()
  .trim()
  .toUpperCase()
  .pipe(statusField)
  .transform((v) => v as ApplicationStatus);

/**
 * One change of an application (PATCH, and the bulk call beside its ids): the spec's `{status}`,
 * or a stage of the application's job `{stage}`, or the outcome `{outcome: 'REJECTED', reason}`.
 * Exactly one kind per request, so a stage move's own status rule is never mixed with a status.
 */
export type ApplicationChange =
  | { kind: 'status'; status: ApplicationStatus }
  | { kind: 'stage'; stage: number }
  | { kind: 'outcome'; outcome: 'REJECTED'; reason: string };

const changeFields = {
  status: zod.optional(statusField.transform((v) => v as ApplicationStatus)),
  stage: zod.optional(zod.unknown().refine(isRowId, PIPELINE_MESSAGES.stage).transform(Number)),
  outcome: zod.optional(
    zod
      .unknown()
      .refine((v) => v === 'REJECTED', PIPELINE_MESSAGES.outcome)
      .transform(() => 'REJECTED' as const),
  ),
  reason: zod.optional(
    zod.string({ error: PIPELINE_MESSAGES.reason }).trim().min(1, PIPELINE_MESSAGES.reason).max(REASON_NAME_MAX, PIPELINE_MESSAGES.reason),
  ),
};

function toChange(
  v: { status?: ApplicationStatus; stage?: number; outcome?: 'REJECTED'; reason?: string },
  ctx: zod.RefinementCtx,
): ApplicationChange {
  const kinds = [v.status !== undefined, v.stage !== undefined, v.outcome !== undefined].filter(Boolean).length;
  if (kinds !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: kinds ? [] : ['status'],
      message: kinds ? PIPELINE_MESSAGES.oneChange : APPLICANT_MESSAGES.status,
    });
    return zod.NEVER;
  }
  if (v.reason !== undefined && v.outcome === undefined) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: PIPELINE_MESSAGES.reasonWithoutOutcome });
    return zod.NEVER;
  }
  if (v.status !== undefined) return { kind: 'status', status: v.status };
  if (v.stage !== undefined) return { kind: 'stage', stage: v.stage };
  if (v.reason === undefined) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: PIPELINE_MESSAGES.reason });
    return zod.NEVER;
  }
  return { kind: 'outcome', outcome: 'REJECTED', reason: v.reason };
}

export const statusChangeSchema = zod.object(changeFields).transform(toChange);

export const bulkStatusSchema = zod
  .object({
    ids: zod
      .array(zod.unknown(), { error: APPLICANT_MESSAGES.ids })
      .min(1, APPLICANT_MESSAGES.ids)
      .max(BULK_STATUS_MAX, APPLICANT_MESSAGES.ids)
      .refine((ids) => ids.every(isRowId), APPLICANT_MESSAGES.id)
      .transform((ids) => [...new Set(ids.map(Number))]),
    ...changeFields,
  })
  .transform((v, ctx) => ({ ids: v.ids, change: toChange(v, ctx) }));

// ---- Pipeline: a job's stages, rejection reasons, the board's query ----

/**
 * A name on one line: trimmed, 1 to `max` characters, no control characters (`message`), nor
 * invisible, text-direction or non-characters (the one-line rule's own messages, oneLineProblem).
 */
const lineName = (max: number, message: string) =>
  zod
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => [...v].length <= max && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v), { message, abort: true })
    .superRefine((v, ctx) => {
      const problem = oneLineProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const optionalId = (message: string) =>
  zod.optional(
    zod
      .unknown()
      .refine((v) => v === null || isRowId(v), message)
      .transform((v) => (v === null ? undefined : Number(v))),
  );

/** Names compared as HR reads them: the same letters in any case are the same name. */
const nameKey = (name: string) => name.toLocaleLowerCase('en');

function uniqueNames(
  list: { name: string; id?: number }[],
  ctx: zod.RefinementCtx,
  field: string,
  duplicate: string,
  idTwice: string,
): void {
  const names = new Set<string>();
  const ids = new Set<number>();
  list.forEach((item, i) => {
    if (names.has(nameKey(item.name))) ctx.addIssue({ code: 'custom', path: [field, i, 'name'], message: duplicate });
    names.add(nameKey(item.name));
    if (item.id !== undefined) {
      if (ids.has(item.id)) ctx.addIssue({ code: 'custom', path: [field, i, 'id'], message: idTwice });
      ids.add(item.id);
    }
  });
}

/** PUT /api/hr/jobs/{id}/stages/: the whole ordered list; an item with the id of a stage keeps it (and its applicants). */
export const stagesPutSchema = zod
  .object({
    stages: zod
      .array(
        zod.object({
          id: optionalId(PIPELINE_MESSAGES.stageId),
          name: lineName(STAGE_NAME_MAX, PIPELINE_MESSAGES.stageName).refine(
            (v) => nameKey(v) !== nameKey(REJECTED_COLUMN),
            PIPELINE_MESSAGES.stageReserved,
          ),
        }),
        { error: PIPELINE_MESSAGES.stages },
      )
      .min(1, PIPELINE_MESSAGES.stages)
      .max(STAGES_MAX, PIPELINE_MESSAGES.stages),
  })
  .superRefine((v, ctx) => uniqueNames(v.stages, ctx, 'stages', PIPELINE_MESSAGES.stageDuplicate, PIPELINE_MESSAGES.stageIdTwice));

export type StagesInput = zod.output<typeof stagesPutSchema>['stages'];

/** PUT /api/hr/rejection-reasons/: the whole ordered list. */
export const reasonsPutSchema = zod
  .object({
    reasons: zod
      .array(zod.object({ id: optionalId(PIPELINE_MESSAGES.reasonId), name: lineName(REASON_NAME_MAX, PIPELINE_MESSAGES.reasonName) }), {
        error: PIPELINE_MESSAGES.reasons,
      })
      .min(1, PIPELINE_MESSAGES.reasons)
      .max(REASONS_MAX, PIPELINE_MESSAGES.reasons),
  })
  .superRefine((v, ctx) => uniqueNames(v.reasons, ctx, 'reasons', PIPELINE_MESSAGES.reasonDuplicate, PIPELINE_MESSAGES.reasonId));

export type ReasonsInput = zod.output<typeof reasonsPutSchema>['reasons'];

const wholeParam = (max: number, message: string, fallback: number) =>
  param.refine((v) => !v || (/^\d{1,6}$/.test(v) && Number(v) <= max), message).transform((v) => (v ? Number(v) : fallback));

/**
 * GET /api/hr/jobs/{id}/board/ (and the board page): the list's search and status filters;
 * `column` (a stage id or 'rejected') with `offset` asks for more cards of one column.
 */
export const boardQuerySchema = zod.object({
  q: param.refine((v) => !v || [...v].length <= APPLICANT_Q_MAX, APPLICANT_MESSAGES.q).transform((v) => v ?? ''),
  status: param
    .refine((v) => !v || enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status)
    .transform((v) => (v || null) as ApplicationStatus | null),
  // The applicants list's filters too (issue 30): applied between two days, from a source.
  date_from: optionalDay,
  date_to: optionalDay,
  source: param.refine((v) => !v || [...v].length <= CAMPAIGN_MAX_LENGTH, APPLICANT_MESSAGES.source).transform((v) => v?.trim() || null),
  column: param
    .refine((v) => !v || v === 'rejected' || isRowId(v), PIPELINE_MESSAGES.column)
    .transform((v) => (!v ? null : v === 'rejected' ? ('rejected' as const) : Number(v))),
  offset: wholeParam(100_000, PIPELINE_MESSAGES.offset, 0),
  limit: wholeParam(BOARD_CARDS_MAX, PIPELINE_MESSAGES.limit, BOARD_CARDS).refine((v) => v >= 1, PIPELINE_MESSAGES.limit),
});

export type BoardQuery = zod.output<typeof boardQuerySchema>;

/** The filters of a parsed list query (what the list, its links and previous/next need). */
export function applicantFilters(q: ApplicantListQuery): ApplicantFilters {
  return {
    job_id: q.job_id,
    q: q.q,
    status: q.status,
    date_from: q.date_from,
    date_to: q.date_to,
    ordering: q.ordering,
    stage: q.stage,
    source: q.source,
  };
}

/** The filters as a query string (defaults left out), for links that keep the list's filters. */
export function applicantFilterQuery(f: ApplicantFilters, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (f.job_id) p.set('job_id', String(f.job_id));
  if (f.q) p.set('q', f.q);
  if (f.status) p.set('status', f.status);
  if (f.date_from) p.set('date_from', f.date_from);
  if (f.date_to) p.set('date_to', f.date_to);
  if (f.ordering !== '-created_at') p.set('ordering', f.ordering);
  if (f.stage) p.set('stage', f.stage);
  if (f.source) p.set('source', f.source);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

// ---- Notes on an application (HR) ----
// Plain text, shown as text (never HTML); the rules and messages are src/shared/note-rules.ts,
// which the island checks a note with.
import { NOTE_MESSAGES, noteTextError, shapeNoteText } from '../shared/note-rules.js';

export { NOTE_MESSAGES };

/** The body of POST and PATCH .../notes/: `{text}`. */
export const noteSchema = zod.object(
  {
    text: zod
      .string({ error: (i) => (i.input === undefined ? NOTE_MESSAGES.required : NOTE_MESSAGES.notText) })
      .transform(shapeNoteText)
      .superRefine((v, ctx) => {
        const problem = noteTextError(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  },
  { error: FIELD_MESSAGES.notObject },
);

const AGE_UNITS_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, mo: 30 * 86_400_000, y: 365 * 86_400_000 };

/** The oldest age a purge takes: older ages name no date the databases can hold. */
const RETENTION_AGE_MAX_MS = 100 * AGE_UNITS_MS.y;

/**
 * `--older-than` of the purge: a whole number and a unit (h, d, w, mo = 30 days, y = 365 days),
 * e.g. `180d`, up to 100 years; the age in ms, or the usage message.
 */
export function parseRetentionAge(raw: string): { ms: number } | { error: string } {
  const m = /^(\d{1,6})\s*(h|d|w|mo|y)$/.exec(raw.trim().toLowerCase());
  if (!m) return { error: `--older-than must be a whole number and a unit (h, d, w, mo, y), e.g. 180d (got "${raw}")` };
  if (Number(m[1]) < 1)
    return {
      error: `--older-than must be a positive whole number and a unit, such as 1d or 180d: 0 would match everything up to now (got "${raw}")`,
    };
  const ms = Number(m[1]) * AGE_UNITS_MS[m[2]];
  return ms > RETENTION_AGE_MAX_MS ? { error: `--older-than must be at most 100 years (got "${raw}")` } : { ms };
}

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
import type { AnswerRow } from './apply.repo.js';
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

function fixedFieldsFor(rule: PhoneRule): ReturnType<typeof buildFixedFields> {
  let fixed = fixedFields.get(rule);
  if (!fixed) {
    fixed = buildFixedFields(rule);
    fixedFields.set(rule, fixed);
  }
  return fixed;
}

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

/** The apply form's rules for who the applicant is (names, email, phone), for candidate imports (issue 35). */
export function contactSchema(phoneRule: PhoneRule) {
  const fixed = fixedFieldsFor(phoneRule);
  return z.object({ first_name: fixed.first_name, last_name: fixed.last_name, email: fixed.email, phone: fixed.phone });
}

/**
 * The application's text fields (the multipart fields by name): the basic fields as sent, with only
 * the spec's shaping (section 5), so control characters reach the rules; the lists as JSON; dates
 * judged against `now`, answers against the job's questions.
 */
export function applicationSchema(questions: JobQuestion[], now: Date, phoneRule: PhoneRule = 'ten-digits') {
  const fixed = fixedFieldsFor(phoneRule);
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

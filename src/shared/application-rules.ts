/**
 * The application wizard's rules (spec 01 section 5), shared word for word by the wizard island
 * and the apply API, so client and server can never disagree on a message.
 * Pure TypeScript: no Node or DOM APIs.
 */
import type { AnswerType } from './enums.js';

/** Largest magnitude of a number answer: `application_answers.answer_number` is DECIMAL(20,4) (16 integer digits), with a margin. */
export const NUMBER_ANSWER_MAX = 999_999_999_999_999;

export const MESSAGES = {
  firstNameRequired: "First name can't be empty",
  namePattern: 'Please use only letters, spaces, apostrophes, and hyphens.',
  emailRequired: "Email can't be empty",
  emailInvalid: "Provided email isn't valid.",
  phoneRequired: "Phone number can't be empty",
  phoneInvalid: 'Provided phone number is not valid (10 digits).',
  resumeRequired: 'Please upload your resume (PDF/DOC/DOCX, under 10 MB).',
  resumeType: 'Only PDF, DOC, or DOCX files are allowed',
  resumeSize: "File uploaded can't be more than 10 MB",
  basicStep: 'Please fix the highlighted fields.',
  required: 'Required',
  endBeforeStart: 'End date cannot be before start date',
  /** A start or end that is there but is no month of a year from 1970 to this year + 5 (API clients only: the pickers cannot produce one). */
  dateInvalid: 'Choose a valid month and year.',
  numberInvalid: 'Enter a number.',
  numberRange: `Enter a number between -${NUMBER_ANSWER_MAX} and ${NUMBER_ANSWER_MAX}.`,
  experienceStep: 'Please complete required fields in experience.',
  educationStep: 'Please complete required fields in education.',
  questionsStep: 'Please answer all required questions.',
  submitFailed: 'Failed to submit application.',
  submitFallback: 'We could not submit your application. Please review the highlighted fields and try again.',
  consentRequired: 'Please tick the box to agree before you submit your application.',
} as const;

/** The apply form's consent field (asked only with APPLY_CONSENT_TEXT set). */
export const CONSENT_FIELD = 'consent';

/** A ticked consent box as the API takes it: a browser checkbox's `on`, or `true`. */
export function isConsentGiven(value: string | null | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  return v === 'on' || v === 'true';
}

export const RESUME_MAX_BYTES = 10_485_760;
export const RESUME_EXTENSIONS = ['pdf', 'doc', 'docx'] as const;
export const NAME_MAX = 60;
export const PHONE_DIGITS = 10;
export const DEFAULT_PHONE_CODE = '+91';
export const EMAIL_MAX = 254;
const YEAR_MIN = 1970;
const SKILL_SUGGESTIONS_FROM = 2;
const SKILL_SUGGESTIONS_MAX = 8;
/** Limits beyond the spec that keep a single application a sane size. */
export const LIMITS = {
  experiences: 20,
  education: 20,
  skills: 50,
  skillLength: 100,
  textField: 191,
  description: 5000,
  answerText: 5000,
} as const;

function yearMax(now = new Date()): number {
  return now.getFullYear() + 5;
}

/** Years offered by the month + year pickers, newest first. */
export function yearOptions(now = new Date()): number[] {
  const out: number[] = [];
  for (let y = yearMax(now); y >= YEAR_MIN; y--) out.push(y);
  return out;
}

// ---- Input shaping (applied as the applicant types, and again on the server) ----

export function shapeName(v: string): string {
  return v.replace(/[<>]/g, '').slice(0, NAME_MAX);
}

export function shapeEmail(v: string): string {
  return v.trim();
}

export function shapePhone(v: string, max: number = PHONE_DIGITS): string {
  return v.replace(/\D/g, '').slice(0, max);
}

// ---- Field rules ----

const NAME_PATTERN = /^[\p{L}\p{M}' -]{1,60}$/u;
/** WHATWG `input type=email` syntax plus a dot in the domain (DESIGN.md section 3). */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const YEAR_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

function isValidName(v: string): boolean {
  return NAME_PATTERN.test(v) && v.trim().length > 0;
}

function isValidEmail(v: string): boolean {
  return v.length <= EMAIL_MAX && EMAIL_PATTERN.test(v);
}

export function firstNameError(v: string): string | null {
  if (!v.trim()) return MESSAGES.firstNameRequired;
  return isValidName(v) ? null : MESSAGES.namePattern;
}

export function lastNameError(v: string): string | null {
  if (!v) return null;
  return isValidName(v) ? null : MESSAGES.namePattern;
}

/**
 * An address as stored and compared (DESIGN.md section 3 "Email equality"): trimmed, ASCII letters
 * lower-cased, nothing else folded; both databases then compare it byte for byte.
 */
export function storedEmail(v: string): string {
  return v.trim().replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

export function emailError(v: string): string | null {
  const s = v.trim();
  if (!s) return MESSAGES.emailRequired;
  return isValidEmail(s) ? null : MESSAGES.emailInvalid;
}

export function phoneError(digits: string): string | null {
  if (!digits) return MESSAGES.phoneRequired;
  return new RegExp(`^\\d{${PHONE_DIGITS}}$`).test(digits) ? null : MESSAGES.phoneInvalid;
}

function fileExtension(name: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  return m ? m[1].toLowerCase() : '';
}

/** Client-side resume check by name and size; the server decides the type from the file's bytes. */
export function resumeError(file: { name: string; size: number } | null | undefined): string | null {
  if (!file) return MESSAGES.resumeRequired;
  if (!(RESUME_EXTENSIONS as readonly string[]).includes(fileExtension(file.name))) return MESSAGES.resumeType;
  if (file.size > RESUME_MAX_BYTES) return MESSAGES.resumeSize;
  return null;
}

/** 'YYYY-MM' within the year range, or null when malformed. */
export function parseYearMonth(v: string, now = new Date()): { year: number; month: number } | null {
  const m = YEAR_MONTH.exec(v);
  if (!m) return null;
  const year = Number(m[1]);
  if (year < YEAR_MIN || year > yearMax(now)) return null;
  return { year, month: Number(m[2]) };
}

export function isEndBeforeStart(start: string, end: string): boolean {
  return !!start && !!end && end < start;
}

/** The month + year pickers hold a half-chosen date as "YYYY-" or "-MM": the other half is still missing. */
export function isHalfChosen(v: string): boolean {
  return /^(\d{4}-|-\d{2})$/.test(v);
}

/**
 * The message for one date of an entry, or null when it is fine: missing (or half chosen) is
 * 'Required' for the start and fine for the optional end; present but not a month of a year from
 * 1970 to this year + 5 (bad format, month outside 01-12, year out of range) is 'Choose a valid
 * month and year.' The order of start and end is checked only when both are valid.
 */
export function yearMonthError(v: string, required: boolean, now = new Date()): string | null {
  if (!v) return required ? MESSAGES.required : null;
  if (isHalfChosen(v)) return MESSAGES.required;
  return parseYearMonth(v, now) ? null : MESSAGES.dateInvalid;
}

// ---- Application state and step validation ----

export interface ExperienceEntry {
  company: string;
  role: string;
  start: string; // YYYY-MM
  end: string; // YYYY-MM or ''
  notice_period: string;
  salary: string;
  description: string;
}

export interface EducationEntry {
  school: string;
  degree: string;
  field: string;
  start: string;
  end: string;
}

export type AnswerValue = string | string[];

export interface QuestionRule {
  id: number;
  required: boolean;
  answer_type: AnswerType;
  options: string[];
}

export type EntryErrors = Record<string, string>;

export interface BasicInfo {
  first_name: string;
  last_name: string;
  email: string;
  phone: string; // digits only
}

export function validateBasic(
  b: BasicInfo,
  resume: { name: string; size: number } | null | undefined,
  checkResume = true,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const add = (k: string, m: string | null) => {
    if (m) errors[k] = m;
  };
  add('first_name', firstNameError(b.first_name));
  add('last_name', lastNameError(b.last_name));
  add('email', emailError(b.email));
  add('phone', phoneError(b.phone));
  if (checkResume) add('resume', resumeError(resume));
  return errors;
}

function dateErrors(e: { start: string; end: string }, errors: EntryErrors, now: Date): void {
  const start = yearMonthError(e.start, true, now);
  const end = yearMonthError(e.end, false, now);
  if (start) errors.start = start;
  if (end) errors.end = end;
  else if (!start && isEndBeforeStart(e.start, e.end)) errors.end = MESSAGES.endBeforeStart;
}

/** Per-entry errors, index-aligned with the entries; an empty object means the entry is fine. */
export function validateExperiences(list: ExperienceEntry[], now = new Date()): EntryErrors[] {
  return list.map((e) => {
    const errors: EntryErrors = {};
    if (!e.company.trim()) errors.company = MESSAGES.required;
    if (!e.role.trim()) errors.role = MESSAGES.required;
    dateErrors(e, errors, now);
    return errors;
  });
}

export function validateEducation(list: EducationEntry[], now = new Date()): EntryErrors[] {
  return list.map((e) => {
    const errors: EntryErrors = {};
    if (!e.school.trim()) errors.school = MESSAGES.required;
    if (!e.degree.trim()) errors.degree = MESSAGES.required;
    dateErrors(e, errors, now);
    return errors;
  });
}

export function isEmptyAnswer(v: AnswerValue | undefined | null): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return String(v).trim() === '';
}

/**
 * HTML's "valid floating-point number" (what `<input type=number>` accepts and sends): an optional
 * minus, digits with an optional fraction or a fraction alone (`.5`), an optional exponent
 * (`1e3`, `2.5E-2`). No plus sign, no trailing dot, no Infinity/NaN/hex/separators.
 */
const FLOAT_PATTERN = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Surrounding white space is ignored (the API trims); white space alone is no number. */
export function isNumeric(v: string): boolean {
  return FLOAT_PATTERN.test(v.trim());
}

/** A number answer's message: not a number, or a number whose magnitude the database cannot hold. */
export function numberAnswerError(v: string): string | null {
  if (!isNumeric(v)) return MESSAGES.numberInvalid;
  const n = Number(v.trim());
  return Number.isFinite(n) && Math.abs(n) <= NUMBER_ANSWER_MAX ? null : MESSAGES.numberRange;
}

/** question id -> message, for required questions left empty (message 'Required'). */
export function validateAnswers(questions: QuestionRule[], answers: Record<number, AnswerValue>): Record<number, string> {
  const errors: Record<number, string> = {};
  for (const q of questions) {
    const v = answers[q.id];
    if (q.required && isEmptyAnswer(v)) errors[q.id] = MESSAGES.required;
    else if (!isEmptyAnswer(v) && q.answer_type === 'number') {
      const message = numberAnswerError(String(v));
      if (message) errors[q.id] = message;
    }
  }
  return errors;
}

/** Skills: trimmed, blanks and case-insensitive duplicates ignored. */
export function addSkill(skills: string[], raw: string): string[] {
  const s = raw.trim().slice(0, LIMITS.skillLength);
  if (!s || skills.some((k) => k.toLowerCase() === s.toLowerCase())) return skills;
  return [...skills, s];
}

export function normaliseSkills(list: string[]): string[] {
  return list.reduce<string[]>((acc, s) => addSkill(acc, s), []);
}

/** Suggestions after 2 typed characters, at most 8, not already chosen. */
export function suggestSkills(all: readonly string[], typed: string, chosen: string[]): string[] {
  const t = typed.trim().toLowerCase();
  if (t.length < SKILL_SUGGESTIONS_FROM) return [];
  const taken = new Set(chosen.map((s) => s.toLowerCase()));
  return all.filter((s) => s.toLowerCase().includes(t) && !taken.has(s.toLowerCase())).slice(0, SKILL_SUGGESTIONS_MAX);
}

/** The phone as sent: dial code and digits joined, e.g. +919876543210. */
export function joinPhone(code: string, digits: string): string {
  return `${code}${digits}`;
}

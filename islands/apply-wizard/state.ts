/**
 * The wizard's form state, steps and per-step validation. Every rule and message comes from the
 * shared rules module (src/shared/application-rules.ts) that the apply API uses too.
 * Errors are keyed like the API's error body (`email`, `professional_experiences.0.company`,
 * `answers.12`), so client and server errors land in the same places.
 */
import {
  CONSENT_FIELD,
  DEFAULT_PHONE_CODE,
  MESSAGES,
  isEmptyAnswer,
  validateAnswers,
  validateBasic,
  validateEducation,
  validateExperiences,
  type AnswerValue,
  type EducationEntry,
  type EntryErrors,
  type ExperienceEntry,
} from '../../src/shared/application-rules.js';
import { DIAL_CODES } from '../../src/shared/dial-codes.js';
import type { WizardJob, WizardQuestion } from '../../src/applicants/types.js';
import { WIZARD_STEP_LABELS, type WizardStep } from '../../src/funnel/types.js';

export interface FormState {
  first_name: string;
  last_name: string;
  email: string;
  /** ISO country of the chosen dial code (two countries can share one code, e.g. +1). */
  phone_country: string;
  phone: string;
  experiences: ExperienceEntry[];
  education: EducationEntry[];
  skills: string[];
  /** question id -> answer; a checkbox answer is a list of options. */
  answers: Record<string, AnswerValue>;
}

export type ResumeFile = { name: string; size: number };
export type Errors = Record<string, string>;

/** The steps' keys and names are the funnel's too (src/funnel/types.ts), so HR sees the same names. */
export type StepKey = WizardStep;

export const STEP_LABELS: Record<StepKey, string> = WIZARD_STEP_LABELS;

/** Step-level banner messages (spec 01 section 5). */
export const STEP_MESSAGES: Record<StepKey, string | null> = {
  basic: MESSAGES.basicStep,
  experience: MESSAGES.experienceStep,
  education_skills: MESSAGES.educationStep,
  questions: MESSAGES.questionsStep,
  review: MESSAGES.consentRequired,
};

/** DESIGN.md: the Questions step only when the job has questions (4 steps otherwise). */
export function stepsFor(job: WizardJob): StepKey[] {
  return job.questions.length
    ? ['basic', 'experience', 'education_skills', 'questions', 'review']
    : ['basic', 'experience', 'education_skills', 'review'];
}

export const DEFAULT_COUNTRY = DIAL_CODES.find((d) => d.code === DEFAULT_PHONE_CODE)!.iso;

export function dialCodeOf(iso: string): string {
  return (DIAL_CODES.find((d) => d.iso === iso) ?? DIAL_CODES.find((d) => d.code === DEFAULT_PHONE_CODE)!).code;
}

export function emptyForm(): FormState {
  return {
    first_name: '',
    last_name: '',
    email: '',
    phone_country: DEFAULT_COUNTRY,
    phone: '',
    experiences: [],
    education: [],
    skills: [],
    answers: {},
  };
}

export const emptyExperience = (): ExperienceEntry => ({
  company: '',
  role: '',
  start: '',
  end: '',
  notice_period: '',
  salary: '',
  description: '',
});
export const emptyEducation = (): EducationEntry => ({ school: '', degree: '', field: '', start: '', end: '' });

// ---- Month + year pickers keep a possibly half-chosen date as "YYYY-", "-MM" or "YYYY-MM" ----

export function splitYearMonth(v: string): { year: string; month: string } {
  const [year = '', month = ''] = v.split('-');
  return { year, month };
}

export function joinYearMonth(year: string, month: string): string {
  return year || month ? `${year}-${month}` : '';
}

const isPartial = (v: string) => !!v && !/^\d{4}-\d{2}$/.test(v);

/** The shared entry rules, plus: a half-chosen optional end date asks for its other half. */
function entryErrors(list: { start: string; end: string }[], shared: EntryErrors[]): EntryErrors[] {
  return shared.map((e, i) => (isPartial(list[i].end) ? { ...e, end: MESSAGES.required } : e));
}

function prefixed(name: string, list: EntryErrors[]): Errors {
  const out: Errors = {};
  list.forEach((e, i) => {
    for (const [k, m] of Object.entries(e)) out[`${name}.${i}.${k}`] = m;
  });
  return out;
}

/**
 * Errors of one step, keyed like the API's error body. `unparsed` holds the ids of number
 * questions whose input the browser could not read as a number (`validity.badInput`: the input's
 * value is then '', which would pass for unanswered).
 */
export function validateStep(
  step: StepKey,
  form: FormState,
  resume: ResumeFile | null,
  questions: WizardQuestion[],
  unparsed: ReadonlySet<number> = new Set(),
  now = new Date(),
): Errors {
  switch (step) {
    case 'basic':
      return validateBasic(form, resume);
    case 'experience':
      return prefixed('professional_experiences', entryErrors(form.experiences, validateExperiences(form.experiences, now)));
    case 'education_skills':
      return prefixed('education', entryErrors(form.education, validateEducation(form.education, now)));
    case 'questions': {
      const errors = validateAnswers(questions, form.answers as Record<number, AnswerValue>);
      for (const q of questions) if (q.answer_type === 'number' && unparsed.has(q.id)) errors[q.id] = MESSAGES.numberInvalid;
      return Object.fromEntries(Object.entries(errors).map(([id, m]) => [`answers.${id}`, m]));
    }
    case 'review':
      return {};
  }
}

/** Which step shows the field an (API) error key belongs to. */
export function stepOfKey(key: string): StepKey | null {
  const root = key.split('.')[0];
  if (['first_name', 'last_name', 'email', 'phone', 'resume'].includes(root)) return 'basic';
  if (root === 'professional_experiences') return 'experience';
  if (root === 'education' || root === 'skills') return 'education_skills';
  if (root === 'answers') return 'questions';
  if (root === CONSENT_FIELD) return 'review';
  return null;
}

/** Answers as the API takes them: only the questions answered, in the job's order. */
export function answersPayload(
  questions: WizardQuestion[],
  answers: Record<string, AnswerValue>,
): { question_id: number; answer: AnswerValue }[] {
  const out: { question_id: number; answer: AnswerValue }[] = [];
  for (const q of questions) {
    const v = answers[String(q.id)];
    if (isEmptyAnswer(v)) continue;
    out.push({ question_id: q.id, answer: Array.isArray(v) ? q.options.filter((o) => v.includes(o)) : String(v).trim() });
  }
  return out;
}

/** DOM ids for a field key: `professional_experiences.0.company` -> `f-professional_experiences-0-company`. */
export function fieldId(key: string): string {
  return `f-${key.replace(/\./g, '-')}`;
}

export function errorId(key: string): string {
  return `${fieldId(key)}-error`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2020-04" -> "April 2020"; '' -> ''. */
export function formatYearMonth(v: string): string {
  const { year, month } = splitYearMonth(v);
  const m = Number(month);
  return year && m >= 1 && m <= 12 ? `${MONTHS[m - 1]} ${year}` : '';
}

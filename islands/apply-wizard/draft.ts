/**
 * The wizard's draft in localStorage, one per job (`careers:apply:{publicId}`): everything typed
 * except the resume file, which browsers cannot store. What is read back is checked field by
 * field, since anything may sit in localStorage (an older version, another tab, a user's edits).
 */
import { LIMITS, NAME_MAX, PHONE_DIGITS, type AnswerValue } from '../../src/shared/application-rules.js';
import { DIAL_CODES } from '../../src/shared/dial-codes.js';
import { DEFAULT_COUNTRY, type FormState } from './state.js';
import type { WizardQuestion } from '../../src/applicants/types.js';

const VERSION = 1;

const draftKey = (publicId: string) => `careers:apply:${publicId}`;

interface Draft {
  v: number;
  saved_at: string;
  form: FormState;
}

function str(v: unknown, max: number): string {
  return typeof v === 'string' ? v.slice(0, max) : '';
}

const YEAR_MONTH_DRAFT = /^(\d{4})?-(\d{2})?$/;
const date = (v: unknown) => {
  const s = str(v, 7);
  return YEAR_MONTH_DRAFT.test(s) && s !== '-' ? s : '';
};

function list<T>(v: unknown, max: number, item: (o: Record<string, unknown>) => T): T[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o))
    .slice(0, max)
    .map(item);
}

function answers(v: unknown, questions: WizardQuestion[]): Record<string, AnswerValue> {
  const out: Record<string, AnswerValue> = {};
  if (typeof v !== 'object' || v === null) return out;
  const raw = v as Record<string, unknown>;
  for (const q of questions) {
    const a = raw[String(q.id)];
    if (q.answer_type === 'checkbox') {
      if (Array.isArray(a)) out[q.id] = q.options.filter((o) => a.includes(o));
    } else if (q.answer_type === 'single_choice') {
      if (typeof a === 'string' && q.options.includes(a)) out[q.id] = a;
    } else if (typeof a === 'string') {
      out[q.id] = a.slice(0, LIMITS.answerText);
    }
  }
  return out;
}

/** The saved form for this job, or null when there is none (or it cannot be read). */
export function loadDraft(publicId: string, questions: WizardQuestion[]): FormState | null {
  try {
    const raw = window.localStorage.getItem(draftKey(publicId));
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    if (d?.v !== VERSION || typeof d.form !== 'object' || d.form === null) return null;
    const f = d.form as unknown as Record<string, unknown>;
    const T = LIMITS.textField;
    const country = str(f.phone_country, 2);
    return {
      first_name: str(f.first_name, NAME_MAX),
      last_name: str(f.last_name, NAME_MAX),
      email: str(f.email, 254),
      phone_country: DIAL_CODES.some((c) => c.iso === country) ? country : DEFAULT_COUNTRY,
      phone: str(f.phone, PHONE_DIGITS).replace(/\D/g, ''),
      experiences: list(f.experiences, LIMITS.experiences, (o) => ({
        company: str(o.company, T),
        role: str(o.role, T),
        start: date(o.start),
        end: date(o.end),
        notice_period: str(o.notice_period, T),
        salary: str(o.salary, T),
        description: str(o.description, LIMITS.description),
      })),
      education: list(f.education, LIMITS.education, (o) => ({
        school: str(o.school, T),
        degree: str(o.degree, T),
        field: str(o.field, T),
        start: date(o.start),
        end: date(o.end),
      })),
      skills: Array.isArray(f.skills)
        ? f.skills
            .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
            .slice(0, LIMITS.skills)
            .map((s) => s.slice(0, LIMITS.skillLength))
        : [],
      answers: answers(f.answers, questions),
    };
  } catch {
    return null;
  }
}

/** Saving may fail (private mode, quota): the wizard works the same without a draft. */
export function saveDraft(publicId: string, form: FormState): void {
  try {
    const d: Draft = { v: VERSION, saved_at: new Date().toISOString(), form };
    window.localStorage.setItem(draftKey(publicId), JSON.stringify(d));
  } catch {
    /* ignored: a draft is a convenience */
  }
}

export function clearDraft(publicId: string): void {
  try {
    window.localStorage.removeItem(draftKey(publicId));
  } catch {
    /* ignored */
  }
}

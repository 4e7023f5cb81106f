/** The job editor's form state: the draft, its conversion from and to the HR API's job, and the snapshot that tells unsaved changes. */
import type { HrJob } from '../../src/jobs/types.js';
import { CHOICE_ANSWER_TYPES } from '../../src/shared/enums.js';

export interface Option {
  value: string;
  label: string;
}

export interface Props {
  mode: 'create' | 'edit';
  jobId: number | null;
  /** The saved title, for the heading while the job loads. */
  title: string;
  jobTypes: Option[];
  workModes: Option[];
  statuses: Option[];
  answerTypes: Option[];
  currencies: string[];
  salaryPeriods: Option[];
  /** The departments of the other job posts, suggested under Department. */
  departments: string[];
  /** Whether this user may change the webhook (admins only, issue 28); otherwise it is shown read-only. */
  canChangeWebhook: boolean;
  /** Whether this user may override the publishing checks with a note (admins only, issue 34). */
  canOverrideChecks: boolean;
}

export interface QuestionDraft {
  /** Stable React key; `id` is the server's (null until saved). */
  key: string;
  id: number | null;
  text: string;
  help_text: string;
  placeholder: string;
  required: boolean;
  answer_type: string;
  options: string[];
}

export interface Draft {
  public_id: string;
  title: string;
  department: string;
  location: string;
  job_type: string;
  work_mode: string;
  status: string;
  currency: string;
  min_salary: string;
  max_salary: string;
  salary_period: string;
  experience_required: string;
  duration: string;
  /** The closing date as the browser's datetime-local value, in its time zone ('' for none). */
  closes_at: string;
  /** ISO country codes as typed, separated by commas or spaces. */
  applicant_countries: string;
  description: string;
  responsibilities: string;
  requirements: string;
  perks_benefits: string;
  webhook_enabled: boolean;
  webhook_url: string;
  webhook_secret: string;
  webhook_include_source: boolean;
  questions: QuestionDraft[];
}

/** Whether questions of this answer type offer options. */
export function isChoice(answerType: string): boolean {
  return (CHOICE_ANSWER_TYPES as readonly string[]).includes(answerType);
}

/** Fields checked together on the server: editing one of them may fix the other's message. */
export const RELATED_FIELDS: Partial<Record<keyof Draft, (keyof Draft)[]>> = {
  min_salary: ['min_salary', 'max_salary'],
  max_salary: ['min_salary', 'max_salary'],
  webhook_enabled: ['webhook_enabled', 'webhook_url'],
};

/** Errors without the keys `drop` picks (the same object when none is picked). */
export function withoutErrors(errors: Record<string, string>, drop: (key: string) => boolean): Record<string, string> {
  return Object.keys(errors).some(drop) ? Object.fromEntries(Object.entries(errors).filter(([k]) => !drop(k))) : errors;
}

let keySeq = 0;
const newKey = () => `n${++keySeq}`;

export function emptyQuestion(): QuestionDraft {
  return { key: newKey(), id: null, text: '', help_text: '', placeholder: '', required: false, answer_type: 'short_text', options: [] };
}

export function emptyDraft(): Draft {
  return {
    public_id: '',
    title: '',
    department: '',
    location: '',
    job_type: '',
    work_mode: '',
    status: 'INACTIVE',
    currency: 'USD',
    min_salary: '',
    max_salary: '',
    salary_period: 'YEAR',
    experience_required: '',
    duration: '',
    closes_at: '',
    applicant_countries: '',
    description: '',
    responsibilities: '',
    requirements: '',
    perks_benefits: '',
    webhook_enabled: false,
    webhook_url: '',
    webhook_secret: '',
    webhook_include_source: false,
    questions: [],
  };
}

export function toDraft(job: HrJob, previous?: Draft): Draft {
  return {
    public_id: job.public_id,
    title: job.title,
    department: job.department ?? '',
    location: job.location,
    job_type: job.job_type,
    work_mode: job.work_mode,
    status: job.status,
    currency: job.currency,
    min_salary: job.min_salary === null ? '' : String(job.min_salary),
    max_salary: job.max_salary === null ? '' : String(job.max_salary),
    salary_period: job.salary_period,
    experience_required: job.experience_required,
    duration: job.duration ?? '',
    closes_at: job.closes_at ? localDateTime(new Date(job.closes_at)) : '',
    applicant_countries: job.applicant_countries.join(', '),
    description: job.description,
    responsibilities: job.responsibilities,
    requirements: job.requirements,
    perks_benefits: job.perks_benefits,
    webhook_enabled: job.webhook_enabled,
    webhook_url: job.webhook_url ?? '',
    webhook_secret: job.webhook_secret ?? '',
    webhook_include_source: job.webhook_include_source,
    // Keys survive a save, so the question editors stay mounted.
    questions: job.questions.map((q, i) => ({
      key: previous?.questions[i]?.key ?? newKey(),
      id: q.id,
      text: q.text,
      help_text: q.help_text,
      placeholder: q.placeholder,
      required: q.required,
      answer_type: q.answer_type,
      options: q.options,
    })),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as a datetime-local value in the browser's time zone (seconds only when there are some). */
function localDateTime(d: Date): string {
  const base = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.getSeconds() ? `${base}:${pad(d.getSeconds())}` : base;
}

/** A datetime-local value (the browser's time zone) as a UTC instant; what cannot be read is sent as it is, for the server to refuse. */
export function utcInstant(local: string): string | null {
  const s = local.trim();
  if (!s) return null;
  const d = new Date(s);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && Number.isFinite(d.getTime()) ? d.toISOString() : s;
}

/** Country codes as typed ('us, ca gb') as the list the API takes. */
export function countryCodes(typed: string): string[] {
  return typed
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
}

/** Blank salary -> null (spec 02 section 5 "Job save"); anything else is sent for the server to judge. */
function salary(v: string): number | string | null {
  const s = v.trim();
  if (!s) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
}

export function toPayload(d: Draft, mode: Props['mode']) {
  return {
    ...(mode === 'create' ? { public_id: d.public_id.trim() || null } : { public_id: d.public_id }),
    title: d.title,
    department: d.department,
    location: d.location,
    job_type: d.job_type,
    work_mode: d.work_mode,
    status: d.status,
    currency: d.currency,
    min_salary: salary(d.min_salary),
    max_salary: salary(d.max_salary),
    salary_period: d.salary_period,
    experience_required: d.experience_required,
    duration: d.duration,
    closes_at: utcInstant(d.closes_at),
    applicant_countries: countryCodes(d.applicant_countries),
    description: d.description,
    responsibilities: d.responsibilities,
    requirements: d.requirements,
    perks_benefits: d.perks_benefits,
    webhook_enabled: d.webhook_enabled,
    webhook_url: d.webhook_url,
    webhook_secret: d.webhook_secret,
    webhook_include_source: d.webhook_include_source,
    // Options only for choice questions, blank ones dropped; order is the position in the list.
    questions: d.questions.map((q, order) => ({
      ...(q.id ? { id: q.id } : {}),
      text: q.text,
      help_text: q.help_text,
      placeholder: q.placeholder,
      required: q.required,
      answer_type: q.answer_type,
      options: isChoice(q.answer_type) ? q.options.map((o) => o.trim()).filter(Boolean) : [],
      order,
    })),
  };
}

/** The form as the server would receive it: two equal snapshots mean nothing to save. */
export function snapshot(d: Draft, mode: Props['mode']): string {
  return JSON.stringify(toPayload(d, mode));
}

export type SetField = <K extends keyof Draft>(key: K, value: Draft[K]) => void;

/**
 * A draft read back from localStorage (components/drafts.ts), field by field: strings and
 * booleans of the right type, questions with their text fields and options; anything else is the
 * empty form's value. Null when it is no form at all.
 */
export function fromStoredDraft(raw: unknown): Draft | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const base = emptyDraft();
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(base)) {
    if (k !== 'questions' && typeof r[k] === typeof v) out[k] = typeof v === 'string' ? (r[k] as string).slice(0, 100_000) : r[k];
  }
  const text = (q: Record<string, unknown>, k: string) => (typeof q[k] === 'string' ? (q[k] as string).slice(0, 10_000) : '');
  out.questions = (Array.isArray(r.questions) ? r.questions : [])
    .filter((q): q is Record<string, unknown> => !!q && typeof q === 'object' && !Array.isArray(q))
    .slice(0, 200)
    .map((q) => ({
      ...emptyQuestion(),
      id: Number.isInteger(q.id) ? (q.id as number) : null,
      text: text(q, 'text'),
      help_text: text(q, 'help_text'),
      placeholder: text(q, 'placeholder'),
      required: q.required === true,
      answer_type: text(q, 'answer_type') || 'short_text',
      options: Array.isArray(q.options) ? q.options.filter((o): o is string => typeof o === 'string').slice(0, 200) : [],
    }));
  return out as unknown as Draft;
}

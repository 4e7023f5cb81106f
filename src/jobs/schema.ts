/**
 * Input schema of a job (HR create/update, CLI seed files). Answers field errors keyed by field,
 * nested keys as "questions.0.text". Rich text is sanitised here, on save.
 */
import { FieldErrorBag } from '../http/errors.js';
import { ANSWER_TYPES, CHOICE_ANSWER_TYPES, JOB_TYPES, RECORD_STATUSES, WORK_MODES, isOneOf, type AnswerType, type JobType, type RecordStatus, type WorkMode } from '../shared/enums.js';
import { sanitizeRichText } from '../shared/sanitize.js';

export interface QuestionInput {
  id: number | null;
  text: string;
  help_text: string;
  placeholder: string;
  required: boolean;
  answer_type: AnswerType;
  options: string[];
  order: number;
}

export interface JobInput {
  public_id: string | null;
  title: string;
  location: string;
  job_type: JobType;
  work_mode: WorkMode;
  description: string;
  responsibilities: string;
  requirements: string;
  perks_benefits: string;
  currency: string;
  min_salary: number | null;
  max_salary: number | null;
  experience_required: string;
  duration: string | null;
  status: RecordStatus;
  webhook_enabled: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  questions: QuestionInput[];
}

export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const RICH_TEXT_MAX = 100_000;
const MAX_QUESTIONS = 50;
const MAX_OPTIONS = 50;
const MAX_SALARY = 999_999_999_999;

/** ISO 4217 codes the runtime knows; the job editor offers the same list. */
export const CURRENCY_CODES: readonly string[] = [...((Intl as any).supportedValuesOf?.('currency') ?? ['USD', 'EUR', 'GBP', 'INR'])].sort();
const CURRENCIES = new Set(CURRENCY_CODES);

export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

function text(bag: FieldErrorBag, key: string, v: unknown, opts: { required?: boolean; max: number; label?: string }): string {
  if (v === undefined || v === null) v = '';
  if (typeof v !== 'string' && typeof v !== 'number') {
    bag.add(key, 'Must be text.');
    return '';
  }
  const s = String(v).replace(/\u0000/g, '').trim();
  if (opts.required && !s) bag.add(key, 'This field is required.');
  if (s.length > opts.max) bag.add(key, `Ensure this field has no more than ${opts.max} characters.`);
  return s;
}

function richText(bag: FieldErrorBag, key: string, v: unknown, required = false): string {
  if (v === undefined || v === null) v = '';
  if (typeof v !== 'string') {
    bag.add(key, 'Must be text.');
    return '';
  }
  if (v.length > RICH_TEXT_MAX) bag.add(key, `Ensure this field has no more than ${RICH_TEXT_MAX} characters.`);
  const clean = sanitizeRichText(v);
  if (required && !clean.replace(/<[^>]*>/g, '').trim()) bag.add(key, 'This field is required.');
  return clean;
}

function bool(bag: FieldErrorBag, key: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (v === 'true' || v === 'false') return v === 'true';
  bag.add(key, 'Must be true or false.');
  return fallback;
}

/** Blank salary -> null; otherwise a non-negative number. */
function salary(bag: FieldErrorBag, key: string, v: unknown): number | null {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d{1,15}(\.\d{1,2})?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) {
    bag.add(key, 'A valid number is required.');
    return null;
  }
  if (n < 0) bag.add(key, 'Ensure this value is greater than or equal to 0.');
  else if (n > MAX_SALARY) bag.add(key, `Ensure this value is less than or equal to ${MAX_SALARY}.`);
  return n;
}

function question(bag: FieldErrorBag, i: number, raw: unknown): QuestionInput {
  const key = (f: string) => `questions.${i}.${f}`;
  const q = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  if (q !== raw) bag.add(`questions.${i}`, 'Must be an object.');
  const answerType = q.answer_type;
  if (!isOneOf(ANSWER_TYPES, answerType)) bag.add(key('answer_type'), `Must be one of ${ANSWER_TYPES.join(', ')}.`);
  const type = (isOneOf(ANSWER_TYPES, answerType) ? answerType : 'short_text') as AnswerType;
  let options: string[] = [];
  if (CHOICE_ANSWER_TYPES.includes(type)) {
    if (q.options !== undefined && q.options !== null && !Array.isArray(q.options)) bag.add(key('options'), 'Must be a list of text.');
    const list = Array.isArray(q.options) ? q.options : [];
    if (list.some((o) => typeof o !== 'string' && typeof o !== 'number')) bag.add(key('options'), 'Must be a list of text.');
    // Blank options removed, duplicates collapsed.
    options = [...new Set(list.filter((o) => typeof o === 'string' || typeof o === 'number').map((o) => String(o).trim()).filter(Boolean))];
    if (options.length === 0) bag.add(key('options'), 'Add at least one option.');
    if (options.length > MAX_OPTIONS) bag.add(key('options'), `At most ${MAX_OPTIONS} options.`);
    if (options.some((o) => o.length > 191)) bag.add(key('options'), 'Ensure each option has no more than 191 characters.');
  }
  const rawOrder = q.order;
  let order = i;
  if (rawOrder !== undefined && rawOrder !== null && rawOrder !== '') {
    if (typeof rawOrder === 'number' && Number.isInteger(rawOrder) && rawOrder >= 0 && rawOrder < 10_000) order = rawOrder;
    else if (typeof rawOrder === 'string' && /^\d{1,4}$/.test(rawOrder)) order = Number(rawOrder);
    else bag.add(key('order'), 'A valid integer is required.');
  }
  // An id names an existing question of this job (kept, so past answers stay linked); anything else is a new question.
  const rawId = typeof q.id === 'string' && /^\d{1,9}$/.test(q.id) ? Number(q.id) : q.id;
  const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId > 0 ? rawId : null;
  return {
    id,
    text: richText(bag, key('text'), q.text, true),
    help_text: richText(bag, key('help_text'), q.help_text),
    placeholder: text(bag, key('placeholder'), q.placeholder, { max: 191 }),
    required: bool(bag, key('required'), q.required, false),
    answer_type: type,
    options,
    order,
  };
}

/** Validates a job payload; throws ValidationError (400) with every problem found. */
export function parseJobInput(body: unknown): JobInput {
  const bag = new FieldErrorBag();
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    bag.add('detail', 'Expected a JSON object.');
    bag.throwIfAny('Expected a JSON object.');
  }
  const b = body as Record<string, unknown>;

  let publicId: string | null = null;
  if (b.public_id !== undefined && b.public_id !== null && String(b.public_id).trim() !== '') {
    publicId = String(b.public_id).trim();
    if (typeof b.public_id !== 'string' || !PUBLIC_ID_PATTERN.test(publicId)) {
      bag.add('public_id', 'Use 1 to 64 letters, digits, hyphens or underscores.');
    }
  }

  const jobType = b.job_type;
  if (!isOneOf(JOB_TYPES, jobType)) bag.add('job_type', jobType ? `Must be one of ${JOB_TYPES.join(', ')}.` : 'This field is required.');
  const workMode = b.work_mode;
  if (!isOneOf(WORK_MODES, workMode)) bag.add('work_mode', workMode ? `Must be one of ${WORK_MODES.join(', ')}.` : 'This field is required.');
  const status = b.status === undefined || b.status === null || b.status === '' ? 'INACTIVE' : b.status;
  if (!isOneOf(RECORD_STATUSES, status)) bag.add('status', `Must be one of ${RECORD_STATUSES.join(', ')}.`);

  let currency = 'USD';
  if (b.currency !== undefined && b.currency !== null && b.currency !== '') {
    currency = typeof b.currency === 'string' ? b.currency.trim().toUpperCase() : '';
    if (!CURRENCIES.has(currency)) bag.add('currency', 'Enter a valid ISO 4217 currency code, such as USD.');
  }
  const min = salary(bag, 'min_salary', b.min_salary);
  const max = salary(bag, 'max_salary', b.max_salary);
  if (min !== null && max !== null && min > max) bag.add('max_salary', 'Maximum salary must be greater than or equal to minimum salary.');

  const webhookEnabled = bool(bag, 'webhook_enabled', b.webhook_enabled, false);
  const webhookUrl = text(bag, 'webhook_url', b.webhook_url, { max: 2048 }) || null;
  if (webhookUrl && !isHttpUrl(webhookUrl)) bag.add('webhook_url', 'Enter a valid http or https URL.');
  if (webhookEnabled && !webhookUrl) bag.add('webhook_url', 'A webhook URL is required when the webhook is enabled.');
  const webhookSecret = text(bag, 'webhook_secret', b.webhook_secret, { max: 255 }) || null;

  let questions: QuestionInput[] = [];
  if (b.questions !== undefined && b.questions !== null) {
    if (!Array.isArray(b.questions)) bag.add('questions', 'Must be a list.');
    else if (b.questions.length > MAX_QUESTIONS) bag.add('questions', `At most ${MAX_QUESTIONS} questions.`);
    else questions = b.questions.map((q, i) => question(bag, i, q));
  }

  const input: JobInput = {
    public_id: publicId,
    title: text(bag, 'title', b.title, { required: true, max: 191 }),
    location: text(bag, 'location', b.location, { required: true, max: 191 }),
    job_type: jobType as JobType,
    work_mode: workMode as WorkMode,
    description: richText(bag, 'description', b.description),
    responsibilities: richText(bag, 'responsibilities', b.responsibilities),
    requirements: richText(bag, 'requirements', b.requirements),
    perks_benefits: richText(bag, 'perks_benefits', b.perks_benefits),
    currency,
    min_salary: min,
    max_salary: max,
    experience_required: text(bag, 'experience_required', b.experience_required, { max: 191 }),
    duration: text(bag, 'duration', b.duration, { max: 191 }) || null,
    status: status as RecordStatus,
    webhook_enabled: webhookEnabled,
    webhook_url: webhookUrl,
    webhook_secret: webhookSecret,
    questions,
  };
  bag.throwIfAny();
  return input;
}

/**
 * Input schema of a job (HR create/update, CLI seed files). Answers field errors keyed by field,
 * nested keys as "questions.0.text". Rich text is sanitised here, on save (reads serve it as stored),
 * and refused when nested deeper than RICH_TEXT_MAX_DEPTH.
 * Text fields take strings only (null or a missing field means blank); salaries take a JSON number
 * or a decimal string with at most 2 decimals; the webhook URL is stored normalised.
 */
import { FieldErrorBag, ValidationError } from '../http/errors.js';
import { isAllowedHost } from '../http/private-address.js';
import { ANSWER_TYPES, CHOICE_ANSWER_TYPES, JOB_TYPES, RECORD_STATUSES, WORK_MODES, isOneOf, type AnswerType, type JobType, type RecordStatus, type WorkMode } from '../shared/enums.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, sanitizeRichText } from '../shared/sanitize.js';
import type { Job, PublicJobFilters } from './types.js';

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

export interface JobInputOptions {
  /** WEBHOOK_ALLOW_PRIVATE: accept webhook URLs naming local, private or other non-public hosts. */
  allowPrivateWebhook?: boolean;
  /** The rich texts the job being updated has stored now (see storedRichTexts). */
  storedRichTexts?: ReadonlySet<string>;
}

/**
 * The rich texts a job has stored. An update may send any of them back unchanged and it is kept as
 * it is, whatever rules have tightened since it was saved: Remove PUTs the whole job back.
 */
export function storedRichTexts(job: Job): ReadonlySet<string> {
  const texts = [job.description, job.responsibilities, job.requirements, job.perks_benefits, ...job.questions.flatMap((q) => [q.text, q.help_text])];
  return new Set(texts.filter(Boolean));
}

export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const RICH_TEXT_MAX = 100_000;
export const WEBHOOK_URL_MAX = 2048;
const MAX_QUESTIONS = 50;
const MAX_OPTIONS = 50;
const MAX_SALARY = 999_999_999_999;

/** ISO 4217 codes the runtime knows; the job editor offers the same list. */
export const CURRENCY_CODES: readonly string[] = [...((Intl as any).supportedValuesOf?.('currency') ?? ['USD', 'EUR', 'GBP', 'INR'])].sort();
const CURRENCIES = new Set(CURRENCY_CODES);

export const WEBHOOK_MESSAGES = {
  invalid: 'Enter a valid http or https URL.',
  credentials: 'Webhook URL must not contain a user name or password.',
  private: 'Webhook URL must not point to a private or local address.',
  required: 'A webhook URL is required when the webhook is enabled.',
} as const;

export const RICH_TEXT_TOO_DEEP = 'Rich text is nested too deeply.';

export const SALARY_MESSAGES = {
  invalid: 'A valid number is required.',
  decimals: 'Ensure that there are no more than 2 decimal places.',
} as const;

/** An absolute http(s) URL with a host, parsed the WHATWG way; anything else is null. */
export function parseHttpUrl(v: string): URL | null {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u : null;
  } catch {
    return null;
  }
}

/**
 * Text fields take strings only: a number, boolean, list or object is refused ('Must be text.')
 * rather than stored as its string form. A missing field or null is blank.
 */
function text(bag: FieldErrorBag, key: string, v: unknown, opts: { required?: boolean; max: number; label?: string }): string {
  if (v === undefined || v === null) v = '';
  if (typeof v !== 'string') {
    bag.add(key, 'Must be text.');
    return '';
  }
  const s = v.replace(/\u0000/g, '').trim();
  if (opts.required && !s) bag.add(key, 'This field is required.');
  if (s.length > opts.max) bag.add(key, `Ensure this field has no more than ${opts.max} characters.`);
  return s;
}

function richText(bag: FieldErrorBag, key: string, v: unknown, opts: JobInputOptions, required = false): string {
  if (v === undefined || v === null) v = '';
  if (typeof v !== 'string') {
    bag.add(key, 'Must be text.');
    return '';
  }
  if (opts.storedRichTexts?.has(v)) return v;
  if (v.length > RICH_TEXT_MAX) {
    bag.add(key, `Ensure this field has no more than ${RICH_TEXT_MAX} characters.`);
    return '';
  }
  const clean = sanitizeRichText(v);
  if (required && !clean.replace(/<[^>]*>/g, '').trim()) bag.add(key, 'This field is required.');
  else if (richTextDepth(clean) > RICH_TEXT_MAX_DEPTH && !opts.storedRichTexts?.has(clean)) bag.add(key, RICH_TEXT_TOO_DEEP);
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

/**
 * Decimal places of a number written as JavaScript prints it or as a plain decimal string
 * ('1.5', '1.234', '1.5e-7'); trailing zeros do not count ('1.500' has one).
 */
export function decimalPlaces(s: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) return Infinity;
  const fraction = (m[1] ?? '').replace(/0+$/, '');
  return Math.max(0, fraction.length - Number(m[2] ?? 0));
}

/**
 * Blank salary -> null; otherwise a non-negative number with at most 2 decimals (the column is
 * DECIMAL(14,2): more would be kept by SQLite and rounded by MySQL), given as a JSON number or a
 * plain decimal string ('55000', '55000.50').
 */
function salary(bag: FieldErrorBag, key: string, v: unknown): number | null {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  let n = NaN;
  let places = Infinity;
  if (typeof v === 'number' && Number.isFinite(v)) {
    n = v;
    places = decimalPlaces(String(v));
  } else if (typeof v === 'string' && /^\s*-?\d{1,15}(\.\d{1,20})?\s*$/.test(v)) {
    n = Number(v);
    places = decimalPlaces(v.trim());
  }
  if (!Number.isFinite(n)) {
    bag.add(key, SALARY_MESSAGES.invalid);
    return null;
  }
  if (n < 0) bag.add(key, 'Ensure this value is greater than or equal to 0.');
  else if (n > MAX_SALARY) bag.add(key, `Ensure this value is less than or equal to ${MAX_SALARY}.`);
  else if (places > 2) bag.add(key, SALARY_MESSAGES.decimals);
  return n;
}

/**
 * The webhook URL as stored: WHATWG-normalised (`http:/example.com` -> `http://example.com/`),
 * http or https, without credentials, and (unless WEBHOOK_ALLOW_PRIVATE) naming a host the outbound
 * address policy allows: not localhost nor any address outside global unicast, in any spelling.
 */
function webhookUrl(bag: FieldErrorBag, v: unknown, opts: JobInputOptions): string | null {
  const raw = text(bag, 'webhook_url', v, { max: WEBHOOK_URL_MAX });
  if (!raw) return null;
  const url = parseHttpUrl(raw);
  if (!url) {
    bag.add('webhook_url', WEBHOOK_MESSAGES.invalid);
    return raw;
  }
  if (url.username || url.password) bag.add('webhook_url', WEBHOOK_MESSAGES.credentials);
  else if (!opts.allowPrivateWebhook && !isAllowedHost(url.hostname)) bag.add('webhook_url', WEBHOOK_MESSAGES.private);
  // Normalising percent-encodes spaces and non-ASCII characters, so check the length again.
  else if (url.href.length > WEBHOOK_URL_MAX) bag.add('webhook_url', `Ensure this field has no more than ${WEBHOOK_URL_MAX} characters.`);
  return url.href;
}

function question(bag: FieldErrorBag, i: number, raw: unknown, opts: JobInputOptions): QuestionInput {
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
    if (list.some((o) => typeof o !== 'string')) bag.add(key('options'), 'Must be a list of text.');
    // Blank options removed, duplicates collapsed.
    options = [...new Set(list.filter((o): o is string => typeof o === 'string').map((o) => o.trim()).filter(Boolean))];
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
    text: richText(bag, key('text'), q.text, opts, true),
    help_text: richText(bag, key('help_text'), q.help_text, opts),
    placeholder: text(bag, key('placeholder'), q.placeholder, { max: 191 }),
    required: bool(bag, key('required'), q.required, false),
    answer_type: type,
    options,
    order,
  };
}

/** Validates a job payload; throws ValidationError (400) with every problem found. */
export function parseJobInput(body: unknown, opts: JobInputOptions = {}): JobInput {
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
  const webhook = webhookUrl(bag, b.webhook_url, opts);
  if (webhookEnabled && !webhook) bag.add('webhook_url', WEBHOOK_MESSAGES.required);
  const webhookSecret = text(bag, 'webhook_secret', b.webhook_secret, { max: 255 }) || null;

  let questions: QuestionInput[] = [];
  if (b.questions !== undefined && b.questions !== null) {
    if (!Array.isArray(b.questions)) bag.add('questions', 'Must be a list.');
    else if (b.questions.length > MAX_QUESTIONS) bag.add('questions', `At most ${MAX_QUESTIONS} questions.`);
    else questions = b.questions.map((q, i) => question(bag, i, q, opts));
  }

  const input: JobInput = {
    public_id: publicId,
    title: text(bag, 'title', b.title, { required: true, max: 191 }),
    location: text(bag, 'location', b.location, { required: true, max: 191 }),
    job_type: jobType as JobType,
    work_mode: workMode as WorkMode,
    description: richText(bag, 'description', b.description, opts),
    responsibilities: richText(bag, 'responsibilities', b.responsibilities, opts),
    requirements: richText(bag, 'requirements', b.requirements, opts),
    perks_benefits: richText(bag, 'perks_benefits', b.perks_benefits, opts),
    currency,
    min_salary: min,
    max_salary: max,
    experience_required: text(bag, 'experience_required', b.experience_required, { max: 191 }),
    duration: text(bag, 'duration', b.duration, { max: 191 }) || null,
    status: status as RecordStatus,
    webhook_enabled: webhookEnabled,
    webhook_url: webhook,
    webhook_secret: webhookSecret,
    questions,
  };
  bag.throwIfAny();
  return input;
}

/**
 * A search text as the databases can agree on it: control characters (U+0000-U+001F, U+007F) are
 * dropped and the rest trimmed. SQLite and MySQL treat a NUL inside LIKE differently (one matched
 * every job, the other none), and no job title or location contains one.
 */
export function cleanFilterText(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/**
 * The public job list's filters, from query parameters (`param` answers '' when absent); empty
 * strings mean "no filter". Strict for the API (400 on an unknown choice), lenient for pages.
 */
export function parseJobFilters(param: (name: string) => string, strict: boolean): PublicJobFilters {
  const text = (name: string) => cleanFilterText(param(name));
  const f: PublicJobFilters = {
    title: text('title').slice(0, 191).trim(),
    location: text('location').slice(0, 191).trim(),
    job_type: text('job_type'),
    work_mode: text('work_mode'),
  };
  const errors: Record<string, string[]> = {};
  if (f.job_type && !isOneOf(JOB_TYPES, f.job_type)) {
    errors.job_type = [choiceMessage(f.job_type)];
    f.job_type = '';
  }
  if (f.work_mode && !isOneOf(WORK_MODES, f.work_mode)) {
    errors.work_mode = [choiceMessage(f.work_mode)];
    f.work_mode = '';
  }
  if (strict && Object.keys(errors).length) throw new ValidationError(errors);
  return f;
}

/** `?status=` of the HR job list: empty for every job, else one of RECORD_STATUSES (400 otherwise). */
export function parseStatusFilter(raw: string): RecordStatus | null {
  if (!raw) return null;
  if (!isOneOf(RECORD_STATUSES, raw)) throw new ValidationError({ status: [choiceMessage(raw)] });
  return raw;
}

/** Django's answer to an unknown choice, with the value cut short. */
export function choiceMessage(value: string): string {
  return `Select a valid choice. ${value.slice(0, 40)} is not one of the available choices.`;
}

/**
 * Input rules of the jobs feature, Node-free (the job editor island imports the limits):
 * - a job (HR create/update, `jobs seed --file`): `jobInputSchema`, errors keyed by field, nested
 *   keys as "questions.0.text", listed in JOB_ERROR_ORDER. Text fields take strings only (null or a
 *   missing field means blank); salaries take a JSON number or a decimal string with at most 2
 *   decimals; the webhook URL is stored normalised. What needs server code comes in as
 *   JobInputRules: the rich-text sanitiser (rich text is sanitised on save, reads serve it as
 *   stored) and the outbound address policy, so the island bundles neither;
 * - the public job filters and the HR jobs list's `status` (query strings).
 * Schemas are built inside functions (once where they do not depend on the request), never at
 * module level: an island that imports a limit then bundles no zod (any use of it adds hundreds of
 * KB to a bundle).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import {
  PUBLIC_ID_MESSAGE,
  bool,
  choice,
  isBlank,
  isObject,
  oneLine,
  oneLineListCheck,
  outboundUrl,
  publicIdInput,
  rowRef,
  signingSecret,
  textInput,
} from '../shared/input-rules.js';
import {
  ANSWER_TYPES,
  CHOICE_ANSWER_TYPES,
  JOB_TYPES,
  RECORD_STATUSES,
  SALARY_PERIODS,
  WORK_MODES,
  isOneOf,
  type AnswerType,
  type JobType,
  type RecordStatus,
  type SalaryPeriod,
  type WorkMode,
} from '../shared/enums.js';
import type { Job, PublicJobFilters } from './types.js';

interface QuestionInput {
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
  department: string | null;
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
  salary_period: SalaryPeriod;
  experience_required: string;
  duration: string | null;
  status: RecordStatus;
  closes_at: Date | null;
  applicant_countries: string[];
  webhook_enabled: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  /** Issue 21: the webhook payload also carries where the applicant came from. */
  webhook_include_source: boolean;
  questions: QuestionInput[];
}

/** What the job rules need from the server. */
export interface JobInputRules {
  /** Rich text as it is saved (src/shared/sanitize.ts). */
  sanitizeRichText(html: string): string;
  /** Whether sanitised rich text nests deeper than a saved text may. */
  richTextTooDeep(html: string): boolean;
  /** Whether a webhook URL may name this host; absent, any host may be named (WEBHOOK_ALLOW_PRIVATE). */
  webhookHostAllowed?: (hostname: string) => boolean;
  /** The rich texts the job being updated has stored now (see storedRichTexts). */
  storedRichTexts?: ReadonlySet<string>;
  /** The webhook secret the job being updated has stored now: sent back unchanged, it passes whatever rule it was saved under. */
  storedWebhookSecret?: string | null;
  /** Whether a code is an ISO 3166-1 alpha-2 country (the server's list; the island leaves it to the server). */
  isCountryCode?: (code: string) => boolean;
}

/**
 * The rich texts a job has stored. An update may send any of them back unchanged and it is kept as
 * it is, whatever rules have tightened since it was saved: Remove PUTs the whole job back.
 */
export function storedRichTexts(job: Job): ReadonlySet<string> {
  const texts = [
    job.description,
    job.responsibilities,
    job.requirements,
    job.perks_benefits,
    ...job.questions.flatMap((q) => [q.text, q.help_text]),
  ];
  return new Set(texts.filter(Boolean));
}

/** Longest values the job form takes; the job editor sets its inputs' maxlength from these. */
export const JOB_LIMITS = {
  text: 191,
  publicId: 64,
  richText: 100_000,
  webhookUrl: 2048,
  webhookSecret: 255,
  questions: 50,
  options: 50,
  option: 191,
  salary: 999_999_999_999,
  /** Countries a remote job may name: every ISO 3166-1 country fits. */
  countries: 250,
} as const;

/** ISO 4217 codes the runtime knows; the job editor offers the same list. */
export const CURRENCY_CODES: readonly string[] = [
  ...((Intl as any).supportedValuesOf?.('currency') ?? ['USD', 'EUR', 'GBP', 'INR']),
].sort();

export const JOB_MESSAGES = {
  notObject: 'Expected a JSON object.',
  required: FIELD_MESSAGES.required,
  notText: FIELD_MESSAGES.notText,
  tooLong: FIELD_MESSAGES.tooLong,
  oneOf: (list: readonly string[]) => `Must be one of ${list.join(', ')}.`,
  notBoolean: 'Must be true or false.',
  publicId: PUBLIC_ID_MESSAGE,
  currency: 'Enter a valid ISO 4217 currency code, such as USD.',
  salaryInvalid: 'A valid number is required.',
  salaryDecimals: 'Ensure that there are no more than 2 decimal places.',
  salaryMin: 'Ensure this value is greater than or equal to 0.',
  salaryMax: `Ensure this value is less than or equal to ${JOB_LIMITS.salary}.`,
  salaryOrder: 'Maximum salary must be greater than or equal to minimum salary.',
  webhookInvalid: 'Enter a valid http or https URL.',
  webhookCredentials: 'Webhook URL must not contain a user name or password.',
  webhookPrivate: 'Webhook URL must not point to a private or local address.',
  webhookRequired: 'A webhook URL is required when the webhook is enabled.',
  webhookAdminOnly:
    'Only an admin may change where applications are sent: the webhook (on or off, URL, secret, source in the payload). Ask an admin of your team.',
  webhookReadOnly: 'Only an admin can change these settings: each application goes to this address.',
  richTextTooDeep: 'Rich text is nested too deeply.',
  notList: FIELD_MESSAGES.notList,
  questionNotObject: FIELD_MESSAGES.notObject,
  tooManyQuestions: `At most ${JOB_LIMITS.questions} questions.`,
  optionsNotText: FIELD_MESSAGES.notTextList,
  noOptions: 'Add at least one option.',
  tooManyOptions: `At most ${JOB_LIMITS.options} options.`,
  optionTooLong: `Ensure each option has no more than ${JOB_LIMITS.option} characters.`,
  order: 'A valid integer is required.',
  closesAtInvalid: 'Enter a date and time with its time zone, such as 2026-12-31T17:00:00Z.',
  closesAtPast: 'The closing date must be in the future.',
  countriesNotList: 'Give a list of ISO 3166-1 alpha-2 country codes, such as ["US", "CA"].',
  tooManyCountries: `At most ${JOB_LIMITS.countries} countries.`,
  unknownCountry: (v: string) => `${v.slice(0, 40)} is not an ISO 3166-1 alpha-2 country code.`,
  /** A query's value that is not one of its choices (shown as sent, cut to 40 characters). */
  notAChoice: (v: string) => `Select a valid choice. ${v.slice(0, 40)} is not one of the available choices.`,
} as const;

/** The order of a job's error keys (and of a question's). */
export const JOB_ERROR_ORDER = [
  'detail',
  'public_id',
  'job_type',
  'work_mode',
  'status',
  'closes_at',
  'currency',
  'min_salary',
  'max_salary',
  'salary_period',
  'applicant_countries',
  'webhook_enabled',
  'webhook_url',
  'webhook_secret',
  'webhook_include_source',
  'questions',
  'title',
  'department',
  'location',
  'description',
  'responsibilities',
  'requirements',
  'perks_benefits',
  'experience_required',
  'duration',
  'answer_type',
  'options',
  'order',
  'text',
  'help_text',
  'placeholder',
  'required',
] as const;

/**
 * Decimal places of a number written as JavaScript prints it or as a plain decimal string
 * ('1.5', '1.234', '1.5e-7'); trailing zeros do not count ('1.500' has one).
 */
function decimalPlaces(s: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) return Infinity;
  const fraction = (m[1] ?? '').replace(/0+$/, '');
  return Math.max(0, fraction.length - Number(m[2] ?? 0));
}

/** Rich text, sanitised unless it is one the job has stored; required means some text, not just tags. */
function richText(rules: JobInputRules, required = false) {
  const stored = (v: string) => !!rules.storedRichTexts?.has(v);
  return z.pipe(
    textInput(),
    z.string().check(
      z.check<string>((ctx) => {
        if (stored(ctx.value)) return;
        if (ctx.value.length > JOB_LIMITS.richText)
          return void ctx.issues.push(issue(ctx.value, JOB_MESSAGES.tooLong(JOB_LIMITS.richText)));
        ctx.value = rules.sanitizeRichText(ctx.value);
        if (required && !ctx.value.replace(/<[^>]*>/g, '').trim()) ctx.issues.push(issue(ctx.value, JOB_MESSAGES.required));
        else if (rules.richTextTooDeep(ctx.value) && !stored(ctx.value)) ctx.issues.push(issue(ctx.value, JOB_MESSAGES.richTextTooDeep));
      }),
    ),
  );
}

/**
 * Blank salary -> null; otherwise a non-negative number with at most 2 decimals (the column is
 * DECIMAL(14,2): more would be kept by SQLite and rounded by MySQL), given as a JSON number or a
 * plain decimal string ('55000', '55000.50'). The decimals are counted as sent.
 */
const salary = () =>
  z.transform((v: unknown, ctx): number | null => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
    let n = NaN;
    let places = Infinity;
    if (typeof v === 'number' && Number.isFinite(v)) [n, places] = [v, decimalPlaces(String(v))];
    else if (typeof v === 'string' && /^\s*-?\d{1,15}(\.\d{1,20})?\s*$/.test(v)) [n, places] = [Number(v), decimalPlaces(v.trim())];
    const message = !Number.isFinite(n)
      ? JOB_MESSAGES.salaryInvalid
      : n < 0
        ? JOB_MESSAGES.salaryMin
        : n > JOB_LIMITS.salary
          ? JOB_MESSAGES.salaryMax
          : places > 2
            ? JOB_MESSAGES.salaryDecimals
            : null;
    if (message) ctx.issues.push(issue(v, message));
    return Number.isFinite(n) ? n : null;
  });

/** A choice question's options: text only, blanks dropped, duplicates collapsed, 1 to 50 of at most 191 characters. */
const choiceOptions = () =>
  z.unknown().check(
    z.refine((v) => isBlank(v) || Array.isArray(v), JOB_MESSAGES.optionsNotText),
    z.refine((v) => !Array.isArray(v) || v.every((o) => typeof o === 'string'), JOB_MESSAGES.optionsNotText),
    z.overwrite((v) => [
      ...new Set(
        (Array.isArray(v) ? v : [])
          .filter((o): o is string => typeof o === 'string')
          .map((o) => o.trim())
          .filter(Boolean),
      ),
    ]),
    z.refine((list) => (list as string[]).length > 0, JOB_MESSAGES.noOptions),
    z.refine((list) => (list as string[]).length <= JOB_LIMITS.options, JOB_MESSAGES.tooManyOptions),
    z.refine((list) => (list as string[]).every((o) => o.length <= JOB_LIMITS.option), JOB_MESSAGES.optionTooLong),
    oneLineListCheck(),
  ) as z.ZodMiniType<string[]>;

/** A question's order: a whole number 0-9999 (as a number or digits); blank means its position. */
const order = () =>
  z.unknown().check(
    z.refine(
      (v) =>
        isBlank(v) ||
        (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 10_000) ||
        (typeof v === 'string' && /^\d{1,4}$/.test(v)),
      JOB_MESSAGES.order,
    ),
    z.overwrite((v) => (isBlank(v) ? null : Number(v))),
  ) as z.ZodMiniType<number | null>;

/** An id names an existing question of this job (kept, so past answers stay linked); anything else is a new question. */
const questionId = () =>
  z.transform((v: unknown) => {
    const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
  });

function questionSchema(rules: JobInputRules) {
  const options = choiceOptions();
  return z
    .object({
      id: questionId(),
      answer_type: z.enum(ANSWER_TYPES, JOB_MESSAGES.oneOf(ANSWER_TYPES)),
      options: z.optional(z.unknown()),
      order: z.optional(order()),
      text: richText(rules, true),
      help_text: richText(rules),
      placeholder: oneLine(JOB_LIMITS.text),
      required: bool(),
    })
    .check(
      z.check(
        (ctx) => {
          // Runs even when a field failed (`when`). Options count for choice questions only; an unknown
          // answer type is judged as short text.
          const q = ctx.value;
          if (!CHOICE_ANSWER_TYPES.includes(q.answer_type)) {
            q.options = [];
            return;
          }
          const r = options.safeParse(q.options);
          q.options = r.success ? r.data : [];
          for (const i of r.error?.issues ?? []) ctx.issues.push(issue(q.options, i.message, ['options']));
        },
        { when: () => true },
      ),
    );
}

/** The questions: a list of at most 50; an entry that is no object is refused and judged as an empty question. */
function questions(rules: JobInputRules) {
  const question = questionSchema(rules);
  return z.pipe(
    z.transform((v: unknown) => v ?? []),
    z.array(z.unknown(), JOB_MESSAGES.notList).check(
      z.maxLength(JOB_LIMITS.questions, { error: JOB_MESSAGES.tooManyQuestions, abort: true }),
      z.check<unknown[]>((ctx) => {
        ctx.value = ctx.value.map((raw, i) => {
          if (!isObject(raw)) ctx.issues.push(issue(raw, JOB_MESSAGES.questionNotObject, [i]));
          const r = question.safeParse(isObject(raw) ? raw : {});
          for (const e of r.error?.issues ?? []) ctx.issues.push(issue(raw, e.message, [i, ...e.path]));
          return { ...(r.data ?? {}), order: r.data?.order ?? i };
        });
      }),
    ),
  ) as unknown as z.ZodMiniType<QuestionInput[]>;
}

/** The latest instant a DATETIME(3) column of either database takes. */
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const INSTANT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/**
 * A closing instant: an ISO 8601 date and time that names its zone ('2026-12-31T17:00:00Z',
 * '2026-12-31T18:00:00+01:00'), kept as UTC; blank is none. A text without a zone is refused: the
 * server cannot know which zone the sender meant (the editor sends the browser's time as UTC).
 * Whether it lies in the future is the service's rule (it knows the time).
 */
const closingInstant = () =>
  z.transform((v: unknown, ctx): Date | null => {
    if (isBlank(v) || (typeof v === 'string' && !v.trim())) return null;
    const m = typeof v === 'string' ? INSTANT_PATTERN.exec(v.trim()) : null;
    const at = m ? Date.parse(v as string) : NaN;
    // Date.parse rolls 31 April over to 1 May; the calendar date must be one that exists.
    const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    const real =
      m &&
      new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day &&
      month >= 1 &&
      month <= 12 &&
      Number(m[4]) < 24 &&
      Number(m[6] ?? 0) < 60;
    if (!real || !Number.isFinite(at) || year < 2000 || at > LATEST_INSTANT) {
      ctx.issues.push(issue(v, JOB_MESSAGES.closesAtInvalid));
      return null;
    }
    return new Date(at);
  });

/** The countries applicants of a remote job may live in: ISO 3166-1 alpha-2 codes (any case), duplicates collapsed; missing or null is none. */
const applicantCountries = (isCountryCode: JobInputRules['isCountryCode']) =>
  z.transform((v: unknown, ctx): string[] => {
    if (isBlank(v)) return [];
    if (!Array.isArray(v) || !v.every((c) => typeof c === 'string')) {
      ctx.issues.push(issue(v, JOB_MESSAGES.countriesNotList));
      return [];
    }
    const codes = [...new Set(v.map((c) => c.trim().toUpperCase()).filter(Boolean))];
    if (codes.length > JOB_LIMITS.countries) {
      ctx.issues.push(issue(v, JOB_MESSAGES.tooManyCountries));
      return [];
    }
    const unknown = codes.find((c) => !/^[A-Z]{2}$/.test(c) || (isCountryCode && !isCountryCode(c)));
    if (unknown !== undefined) ctx.issues.push(issue(v, JOB_MESSAGES.unknownCountry(unknown)));
    return codes;
  });

/** The job schema with the server's rules (and, for an update, the job's stored texts). */
export function jobInputSchema(rules: JobInputRules) {
  const currencies = new Set(CURRENCY_CODES);
  return z
    .object(
      {
        public_id: publicIdInput(),
        job_type: choice(JOB_TYPES),
        work_mode: choice(WORK_MODES),
        status: choice(RECORD_STATUSES, 'INACTIVE'),
        currency: z.pipe(
          z.transform((v: unknown) => (isBlank(v) ? 'USD' : typeof v === 'string' ? v.trim().toUpperCase() : '')),
          z.string().check(z.refine((c) => currencies.has(c), JOB_MESSAGES.currency)),
        ),
        min_salary: salary(),
        max_salary: salary(),
        salary_period: choice(SALARY_PERIODS, 'YEAR'),
        closes_at: closingInstant(),
        applicant_countries: applicantCountries(rules.isCountryCode),
        webhook_enabled: bool(),
        webhook_url: outboundUrl(
          { invalid: JOB_MESSAGES.webhookInvalid, credentials: JOB_MESSAGES.webhookCredentials, private: JOB_MESSAGES.webhookPrivate },
          rules.webhookHostAllowed,
        ),
        webhook_secret: signingSecret(JOB_LIMITS.webhookSecret, rules.storedWebhookSecret),
        webhook_include_source: bool(),
        questions: questions(rules),
        title: oneLine(JOB_LIMITS.text, true),
        department: z.pipe(
          oneLine(JOB_LIMITS.text),
          z.transform((s) => s.replace(/\s+/g, ' ') || null),
        ),
        location: oneLine(JOB_LIMITS.text, true),
        description: richText(rules),
        responsibilities: richText(rules),
        requirements: richText(rules),
        perks_benefits: richText(rules),
        experience_required: oneLine(JOB_LIMITS.text),
        duration: z.pipe(
          oneLine(JOB_LIMITS.text),
          z.transform((s) => s || null),
        ),
      },
      JOB_MESSAGES.notObject,
    )
    .check(
      z.check(
        (ctx) => {
          // Rules across fields, judged on what the fields made of their values even when another field failed.
          const j = ctx.value;
          if (typeof j.min_salary === 'number' && typeof j.max_salary === 'number' && j.min_salary > j.max_salary)
            ctx.issues.push(issue(j.max_salary, JOB_MESSAGES.salaryOrder, ['max_salary']));
          if (j.webhook_enabled === true && !(typeof j.webhook_url === 'string' && j.webhook_url))
            ctx.issues.push(issue(j.webhook_url, JOB_MESSAGES.webhookRequired, ['webhook_url']));
        },
        { when: (p) => typeof p.value === 'object' && p.value !== null },
      ),
    ) as unknown as z.ZodMiniType<JobInput>;
}

/**
 * A search text as the databases can agree on it: control characters (U+0000-U+001F, U+007F) are
 * dropped and the rest trimmed. SQLite and MySQL treat a NUL inside LIKE differently (one matched
 * every job, the other none), and no job title or location contains one.
 */
function cleanFilterText(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/** A query value that must be one of `list` when given; the message quotes it as sent. */
function queryChoice(list: readonly string[]) {
  return z.string().check(z.refine((v) => !v || isOneOf(list, v), { error: (iss) => JOB_MESSAGES.notAChoice(String(iss.input)) }));
}

/** The public job list's query parameters. */
export const FILTER_NAMES = ['title', 'location', 'job_type', 'work_mode', 'department'] as const;

let filterSchemas: Record<'strict' | 'lenient', z.ZodMiniType<Required<PublicJobFilters>>> | undefined;

/**
 * The public job filters from the query (each value its first occurrence, trimmed; empty means no
 * filter): texts cleaned and cut to 191 characters (the department matched whole, the others
 * as contained), job type and work mode checked. Strict for the
 * API (an unknown choice is a 400); lenient for pages, where an unknown choice is no filter.
 */
export function jobFiltersSchema(strict: boolean): z.ZodMiniType<Required<PublicJobFilters>> {
  const build = (strict: boolean) => {
    const filterText = () => z.string().check(z.overwrite((v) => cleanFilterText(v).slice(0, JOB_LIMITS.text).trim()));
    const filterChoice = (list: readonly string[]) => {
      const checked = z.pipe(z.string().check(z.overwrite(cleanFilterText)), queryChoice(list));
      return strict ? checked : z.catch(checked, '');
    };
    return z.object({
      title: filterText(),
      location: filterText(),
      job_type: filterChoice(JOB_TYPES),
      work_mode: filterChoice(WORK_MODES),
      department: filterText(),
    }) as z.ZodMiniType<Required<PublicJobFilters>>;
  };
  filterSchemas ??= { strict: build(true), lenient: build(false) };
  return filterSchemas[strict ? 'strict' : 'lenient'];
}

let hrJobsQuery: z.ZodMiniType<{ status: RecordStatus | '' }> | undefined;

/** The HR jobs list's `?status=` (trimmed, empty means every status). */
export function hrJobsQuerySchema(): z.ZodMiniType<{ status: RecordStatus | '' }> {
  hrJobsQuery ??= z.object({ status: queryChoice(RECORD_STATUSES) }) as unknown as z.ZodMiniType<{ status: RecordStatus | '' }>;
  return hrJobsQuery;
}

/** The CLI's `--job`: a job's numeric id or its public id (a function: islands importing limits bundle no zod). */
export const jobOptionSchema = () => rowRef('Give a job id or a public id, as shown in Manage Jobs.');

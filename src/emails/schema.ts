/**
 * The inputs of the emails feature and their messages (issue 20, "Emails to candidates"): a
 * template (name, one-line subject, plain-text body; variables only from TEMPLATE_VARIABLES, and a
 * reminder template's own: issue 32), an
 * email to one application (a template, optionally edited before sending), and a bulk send with
 * an optional rejection. Node-free and built in functions, so islands import limits and messages
 * without bundling zod.
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { isRowId, oneLineCheck } from '../shared/input-rules.js';
import { templateVariables, isAutomaticPurpose, isReminderPurpose, type TemplatePurpose } from './types.js';

export const EMAIL_LIMITS = { name: 100, subject: 200, body: 10_000, reason: 100, bulk: 500, templates: 100, scheduleDays: 30 } as const;

/** The longest delay or schedule: 30 days, in minutes. */
export const MAX_DELAY_MINUTES = EMAIL_LIMITS.scheduleDays * 24 * 60;

/** The "Send later" choices screens offer, in minutes (0: at once). */
export const DELAY_CHOICES: { minutes: number; label: string }[] = [
  { minutes: 0, label: 'Now' },
  { minutes: 60, label: 'In 1 hour' },
  { minutes: 4 * 60, label: 'In 4 hours' },
  { minutes: 24 * 60, label: 'In 1 day' },
  { minutes: 2 * 24 * 60, label: 'In 2 days' },
  { minutes: 3 * 24 * 60, label: 'In 3 days' },
  { minutes: 7 * 24 * 60, label: 'In 1 week' },
];

/** "{first_name}, {last_name} … or {job_url}": the variables a template of this purpose may use. */
function listed(purpose: TemplatePurpose | null): string {
  const names = templateVariables(purpose).map((v) => `{${v}}`);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export const EMAIL_MESSAGES = {
  required: FIELD_MESSAGES.required,
  notText: FIELD_MESSAGES.notText,
  blank: 'This field may not be blank.',
  name: `Enter a name of 1 to ${EMAIL_LIMITS.name} characters on one line.`,
  nameTaken: 'A template with this name already exists.',
  subjectLines: 'The subject must be one line: no line breaks.',
  subjectControl: 'The subject must not contain control characters.',
  tooLong: FIELD_MESSAGES.tooLong,
  unknownVariable: (names: string[], purpose: TemplatePurpose | null = null) =>
    `Unknown ${names.length === 1 ? 'variable' : 'variables'} ${names.map((n) => `{${n}}`).join(', ')}: use ${listed(purpose)}.`,
  templateId: 'Select a valid template.',
  templateGone: 'This template no longer exists. Choose another.',
  notFound: 'Not found.',
  tooManyTemplates: `There can be at most ${EMAIL_LIMITS.templates} templates. Delete one first.`,
  ids: `Select between 1 and ${EMAIL_LIMITS.bulk} applications.`,
  id: 'A valid id is required.',
  outcome: 'The outcome must be REJECTED.',
  reason: 'Select a rejection reason from the list.',
  reasonWithoutOutcome: 'A reason goes with the outcome REJECTED.',
  emailOff: 'Email is off: set SMTP_URL to send email.',
  queuedOne: 'Email queued.',
  queuedMany: (n: number) => `${n} ${n === 1 ? 'email' : 'emails'} queued.`,
  notObject: FIELD_MESSAGES.notObject,
  delay: `The default delay must be a whole number of minutes from 0 to ${MAX_DELAY_MINUTES.toLocaleString('en')} (${EMAIL_LIMITS.scheduleDays} days), or null.`,
  sendAt: 'The time to send must be a date and time with its time zone, such as 2026-12-01T09:00:00+01:00, or null to send now.',
  sendAtPast: 'The time to send must be in the future.',
  sendAtFar: `The time to send may be at most ${EMAIL_LIMITS.scheduleDays} days ahead.`,
  emailAgain: 'email_again must be true or false.',
  remindFlag: 'Must be true or false.',
  remindOnlyReminders: 'Only the interview reminder templates are sent before interviews: leave this out or null.',
  reminderNoDelay: 'A reminder template is sent before each interview, never later: leave this out or null.',
  reminderKept: 'The interview reminder templates cannot be deleted: untick both times to send none.',
  alertKept: 'The job alert templates cannot be deleted: edit their text instead.',
  poolKept: 'The talent pool templates cannot be deleted: edit their text instead.',
  scheduledOne: (at: string) => `Email scheduled for ${at}.`,
  scheduledMany: (n: number, at: string) => `${n} ${n === 1 ? 'email' : 'emails'} scheduled for ${at}.`,
  cancelled: 'Email cancelled: it will not be sent.',
  cancelForbidden: 'Only the sender of this email or an admin may cancel it.',
  cancelSent: 'This email has already been sent: it can no longer be cancelled.',
  cancelFailed: 'This email could not be sent and is not waiting: nothing to cancel.',
  cancelDone: 'This email was already cancelled.',
  cancelSending: 'This email is being sent right now: it can no longer be cancelled.',
} as const;

const MB = 1024 * 1024;

/**
 * An email once its variables are filled in (issue 28): a template within its limits can still
 * grow (a `{job_title}` repeated fills to 170 KB), so the filled email has limits of its own, and
 * so does one bulk send, counted in the bytes it writes to the outbox.
 */
export const FILLED_LIMITS = {
  /** The subject as sent: no longer than a template's subject. */
  subject: EMAIL_LIMITS.subject,
  /** The message as sent, in characters. */
  body: 20_000,
  /** One bulk send's emails together: the UTF-8 bytes of every subject, text and HTML part. */
  bulkBytes: 20 * MB,
} as const;

export const SEND_MESSAGES = {
  subject: (n: number) =>
    `With its variables filled in, the subject would be ${n.toLocaleString('en')} characters; it may be at most ${FILLED_LIMITS.subject}. Shorten it.`,
  body: (n: number) =>
    `With its variables filled in, the message would be ${n.toLocaleString('en')} characters; it may be at most ${FILLED_LIMITS.body.toLocaleString('en')}. Shorten it.`,
  /** A bulk send: one applicant's email is over a limit above. */
  oneTooLong: (to: string, problem: string) => `The email to ${to} is too long. ${problem}`,
  bulkTooLarge: `Together these emails would be over ${FILLED_LIMITS.bulkBytes / MB} MB; one bulk send may queue at most ${FILLED_LIMITS.bulkBytes / MB} MB of email. Select fewer applications or shorten the template.`,
  removedJob: 'An application of a removed job cannot be emailed: leave it out of the selection.',
} as const;

/** `{word}` in a subject or body; anything else in braces is plain text. */
const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variables used in `text` that a template of this purpose may not use, each once. */
export function unknownVariables(text: string, purpose: TemplatePurpose | null = null): string[] {
  const known = templateVariables(purpose);
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]).filter((v) => !known.includes(v)))];
}

/** `text` with each variable replaced by its value (unknown ones are refused before this runs). */
export function fillVariables(text: string, values: Record<string, string>): string {
  return text.replace(VARIABLE, (all, name: string) => values[name] ?? all);
}

const chars = (s: string) => [...s].length;

/** A string field: text only, NUL removed, trimmed unless `keepSpace`. */
const str = () =>
  z.pipe(
    z.transform((v: unknown) => v ?? ''),
    z.string({ error: FIELD_MESSAGES.notText }),
  );

function variablesCheck(purpose: TemplatePurpose | null) {
  return z.superRefine((s: string, ctx) => {
    const unknown = unknownVariables(s, purpose);
    if (unknown.length) ctx.issues.push({ code: 'custom', input: s, message: EMAIL_MESSAGES.unknownVariable(unknown, purpose) });
  });
}

/** The template name: one line, 1 to 100 characters. */
const nameField = () =>
  z.pipe(
    str(),
    z.string().check(
      z.overwrite((s) => s.replace(/\u0000/g, '').trim()),
      z.refine((s) => s.length > 0 && chars(s) <= EMAIL_LIMITS.name && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s), {
        error: EMAIL_MESSAGES.name,
        abort: true,
      }),
      oneLineCheck(),
    ),
  );

/**
 * The subject: one line, never a line break (it becomes a header), 1 to 200 characters, known
 * variables only (those of the template's purpose). Refused rather than cleaned: HR sees what will be sent.
 */
const subjectField = (purpose: TemplatePurpose | null = null) =>
  z.pipe(
    str(),
    z.string().check(
      z.overwrite((s) => s.trim()),
      z.minLength(1, EMAIL_MESSAGES.blank),
      z.refine((s) => !/[\r\n\u2028\u2029\u0085]/.test(s), { error: EMAIL_MESSAGES.subjectLines, abort: true }),
      z.refine((s) => !/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/.test(s), {
        error: EMAIL_MESSAGES.subjectControl,
        abort: true,
      }),
      z.refine((s) => chars(s) <= EMAIL_LIMITS.subject, EMAIL_MESSAGES.tooLong(EMAIL_LIMITS.subject)),
      oneLineCheck(),
      variablesCheck(purpose),
    ),
  );

/** The body: plain text with its line breaks (CRLF as LF), 1 to 10,000 characters, known variables only. */
const bodyField = (purpose: TemplatePurpose | null = null) =>
  z.pipe(
    str(),
    z.string().check(
      z.overwrite((s) =>
        s
          .replace(/\r\n?/g, '\n')
          .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
          .trim(),
      ),
      z.minLength(1, EMAIL_MESSAGES.blank),
      z.refine((s) => chars(s) <= EMAIL_LIMITS.body, EMAIL_MESSAGES.tooLong(EMAIL_LIMITS.body)),
      variablesCheck(purpose),
    ),
  );

const mustBeObject = { error: EMAIL_MESSAGES.notObject };

const rowId = (message: string) =>
  z.pipe(
    z.unknown().check(z.refine((v) => isRowId(v), message)),
    z.transform((v) => Number(v)),
  );

/** A template's default delay: null (or 0) is at once; whole minutes up to MAX_DELAY_MINUTES. */
const delayField = () =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (v) => v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_DELAY_MINUTES),
          EMAIL_MESSAGES.delay,
        ),
      ),
    z.transform((v) => (v === null || v === 0 ? null : (v as number))),
  );

/** An ISO 8601 date and time with its zone (Z or ±hh:mm), as a Date; null is "now". The window (future, 30 days) is checked by the service, against its clock. */
const sendAtField = () =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (v) =>
            v === null ||
            (typeof v === 'string' &&
              v.length <= 40 &&
              /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
              !Number.isNaN(Date.parse(v))),
          EMAIL_MESSAGES.sendAt,
        ),
      ),
    z.transform((v) => (v === null ? null : new Date(v as string))),
  );

/**
 * Whether a reminder template is sent at one of its times (issue 32): true or false, required on a
 * reminder template; on any other template only left out or null (stored as null).
 */
const remindField = (reminder: boolean) =>
  z.pipe(
    z.unknown().check(
      z.refine((v) => !reminder || v !== undefined, { error: EMAIL_MESSAGES.required, abort: true }),
      z.refine(
        (v) => (reminder ? v === undefined || typeof v === 'boolean' : v === undefined || v === null),
        reminder ? EMAIL_MESSAGES.remindFlag : EMAIL_MESSAGES.remindOnlyReminders,
      ),
    ),
    z.transform((v) => (typeof v === 'boolean' ? v : null)),
  );

/** A reminder template's default delay: only left out or null (it is sent at its times before the interview). */
const noDelayField = () =>
  z.pipe(
    z.unknown().check(z.refine((v) => v === undefined || v === null, EMAIL_MESSAGES.reminderNoDelay)),
    z.transform((): number | null => null),
  );

/**
 * POST and PUT /api/hr/email-templates/: every field (`default_delay_minutes` left out is null).
 * `purpose` is the template's (PUT; a new one has none): it sets the variables the subject and body
 * may use, and a reminder template's `remind_24h` and `remind_1h`.
 */
export function templateSchema(purpose: TemplatePurpose | null = null) {
  const reminder = isReminderPurpose(purpose);
  return z.object(
    {
      name: z.pipe(z.unknown().check(z.refine((v) => v !== undefined, EMAIL_MESSAGES.required)), nameField()),
      subject: z.pipe(z.unknown().check(z.refine((v) => v !== undefined, EMAIL_MESSAGES.required)), subjectField(purpose)),
      body: z.pipe(z.unknown().check(z.refine((v) => v !== undefined, EMAIL_MESSAGES.required)), bodyField(purpose)),
      default_delay_minutes: z.optional(isAutomaticPurpose(purpose) ? noDelayField() : delayField()),
      remind_24h: reminder ? remindField(true) : z.optional(remindField(false)),
      remind_1h: reminder ? remindField(true) : z.optional(remindField(false)),
    },
    mustBeObject,
  );
}
export type TemplateInput = z.output<ReturnType<typeof templateSchema>>;

/**
 * An email to one application, previewed or sent: a template, and optionally its subject and
 * body as HR edited them for this email (the template stays as it is).
 */
export function sendSchema() {
  return z.object(
    {
      template_id: rowId(EMAIL_MESSAGES.templateId),
      subject: z.optional(subjectField()),
      body: z.optional(bodyField()),
      send_at: z.optional(sendAtField()),
    },
    mustBeObject,
  );
}
export type SendInput = z.output<ReturnType<typeof sendSchema>>;

/** A bulk send: up to 500 applications, a template, and optionally the rejection with its reason, in one request. */
export function bulkSchema() {
  return z.pipe(
    z.object(
      {
        ids: z.pipe(
          z.array(z.unknown(), { error: EMAIL_MESSAGES.ids }).check(
            z.minLength(1, EMAIL_MESSAGES.ids),
            z.maxLength(EMAIL_LIMITS.bulk, EMAIL_MESSAGES.ids),
            z.refine((ids) => ids.every((v) => isRowId(v)), EMAIL_MESSAGES.id),
          ),
          z.transform((ids) => [...new Set(ids.map(Number))]),
        ),
        template_id: rowId(EMAIL_MESSAGES.templateId),
        outcome: z.optional(z.unknown().check(z.refine((v) => v === 'REJECTED', EMAIL_MESSAGES.outcome))),
        reason: z.optional(
          z.pipe(
            str(),
            z.string().check(
              z.overwrite((s) => s.trim()),
              z.refine(
                (s) => s.length > 0 && chars(s) <= EMAIL_LIMITS.reason && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s),
                EMAIL_MESSAGES.reason,
              ),
            ),
          ),
        ),
        send_at: z.optional(sendAtField()),
        email_again: z.optional(z.unknown().check(z.refine((v) => typeof v === 'boolean', EMAIL_MESSAGES.emailAgain))),
      },
      mustBeObject,
    ),
    z.transform((v, ctx) => {
      if (v.outcome !== undefined && v.reason === undefined)
        ctx.issues.push({ code: 'custom', input: v, path: ['reason'], message: EMAIL_MESSAGES.reason });
      if (v.reason !== undefined && v.outcome === undefined)
        ctx.issues.push({ code: 'custom', input: v, path: ['reason'], message: EMAIL_MESSAGES.reasonWithoutOutcome });
      return {
        ids: v.ids,
        templateId: v.template_id,
        rejection: v.outcome !== undefined && v.reason !== undefined ? { reason: v.reason } : null,
        sendAt: v.send_at,
        emailAgain: v.email_again === true,
      };
    }),
  );
}
export type BulkInput = z.output<ReturnType<typeof bulkSchema>>;

/** A bulk send's preview: the selection and the template. */
export function bulkPreviewSchema() {
  return z.object(
    {
      ids: z.pipe(
        z.array(z.unknown(), { error: EMAIL_MESSAGES.ids }).check(
          z.minLength(1, EMAIL_MESSAGES.ids),
          z.maxLength(EMAIL_LIMITS.bulk, EMAIL_MESSAGES.ids),
          z.refine((ids) => ids.every((v) => isRowId(v)), EMAIL_MESSAGES.id),
        ),
        z.transform((ids) => [...new Set(ids.map(Number))]),
      ),
      template_id: rowId(EMAIL_MESSAGES.templateId),
    },
    mustBeObject,
  );
}

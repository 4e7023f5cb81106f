/**
 * Emails to candidates (issue 20): the templates HR edits, and emails written from them to one
 * application or many (with a rejection, in one transaction), queued in the email outbox of the
 * posts feature and sent by its delivery engine with its retries. Every value that goes into an
 * email is one line (a title saved with a line break stays out of the subject header), and the
 * HTML part is the text escaped, so a name or title can never be markup.
 */
import { brandedConfig } from '../branding/index.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound, ValidationError } from '../http/errors.js';
import { emailRecipients, type EmailRecipient } from '../applicants/index.js';
import { changePipeline } from '../pipeline/index.js';
import { cancelEmail, enqueueSentEmail, enqueueSentEmails, htmlOfText, oneLine, type EmailMessage } from '../posts/index.js';
import { findTemplate, listTemplates, scheduledEmails, senderOf } from './queries.js';
import { deleteTemplate, insertTemplate, lockTemplates, updateTemplate } from './repo.js';
import {
  EMAIL_LIMITS,
  EMAIL_MESSAGES,
  FILLED_LIMITS,
  MAX_DELAY_MINUTES,
  SEND_MESSAGES,
  fillVariables,
  type BulkInput,
  type SendInput,
  type TemplateInput,
} from './schema.js';
import {
  isAutomaticPurpose,
  isPoolPurpose,
  isReminderPurpose,
  type TEMPLATE_VARIABLES,
  type BulkEmailResult,
  type BulkPreview,
  type CancelledEmail,
  type EmailChoices,
  type EmailTemplate,
  type QueuedEmail,
  type RenderedEmail,
  type ScheduledEmail,
} from './types.js';

type Deps = Pick<AppContext, 'db' | 'config' | 'now'>;

// ---- Templates ----

export function templates({ db }: { db: Db }): Promise<EmailTemplate[]> {
  return listTemplates(db);
}

export async function template({ db }: { db: Db }, id: number): Promise<EmailTemplate> {
  const found = await findTemplate(db, id);
  if (!found) throw new NotFound(EMAIL_MESSAGES.notFound);
  return found;
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

/** Creates a template (names are unique in any case; at most EMAIL_LIMITS.templates of them). */
export async function createTemplate(deps: Deps, input: TemplateInput): Promise<EmailTemplate> {
  const id = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const current = await lockTemplates(trx);
      if (current.length >= EMAIL_LIMITS.templates) throw new ValidationError({}, EMAIL_MESSAGES.tooManyTemplates);
      if (current.some((t) => sameName(t.name, input.name))) throw new ValidationError({ name: [EMAIL_MESSAGES.nameTaken] });
      return insertTemplate(trx, input, deps.now());
    }),
  );
  return template(deps, id);
}

export async function replaceTemplate(deps: Deps, id: number, input: TemplateInput): Promise<EmailTemplate> {
  await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const current = await lockTemplates(trx);
      if (!current.some((t) => t.id === id)) throw new NotFound(EMAIL_MESSAGES.notFound);
      if (current.some((t) => t.id !== id && sameName(t.name, input.name))) throw new ValidationError({ name: [EMAIL_MESSAGES.nameTaken] });
      await updateTemplate(trx, id, input, deps.now());
    }),
  );
  return template(deps, id);
}

/** Deletes a template; emails sent from it keep its name on the timeline. The templates the system sends stay (409). */
export async function removeTemplate({ db }: { db: Db }, id: number): Promise<void> {
  const found = await template({ db }, id);
  if (isReminderPurpose(found.purpose)) throw new HttpError(409, EMAIL_MESSAGES.reminderKept, { detail: EMAIL_MESSAGES.reminderKept });
  if (isPoolPurpose(found.purpose)) throw new HttpError(409, EMAIL_MESSAGES.poolKept, { detail: EMAIL_MESSAGES.poolKept });
  if (isAutomaticPurpose(found.purpose)) throw new HttpError(409, EMAIL_MESSAGES.alertKept, { detail: EMAIL_MESSAGES.alertKept });
  if (!(await deleteTemplate(db, id))) throw new NotFound(EMAIL_MESSAGES.notFound);
}

// ---- Sending ----

const emailOn = (deps: Pick<Deps, 'config'>) => !!deps.config.mail.smtpUrl;

/** 409 while SMTP_URL is unset: nothing could ever deliver the email. */
function requireEmailOn(deps: Pick<Deps, 'config'>): void {
  if (!emailOn(deps)) throw new HttpError(409, EMAIL_MESSAGES.emailOff, { detail: EMAIL_MESSAGES.emailOff });
}

/** Whether email is on, and why not (the templates page says it). */
export function emailState(deps: Pick<Deps, 'config'>): Pick<EmailChoices, 'email_on' | 'off_reason'> {
  const on = emailOn(deps);
  return { email_on: on, off_reason: on ? null : EMAIL_MESSAGES.emailOff };
}

/** What a screen that sends email offers: the templates HR sends (not the interview reminders), and whether email is on. */
export async function emailChoices(deps: Deps): Promise<EmailChoices> {
  const templates = (await listTemplates(deps.db)).filter((t) => !isAutomaticPurpose(t.purpose));
  return { ...emailState(deps), templates };
}

/** The template chosen for a send (400 when it is gone or is a reminder template), with the subject and body to use. */
async function chosenTemplate(
  deps: Deps,
  input: { templateId: number; subject?: string; body?: string },
): Promise<{ template: EmailTemplate; subject: string; body: string }> {
  const found = await findTemplate(deps.db, input.templateId);
  if (!found) throw new ValidationError({ template_id: [EMAIL_MESSAGES.templateGone] });
  if (isAutomaticPurpose(found.purpose)) throw new ValidationError({ template_id: [EMAIL_MESSAGES.templateId] });
  return { template: found, subject: input.subject ?? found.subject, body: input.body ?? found.body };
}

const chars = (s: string) => [...s].length;

/** Who sends HR's email: the user's name for {sender_name} and the From name, and the Reply-To. */
interface SenderInfo {
  userId: number;
  name: string;
  replyTo: string | null;
  /** The From name: "Alice via Acme Careers" (MAIL_FROM's own name, or "<company> Careers"). */
  fromName: string;
  /** The configuration with the company as the site settings name it (issue 35), for {company_name}. */
  config: Deps['config'];
}

/** MAIL_FROM's display name, or "<company> Careers" when it has none. */
function fromDisplay(config: Deps['config']): string {
  const m = /^\s*"?([^"<]*?)"?\s*<[^<>]+>\s*$/.exec(config.mail.from);
  return m?.[1]?.trim() || `${oneLine(config.company.name)} Careers`;
}

/**
 * The sending user as emails show them: the Reply-To is their own address when
 * MAIL_REPLY_TO_SENDER is on and they have one (hr_users.email, when that column exists),
 * otherwise MAIL_REPLY_TO (or none).
 */
async function senderInfo(deps: Pick<Deps, 'db' | 'config'>, userId: number): Promise<SenderInfo> {
  const user = await senderOf(deps.db, userId);
  const config = await brandedConfig(deps.db, deps.config);
  const name = oneLine(user?.username ?? '');
  const replyTo = (config.mail.replyToSender && user?.email) || config.mail.replyTo;
  return { userId, name, replyTo, fromName: name ? `${name} via ${fromDisplay(config)}` : fromDisplay(config), config };
}

/** "26 November 2026": an application's date in emails (UTC). */
const applicationDate = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The values of TEMPLATE_VARIABLES for one applicant's email, each on one line. */
export function applicantValues(
  config: Deps['config'],
  to: EmailRecipient,
  senderName: string,
): Record<(typeof TEMPLATE_VARIABLES)[number], string> {
  return {
    first_name: oneLine(to.first_name),
    last_name: oneLine(to.last_name),
    job_title: oneLine(to.job_title),
    company_name: oneLine(config.company.name),
    sender_name: senderName,
    stage: oneLine(to.stage),
    application_date: applicationDate(to.created_at),
    job_url: `${config.publicBaseUrl}/careers/${encodeURIComponent(to.job_public_id)}`,
  };
}

/**
 * A template's email to `to` with `values` filled in, as every template's email is written: the
 * subject made one line, blank lines an empty value leaves made one, the HTML part the text
 * escaped; or, when the filled subject or message is over its limit, which (and no message).
 */
export function fillTemplate(
  to: string,
  subject: string,
  body: string,
  values: Record<string, string>,
): { message: EmailMessage; tooLong: { subject?: string[]; body?: string[] } | null } {
  const filledSubject = oneLine(fillVariables(subject, values));
  const filledBody = fillVariables(body, values)
    .replace(/\n(?:[ \t]*\n){2,}/g, '\n\n')
    .trim();
  // Measured before the HTML part is made: a refused email costs no more than its text.
  const subjectChars = chars(filledSubject);
  const bodyChars = chars(filledBody);
  const tooLong =
    subjectChars > FILLED_LIMITS.subject || bodyChars > FILLED_LIMITS.body
      ? {
          ...(subjectChars > FILLED_LIMITS.subject ? { subject: [SEND_MESSAGES.subject(subjectChars)] } : {}),
          ...(bodyChars > FILLED_LIMITS.body ? { body: [SEND_MESSAGES.body(bodyChars)] } : {}),
        }
      : null;
  if (tooLong) return { message: { to, subject: '', text: '', html: '' }, tooLong };
  const text = `${filledBody}\n`;
  return { message: { to, subject: filledSubject, text, html: htmlOfText(text) }, tooLong: null };
}

/** The email one applicant gets from `subject` and `body`, with its filled subject or message over its limit named. */
function render(
  to: EmailRecipient,
  subject: string,
  body: string,
  sender: SenderInfo,
): { message: EmailMessage; tooLong: { subject?: string[]; body?: string[] } | null } {
  const filled = fillTemplate(to.email, subject, body, applicantValues(sender.config, to, sender.name));
  if (filled.tooLong) return filled;
  const message: EmailMessage = { ...filled.message, fromName: sender.fromName };
  if (sender.replyTo) message.replyTo = sender.replyTo;
  return { message, tooLong: null };
}

/** One applicant's email, or a 400 naming the filled subject or message that is over its limit. */
function renderOne(to: EmailRecipient, subject: string, body: string, sender: SenderInfo): EmailMessage {
  const { message, tooLong } = render(to, subject, body, sender);
  if (tooLong) throw new ValidationError(tooLong);
  return message;
}

/**
 * Every applicant's email of a bulk send, or a 400 when one is over a filled limit or all of them
 * together are over FILLED_LIMITS.bulkBytes (stopping there: a refused send is never built whole).
 */
function renderBulk(
  recipients: EmailRecipient[],
  subject: string,
  body: string,
  sender: SenderInfo,
): { applicationId: number; message: EmailMessage }[] {
  const out: { applicationId: number; message: EmailMessage }[] = [];
  let bytes = 0;
  for (const to of recipients) {
    const { message, tooLong } = render(to, subject, body, sender);
    if (tooLong)
      throw new ValidationError({}, SEND_MESSAGES.oneTooLong(to.email, [...(tooLong.subject ?? []), ...(tooLong.body ?? [])].join(' ')));
    bytes += Buffer.byteLength(message.subject) + Buffer.byteLength(message.text) + Buffer.byteLength(message.html);
    if (bytes > FILLED_LIMITS.bulkBytes) throw new ValidationError({}, SEND_MESSAGES.bulkTooLarge);
    out.push({ applicationId: to.id, message });
  }
  return out;
}

async function recipient(db: Db, applicationId: number): Promise<EmailRecipient> {
  const [found] = await emailRecipients(db, [applicationId]);
  if (!found) throw new NotFound(EMAIL_MESSAGES.notFound);
  return found;
}

/**
 * When an email goes: `send_at` left out is the template's default delay (none: at once), null
 * is at once, a time must be in the future and at most EMAIL_LIMITS.scheduleDays ahead (400).
 */
function sendTime(deps: Pick<Deps, 'now'>, sendAt: Date | null | undefined, template: EmailTemplate): Date | null {
  const now = deps.now().getTime();
  if (sendAt === undefined) return template.default_delay_minutes ? new Date(now + template.default_delay_minutes * 60_000) : null;
  if (sendAt === null) return null;
  if (sendAt.getTime() <= now) throw new ValidationError({ send_at: [EMAIL_MESSAGES.sendAtPast] });
  // A minute's grace: "in 30 days" picked on a screen a little while ago is still allowed.
  if (sendAt.getTime() > now + (MAX_DELAY_MINUTES + 1) * 60_000) throw new ValidationError({ send_at: [EMAIL_MESSAGES.sendAtFar] });
  return sendAt;
}

/** The email as this applicant would get it (email need not be on to look). */
export async function previewEmail(deps: Deps, applicationId: number, input: SendInput, userId: number): Promise<RenderedEmail> {
  const to = await recipient(deps.db, applicationId);
  const chosen = await chosenTemplate(deps, { templateId: input.template_id, subject: input.subject, body: input.body });
  const { to: address, subject, text, html } = renderOne(to, chosen.subject, chosen.body, await senderInfo(deps, userId));
  return { to: address, subject, text, html };
}

/**
 * A bulk send's preview: the email of the first selected applicant who is not already rejected
 * (or the first, when all are), and which of those selected are already rejected, so the screen
 * can say how many a rejection would email again.
 */
export async function previewBulk(deps: Deps, input: { ids: number[]; template_id: number }, userId: number): Promise<BulkPreview> {
  const chosen = await chosenTemplate(deps, { templateId: input.template_id });
  const found = await emailRecipients(deps.db, input.ids);
  if (!found.length) throw new ValidationError({ ids: [EMAIL_MESSAGES.notFound] });
  const already = found.filter((r) => r.outcome === 'REJECTED');
  const first = found.find((r) => r.outcome !== 'REJECTED') ?? found[0];
  const { to, subject, text, html } = renderOne(first, chosen.subject, chosen.body, await senderInfo(deps, userId));
  const seen = new Set(found.map((r) => r.id));
  return {
    email: { to, subject, text, html },
    count: found.length,
    already_rejected: already.length,
    already_rejected_ids: already.map((r) => r.id),
    not_found: input.ids.filter((id) => !seen.has(id)),
  };
}

/** Queues one email to an application (201), from a template as HR may have edited it, now or at its time. */
export async function sendEmail(
  deps: Deps & Pick<AppContext, 'outbox'>,
  applicationId: number,
  input: SendInput,
  userId: number,
): Promise<QueuedEmail> {
  requireEmailOn(deps);
  const to = await recipient(deps.db, applicationId);
  const chosen = await chosenTemplate(deps, { templateId: input.template_id, subject: input.subject, body: input.body });
  const sendAfter = sendTime(deps, input.send_at, chosen.template);
  const message = renderOne(to, chosen.subject, chosen.body, await senderInfo(deps, userId));
  const sender = { sentBy: userId, templateId: chosen.template.id, templateName: chosen.template.name };
  const id = await withDbRetry(() =>
    deps.db.transaction((trx) => enqueueSentEmail(trx, { applicationId, message, sender, sendAfter }, deps.now())),
  );
  if (!sendAfter) deps.outbox.notify();
  return {
    id,
    application_id: applicationId,
    to: message.to,
    subject: message.subject,
    template_id: sender.templateId,
    template_name: sender.templateName,
    status: 'PENDING',
    send_after: sendAfter?.toISOString() ?? null,
    detail: sendAfter ? EMAIL_MESSAGES.scheduledOne(sendAfter.toISOString()) : EMAIL_MESSAGES.queuedOne,
  };
}

/**
 * A template's email to each of up to 500 applications, and with `rejection` their rejection
 * with its reason (the applicants feature's bulk outcome), in one transaction: all of it or
 * nothing. Ids that do not exist are answered back and get nothing. With a rejection, the
 * applications that were already rejected get no second email unless `emailAgain` (their ids
 * are answered as `skipped_ids`). An application of a removed job, an email over a filled limit,
 * or more than FILLED_LIMITS.bulkBytes in all refuse the whole send (400). The emails go now or
 * at their time (`send_at`, or the template's default delay).
 */
export async function sendBulk(
  deps: Deps & Pick<AppContext, 'outbox' | 'cache'>,
  input: BulkInput,
  userId: number,
): Promise<BulkEmailResult> {
  requireEmailOn(deps);
  const chosen = await chosenTemplate(deps, { templateId: input.templateId });
  const sendAfter = sendTime(deps, input.sendAt, chosen.template);
  const from = await senderInfo(deps, userId);
  const sender = { sentBy: userId, templateId: chosen.template.id, templateName: chosen.template.name };
  let queued: number[] = [];
  let skipped: number[] = [];
  let foundIds: number[] = [];
  // Runs in the transaction of the rejections (when there are any): a refusal here writes nothing.
  const queue = async (trx: Db, ids: number[], rejectedBefore: number[] = []) => {
    const skip = new Set(input.rejection && !input.emailAgain ? rejectedBefore : []);
    const all = await emailRecipients(trx, ids);
    foundIds = all.map((r) => r.id);
    const to = all.filter((r) => !skip.has(r.id));
    skipped = foundIds.filter((id) => skip.has(id));
    // With a rejection, the applicants feature has already refused a removed job's application.
    if (to.some((r) => r.job_status === 'REMOVED')) throw new ValidationError({ ids: [SEND_MESSAGES.removedJob] });
    const emails = renderBulk(to, chosen.subject, chosen.body, from);
    await enqueueSentEmails(
      trx,
      emails.map((e) => ({ ...e, sender, sendAfter })),
      deps.now(),
    );
    queued = to.map((r) => r.id);
  };
  let rejected: number[] = [];
  if (input.rejection) {
    const result = await changePipeline(
      deps,
      input.ids,
      { kind: 'outcome', outcome: 'REJECTED', reason: input.rejection.reason },
      userId,
      queue,
    );
    rejected = result.changed;
  } else {
    await withDbRetry(() => deps.db.transaction((trx) => queue(trx, input.ids)));
  }
  const found = new Set(foundIds);
  const missing = input.ids.filter((id) => !found.has(id));
  if (queued.length && !sendAfter) deps.outbox.notify();
  const at = sendAfter?.toISOString() ?? null;
  return {
    queued: queued.length,
    queued_ids: queued,
    rejected_ids: rejected,
    not_found: missing,
    skipped_ids: skipped,
    send_after: at,
    detail: at ? EMAIL_MESSAGES.scheduledMany(queued.length, at) : EMAIL_MESSAGES.queuedMany(queued.length),
  };
}

// ---- Scheduled emails ----

/** An application's emails waiting for their time (404 for an unknown application). */
export async function applicationScheduledEmails(
  deps: Pick<Deps, 'db'>,
  applicationId: number,
  viewer: { userId: number; admin: boolean },
): Promise<{ results: ScheduledEmail[] }> {
  await recipient(deps.db, applicationId);
  const rows = await scheduledEmails(deps.db, applicationId);
  return {
    results: rows.map((r) => ({
      id: r.id,
      application_id: applicationId,
      to: r.to,
      subject: r.subject,
      template_name: r.template_name,
      send_after: r.send_after.toISOString(),
      sent_by: r.sent_by !== null && r.username !== null ? { id: r.sent_by, username: r.username } : null,
      can_cancel: viewer.admin || r.sent_by === viewer.userId,
    })),
  };
}

/**
 * Cancels HR's email before it is sent (its sender or an admin): 404 for an unknown email (or
 * one the application sent itself), 403 for another user's, 409 once it was sent, failed, is
 * being sent or was cancelled.
 */
export async function cancelScheduledEmail(
  deps: Pick<Deps, 'db' | 'now'>,
  id: number,
  by: { userId: number; admin: boolean },
): Promise<CancelledEmail> {
  const outcome = await withDbRetry(() => cancelEmail(deps.db, id, { userId: by.userId, anyone: by.admin }, deps.now()));
  if (outcome.kind === 'missing') throw new NotFound(EMAIL_MESSAGES.notFound);
  if (outcome.kind === 'forbidden') throw new HttpError(403, EMAIL_MESSAGES.cancelForbidden, { detail: EMAIL_MESSAGES.cancelForbidden });
  if (outcome.kind === 'sending') throw new HttpError(409, EMAIL_MESSAGES.cancelSending, { detail: EMAIL_MESSAGES.cancelSending });
  if (outcome.kind === 'done') {
    const message =
      outcome.status === 'SUCCESS'
        ? EMAIL_MESSAGES.cancelSent
        : outcome.status === 'CANCELLED'
          ? EMAIL_MESSAGES.cancelDone
          : EMAIL_MESSAGES.cancelFailed;
    throw new HttpError(409, message, { detail: message });
  }
  return { id, status: 'CANCELLED', detail: EMAIL_MESSAGES.cancelled };
}

/**
 * Emails to candidates (issue 20): the templates HR edits, and emails written from them to one
 * application or many (with a rejection, in one transaction), queued in the email outbox of the
 * posts feature and sent by its delivery engine with its retries. Every value that goes into an
 * email is one line (a title saved with a line break stays out of the subject header), and the
 * HTML part is the text escaped, so a name or title can never be markup.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound, ValidationError } from '../http/errors.js';
import { changePipeline, emailRecipients, type EmailRecipient } from '../applicants/index.js';
import { enqueueSentEmail, enqueueSentEmails, htmlOfText, oneLine, type EmailMessage } from '../posts/index.js';
import { findTemplate, listTemplates } from './queries.js';
import { deleteTemplate, insertTemplate, lockTemplates, updateTemplate } from './repo.js';
import { EMAIL_LIMITS, EMAIL_MESSAGES, FILLED_LIMITS, SEND_MESSAGES, fillVariables, type BulkInput, type SendInput, type TemplateInput } from './schema.js';
import type { BulkEmailResult, EmailChoices, EmailTemplate, QueuedEmail, RenderedEmail } from './types.js';

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

/** Deletes a template; emails sent from it keep its name on the timeline. */
export async function removeTemplate({ db }: { db: Db }, id: number): Promise<void> {
  if (!(await deleteTemplate(db, id))) throw new NotFound(EMAIL_MESSAGES.notFound);
}

// ---- Sending ----

const emailOn = (deps: Pick<Deps, 'config'>) => !!deps.config.mail.smtpUrl;

/** 409 while SMTP_URL is unset: nothing could ever deliver the email. */
function requireEmailOn(deps: Pick<Deps, 'config'>): void {
  if (!emailOn(deps)) throw new HttpError(409, EMAIL_MESSAGES.emailOff, { detail: EMAIL_MESSAGES.emailOff });
}

/** What a screen that sends email offers: the templates, and whether email is on. */
export async function emailChoices(deps: Deps): Promise<EmailChoices> {
  const on = emailOn(deps);
  return { email_on: on, off_reason: on ? null : EMAIL_MESSAGES.emailOff, templates: await listTemplates(deps.db) };
}

/** The template chosen for a send (400 when it is gone), with the subject and body to use. */
async function chosenTemplate(deps: Deps, input: { templateId: number; subject?: string; body?: string }): Promise<{ template: EmailTemplate; subject: string; body: string }> {
  const found = await findTemplate(deps.db, input.templateId);
  if (!found) throw new ValidationError({ template_id: [EMAIL_MESSAGES.templateGone] });
  return { template: found, subject: input.subject ?? found.subject, body: input.body ?? found.body };
}

const chars = (s: string) => [...s].length;

/** The email one applicant gets from `subject` and `body`, with its filled subject or message over its limit named. */
function render(deps: Pick<Deps, 'config'>, to: EmailRecipient, subject: string, body: string): { message: EmailMessage; tooLong: { subject?: string[]; body?: string[] } | null } {
  const values = {
    first_name: oneLine(to.first_name),
    last_name: oneLine(to.last_name),
    job_title: oneLine(to.job_title),
    company_name: oneLine(deps.config.company.name),
  };
  const filledSubject = oneLine(fillVariables(subject, values));
  const filledBody = fillVariables(body, values);
  // Measured before the HTML part is made: a refused email costs no more than its text.
  const subjectChars = chars(filledSubject);
  const bodyChars = chars(filledBody);
  const tooLong = subjectChars > FILLED_LIMITS.subject || bodyChars > FILLED_LIMITS.body
    ? {
        ...(subjectChars > FILLED_LIMITS.subject ? { subject: [SEND_MESSAGES.subject(subjectChars)] } : {}),
        ...(bodyChars > FILLED_LIMITS.body ? { body: [SEND_MESSAGES.body(bodyChars)] } : {}),
      }
    : null;
  if (tooLong) return { message: { to: to.email, subject: '', text: '', html: '' }, tooLong };
  const text = `${filledBody}\n`;
  return { message: { to: to.email, subject: filledSubject, text, html: htmlOfText(text) }, tooLong: null };
}

/** One applicant's email, or a 400 naming the filled subject or message that is over its limit. */
function renderOne(deps: Pick<Deps, 'config'>, to: EmailRecipient, subject: string, body: string): EmailMessage {
  const { message, tooLong } = render(deps, to, subject, body);
  if (tooLong) throw new ValidationError(tooLong);
  return message;
}

/**
 * Every applicant's email of a bulk send, or a 400 when one is over a filled limit or all of them
 * together are over FILLED_LIMITS.bulkBytes (stopping there: a refused send is never built whole).
 */
function renderBulk(deps: Pick<Deps, 'config'>, recipients: EmailRecipient[], subject: string, body: string): { applicationId: number; message: EmailMessage }[] {
  const out: { applicationId: number; message: EmailMessage }[] = [];
  let bytes = 0;
  for (const to of recipients) {
    const { message, tooLong } = render(deps, to, subject, body);
    if (tooLong) throw new ValidationError({}, SEND_MESSAGES.oneTooLong(to.email, [...(tooLong.subject ?? []), ...(tooLong.body ?? [])].join(' ')));
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

/** The email as this applicant would get it (email need not be on to look). */
export async function previewEmail(deps: Deps, applicationId: number, input: SendInput): Promise<RenderedEmail> {
  const to = await recipient(deps.db, applicationId);
  const chosen = await chosenTemplate(deps, { templateId: input.template_id, subject: input.subject, body: input.body });
  return renderOne(deps, to, chosen.subject, chosen.body);
}

/** Queues one email to an application (201), from a template as HR may have edited it. */
export async function sendEmail(deps: Deps & Pick<AppContext, 'outbox'>, applicationId: number, input: SendInput, userId: number): Promise<QueuedEmail> {
  requireEmailOn(deps);
  const to = await recipient(deps.db, applicationId);
  const chosen = await chosenTemplate(deps, { templateId: input.template_id, subject: input.subject, body: input.body });
  const message = renderOne(deps, to, chosen.subject, chosen.body);
  const sender = { sentBy: userId, templateId: chosen.template.id, templateName: chosen.template.name };
  const id = await withDbRetry(() => deps.db.transaction((trx) => enqueueSentEmail(trx, { applicationId, message, sender }, deps.now())));
  deps.outbox.notify();
  return { id, application_id: applicationId, to: message.to, subject: message.subject, template_id: sender.templateId, template_name: sender.templateName, status: 'PENDING', detail: EMAIL_MESSAGES.queuedOne };
}

/**
 * A template's email to each of up to 500 applications, and with `rejection` their rejection
 * with its reason (the applicants feature's bulk outcome), in one transaction: all of it or
 * nothing. Ids that do not exist are answered back and get nothing. An application of a removed
 * job, an email over a filled limit, or more than FILLED_LIMITS.bulkBytes in all refuse the
 * whole send (400).
 */
export async function sendBulk(deps: Deps & Pick<AppContext, 'outbox' | 'cache'>, input: BulkInput, userId: number): Promise<BulkEmailResult> {
  requireEmailOn(deps);
  const chosen = await chosenTemplate(deps, { templateId: input.templateId });
  const sender = { sentBy: userId, templateId: chosen.template.id, templateName: chosen.template.name };
  let queued: number[] = [];
  // Runs in the transaction of the rejections (when there are any): a refusal here writes nothing.
  const queue = async (trx: Db, ids: number[]) => {
    const to = await emailRecipients(trx, ids);
    // With a rejection, the applicants feature has already refused a removed job's application.
    if (to.some((r) => r.job_status === 'REMOVED')) throw new ValidationError({ ids: [SEND_MESSAGES.removedJob] });
    const emails = renderBulk(deps, to, chosen.subject, chosen.body);
    await enqueueSentEmails(trx, emails.map((e) => ({ ...e, sender })), deps.now());
    queued = to.map((r) => r.id);
  };
  let rejected: number[] = [];
  let missing: number[];
  if (input.rejection) {
    const result = await changePipeline(deps, input.ids, { kind: 'outcome', outcome: 'REJECTED', reason: input.rejection.reason }, userId, queue);
    rejected = result.changed;
    missing = result.missing;
  } else {
    await withDbRetry(() => deps.db.transaction((trx) => queue(trx, input.ids)));
    const found = new Set(queued);
    missing = input.ids.filter((id) => !found.has(id));
  }
  if (queued.length) deps.outbox.notify();
  return { queued: queued.length, queued_ids: queued, rejected_ids: rejected, not_found: missing, detail: EMAIL_MESSAGES.queuedMany(queued.length) };
}

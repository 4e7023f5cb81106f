/**
 * Application email (only when SMTP_URL is set): a confirmation to the applicant and a
 * notification to HR_NOTIFY_EMAIL, written to the email outbox in the application's transaction
 * and sent by the delivery engine with the same retries. Plain text plus simple HTML.
 */
import type { Db } from '../../db/knex.js';
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../../config/index.js';
import { FILLED_LIMITS, fillVariables } from '../../emails/schema.js';
import type { TEMPLATE_VARIABLES } from '../../emails/types.js';
import { brandedConfig } from '../../branding/index.js';
import { receiptSource } from '../queries.js';
import { enqueueEmails, type EmailMessage } from '../repo.js';

export type MailConfig = Pick<Config, 'mail' | 'company' | 'publicBaseUrl'>;

/** Line breaks, tabs and other control characters as single spaces. */
export const oneLine = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The email's header (issue 35): the logo (a PNG, by its absolute URL) with the company's name as
 * its text, or the name alone; put into the HTML part when the email is sent, so it shows the
 * brand as it is then.
 */
export function withBrandHeader(html: string, brand: { name: string; logoUrl: string | null }): string {
  const name = escapeHtml(oneLine(brand.name));
  const header = brand.logoUrl
    ? `<p style="margin: 0 0 16px"><img src="${escapeHtml(brand.logoUrl)}" alt="${name}" height="40" style="height: 40px; width: auto; border: 0"></p>`
    : `<p style="margin: 0 0 16px; font-size: 18px; font-weight: bold">${name}</p>`;
  return html.replace(/<body[^>]*>\n?/, (body) => `${body}${header}\n`);
}

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`).join('\n');
  const a = link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '';
  return `<!doctype html>\n<html><body style="font-family: Arial, sans-serif; line-height: 1.5">\n${body}${a}\n</body></html>\n`;
}

function confirmationEmail(config: MailConfig, job: { title: string }, app: { first_name: string; email: string }): EmailMessage {
  const company = config.company.name;
  const paragraphs = [
    `Dear ${app.first_name},`,
    `Thank you for applying for the ${job.title} position at ${company}. We have received your application.`,
    'What happens next: our hiring team reviews every application. If your profile matches the role, we will contact you by email to arrange the next steps. You do not need to apply again.',
    `Best regards,\n${company} Careers`,
  ];
  return { to: app.email, subject: `Application received: ${job.title}`, text: `${paragraphs.join('\n\n')}\n`, html: html(paragraphs) };
}

function hrNotificationEmail(
  config: MailConfig,
  to: string,
  job: { title: string; public_id: string },
  app: { first_name: string; last_name: string },
  applicationId: number,
): EmailMessage {
  const name = `${app.first_name} ${app.last_name}`.trim();
  const link = `${config.publicBaseUrl}/hr/applicants/${applicationId}`;
  const paragraphs = [`${name} applied for ${job.title} (${job.public_id}).`];
  return {
    to,
    subject: `New application: ${name} for ${job.title}`,
    text: `${paragraphs.join('\n\n')}\n\nOpen the application: ${link}\n`,
    html: html(paragraphs, { href: link, label: 'Open the application' }),
  };
}

/**
 * A plain-text body as the simple HTML part every email has: paragraphs at blank lines, line
 * breaks kept, every character of the text escaped (so values in it can never be markup).
 */
export function htmlOfText(text: string): string {
  return html(
    text
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter(Boolean),
  );
}

/**
 * The receipt from HR's "Application received" template (issue 30: editing it changes what
 * applicants get), its variables filled in; the built-in text when the template was deleted or
 * its filled text is over the limits of an email HR sends.
 */
function receiptEmail(
  config: MailConfig,
  source: Awaited<ReturnType<typeof receiptSource>>,
  job: { title: string; public_id: string },
  app: { first_name: string; last_name: string; email: string },
  now: Date,
): EmailMessage {
  if (!source.template) return confirmationEmail(config, job, app);
  const company = oneLine(config.company.name);
  const values: Record<(typeof TEMPLATE_VARIABLES)[number], string> = {
    first_name: oneLine(app.first_name),
    last_name: oneLine(app.last_name),
    job_title: job.title,
    company_name: company,
    sender_name: `${company} Careers`,
    stage: oneLine(source.stage),
    application_date: now.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    job_url: `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}`,
  };
  const subject = oneLine(fillVariables(source.template.subject, values));
  const body = fillVariables(source.template.body, values);
  if (!subject || [...subject].length > FILLED_LIMITS.subject || [...body].length > FILLED_LIMITS.body)
    return confirmationEmail(config, job, app);
  const text = `${body}\n`;
  return { to: app.email, subject, text, html: htmlOfText(text) };
}

/**
 * The receipt with the link to the candidate's status page (issue 35) after HR's text, so an
 * edited template never loses it: a paragraph in the text part, a link in the HTML part.
 */
function withStatusLink(message: EmailMessage, link: { url: string; expiresAt: Date }): EmailMessage {
  const until = link.expiresAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const lead = `See where your application stands, withdraw it or ask for your data (this link works until ${until}):`;
  return {
    ...message,
    text: `${message.text.trimEnd()}\n\n${lead}\n${link.url}\n`,
    html: message.html.replace(
      '\n</body>',
      `\n<p>${escapeHtml(lead)}<br>\n<a href="${escapeHtml(link.url)}">Your application status</a></p>\n</body>`,
    ),
  };
}

/**
 * Queues the application's emails, when email is on; run inside the application's transaction.
 * With HR_NOTIFY_DIGEST=hourly or daily, HR's notification waits for the digest (digest.ts).
 */
export async function enqueueApplicationEmails(
  trx: Db,
  mailConfig: MailConfig,
  a: {
    applicationId: number;
    job: { id: number; title: string; public_id: string };
    applicant: { first_name: string; last_name: string; email: string };
    now: Date;
    /** The link to the candidate's status page, added to the receipt. */
    statusLink?: { url: string; expiresAt: Date };
  },
): Promise<void> {
  if (!mailConfig.mail.smtpUrl) return;
  // The company as the site settings name it (issue 35), read in the application's transaction.
  const config = await brandedConfig(trx, mailConfig);
  // A title saved before one-line fields refused line breaks still reads as one line, body and subject.
  const job = { ...a.job, title: oneLine(a.job.title) };
  const written = receiptEmail(config, await receiptSource(trx, a.job.id), job, a.applicant, a.now);
  const receipt = a.statusLink ? withStatusLink(written, a.statusLink) : written;
  const emails = [{ template: 'applicant_confirmation', message: receipt }];
  if (config.mail.hrNotifyEmail && config.mail.hrNotifyDigest === 'off')
    emails.push({
      template: 'hr_notification',
      message: hrNotificationEmail(config, config.mail.hrNotifyEmail, job, a.applicant, a.applicationId),
    });
  await enqueueEmails(trx, a.applicationId, emails, a.now);
}

/** nodemailer is loaded only by a process that sends email (SMTP_URL set). */
const requireMailer = createRequire(import.meta.url);

/** A pooled SMTP transport with short time limits, so a dead server fails an attempt quickly. */
export function createMailTransport(smtpUrl: string): Transporter {
  const nodemailer = requireMailer('nodemailer') as typeof Nodemailer;
  return nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 4,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 15_000,
  } as never);
}

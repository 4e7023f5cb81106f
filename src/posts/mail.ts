/**
 * Application email (only when SMTP_URL is set): a confirmation to the applicant and a
 * notification to HR_NOTIFY_EMAIL, written to the email outbox in the application's transaction
 * and sent by the delivery engine with the same retries. Plain text plus simple HTML.
 */
import type { Db } from '../db/knex.js';
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config/index.js';
import { enqueueEmails, type EmailMessage } from './repo.js';

export type MailConfig = Pick<Config, 'mail' | 'company' | 'publicBaseUrl'>;

/** Line breaks, tabs and other control characters as single spaces. */
export const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

function hrNotificationEmail(config: MailConfig, to: string, job: { title: string; public_id: string }, app: { first_name: string; last_name: string }, applicationId: number): EmailMessage {
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
  return html(text.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean));
}

/** Queues the application's emails, when email is on; run inside the application's transaction. */
export async function enqueueApplicationEmails(
  trx: Db,
  config: MailConfig,
  a: { applicationId: number; job: { title: string; public_id: string }; applicant: { first_name: string; last_name: string; email: string }; now: Date },
): Promise<void> {
  if (!config.mail.smtpUrl) return;
  // A title saved before one-line fields refused line breaks still reads as one line, body and subject.
  const job = { ...a.job, title: oneLine(a.job.title) };
  const emails = [{ template: 'applicant_confirmation', message: confirmationEmail(config, job, a.applicant) }];
  if (config.mail.hrNotifyEmail) emails.push({ template: 'hr_notification', message: hrNotificationEmail(config, config.mail.hrNotifyEmail, job, a.applicant, a.applicationId) });
  await enqueueEmails(trx, a.applicationId, emails, a.now);
}

/** nodemailer is loaded only by a process that sends email (SMTP_URL set). */
const requireMailer = createRequire(import.meta.url);

/** A pooled SMTP transport with short time limits, so a dead server fails an attempt quickly. */
export function createMailTransport(smtpUrl: string): Transporter {
  const nodemailer = requireMailer('nodemailer') as typeof Nodemailer;
  return nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 4, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 } as never);
}

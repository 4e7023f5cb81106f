/**
 * The job alert emails (issue 35) from HR's two templates (the emails feature fills them in): the
 * confirmation with its signed link, and the digest with the new jobs, the renew link, the
 * visible unsubscribe link and the one-click unsubscribe headers (RFC 8058). The HTML part is the
 * text escaped with its links made clickable; the built-in texts stand in for a template that is
 * gone or, filled in, too long.
 */
import { alertEmail, type AlertTemplate } from '../../emails/index.js';
import type { EmailMessage } from '../../posts/index.js';
import { oneLine } from '../../posts/index.js';
import type { OpenJob } from './match.js';

const DEFAULTS: Record<'alert_confirm' | 'alert_digest', Pick<AlertTemplate, 'subject' | 'body'>> = {
  alert_confirm: {
    subject: 'Confirm your job alert from {company_name}',
    body: 'Hello,\n\nConfirm your {frequency} job alert ({filters}) here: {confirm_link}\n\nIf this was not you, ignore this email.\n\n{company_name} Careers',
  },
  alert_digest: {
    subject: 'New jobs at {company_name}: {job_count}',
    body: 'New jobs at {company_name} ({filters}):\n\n{jobs}\n\nRenew until a year from now: {renew_link}\n\nUnsubscribe: {unsubscribe_link}',
  },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The text as HTML paragraphs, every character escaped, http(s) links made clickable. */
function htmlWithLinks(text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const parts = p.split(/(https?:\/\/[^\s<>"']+)/g);
      const html = parts.map((part, i) => (i % 2 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part))).join('');
      return `<p>${html.replace(/\n/g, '<br>\n')}</p>`;
    });
  return `<!doctype html>\n<html><body style="font-family: Arial, sans-serif; line-height: 1.5">\n${paragraphs.join('\n')}\n</body></html>\n`;
}

function finish(message: EmailMessage): EmailMessage {
  return { ...message, html: htmlWithLinks(message.text) };
}

/** "27 November 2027" (UTC). */
export const dayText = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function confirmationEmail(
  template: AlertTemplate | null,
  to: string,
  values: { company_name: string; frequency: string; filters: string; confirm_link: string },
): EmailMessage {
  const filled = { ...values, company_name: oneLine(values.company_name), filters: oneLine(values.filters) };
  const message =
    (template && alertEmail<'alert_confirm'>(to, template, filled)) ?? alertEmail<'alert_confirm'>(to, DEFAULTS.alert_confirm, filled)!;
  return finish(message);
}

/** A job as its digest lists it: the title, where and how, and its page. */
export function jobLines(jobs: OpenJob[], baseUrl: string, workModeLabel: (v: string) => string): string {
  return jobs
    .map(
      (j) =>
        `${oneLine(j.title)}\n${[j.department, j.location, workModeLabel(j.work_mode)]
          .filter(Boolean)
          .map((p) => oneLine(p!))
          .join(' · ')}\n${baseUrl}/careers/${encodeURIComponent(j.public_id)}`,
    )
    .join('\n\n');
}

export function digestEmail(
  template: AlertTemplate | null,
  to: string,
  values: {
    company_name: string;
    frequency: string;
    filters: string;
    job_count: string;
    jobs: string;
    expires_on: string;
    renew_link: string;
    unsubscribe_link: string;
  },
): EmailMessage {
  const filled = { ...values, company_name: oneLine(values.company_name), filters: oneLine(values.filters) };
  const message =
    (template && alertEmail<'alert_digest'>(to, template, filled)) ?? alertEmail<'alert_digest'>(to, DEFAULTS.alert_digest, filled)!;
  return {
    ...finish(message),
    headers: {
      'List-Unsubscribe': `<${values.unsubscribe_link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * The talent pools' two emails (issue 35) from HR's templates on /hr/settings/email-templates:
 * "Invite to apply" (`pool_invite`, the job's link) and the request to be kept (`pool_consent`,
 * the status page's link). Filled in as every template is (the emails feature's `fillVariables`
 * and limits; the pools sit below the emails feature, which rejects through the pipeline, so they
 * read the template themselves, as the posts feature does the receipt's). Every value is one line;
 * the built-in texts (migration 047 wrote the same into the templates) stand in for a template
 * that is gone or, filled in, too long.
 */
import { FILLED_LIMITS, fillVariables } from '../../emails/schema.js';
import type { POOL_VARIABLES, PoolPurpose } from '../../emails/types.js';
import { htmlOfText, oneLine, type EmailMessage } from '../../posts/index.js';

export interface TemplateText {
  subject: string;
  body: string;
}

const DEFAULTS: Record<PoolPurpose, TemplateText> = {
  pool_invite: {
    subject: 'A job for you at {company_name}: {job_title}',
    body: 'Dear {first_name},\n\nWe have a new opening at {company_name} we think fits you: {job_title}.\n\nRead about it and apply here:\n{job_url}\n\nYou hear from us because you agreed to be told about other jobs; you can withdraw that on your status page at any time.\n\n{company_name} Careers',
  },
  pool_consent: {
    subject: 'May we keep your details? {company_name}',
    body: 'Dear {first_name},\n\nWe would like to keep your details to tell you about other jobs at {company_name} that fit you. If you agree, say so on your status page (the link works until {link_expires_on}):\n\n{status_link}\n\nIf you do not, there is nothing to do: we will not contact you about other jobs.\n\n{company_name} Careers',
  },
};

/** "27 November 2027" (UTC). */
const dayText = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The email of `template` with its values, or null when, filled in, its subject is empty or either part is over the limits of an email. */
function filled<P extends PoolPurpose>(
  to: string,
  template: TemplateText,
  values: Record<(typeof POOL_VARIABLES)[P][number], string>,
): EmailMessage | null {
  const subject = oneLine(fillVariables(template.subject, values));
  const body = fillVariables(template.body, values)
    .replace(/\n(?:[ \t]*\n){2,}/g, '\n\n')
    .trim();
  if (!subject || [...subject].length > FILLED_LIMITS.subject || !body || [...body].length > FILLED_LIMITS.body) return null;
  const text = `${body}\n`;
  return { to, subject, text, html: htmlOfText(text) };
}

interface Person {
  email: string;
  first_name: string;
  last_name: string;
}

const names = (to: Person) => ({ first_name: oneLine(to.first_name), last_name: oneLine(to.last_name) });

/** "Invite to apply": the job's title and link. */
export function inviteEmail(
  template: TemplateText | null,
  to: Person,
  values: { company_name: string; job_title: string; job_url: string },
): EmailMessage {
  const v = { ...names(to), company_name: oneLine(values.company_name), job_title: oneLine(values.job_title), job_url: values.job_url };
  return (template && filled<'pool_invite'>(to.email, template, v)) ?? filled<'pool_invite'>(to.email, DEFAULTS.pool_invite, v)!;
}

/** The request to be kept: the status page's signed link and the day it stops working. */
export function consentEmail(
  template: TemplateText | null,
  to: Person,
  values: { company_name: string; status_link: string; expires: Date },
): EmailMessage {
  const v = {
    ...names(to),
    company_name: oneLine(values.company_name),
    status_link: values.status_link,
    link_expires_on: dayText(values.expires),
  };
  return (template && filled<'pool_consent'>(to.email, template, v)) ?? filled<'pool_consent'>(to.email, DEFAULTS.pool_consent, v)!;
}

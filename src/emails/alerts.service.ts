/**
 * The job alert templates (issue 35) for the alerts feature: the confirmation of a subscription
 * (`alert_confirm`) and the digest of new jobs (`alert_digest`), as HR edited them, filled in as
 * every template's email is (`fillTemplate`). The alerts feature gives the values and queues them.
 */
import type { Db } from '../db/knex.js';
import type { EmailMessage } from '../posts/index.js';
import { reminderTemplate } from './queries.js';
import { fillTemplate } from './service.js';
import type { AlertPurpose, ALERT_VARIABLES } from './types.js';

export interface AlertTemplate {
  id: number;
  name: string;
  subject: string;
  body: string;
}

/** The job alert template of this purpose, or null when there is none (the alerts feature then uses its built-in text). */
export async function alertTemplate(db: Db, purpose: AlertPurpose): Promise<AlertTemplate | null> {
  const t = await reminderTemplate(db, purpose);
  return t ? { id: t.id, name: t.name, subject: t.subject, body: t.body } : null;
}

/** The email of an alert template to `to` with its values, or null when, filled in, it is over the limits of an email. */
export function alertEmail<P extends AlertPurpose>(
  to: string,
  template: Pick<AlertTemplate, 'subject' | 'body'>,
  values: Record<(typeof ALERT_VARIABLES)[P][number], string>,
): EmailMessage | null {
  const { message, tooLong } = fillTemplate(to, template.subject, template.body, values);
  return tooLong ? null : message;
}

/**
 * The interview reminders' emails (issue 32), written from the two reminder templates HR edits:
 * "Interview reminder" to the candidate (`reminder_candidate`) and "Interview reminder for
 * interviewers" (`reminder_interviewer`), each sent only at the times it has ticked (`remind_24h`,
 * `remind_1h`). Filled in as every template's email is (`fillTemplate`): the applicant's variables
 * ("<company> Careers" as `{sender_name}`, as in the automatic receipt) and the interview's facts
 * the interviews feature gives. The interviews feature claims, queues and labels them.
 */
import { brandedConfig } from '../branding/index.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/knex.js';
import { emailRecipients } from '../applicants/index.js';
import { oneLine, type EmailMessage } from '../posts/index.js';
import { reminderTemplate } from './queries.js';
import { applicantValues, fillTemplate } from './service.js';
import type { EmailTemplate, REMINDER_VARIABLES } from './types.js';

/** What a reminder says about its interview, each value as it goes into the email; `stage` is the interview's ('' without one). */
export type ReminderFacts = Record<Exclude<(typeof REMINDER_VARIABLES)[number], 'hours_before'>, string> & { stage: string };

export interface ReminderEmail {
  message: EmailMessage;
  template: { id: number; name: string };
}

const sentAt = (t: EmailTemplate | null, hours: 24 | 1) => !!t && (hours === 24 ? t.remind_24h : t.remind_1h) === true;

/**
 * The reminder emails of one interview `hours` before it: the candidate's and each interviewer's,
 * for each audience only when its template has that time ticked (none for an application that is
 * gone). `refused` names the templates of emails left out because, filled in, they are over the
 * limits of an email (FILLED_LIMITS).
 */
export async function reminderEmails(
  db: Db,
  given: Pick<AppContext, 'config'>,
  r: {
    applicationId: number;
    hours: 24 | 1;
    facts: ReminderFacts;
    interviewers: { name: string; email: string; scorecardLink: string }[];
  },
): Promise<{ emails: ReminderEmail[]; refused: { id: number; name: string }[] }> {
  const [candidate, interviewer] = await Promise.all([
    reminderTemplate(db, 'reminder_candidate'),
    reminderTemplate(db, 'reminder_interviewer'),
  ]);
  const out: { emails: ReminderEmail[]; refused: { id: number; name: string }[] } = { emails: [], refused: [] };
  if (!sentAt(candidate, r.hours) && !sentAt(interviewer, r.hours)) return out;
  const [to] = await emailRecipients(db, [r.applicationId]);
  if (!to) return out;
  // The company as the site settings name it (issue 35).
  const deps = { ...given, config: await brandedConfig(db, given.config) };
  const applicant = applicantValues(deps.config, to, `${oneLine(deps.config.company.name)} Careers`);
  const values = {
    ...applicant,
    ...r.facts,
    stage: r.facts.stage || applicant.stage,
    hours_before: r.hours === 24 ? '24 hours' : '1 hour',
  };
  const add = (t: EmailTemplate, address: string, more: Record<string, string> = {}) => {
    const { message, tooLong } = fillTemplate(address, t.subject, t.body, { ...values, ...more });
    if (tooLong) out.refused.push({ id: t.id, name: t.name });
    else out.emails.push({ message, template: { id: t.id, name: t.name } });
  };
  if (candidate && sentAt(candidate, r.hours)) add(candidate, to.email);
  if (interviewer && sentAt(interviewer, r.hours))
    for (const x of r.interviewers) add(interviewer, x.email, { interviewer_name: oneLine(x.name), scorecard_link: x.scorecardLink });
  return out;
}

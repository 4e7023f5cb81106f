/**
 * Interview reminders (issue 32): 24 hours and 1 hour before a scheduled interview, an email to
 * the candidate and each interviewer through the outbox, queued by the posts sweep
 * (POSTS_SWEEP_CRON, in the server with POSTS_WORKER on or in `careers-admin cron`). Each is
 * claimed with a conditional UPDATE of `reminded_24h_at`/`reminded_1h_at` in the emails'
 * transaction, so two processes never both send it; a new time clears them. An interview scheduled
 * or changed inside the window gets none for it (the invitation was just sent). The texts and
 * times are the emails feature's two reminder templates, as HR edited them: each audience gets
 * only the reminders its template has ticked.
 */
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import { reminderEmails } from '../emails/index.js';
import { enqueueSentEmail } from '../posts/index.js';
import { interviewsDueReminder } from './interviews.queries.js';
import { claimReminder } from './interviews.repo.js';
import { reminderFacts, scorecardLinkText } from './invitations.service.js';

const HOUR = 3_600_000;
/** Interviews reminded per kind and sweep at most; the rest wait for the next sweep. */
const REMINDERS_PER_SWEEP = 200;

const KINDS = [
  { column: 'reminded_1h_at', hours: 1 },
  { column: 'reminded_24h_at', hours: 24 },
] as const;

type Deps = Pick<AppContext, 'db' | 'config' | 'now'> & { log?: Pick<AppContext['log'], 'warn'> };

/** Queues the reminders due now; answers how many emails were queued. */
export async function remindUpcomingInterviews(deps: Deps): Promise<number> {
  if (!deps.config.mail.smtpUrl) return 0;
  const now = deps.now();
  let queued = 0;
  for (const { column, hours } of KINDS) {
    const due = await interviewsDueReminder(deps.db, column, now, hours * HOUR, REMINDERS_PER_SWEEP);
    for (const i of due) {
      const startsAt = new Date(i.starts_at);
      // The 24 h reminder is not for an interview an hour away (the 1 h one is), nor one whose invitation went out inside the window.
      const late = new Date(i.updated_at).getTime() > startsAt.getTime() - hours * HOUR;
      const tooClose = hours === 24 && startsAt.getTime() - now.getTime() <= HOUR;
      const n = await withDbRetry(() =>
        deps.db.transaction(async (trx) => {
          if (!(await claimReminder(trx, i.id, column, startsAt, now))) return 0;
          if (late || tooClose) return 0;
          const { emails, refused } = await reminderEmails(trx, deps, {
            applicationId: i.application_id,
            hours,
            facts: reminderFacts({ ...i, starts_at: startsAt, ends_at: new Date(i.ends_at) }, i.interviewers),
            interviewers: i.interviewers.map((x) => ({
              name: x.name,
              email: x.email,
              scorecardLink: scorecardLinkText(deps, i.application_id, x.user_id !== null),
            })),
          });
          for (const t of refused)
            deps.log?.warn(
              `Interview ${i.id}: a ${hours} h reminder from email template ${t.id} is over the email limits once filled in; not sent.`,
            );
          for (const { message, template } of emails)
            await enqueueSentEmail(
              trx,
              {
                applicationId: i.application_id,
                message,
                sender: { sentBy: null, templateId: template.id, templateName: `Interview reminder (${hours} h)` },
              },
              now,
            );
          return emails.length;
        }),
      );
      queued += n;
    }
  }
  return queued;
}

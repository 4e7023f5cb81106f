/**
 * Overdue scorecards (issue 31): a scorecard not submitted 24 hours after its interview (or after
 * it was asked for, when no time was given) is overdue. The posts sweep (POSTS_SWEEP_CRON, in the
 * server with POSTS_WORKER on or in `careers-admin cron`) queues one reminder email per overdue
 * scorecard through the outbox, once whichever process sweeps first (`reminded_at` is claimed in
 * the email's transaction). HR sees the overdue ones on the dashboard.
 */
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import { enqueueSentEmail, htmlOfText, oneLine } from '../posts/index.js';
import { claimReminder, overdueScorecards } from './scorecards.repo.js';
import type { OverdueScorecard } from './scorecards.types.js';

const DAY = 86_400_000;
/** Reminders queued per sweep at most; the rest wait for the next sweep. */
const REMINDERS_PER_SWEEP = 200;
/** Overdue scorecards listed on the dashboard at most. */
const DASHBOARD_LIMIT = 50;

/** Queues the reminder of every overdue scorecard that has none yet; answers how many were queued. */
export async function remindOverdueScorecards(deps: Pick<AppContext, 'db' | 'config' | 'now'>): Promise<number> {
  if (!deps.config.mail.smtpUrl) return 0;
  const now = deps.now();
  const due = await overdueScorecards(deps.db, new Date(now.getTime() - DAY), { unremindedOnly: true, limit: REMINDERS_PER_SWEEP });
  const company = oneLine(deps.config.company.name);
  const base = deps.config.publicBaseUrl.replace(/\/$/, '');
  let queued = 0;
  for (const card of due) {
    const to = card.interviewer_email ?? card.user_email;
    const where = card.interviewer_email
      ? 'Please use the link in our earlier email to fill it in; it works until you submit.'
      : `Fill it in on the applicant's page: ${base}/hr/applicants/${card.application_id}`;
    const text = [
      `Hello ${oneLine(card.interviewer_name)},`,
      `Your scorecard on ${oneLine(card.applicant)} for ${oneLine(card.job_title)} (${oneLine(card.stage_name)}) is not submitted yet, and the interview was more than a day ago.`,
      where,
      company,
    ].join('\n\n');
    const done = await withDbRetry(() =>
      deps.db.transaction(async (trx) => {
        if (!(await claimReminder(trx, card.id, now))) return false;
        // No address (an HR user without an email): marked all the same, so it is not looked at again; the dashboard shows it.
        if (!to) return false;
        await enqueueSentEmail(
          trx,
          {
            applicationId: card.application_id,
            message: { to, subject: `Reminder: your scorecard on ${oneLine(card.applicant)}`, text, html: htmlOfText(text) },
            sender: { sentBy: null, templateId: null, templateName: 'Scorecard reminder' },
          },
          now,
        );
        return true;
      }),
    );
    if (done) queued++;
  }
  return queued;
}

/** The overdue scorecards HR sees on the dashboard, oldest first. */
export async function overdueList(deps: Pick<AppContext, 'db' | 'now'>): Promise<OverdueScorecard[]> {
  const rows = await overdueScorecards(deps.db, new Date(deps.now().getTime() - DAY), { unremindedOnly: false, limit: DASHBOARD_LIMIT });
  return rows.map((r) => ({
    id: r.id,
    application_id: r.application_id,
    applicant: r.applicant,
    job_title: r.job_title,
    stage_name: r.stage_name,
    interviewer: r.interviewer_name,
    due_at: new Date(r.due_from.getTime() + DAY).toISOString(),
    reminded: r.reminded_at !== null,
  }));
}

/**
 * HR's notification digest (issue 30, HR_NOTIFY_DIGEST=hourly|daily): instead of one email to
 * HR_NOTIFY_EMAIL per application, one email per period listing the applications that came in
 * it. The cron sweep (delivery.ts) asks after each period has ended; the digest of a period is
 * written once whichever process asks first (hr_notify_digests is unique per recipient, kind of
 * period and its start), in the transaction that queues its email, and sent by the email outbox with its
 * retries. Periods are whole UTC hours or days; a period with no application sends nothing.
 * Only the period that ended last is written: a process down over a whole period's end sends
 * that period's digest when it comes back within the next period.
 */
import type { Db } from '../../db/knex.js';
import type { Config } from '../../../config/index.js';
import { htmlOfText, oneLine } from './mail.js';
import { applicationsBetween, digestWritten } from '../queries.js';
import { enqueueDigestOnce } from '../repo.js';

/** Applications listed in one digest (the count says how many there were in all). */
const LISTED = 100;

const PERIOD_MS = { hourly: 3_600_000, daily: 86_400_000 } as const;

/** The period that ended last before `now`: [start, end). */
function lastPeriod(digest: 'hourly' | 'daily', now: Date): { start: Date; end: Date } {
  const ms = PERIOD_MS[digest];
  const end = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(end - ms), end: new Date(end) };
}

/** Queues the digest of the period that ended last, when there is one to send; answers whether this call wrote it. */
export async function queueDueDigest(deps: {
  db: Db;
  config: Pick<Config, 'mail' | 'publicBaseUrl' | 'company'>;
  now: () => Date;
}): Promise<boolean> {
  const { mail } = deps.config;
  if (!mail.smtpUrl || !mail.hrNotifyEmail || mail.hrNotifyDigest === 'off') return false;
  const now = deps.now();
  const { start, end } = lastPeriod(mail.hrNotifyDigest, now);
  // The sweep asks every minute: once written, a period costs one indexed read.
  if (await digestWritten(deps.db, mail.hrNotifyEmail, mail.hrNotifyDigest, start)) return false;
  const { total, rows } = await applicationsBetween(deps.db, start, end, LISTED);
  if (!total) return false;
  const when =
    mail.hrNotifyDigest === 'hourly'
      ? `between ${start.toISOString().slice(11, 16)} and ${end.toISOString().slice(11, 16)} UTC on ${start.toISOString().slice(0, 10)}`
      : `on ${start.toISOString().slice(0, 10)} (UTC)`;
  const lines = rows.map(
    (r) =>
      `- ${oneLine(`${r.first_name} ${r.last_name}`)} for ${oneLine(r.job_title)} (${r.job_public_id}): ${deps.config.publicBaseUrl}/hr/applicants/${r.id}`,
  );
  const more = total > rows.length ? [`…and ${total - rows.length} more: ${deps.config.publicBaseUrl}/hr/applicants`] : [];
  const text =
    [`${total} new ${total === 1 ? 'application' : 'applications'} ${when}:`, [...lines, ...more].join('\n')].join('\n\n') + '\n';
  const subject = `${total} new ${total === 1 ? 'application' : 'applications'} ${mail.hrNotifyDigest === 'hourly' ? 'in the last hour' : 'yesterday'}`;
  return enqueueDigestOnce(
    deps.db,
    {
      recipient: mail.hrNotifyEmail,
      period: mail.hrNotifyDigest,
      periodStart: start,
      applications: total,
      message: { to: mail.hrNotifyEmail, subject, text, html: htmlOfText(text) },
    },
    now,
  );
}

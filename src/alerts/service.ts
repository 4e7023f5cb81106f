/**
 * Job alerts (issue 35): subscribing with double opt-in, confirming, unsubscribing (one click, no
 * sign-in), renewing, the digests of new matching jobs (daily or weekly, each job at most once,
 * nothing sent when nothing is new), the retention sweep, erase, and the count admins see. Emails
 * go through the posts feature's outbox in the same transaction as the rows that call for them.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound } from '../http/errors.js';
import { enumLabel } from '../shared/enums.js';
import { alertTemplate, type AlertTemplate } from '../emails/index.js';
import { enqueueEmails, type EmailMessage } from '../posts/index.js';
import { checkLink, linkUrl, readToken, signLink, type LinkPurpose } from './lib/links.js';
import { confirmationEmail, dayText, digestEmail, jobLines } from './lib/mail.js';
import { describeFilters, matcher, type OpenJob } from './lib/match.js';
import { alertCounts as countAlerts, countAlertsOf, openJobs } from './queries.js';
import {
  activate,
  alertsOf,
  claimDue,
  deleteAlert,
  deleteAlertsOf,
  dueAlertIds,
  findAlert,
  insertKnownJobs,
  insertPending,
  knownJobs,
  markConfirmSent,
  purgeAlerts,
  refresh,
  renewAlert,
  updatePending,
  type DueRule,
} from './repo.js';
import { ALERT_LIMITS as L, ALERT_MESSAGES as M, alertConsentText, type SubscribeInput } from './schema.js';
import type { AlertCounts, AlertFilters, JobAlert } from './types.js';

type Deps = Pick<AppContext, 'db' | 'config' | 'now' | 'serverKey'> & { outbox?: AppContext['outbox'] };

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** A confirmation is not sent again for the same alert within this time (a form sent twice). */
const RESEND_AFTER_MS = 10 * 60_000;

const CONFIRM_TEMPLATE = 'job_alert_confirm';
const DIGEST_TEMPLATE = 'job_alert_digest';

/** Whether alerts can work here: they are nothing but email. */
export const alertsOn = (deps: Pick<Deps, 'config'>): boolean => !!deps.config.mail.smtpUrl;

const filtersText = (f: AlertFilters): string => describeFilters(f, enumLabel);

const sameFilters = (a: AlertFilters, b: AlertFilters) =>
  a.department.toLocaleLowerCase('en') === b.department.toLocaleLowerCase('en') &&
  a.location.toLocaleLowerCase('en') === b.location.toLocaleLowerCase('en') &&
  a.work_mode === b.work_mode &&
  a.keywords.toLocaleLowerCase('en') === b.keywords.toLocaleLowerCase('en');

const baseUrl = (deps: Pick<Deps, 'config'>) => deps.config.publicBaseUrl.replace(/\/$/, '');

/** The confirmation email of a waiting alert, its link working ALERT_LIMITS.confirmDays from `at`. */
async function confirmation(deps: Deps, template: AlertTemplate | null, alert: JobAlert, at: Date): Promise<EmailMessage> {
  const token = await signLink(deps.serverKey, 'confirm', alert, new Date(at.getTime() + L.confirmDays * DAY));
  return confirmationEmail(template, alert.email, {
    company_name: deps.config.company.name,
    frequency: alert.frequency,
    filters: filtersText(alert),
    confirm_link: linkUrl(baseUrl(deps), 'confirm', token),
  });
}

/**
 * A subscription from the form. Answers nothing: the page says the same whether the address is
 * new, known, over its number of alerts or of confirmations today (no email then), so the form
 * tells nobody which addresses subscribe. A form sent again for the same filters reuses the alert
 * waiting for confirmation (and sends its link again after RESEND_AFTER_MS).
 */
export async function subscribe(deps: Deps, input: SubscribeInput): Promise<void> {
  if (!alertsOn(deps)) throw new HttpError(404, M.alertsOff, { detail: M.alertsOff });
  const at = deps.now();
  const consentText = alertConsentText(deps.config.company.name);
  // Read before the transaction, which on SQLite holds the only connection.
  const template = await alertTemplate(deps.db, 'alert_confirm');
  await deps.serverKey.get();
  const queued = await withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const existing = await alertsOf(trx, input.email);
      const sentToday = existing.filter((a) => a.confirm_sent_at && at.getTime() - a.confirm_sent_at.getTime() < DAY).length;
      const waiting = existing.find((a) => a.status === 'PENDING' && sameFilters(a, input));
      let alert: JobAlert;
      if (waiting) {
        await updatePending(trx, waiting.id, { frequency: input.frequency, consentText }, at);
        if (waiting.confirm_sent_at && at.getTime() - waiting.confirm_sent_at.getTime() < RESEND_AFTER_MS) return false;
        alert = { ...waiting, frequency: input.frequency, consent_text: consentText };
      } else {
        if (existing.length >= L.perAddress) return false;
        alert = await insertPending(trx, { ...input, consentText }, at);
      }
      if (sentToday >= L.confirmationsPerDay) return false;
      await enqueueEmails(trx, null, [{ template: CONFIRM_TEMPLATE, message: await confirmation(deps, template, alert, at) }], at);
      await markConfirmSent(trx, alert.id, at);
      return true;
    }),
  );
  if (queued) deps.outbox?.notify();
}

/** What a link's page shows before the button is pressed. */
export interface LinkView {
  filters: string;
  frequency: string;
  status: JobAlert['status'];
  expires_at: Date | null;
}

/** The alert a link names, checked: 404 for a link that is not one of ours, 410 for an expired one or an alert that is gone. */
async function linkedAlert(deps: Deps, purpose: LinkPurpose, raw: string): Promise<JobAlert | null> {
  const token = readToken(raw);
  if (!token) throw new NotFound(M.linkInvalid);
  const alert = await findAlert(deps.db, token.id);
  if (!alert) return null;
  const checked = await checkLink(deps.serverKey, purpose, token, alert, deps.now());
  if (checked === 'bad') throw new NotFound(M.linkInvalid);
  if (checked === 'expired') throw new HttpError(410, purpose === 'confirm' ? M.confirmExpired : M.alertGone);
  return alert;
}

const gone = () => new HttpError(410, M.alertGone);

/** The alert behind a confirm, unsubscribe or renew link, for its page (null: unsubscribing an alert already gone). */
export async function viewLink(deps: Deps, purpose: LinkPurpose, token: string): Promise<LinkView | null> {
  const alert = await linkedAlert(deps, purpose, token);
  if (!alert) {
    if (purpose === 'unsubscribe') return null;
    throw gone();
  }
  if (purpose === 'renew' && alert.status !== 'ACTIVE') throw gone();
  return { filters: filtersText(alert), frequency: alert.frequency, status: alert.status, expires_at: alert.expires_at };
}

/**
 * Confirms an alert (the double opt-in's second step): consent given now, running for a year; the
 * jobs open now count as known (the digests bring what is new from here on). Confirming the
 * filters of an alert already on renews that one instead. Answers whether it was on already.
 */
export async function confirmAlert(deps: Deps, token: string): Promise<'confirmed' | 'already'> {
  const alert = await linkedAlert(deps, 'confirm', token);
  if (!alert) throw gone();
  if (alert.status === 'ACTIVE') return 'already';
  const at = deps.now();
  const expires = new Date(at.getTime() + L.activeDays * DAY);
  const jobs = await openJobs(deps.db, at);
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const all = await alertsOf(trx, alert.email);
      const self = all.find((a) => a.id === alert.id);
      if (!self) throw gone();
      if (self.status === 'ACTIVE') return 'already' as const;
      const twin = all.find((a) => a.id !== self.id && a.status === 'ACTIVE' && sameFilters(a, self));
      if (twin) {
        await refresh(trx, twin.id, { frequency: self.frequency, consentText: self.consent_text }, at, expires);
        await deleteAlert(trx, self.id);
        return 'confirmed' as const;
      }
      await activate(trx, self.id, at, expires);
      const matches = matcher(self);
      await insertKnownJobs(
        trx,
        jobs.filter(matches).map((j) => ({ alertId: self.id, jobId: j.id })),
        false,
        at,
      );
      return 'confirmed' as const;
    }),
  );
}

/** Unsubscribes: the alert and what it was sent are deleted. An alert already gone is unsubscribed too. */
export async function unsubscribe(deps: Deps, token: string): Promise<void> {
  const alert = await linkedAlert(deps, 'unsubscribe', token);
  if (alert) await deleteAlert(deps.db, alert.id);
}

/** Renews a confirmed alert for a year from now (an expired one too, while it is kept); answers until when. */
export async function renew(deps: Deps, token: string): Promise<Date> {
  const alert = await linkedAlert(deps, 'renew', token);
  if (alert?.status !== 'ACTIVE') throw gone();
  const at = deps.now();
  const expires = new Date(at.getTime() + L.activeDays * DAY);
  if (!(await renewAlert(deps.db, alert.id, at, expires))) throw gone();
  return expires;
}

/** What a digest run did. */
export interface DigestRun {
  /** Alerts due and looked at. */
  checked: number;
  /** Digests queued (alerts with something new). */
  queued: number;
  /** Jobs listed in them together. */
  jobs: number;
  /** Alerts deleted by the retention sweep (unconfirmed in time, or expired and not renewed). */
  purged: number;
}

/** Due alerts claimed and sent per transaction. */
const BATCH = 500;

/**
 * Queues the digests due now: every confirmed, unexpired alert whose last run was a day ago
 * (daily) or a week ago (weekly), a few hours' slack either way so a cron at the same time each
 * day finds them due. Each gets the open jobs matching it that it never knew, up to
 * ALERT_LIMITS.jobsPerDigest (the rest in the next digest); an alert with nothing new gets no
 * email. Claimed, queued and remembered in one transaction per batch, so a second process running
 * at the same moment takes none of the same alerts. Then removes what is past its retention.
 */
export async function sendDigests(deps: Deps): Promise<DigestRun> {
  const now = deps.now();
  const due: DueRule = {
    now,
    dailyBefore: new Date(now.getTime() - 20 * HOUR),
    weeklyBefore: new Date(now.getTime() - 7 * DAY + 4 * HOUR),
  };
  const run: DigestRun = { checked: 0, queued: 0, jobs: 0, purged: 0 };
  const purge = () => purgeAlerts(deps.db, new Date(now.getTime() - L.confirmDays * DAY), new Date(now.getTime() - L.retentionDays * DAY));
  // Without email nothing could be delivered: the alerts wait (and keep their jobs new) until it is on.
  if (!alertsOn(deps)) {
    run.purged = await purge();
    return run;
  }
  const jobs = await openJobs(deps.db, now);
  const template = await alertTemplate(deps.db, 'alert_digest');
  // The links are signed inside the transactions: the key is read before them.
  await deps.serverKey.get();
  const token = randomBytes(12).toString('hex');
  const base = baseUrl(deps);
  const company = deps.config.company.name;
  for (let after = 0; ; ) {
    const ids = await dueAlertIds(deps.db, due, after, BATCH);
    if (!ids.length) break;
    after = ids[ids.length - 1];
    const batch = await withDbRetry(() =>
      deps.db.transaction(async (trx) => {
        const claimed = await claimDue(trx, ids, due, token);
        const known = await knownJobs(
          trx,
          claimed.map((a) => a.id),
        );
        const emails: { template: string; message: EmailMessage }[] = [];
        const sent: { alertId: number; jobId: number }[] = [];
        for (const alert of claimed) {
          const matches = matcher(alert);
          const seen = known.get(alert.id)!;
          const fresh: OpenJob[] = [];
          for (const j of jobs) {
            if (fresh.length >= L.jobsPerDigest) break;
            if (!seen.has(j.id) && matches(j)) fresh.push(j);
          }
          if (!fresh.length) continue;
          const expires = alert.expires_at!;
          const keptUntil = new Date(expires.getTime() + L.retentionDays * DAY);
          const [renewToken, unsubscribeToken] = await Promise.all([
            signLink(deps.serverKey, 'renew', alert, keptUntil),
            signLink(deps.serverKey, 'unsubscribe', alert, new Date(keptUntil.getTime() + L.activeDays * DAY)),
          ]);
          emails.push({
            template: DIGEST_TEMPLATE,
            message: digestEmail(template, alert.email, {
              company_name: company,
              frequency: alert.frequency,
              filters: filtersText(alert),
              job_count: String(fresh.length),
              jobs: jobLines(fresh, base, enumLabel),
              expires_on: dayText(expires),
              renew_link: linkUrl(base, 'renew', renewToken),
              unsubscribe_link: linkUrl(base, 'unsubscribe', unsubscribeToken),
            }),
          });
          for (const j of fresh) sent.push({ alertId: alert.id, jobId: j.id });
        }
        for (let i = 0; i < emails.length; i += 100) await enqueueEmails(trx, null, emails.slice(i, i + 100), now);
        await insertKnownJobs(trx, sent, true, now);
        return { checked: claimed.length, queued: emails.length, jobs: sent.length };
      }),
    );
    run.checked += batch.checked;
    run.queued += batch.queued;
    run.jobs += batch.jobs;
    if (batch.queued) deps.outbox?.notify();
  }
  run.purged = await purge();
  return run;
}

/** The alerts running and waiting for confirmation (admins' count). */
export function alertCounts(deps: Pick<Deps, 'db' | 'now'>): Promise<AlertCounts> {
  return countAlerts(deps.db, deps.now());
}

/** Erase (a privacy request): how many alerts the address has, and removing them. */
export function countAlertsOfAddress(deps: Pick<Deps, 'db'>, email: string): Promise<number> {
  return countAlertsOf(deps.db, email);
}

export function eraseAlertsOf(deps: Pick<Deps, 'db'>, email: string): Promise<number> {
  return deleteAlertsOf(deps.db, email);
}

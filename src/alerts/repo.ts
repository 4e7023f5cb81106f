/** The only code writing `job_alerts` and `job_alert_jobs` (issue 35), and the reads its writes need. */
import type { Knex } from 'knex';
import { fromDbDate, insertedId, toDbBool, toDbDate } from '../db/codecs.js';
import type { AlertFilters, AlertFrequency, JobAlert } from './types.js';

type Row = Record<string, unknown>;

function toAlert(r: Row): JobAlert {
  return {
    id: Number(r.id),
    email: String(r.email),
    department: String(r.department ?? ''),
    location: String(r.location ?? ''),
    work_mode: String(r.work_mode ?? '') as JobAlert['work_mode'],
    keywords: String(r.keywords ?? ''),
    frequency: String(r.frequency) as AlertFrequency,
    status: String(r.status) as JobAlert['status'],
    consent_text: String(r.consent_text),
    consent_at: fromDbDate(r.consent_at),
    confirm_sent_at: fromDbDate(r.confirm_sent_at),
    confirmed_at: fromDbDate(r.confirmed_at),
    expires_at: fromDbDate(r.expires_at),
    created_at: fromDbDate(r.created_at)!,
  };
}

export async function findAlert(db: Knex, id: number): Promise<JobAlert | null> {
  const row = await db('job_alerts').where({ id }).first();
  return row ? toAlert(row) : null;
}

/** The alerts of an address (at most ALERT_LIMITS.perAddress of them), locked for the subscription's transaction. */
export async function alertsOf(trx: Knex, email: string): Promise<JobAlert[]> {
  const q = trx('job_alerts').where({ email }).orderBy('id');
  // SQLite's write transactions are serialised already; MySQL locks the address's rows (and the gap where a new one would go).
  const rows = await (trx.client.config.client === 'mysql2' ? q.forUpdate() : q);
  return rows.map(toAlert);
}

export async function insertPending(
  trx: Knex,
  a: AlertFilters & { email: string; frequency: AlertFrequency; consentText: string },
  at: Date,
): Promise<JobAlert> {
  const now = toDbDate(at);
  const id = insertedId(
    await trx('job_alerts').insert({
      email: a.email,
      department: a.department,
      location: a.location,
      work_mode: a.work_mode,
      keywords: a.keywords,
      frequency: a.frequency,
      status: 'PENDING',
      consent_text: a.consentText,
      created_at: now,
      updated_at: now,
    }),
  );
  return (await findAlert(trx, id))!;
}

/** A waiting alert's frequency and consent text as the latest form gave them. */
export async function updatePending(trx: Knex, id: number, a: { frequency: AlertFrequency; consentText: string }, at: Date): Promise<void> {
  await trx('job_alerts')
    .where({ id, status: 'PENDING' })
    .update({ frequency: a.frequency, consent_text: a.consentText, updated_at: toDbDate(at) });
}

export async function markConfirmSent(trx: Knex, id: number, at: Date): Promise<void> {
  await trx('job_alerts')
    .where({ id })
    .update({ confirm_sent_at: toDbDate(at), updated_at: toDbDate(at) });
}

/** Turns a waiting alert on: consent given now, running until `expires`. Answers whether it was waiting. */
export async function activate(trx: Knex, id: number, at: Date, expires: Date): Promise<boolean> {
  const n = await trx('job_alerts')
    .where({ id, status: 'PENDING' })
    .update({
      status: 'ACTIVE',
      consent_at: toDbDate(at),
      confirmed_at: toDbDate(at),
      expires_at: toDbDate(expires),
      updated_at: toDbDate(at),
    });
  return n > 0;
}

/** An alert already on that a new confirmation replaces: its frequency and consent now, running until `expires`. */
export async function refresh(
  trx: Knex,
  id: number,
  a: { frequency: AlertFrequency; consentText: string },
  at: Date,
  expires: Date,
): Promise<void> {
  await trx('job_alerts')
    .where({ id })
    .update({
      frequency: a.frequency,
      consent_text: a.consentText,
      consent_at: toDbDate(at),
      expires_at: toDbDate(expires),
      renewed_at: toDbDate(at),
      updated_at: toDbDate(at),
    });
}

export async function renewAlert(db: Knex, id: number, at: Date, expires: Date): Promise<boolean> {
  const n = await db('job_alerts')
    .where({ id, status: 'ACTIVE' })
    .update({ expires_at: toDbDate(expires), renewed_at: toDbDate(at), updated_at: toDbDate(at) });
  return n > 0;
}

export async function deleteAlert(db: Knex, id: number): Promise<boolean> {
  return (await db('job_alerts').where({ id }).delete()) > 0;
}

/** Jobs an alert knows from now on (`sent`: in a digest; otherwise open when it was confirmed), in chunks. */
export async function insertKnownJobs(trx: Knex, rows: { alertId: number; jobId: number }[], sent: boolean, at: Date): Promise<void> {
  const now = toDbDate(at);
  // 400 rows a statement: SQLite writes a multi-row insert as a compound SELECT, at most 500 terms.
  for (let i = 0; i < rows.length; i += 400) {
    await trx('job_alert_jobs')
      .insert(rows.slice(i, i + 400).map((r) => ({ alert_id: r.alertId, job_id: r.jobId, sent: toDbBool(sent), created_at: now })))
      .onConflict(['alert_id', 'job_id'])
      .ignore();
  }
}

/** When a digest run counts an alert as due: none run yet, or the last one at least this long ago. */
export interface DueRule {
  now: Date;
  dailyBefore: Date;
  weeklyBefore: Date;
}

function whereDue(q: Knex.QueryBuilder, due: DueRule): Knex.QueryBuilder {
  return q
    .where('status', 'ACTIVE')
    .where('expires_at', '>', toDbDate(due.now))
    .where((w) =>
      w
        .where((d) =>
          d.where('frequency', 'daily').where((l) => l.whereNull('last_run_at').orWhere('last_run_at', '<=', toDbDate(due.dailyBefore))),
        )
        .orWhere((d) =>
          d.where('frequency', 'weekly').where((l) => l.whereNull('last_run_at').orWhere('last_run_at', '<=', toDbDate(due.weeklyBefore))),
        ),
    );
}

/** The next `limit` due alerts' ids after `afterId`, by id. */
export async function dueAlertIds(db: Knex, due: DueRule, afterId: number, limit: number): Promise<number[]> {
  const rows = await whereDue(db('job_alerts').select('id'), due).where('id', '>', afterId).orderBy('id').limit(limit);
  return rows.map((r: Row) => Number(r.id));
}

/**
 * Claims those of `ids` still due for this run (`token`), in one guarded UPDATE, so two processes
 * never both take an alert; answers the alerts claimed.
 */
export async function claimDue(trx: Knex, ids: number[], due: DueRule, token: string): Promise<JobAlert[]> {
  if (!ids.length) return [];
  await whereDue(trx('job_alerts').whereIn('id', ids), due).update({ last_run_at: toDbDate(due.now), run_token: token });
  const rows = await trx('job_alerts').whereIn('id', ids).where({ run_token: token });
  return rows.map(toAlert);
}

/** The jobs each alert already knows. */
export async function knownJobs(trx: Knex, alertIds: number[]): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>(alertIds.map((id) => [id, new Set<number>()]));
  if (!alertIds.length) return out;
  const rows = await trx('job_alert_jobs').whereIn('alert_id', alertIds).select('alert_id', 'job_id');
  for (const r of rows) out.get(Number(r.alert_id))?.add(Number(r.job_id));
  return out;
}

/** Deletes alerts never confirmed within `pendingBefore` and those expired before `expiredBefore`; answers how many. */
export async function purgeAlerts(db: Knex, pendingBefore: Date, expiredBefore: Date): Promise<number> {
  const pending = await db('job_alerts').where('status', 'PENDING').where('created_at', '<', toDbDate(pendingBefore)).delete();
  const expired = await db('job_alerts').where('status', 'ACTIVE').where('expires_at', '<', toDbDate(expiredBefore)).delete();
  return pending + expired;
}

/** Erase: every alert of an address (with what it was sent). */
export async function deleteAlertsOf(db: Knex, email: string): Promise<number> {
  return db('job_alerts').where({ email }).delete();
}

/**
 * The only writer of `job_approvals` (issue 34, JOB_APPROVAL=on), and of the job audit entries of
 * the publishing feature (an override of the checks, an approval asked for, given or refused),
 * each in the caller's transaction: the job's save or the decision.
 */
import type { Knex } from 'knex';
import { toDbDate, toDbJson } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { ApprovalState } from './types.js';

/** Asks for the job's approval (again): PENDING, with who asked for which status; a decision before it is cleared. */
export async function requestApproval(trx: Knex, jobId: number, requestedStatus: string, userId: number | null, at: Date): Promise<void> {
  const row = {
    state: 'PENDING',
    requested_status: requestedStatus,
    requested_by: userId,
    requested_at: toDbDate(at),
    decided_by: null,
    decided_at: null,
    comment: '',
  };
  const updated = await trx('job_approvals').where({ job_id: jobId }).update(row);
  if (!updated) await trx('job_approvals').insert({ job_id: jobId, ...row });
}

/** Records the decision on a pending approval; answers whether it was still pending. */
export async function decideApproval(
  trx: Knex,
  jobId: number,
  state: Exclude<ApprovalState, 'PENDING'>,
  userId: number | null,
  comment: string,
  at: Date,
): Promise<boolean> {
  const n = await trx('job_approvals')
    .where({ job_id: jobId, state: 'PENDING' })
    .update({ state, decided_by: userId, decided_at: toDbDate(at), comment });
  return n > 0;
}

/** The job's approval row held still while a decision is taken (MySQL: locked; SQLite has one writer). */
export async function lockApproval(
  trx: Knex,
  jobId: number,
): Promise<{ state: ApprovalState; requested_status: string; requested_by: number | null } | null> {
  const q = trx('job_approvals').where({ job_id: jobId }).first('state', 'requested_status', 'requested_by');
  const row = await (isMysql(trx) ? q.forUpdate() : q);
  return row
    ? { state: row.state, requested_status: row.requested_status, requested_by: row.requested_by == null ? null : Number(row.requested_by) }
    : null;
}

/** A job entry of this feature in the audit log (`job.checks_override`, `job.approval_requested`, `job.approved`, `job.rejected`). */
export async function insertJobAudit(
  trx: Knex,
  entry: { userId: number | null; action: string; jobId: number; details: Record<string, unknown> },
  at: Date,
): Promise<void> {
  await trx('audit_log').insert({
    user_id: entry.userId,
    action: entry.action,
    entity: 'job',
    entity_id: entry.jobId,
    details: toDbJson(entry.details),
    created_at: toDbDate(at),
  });
}

/**
 * A job's checklist as HR reads it (GET /api/hr/jobs/{id}/checks/) and the decisions on its
 * approval (POST /api/hr/jobs/{id}/approve/ and /reject/, JOB_APPROVAL=on), issue 34.
 *
 * Approving a job that asked to be active makes it active through the jobs feature's save
 * (`setJobStatus`), so the blocking checks run again (an admin approver may override them with
 * `override_checks`); the decision, its audit entry and its email are written in that save's
 * transaction. Rejecting keeps the job as it is, with the comment. Only an admin or the job's
 * hiring manager decides, never the person who asked; a job not waiting answers 409.
 */
import type { ReadCache } from '../db/read-cache.js';
import { Forbidden, HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { enqueueEmails } from '../posts/index.js';
import { requireJob, setJobStatus, type JobSave } from '../jobs/index.js';
import { decideApproval, insertJobAudit, lockApproval } from './approvals.repo.js';
import { blockingReasons, overrideCovers, runChecks } from './checks.service.js';
import { decisionEmails, publishingPolicy, type GateDeps } from './gate.service.js';
import { approvalOf, isHiringManagerOf, latestOverride } from './queries.js';
import { PUBLISHING_MESSAGES, decisionSchema } from './schema.js';
import type { JobChecks } from './types.js';

/** Who reads or decides: the session's user. */
export interface Viewer {
  userId: number;
  role: JobSave['role'];
}

export interface ApprovalDeps extends GateDeps {
  cache: ReadCache;
}

/** Whether the viewer may decide the job's approval: an admin, or its hiring manager (never the one who asked). */
async function mayDecide(deps: GateDeps, jobId: number, viewer: Viewer, requestedBy: number | null): Promise<boolean> {
  if (requestedBy !== null && requestedBy === viewer.userId) return false;
  return viewer.role === 'admin' || (await isHiringManagerOf(deps.db, jobId, viewer.userId));
}

/** The job's checklist as stored, with its override, its approval and what the viewer may do. */
export async function jobChecks(deps: GateDeps, jobId: number, viewer: Viewer): Promise<JobChecks> {
  const job = await requireJob(deps.db, jobId);
  const [{ checks }, override, approval] = await Promise.all([
    runChecks(deps, job, deps.now()),
    latestOverride(deps.db, jobId),
    approvalOf(deps.db, jobId),
  ]);
  const reasons = blockingReasons(checks);
  const covered = overrideCovers(override, reasons);
  const results = checks.map(({ problems, ...c }) => ({ ...c, overridden: covered && c.status === 'block' }));
  const pending = deps.config.jobApproval && approval?.state === 'PENDING';
  let shownApproval = null;
  if (approval) {
    const { requested_by_id: _id, ...rest } = approval;
    shownApproval = rest;
  }
  return {
    job_id: jobId,
    blocked: reasons.length > 0 && !covered,
    checks: results,
    override,
    approval_on: deps.config.jobApproval,
    approval: shownApproval,
    can_decide: !!pending && (await mayDecide(deps, jobId, viewer, approval.requested_by_id)),
    can_override: viewer.role === 'admin',
  };
}

const conflict = (detail: string) => new HttpError(409, detail, { detail });

/** Approves or rejects the job's pending approval; answers its checklist after the decision. */
export async function decideJob(deps: ApprovalDeps, jobId: number, approve: boolean, body: unknown, viewer: Viewer): Promise<JobChecks> {
  const { db, config } = deps;
  const job = await requireJob(db, jobId);
  if (!config.jobApproval) throw conflict(PUBLISHING_MESSAGES.approvalOff);
  const approval = await approvalOf(db, jobId);
  if (approval?.state !== 'PENDING') throw conflict(PUBLISHING_MESSAGES.notPending);
  if (!(await mayDecide(deps, jobId, viewer, approval.requested_by_id))) throw new Forbidden(PUBLISHING_MESSAGES.notApprover);
  const input = validate(decisionSchema(!approve), body);
  const now = deps.now();
  const save: JobSave = {
    userId: viewer.userId,
    role: viewer.role,
    extras: { override_checks: input.override_checks, approval: { comment: input.comment } },
  };
  if (approve && approval.requested_status === 'ACTIVE' && job.status === 'INACTIVE') {
    // The activation asked for: a save of the job, through the gate (checks, override, the decision in its transaction).
    await setJobStatus({ db, cache: deps.cache, policy: publishingPolicy(deps) }, job, 'ACTIVE', now, save);
  } else {
    // Approving the job as it is (or rejecting it): its status stays; an override sent here is for an activation only.
    if (input.override_checks !== undefined && input.override_checks !== null && viewer.role !== 'admin')
      throw new Forbidden(PUBLISHING_MESSAGES.overrideAdminOnly);
    await db.transaction(async (trx) => {
      const locked = await lockApproval(trx, jobId);
      if (
        locked?.state !== 'PENDING' ||
        !(await decideApproval(trx, jobId, approve ? 'APPROVED' : 'REJECTED', viewer.userId, input.comment, now))
      )
        throw conflict(PUBLISHING_MESSAGES.notPending);
      await insertJobAudit(
        trx,
        { userId: viewer.userId, action: approve ? 'job.approved' : 'job.rejected', jobId, details: { comment: input.comment } },
        now,
      );
      await enqueueEmails(
        trx,
        null,
        await decisionEmails(trx, config, job, approve, input.comment, locked.requested_by, viewer.userId),
        now,
      );
    });
  }
  return jobChecks(deps, jobId, viewer);
}

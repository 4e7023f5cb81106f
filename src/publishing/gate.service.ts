/**
 * The publishing gate (issue 34): the jobs feature's save policy (its JobSavePolicy port), which
 * every HR save of a job passes (the API's create and update, an approval, the CLI's import).
 *
 * - Blocking checks: a save that would leave the job ACTIVE (created active, activated, or changed
 *   while active) is refused with a 400 naming each reason of a failing blocking check
 *   (JOB_CHECKS_BLOCK), unless an admin sends `override_checks: {note}` (recorded in the audit log,
 *   `job.checks_override`, with the reasons it overrode) or an earlier override still covers every
 *   reason (a later save that changes nothing the checks see is not refused again). Anyone else
 *   sending an override gets a 403.
 * - Approval (JOB_APPROVAL=on): a save by a recruiter (anyone but an admin, the CLI or the job's
 *   hiring manager) that makes a job or changes it asks for approval (`job_approvals` PENDING, the
 *   status asked for kept), and so does its activation of a job not approved; until approved the
 *   job is not active (it keeps its status, or INACTIVE when it was active). The approvers (its
 *   hiring managers and the admins) get an email when email is on. An approver who saves the job
 *   active approves its pending request.
 */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { Forbidden, HttpError, ValidationError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { RecordStatus } from '../shared/enums.js';
import type { Job, JobSave, JobSavePlan, JobSavePolicy } from '../jobs/index.js';
import { enqueueEmails, htmlOfText, oneLine, type EmailMessage } from '../posts/index.js';
import { decideApproval, insertJobAudit, requestApproval } from './approvals.repo.js';
import { blockingReasons, overrideCovers, runChecks, type CheckConfig, type CheckProblem } from './checks.service.js';
import { approvalOf, approverAddresses, isHiringManagerOf, latestOverride, userContact } from './queries.js';
import { PUBLISHING_MESSAGES, overrideSchema } from './schema.js';

export type GateConfig = CheckConfig & Pick<Config, 'mail'>;

export interface GateDeps {
  db: Db;
  config: GateConfig;
  now: () => Date;
}

/** An approval's decision, handed to the save that carries it out (approvals.service.ts). */
interface ApprovalDecision {
  comment: string;
}

/** The 400 of an activation the checks refuse: the summary under `status`, each reason under the job's field it is about. */
function blockedError(reasons: CheckProblem[]): ValidationError {
  const fields: Record<string, string[]> = { status: [PUBLISHING_MESSAGES.activationRefused] };
  for (const r of reasons) {
    const key = r.field === 'detail' ? 'status' : r.field;
    fields[key] ??= [];
    if (!fields[key].includes(r.message)) fields[key].push(r.message);
  }
  return new ValidationError(fields);
}

/** What a recruiter's change is about: everything but the status. */
function content(job: Job): string {
  return JSON.stringify([
    job.title,
    job.department,
    job.location,
    job.job_type,
    job.work_mode,
    job.description,
    job.responsibilities,
    job.requirements,
    job.perks_benefits,
    job.currency,
    job.min_salary,
    job.max_salary,
    job.salary_period,
    job.experience_required,
    job.duration,
    job.closes_at?.getTime() ?? null,
    job.applicant_countries,
    job.webhook_enabled,
    job.webhook_url,
    job.webhook_secret,
    job.webhook_include_source,
    job.questions.map(({ id: _id, ...q }) => q),
  ]);
}

/** Whether the saver's change needs approval: anyone but an admin, the CLI or the job's own hiring manager. */
async function needsApproval(deps: GateDeps, current: Job | null, save: JobSave): Promise<boolean> {
  if (save.role === 'admin' || save.role === 'cli') return false;
  if (current && save.userId !== null && (await isHiringManagerOf(deps.db, current.id, save.userId))) return false;
  return true;
}

/** An email to an HR user: the subject on one line, the text with its HTML part. */
function message(to: string, subject: string, text: string): EmailMessage {
  return { to, subject: oneLine(subject), text: `${text}\n`, html: htmlOfText(`${text}\n`) };
}

/** The approvers' emails about a request (every approver with an address but the one who asked). */
async function requestEmails(
  trx: Db,
  config: GateConfig,
  job: { id: number; title: string; public_id: string },
  requestedStatus: RecordStatus,
  userId: number | null,
): Promise<{ template: string; message: EmailMessage }[]> {
  if (!config.mail.smtpUrl) return [];
  const [approvers, asker] = await Promise.all([approverAddresses(trx, job.id), userId === null ? null : userContact(trx, userId)]);
  const who = asker ? oneLine(asker.username) : 'Someone';
  const title = oneLine(job.title);
  const link = `${config.publicBaseUrl}/hr/jobs/${job.id}/edit`;
  const text = [
    `${who} asked for approval of the job “${title}” (${job.public_id})${requestedStatus === 'ACTIVE' ? ', to publish it' : ''}.`,
    `Review it, then approve or reject it on the job's page: ${link}`,
  ].join('\n\n');
  return approvers
    .filter((a) => a.id !== userId)
    .map((a) => ({ template: 'job_approval_request', message: message(a.email, `Approval needed: ${title}`, text) }));
}

/** The email to whoever asked, about the decision. */
export async function decisionEmails(
  trx: Db,
  config: GateConfig,
  job: { id: number; title: string },
  approved: boolean,
  comment: string,
  requestedBy: number | null,
  deciderId: number | null,
): Promise<{ template: string; message: EmailMessage }[]> {
  if (!config.mail.smtpUrl || requestedBy === null || requestedBy === deciderId) return [];
  const [asker, decider] = await Promise.all([userContact(trx, requestedBy), deciderId === null ? null : userContact(trx, deciderId)]);
  if (!asker?.email) return [];
  const title = oneLine(job.title);
  const by = decider ? oneLine(decider.username) : 'An admin';
  const text = [
    `${by} ${approved ? 'approved' : 'rejected'} the job “${title}”.`,
    ...(comment ? [`Comment:\n${comment}`] : []),
    `The job: ${config.publicBaseUrl}/hr/jobs/${job.id}/edit`,
  ].join('\n\n');
  return [
    {
      template: 'job_approval_decision',
      message: message(asker.email, `Job ${approved ? 'approved' : 'rejected'}: ${title}`, text),
    },
  ];
}

async function planSave(deps: GateDeps, draft: Job, current: Job | null, save: JobSave): Promise<JobSavePlan> {
  const { db, config } = deps;
  const override = validate(overrideSchema(), save.extras?.override_checks);
  if (override && save.role !== 'admin' && save.role !== 'cli') throw new Forbidden(PUBLISHING_MESSAGES.overrideAdminOnly);
  const decision = save.extras?.approval as ApprovalDecision | undefined;
  const now = deps.now();

  // Approval first: it decides the status stored.
  let status: RecordStatus = draft.status;
  let request: RecordStatus | null = null;
  let approvesPending = false;
  const approval = config.jobApproval && current ? await approvalOf(db, current.id) : null;
  if (config.jobApproval && !decision) {
    if (await needsApproval(deps, current, save)) {
      const changed = !current || content(current) !== content(draft);
      const activating = draft.status === 'ACTIVE';
      if (changed || (activating && approval?.state !== 'APPROVED')) {
        request = draft.status;
        if (activating) status = current && current.status !== 'ACTIVE' ? current.status : 'INACTIVE';
      }
    } else if (approval?.state === 'PENDING' && draft.status === 'ACTIVE') {
      approvesPending = true;
    }
  }

  // The checks, on any save that asks for the job to be active.
  let overridden: { note: string; reasons: string[] } | null = null;
  if (draft.status === 'ACTIVE') {
    const { checks } = await runChecks({ db, config }, draft, now);
    const reasons = blockingReasons(checks);
    if (reasons.length) {
      if (override) overridden = { note: override.note, reasons: [...new Set(reasons.map((r) => r.message))] };
      else if (!overrideCovers(current ? await latestOverride(db, current.id) : null, reasons)) throw blockedError(reasons);
    }
  }

  return {
    status,
    record: async (trx, saved, at) => {
      const jobId = saved.id;
      const job = { id: jobId, title: draft.title, public_id: saved.public_id };
      if (overridden)
        await insertJobAudit(
          trx,
          { userId: save.userId, action: 'job.checks_override', jobId, details: { ...overridden, status: draft.status } },
          at,
        );
      if (request) {
        await requestApproval(trx, jobId, request, save.userId, at);
        await insertJobAudit(
          trx,
          { userId: save.userId, action: 'job.approval_requested', jobId, details: { requested_status: request } },
          at,
        );
        await enqueueEmails(trx, null, await requestEmails(trx, config, job, request, save.userId), at);
      }
      if (decision || approvesPending) {
        const comment = decision?.comment ?? 'Approved by saving the job as active.';
        if (!(await decideApproval(trx, jobId, 'APPROVED', save.userId, comment, at)))
          throw new HttpError(409, PUBLISHING_MESSAGES.notPending, { detail: PUBLISHING_MESSAGES.notPending });
        await insertJobAudit(trx, { userId: save.userId, action: 'job.approved', jobId, details: { comment } }, at);
        await enqueueEmails(
          trx,
          null,
          await decisionEmails(trx, config, job, true, comment, approval?.requested_by_id ?? null, save.userId),
          at,
        );
      }
    },
  };
}

/** The gate as the jobs feature's port: app.ts hands it to the jobs routes, the CLI to its import. */
export function publishingPolicy(deps: GateDeps): JobSavePolicy {
  return { plan: (draft, current, save) => planSave(deps, draft, current, save) };
}

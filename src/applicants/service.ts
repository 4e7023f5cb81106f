/**
 * Applying to a job: the uploaded form is checked with the wizard's rules, the resume's type is
 * decided from its bytes, and the application with its file record, answers and webhook outbox
 * row is committed in ONE transaction. Whatever fails, the stored file is removed, so a failed
 * request leaves neither a row nor a file behind, with one exception: when the COMMIT itself
 * fails without a definite answer (the connection lost, reset or timed out, the server gone),
 * the application may have been saved, so its file is kept; if no row points at it, the orphan
 * sweep (src/storage/sweep.ts) removes it later. Dependencies come in as arguments (DESIGN.md
 * convention 2), so tests can hand in a failing database or storage.
 */
import { flushDeleted, readCommitted, type Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { DB_RETRY_AFTER_SECONDS, describeDbError, isUniqueViolation, withDbRetry } from '../db/errors.js';
import { CommitOutcomeUnknown, commitRows, discardFiles, withOwnedFiles } from '../storage/committed-files.js';
import { addressHash } from '../http/address-hash.js';
import { FieldErrorBag, NotFound, ServiceUnavailable, ValidationError } from '../http/errors.js';
import type { ReadCache } from '../db/read-cache.js';
import { type Availability, listJobStats, requireJob } from '../jobs/index.js';
import type { Job } from '../jobs/types.js';
import { applicationPostPayload, enqueueApplicationEmails, enqueueApplicationPost, type MailConfig, type OutboxSignal } from '../posts/index.js';
import { MESSAGES, RESUME_MAX_BYTES } from '../shared/application-rules.js';
import { openReadable, type FileStorage } from '../storage/storage.js';
import type { Download } from '../http/download.js';
import { safeFileName, type MultipartOptions, type ReceivedFile, type ReceivedForm } from '../http/multipart.js';
import { DOCX_MAIN_PART, RESUME_CONTENT_TYPES, SNIFF_BYTES, TailReader, sniffHead, zipHasEntry, type ResumeKind } from './file-type.js';
import { applicantTotals, applicantTotalsStamp } from './queries/dashboard.js';
import { applicantColumns, applicantRows, applicantsFilename } from './queries/export.js';
import { computeAnalytics, insightsStamp } from './queries/insights.js';
import { findApplicant, findResume, neighbours, pageApplicants, selectRemovable, type ApplicantPage, type RemovalCriteria } from './queries/list.js';
import { bumpCounter, deleteApplications, insertApplication, insertApplicationAudit, updateStatuses, type NewApplication } from './repo.js';
import { APPLICANT_MESSAGES, HONEYPOT_FIELD, orderedErrors, parseApplicationFields } from './schema.js';
import type { ApplicantDetail, ApplicantFilters, DashboardStats, JobAnalytics } from './types.js';
import type { ApplicationStatus } from '../shared/enums.js';

export interface ApplyDeps {
  db: Db;
  storage: FileStorage;
  now: () => Date;
  /** Email settings: with SMTP_URL set, the confirmation and HR notification are queued too. */
  config?: MailConfig;
  /** Wakes this process's delivery worker once the application's posts are committed. */
  outbox?: OutboxSignal;
  /** Keys the hash of the client address kept with the application (none: no hash). */
  serverKey?: ServerKey;
}

export const APPLY_MESSAGES = {
  submitted: 'Application submitted.',
  duplicate: 'You have already applied for this job with this email.',
  inactive: 'This job post has stopped taking application.',
  removed: 'This job post has been removed.',
  // The commit's outcome is unknown: it must not say the application failed, and a retry that
  // finds it saved is refused with `duplicate`.
  unconfirmed:
    'We could not confirm that your application was saved. Please wait a moment, then submit it again: if it was saved, you will be told that you have already applied for this job with this email.',
} as const;

/** A DOCX's central directory sits at the end of the file; keeping this much avoids reading it back. */
const ZIP_TAIL_BYTES = 256 * 1024;

/** Hard limits of the apply upload: 9 known text fields, one file, a generous margin for the rest. */
export const APPLY_UPLOAD: MultipartOptions = {
  fileRules: new Map([
    [
      'resume',
      {
        maxBytes: RESUME_MAX_BYTES,
        tooLargeMessage: MESSAGES.resumeSize,
        headBytes: SNIFF_BYTES,
        checkHead: (head: Buffer) => (sniffHead(head) ? null : MESSAGES.resumeType),
        tailBytes: (head: Buffer) => (sniffHead(head) === 'zip' ? ZIP_TAIL_BYTES : 0),
      },
    ],
  ]),
  maxTotalFileBytes: RESUME_MAX_BYTES,
  maxFields: 16,
  maxFieldBytes: 1024 * 1024,
  maxTextBytes: 2 * 1024 * 1024,
  maxParts: 17,
  notMultipartMessage: 'Send the application as multipart/form-data.',
};

/** Removed or unknown: 404; inactive: 400 with the wizard's closed message. */
export function assertAcceptingApplications(job: Job | null, availability: Availability): asserts job is Job {
  if (!job || availability === 'not_found') throw new NotFound(APPLY_MESSAGES.removed);
  if (availability !== 'available') throw new ValidationError({}, APPLY_MESSAGES.inactive);
}

/** PDF and DOC by their magic bytes; DOCX only when the ZIP holds word/document.xml. */
async function resumeKind(storage: FileStorage, file: ReceivedFile): Promise<ResumeKind | null> {
  const head = sniffHead(file.head);
  if (head !== 'zip') return head;
  const reader = new TailReader(file.size, file.tail, () => storage.read(file.key));
  return (await zipHasEntry(reader, file.size, DOCX_MAIN_PART)) ? 'docx' : null;
}

function isDuplicateApplication(err: unknown): boolean {
  const message = String((err as Error)?.message ?? '');
  return isUniqueViolation(err) && (message.includes('applications_job_email_uq') || message.includes('applications.email'));
}

export type ApplyOutcome = { kind: 'created'; applicationId: number } | { kind: 'discarded' };

/**
 * Takes ownership of the received file: it is kept when the application is committed, or when
 * the commit's outcome is unknown (then the answer is a 503 that does not claim a failure).
 * A filled honeypot is answered like a success, but nothing is kept.
 */
export async function submitApplication(deps: ApplyDeps, job: Job, form: ReceivedForm, meta: { ip?: string | null } = {}): Promise<ApplyOutcome> {
  const resume = form.files.get('resume') ?? null;
  const keys = resume ? [resume.key] : [];
  if (form.fields.get(HONEYPOT_FIELD)?.trim()) {
    await discardFiles(deps.storage, keys);
    return { kind: 'discarded' };
  }
  try {
    return await withOwnedFiles(deps.storage, keys, async () => {
      const now = deps.now();
      const bag = new FieldErrorBag();
      const { input } = parseApplicationFields(form.fields, form.repeated, job.questions, now, bag);
      const kind = resume ? await resumeKind(deps.storage, resume) : null;
      if (!resume) bag.add('resume', MESSAGES.resumeRequired);
      else if (!kind) bag.add('resume', MESSAGES.resumeType);
      if (!input || !resume || !kind || bag.has()) throw new ValidationError(orderedErrors(bag.fields));

      const application: NewApplication = {
        job_id: job.id,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        phone: input.phone,
        ip_hash: await addressHash(deps.serverKey, meta.ip, 'apply'),
        resume: {
          storage_key: resume.key,
          original_name: safeFileName(resume.clientName, 'resume'),
          content_type: RESUME_CONTENT_TYPES[kind],
          size: resume.size,
          sha256: resume.sha256,
        },
        experiences: input.experiences,
        education: input.education,
        skills: input.skills,
        answers: input.answers,
      };
      const applicationId = await commitRows(deps.db, async (trx) => {
        const id = await insertApplication(trx, application, now);
        if (job.webhook_enabled && job.webhook_url) {
          const payload = applicationPostPayload(job, input);
          await enqueueApplicationPost(trx, { applicationId: id, jobId: job.id, targetUrl: job.webhook_url, payload, now });
        }
        if (deps.config) await enqueueApplicationEmails(trx, deps.config, { applicationId: id, job, applicant: input, now });
        return id;
      });
      deps.outbox?.notify();
      return { kind: 'created', applicationId } as const;
    });
  } catch (err) {
    if (err instanceof CommitOutcomeUnknown) {
      console.error(
        `[apply] the commit of an application to job ${job.id} failed with its outcome unknown (${describeDbError(err.cause)}); resume ${resume?.key} kept: the orphan sweep removes it if no row points at it`,
      );
      throw new ServiceUnavailable(APPLY_MESSAGES.unconfirmed, DB_RETRY_AFTER_SECONDS);
    }
    if (isDuplicateApplication(err)) throw new ValidationError({ email: [APPLY_MESSAGES.duplicate] });
    throw err;
  }
}

/** What HR's reads need: the database and the app's read cache. */
export interface ReadDeps {
  db: Db;
  cache: ReadCache;
}

/**
 * The dashboard (spec 02 section 3 "Dashboard response"). Removed jobs are left out of
 * total_jobs and job_stats (they are no longer job posts); applicant totals count every
 * application, since applicants of a removed job are still in the Applicants list. The totals are
 * reused while their stamp (two index reads) is unchanged.
 */
export async function loadDashboard({ db, cache }: ReadDeps): Promise<DashboardStats> {
  const [jobs, { byJob, newCount }] = await Promise.all([
    listJobStats(db),
    applicantTotalsStamp(db).then((stamp) => cache.stamped('applicant-totals:all', stamp, () => applicantTotals(db))),
  ]);
  let total = 0;
  for (const n of byJob.values()) total += n;
  return {
    total_jobs: jobs.length,
    active_jobs: jobs.filter((j) => j.status === 'ACTIVE').length,
    new_applicants: newCount,
    total_applicants: total,
    job_stats: jobs.map((j) => ({ id: j.id, public_id: j.public_id, title: j.title, status: j.status, applicants: byJob.get(j.id) ?? 0, views: j.views })),
  };
}

/**
 * A job (404 if unknown) and the stats of its current questions, in order. All statements run in
 * one transaction: the figures come from one snapshot (an application arriving meanwhile is in
 * all of them or in none), and on SQLite's single connection a request runs start to end instead
 * of queueing again for every statement behind every other request's. A result is reused only
 * while the job's stamp, read on every request, is unchanged, so it is never stale.
 */
export async function loadJobInsights({ db, cache }: ReadDeps, jobId: number): Promise<{ job: Job; analytics: JobAnalytics }> {
  return db.transaction(async (trx) => {
    const job = await requireJob(trx, jobId);
    const { stamp, total } = await insightsStamp(trx, job);
    return { job, analytics: await cache.stamped(`insights:${job.id}`, stamp, () => computeAnalytics(trx, job, total)) };
  });
}

// ---- HR: the applicants list, one application, its resume, status changes ----

/** One page of the filtered list; `page` past the end of a non-empty list is a 404. */
export async function listApplicants({ db }: ReadDeps, filters: ApplicantFilters, page: number, pageSize: number, detailed: boolean): Promise<ApplicantPage> {
  const result = await pageApplicants(db, filters, page, pageSize, detailed);
  if (page > 1 && !result.results.length) throw new NotFound('Invalid page.');
  return result;
}

export async function getApplicant({ db }: ReadDeps, id: number): Promise<ApplicantDetail> {
  const app = await findApplicant(db, id);
  if (!app) throw new NotFound(APPLICANT_MESSAGES.notFound);
  return app;
}

/** The applications before and after `app` in the list `filters` describe. */
export function applicantNeighbours({ db }: ReadDeps, filters: ApplicantFilters, app: ApplicantDetail): Promise<{ previous: number | null; next: number | null }> {
  return neighbours(db, filters, { id: app.id, created_at: new Date(app.created_at) });
}

/**
 * The resume's bytes, opened before anything is sent: a missing application, file row or file
 * on disk is a 404 (never a 500 with half a download).
 */
export async function openResume({ db, storage }: { db: Db; storage: FileStorage }, id: number): Promise<Download> {
  const file = await findResume(db, id);
  if (!file) throw new NotFound(APPLICANT_MESSAGES.resumeMissing);
  try {
    const stream = await openReadable(storage, file.storage_key);
    return { name: file.download_name, contentType: file.content_type, size: file.size, stream };
  } catch (err) {
    // Gone from storage (or a key storage refuses): the row outlived its file. Logged for the
    // operator; the page shows the spec's download message.
    console.error(`[applicants] the resume of application ${id} cannot be read from storage (${file.storage_key}): ${(err as Error).message}`);
    throw new NotFound(APPLICANT_MESSAGES.resumeMissing);
  }
}

export interface StatusChangeDeps {
  db: Db;
  now: () => Date;
}

/**
 * Sets the status of applications, in one transaction with one audit entry per changed
 * application (who, when, from, to) and the `applications.status` counter, so the dashboard's and
 * every process's cached totals see the change at once. Ids that do not exist are answered back.
 */
export async function changeStatuses(deps: StatusChangeDeps, ids: number[], status: ApplicationStatus, userId: number | null): Promise<{ changed: number[]; missing: number[] }> {
  const now = deps.now();
  // READ COMMITTED (MySQL): a statement locks only the rows it changes, not every row a table scan
  // passes, so changes over other applications never wait for each other. The counter is touched
  // last, so its one shared row is held only briefly; a deadlock victim runs again.
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const { found, changed } = await updateStatuses(trx, ids, status, now);
      if (changed.length) {
        await insertApplicationAudit(trx, changed.map((c) => ({ userId, action: 'status', entityId: c.id, details: { from: c.from, to: status } })), now);
        await bumpCounter(trx, 'applications.status');
      }
      return { changed: changed.map((c) => c.id), missing: ids.filter((id) => !found.has(id)) };
    }, readCommitted(deps.db)),
  );
}

// ---- Retention: purge old applications, erase one applicant ----

export interface RetentionDeps {
  db: Db;
  storage: FileStorage;
  now: () => Date;
}

export interface RemovalSummary {
  applications: number;
  /** Applications per job id. */
  byJob: Map<number, number>;
  /** Resume files the applications had. */
  files: number;
}

function summarise(rows: { job_id: number; storage_key: string | null }[]): RemovalSummary {
  const byJob = new Map<number, number>();
  for (const r of rows) byJob.set(r.job_id, (byJob.get(r.job_id) ?? 0) + 1);
  return { applications: rows.length, byJob, files: rows.filter((r) => r.storage_key).length };
}

/** What a purge or an erase with these criteria would remove now (a dry run; nothing changes). */
export async function planRemoval({ db }: Pick<RetentionDeps, 'db'>, criteria: RemovalCriteria): Promise<RemovalSummary> {
  return summarise(await selectRemovable(db, criteria));
}

export interface RemovalResult extends RemovalSummary {
  /** Files that could not be removed: the orphan sweep removes them later (no row points at them). */
  filesLeft: string[];
}

/**
 * Deletes the applications matching `criteria` (selected again inside the transaction, so what
 * goes is exactly what matched at that moment) with their answers, post records, search words and
 * stored_files rows, in ONE transaction that also raises the `applications.removed` counter (the
 * dashboard and insights caches of every process see it) and writes one audit entry (no personal
 * data: the criteria without the email, and the count). Files are removed after the commit: a
 * failure there leaves files without a row, which the orphan sweep removes; a row never points
 * at a missing file.
 */
export async function removeApplications(deps: RetentionDeps, criteria: RemovalCriteria, audit: { action: 'purge' | 'erase'; userId?: number | null }): Promise<RemovalResult> {
  const now = deps.now();
  const rows = await deps.db.transaction(async (trx) => {
    const selected = await selectRemovable(trx, criteria);
    if (!selected.length) return selected;
    await deleteApplications(trx, selected);
    await bumpCounter(trx, 'applications.removed');
    const details = {
      count: selected.length,
      created_before: criteria.createdBefore?.toISOString() ?? null,
      status: criteria.status ?? null,
      job_id: criteria.jobId ?? null,
    };
    await insertApplicationAudit(trx, [{ userId: audit.userId ?? null, action: audit.action, entityId: null, details }], now);
    return selected;
  });
  if (rows.length) await flushDeleted(deps.db);
  const filesLeft: string[] = [];
  for (const r of rows) {
    if (!r.storage_key) continue;
    await deps.storage.remove(r.storage_key).catch((err) => {
      console.error(`[applicants] could not remove file ${r.storage_key} (${(err as Error).message}); the orphan sweep will`);
      filesLeft.push(r.storage_key!);
    });
  }
  return { ...summarise(rows), filesLeft };
}

/** The applicants workbook of a job (insights' Export): its file name, columns and rows, oldest first. */
export function applicantsExport({ db }: { db: Db }, job: Job) {
  return { filename: applicantsFilename(job.id), sheetName: 'Applicants', columns: applicantColumns(job), rows: applicantRows(db, job) };
}

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
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { DB_RETRY_AFTER_SECONDS, describeDbError, isUniqueViolation } from '../db/errors.js';
import { CommitOutcomeUnknown, commitRows, discardFiles, withOwnedFiles } from '../storage/committed-files.js';
import { addressHash } from '../http/address-hash.js';
import { FieldErrorBag, NotFound, ServiceUnavailable, ValidationError } from '../http/errors.js';
import type { Availability } from '../jobs/index.js';
import type { Job } from '../jobs/types.js';
import {
  applicationPostPayload,
  enqueueApplicationEmails,
  enqueueApplicationPost,
  type MailConfig,
  type OutboxSignal,
} from '../posts/index.js';
import { CONSENT_FIELD, MESSAGES, RESUME_MAX_BYTES, isConsentGiven } from '../shared/application-rules.js';
import { readLazily, type FileStorage } from '../storage/storage.js';
import { safeFileName, type MultipartOptions, type ReceivedFile, type ReceivedForm } from '../http/multipart.js';
import { DOCX_MAIN_PART, RESUME_CONTENT_TYPES, SNIFF_BYTES, TailReader, sniffHead, zipHasEntry, type ResumeKind } from './lib/file-type.js';
import { insertApplication, type NewApplication } from './apply.repo.js';
import { personForApplication, statusLink, suggestAfterApplying } from '../people/index.js';
import type { Attribution } from '../shared/campaign.js';
import { HONEYPOT_FIELD, orderedErrors, parseApplicationFields } from './apply.schema.js';
import type { PhoneRule } from '../shared/phone-rule-names.js';
import type { Logger } from '../log/logger.js';

export interface ApplyDeps {
  db: Db;
  storage: FileStorage;
  now: () => Date;
  log: Logger;
  /**
   * Email settings: with SMTP_URL set, the confirmation and HR notification are queued too. With
   * APPLY_CONSENT_TEXT set, an application must carry `consent`, and the text is kept with it.
   */
  config?: MailConfig & { applyConsentText?: string | null; phoneRule?: PhoneRule; candidateLinkDays?: number };
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
  const reader = new TailReader(file.size, file.tail, () => readLazily(storage, file.key));
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
export async function submitApplication(
  deps: ApplyDeps,
  job: Job,
  form: ReceivedForm,
  meta: { ip?: string | null; attribution?: Attribution | null } = {},
): Promise<ApplyOutcome> {
  const resume = form.files.get('resume') ?? null;
  const keys = resume ? [resume.key] : [];
  if (form.fields.get(HONEYPOT_FIELD)?.trim()) {
    await discardFiles(deps.storage, keys, deps.log);
    return { kind: 'discarded' };
  }
  try {
    return await withOwnedFiles(deps.storage, keys, deps.log, async () => {
      const now = deps.now();
      const bag = new FieldErrorBag();
      const { input } = parseApplicationFields(form.fields, form.repeated, job.questions, now, bag, deps.config?.phoneRule);
      const kind = resume ? await resumeKind(deps.storage, resume) : null;
      if (!resume) bag.add('resume', MESSAGES.resumeRequired);
      else if (!kind) bag.add('resume', MESSAGES.resumeType);
      const consentText = deps.config?.applyConsentText ?? null;
      if (consentText && !form.repeated.has(CONSENT_FIELD) && !isConsentGiven(form.fields.get(CONSENT_FIELD)))
        bag.add(CONSENT_FIELD, MESSAGES.consentRequired);
      if (!input || !resume || !kind || bag.has()) throw new ValidationError(orderedErrors(bag.fields));

      const application: NewApplication = {
        job_id: job.id,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        phone: input.phone,
        ip_hash: await addressHash(deps.serverKey, meta.ip, 'apply'),
        attribution: meta.attribution ?? null,
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
        consent_text: consentText,
      };
      const applicationId = await commitRows(deps.db, async (trx) => {
        const personId = await personForApplication(trx, application.email, now);
        const id = await insertApplication(trx, { ...application, person_id: personId }, now);
        await suggestAfterApplying(trx, personId, now);
        if (job.webhook_enabled && job.webhook_url) {
          const payload = applicationPostPayload(job, input, job.webhook_include_source ? application.attribution : undefined);
          await enqueueApplicationPost(trx, { applicationId: id, jobId: job.id, targetUrl: job.webhook_url, payload, now });
        }
        if (deps.config) {
          // The receipt carries the link to the candidate's status page (issue 35), when this process keys links.
          const { serverKey, config } = deps;
          const link =
            serverKey && config.candidateLinkDays
              ? await statusLink(
                  { serverKey, config: { publicBaseUrl: config.publicBaseUrl, candidateLinkDays: config.candidateLinkDays } },
                  personId,
                  now,
                )
              : undefined;
          await enqueueApplicationEmails(trx, config, { applicationId: id, job, applicant: input, now, statusLink: link });
        }
        return id;
      });
      deps.outbox?.notify();
      return { kind: 'created', applicationId } as const;
    });
  } catch (err) {
    if (err instanceof CommitOutcomeUnknown) {
      deps.log.error(
        { jobId: job.id, key: resume?.key ?? null, cause: describeDbError(err.cause) },
        '[apply] the commit of an application failed with its outcome unknown; the resume is kept (the orphan sweep removes it if no row points at it)',
      );
      throw new ServiceUnavailable(APPLY_MESSAGES.unconfirmed, DB_RETRY_AFTER_SECONDS);
    }
    if (isDuplicateApplication(err)) throw new ValidationError({ email: [APPLY_MESSAGES.duplicate] });
    throw err;
  }
}

/** An application brought in by a candidate import (issue 35), checked by the importer with the apply rules. */
export interface ImportedApplication {
  job_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  /** Where the other system says the candidate came from (kept as the application's source). */
  source: string | null;
  applied_at: Date;
  /** A stage of the job; null: its first. */
  stage_id: number | null;
  resume: NewApplication['resume'];
}

/** Writes an imported application in the caller's transaction, linked to its person and suggested like one applied for. */
export async function insertImportedApplication(trx: Db, a: ImportedApplication): Promise<number> {
  const personId = await personForApplication(trx, a.email, a.applied_at);
  const id = await insertApplication(
    trx,
    {
      job_id: a.job_id,
      person_id: personId,
      first_name: a.first_name,
      last_name: a.last_name,
      email: a.email,
      phone: a.phone,
      ip_hash: null,
      attribution: a.source ? { source: a.source, medium: '', campaign: '', linkId: null } : null,
      resume: a.resume,
      ...(a.stage_id === null ? {} : { stage_id: a.stage_id }),
      experiences: [],
      education: [],
      skills: [],
      answers: [],
    },
    a.applied_at,
  );
  await suggestAfterApplying(trx, personId, a.applied_at);
  return id;
}

/**
 * An imported resume's bytes judged as uploads are (PDF and DOC by their magic bytes, DOCX when
 * the ZIP holds word/document.xml; at most RESUME_MAX_BYTES) and, unless `dryRun`, stored: the
 * row for insertImportedApplication, or why it is refused. The caller removes the file if its
 * application is not written.
 */
export async function storeImportedResume(
  storage: FileStorage,
  file: { name: string; bytes: Buffer },
  dryRun: boolean,
): Promise<{ resume: NonNullable<NewApplication['resume']> } | { error: string }> {
  if (file.bytes.length > RESUME_MAX_BYTES) return { error: MESSAGES.resumeSize };
  const head = sniffHead(file.bytes.subarray(0, SNIFF_BYTES));
  const kind: ResumeKind | null =
    head === 'zip'
      ? (await zipHasEntry(
          new TailReader(file.bytes.length, file.bytes, () => Readable.from([file.bytes])),
          file.bytes.length,
          DOCX_MAIN_PART,
        ))
        ? 'docx'
        : null
      : head;
  if (!kind) return { error: MESSAGES.resumeType };
  const key = storage.newKey();
  if (!dryRun) await storage.write(key, Readable.from([file.bytes]));
  return {
    resume: {
      storage_key: key,
      original_name: safeFileName(file.name, 'resume'),
      content_type: RESUME_CONTENT_TYPES[kind],
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    },
  };
}

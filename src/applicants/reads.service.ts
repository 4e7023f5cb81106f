/**
 * HR's reads of the applicants feature: the dashboard and a job's insights (cached per process and
 * checked against change counters), the applicants list, one application with its neighbours in
 * the list, its resume opened before anything is sent, and a job's applicants workbook.
 */
import { FULL_ACCESS, type AccessScope } from '../shared/access-scope.js';
import type { Db } from '../db/knex.js';
import { readAlone } from '../db/long-read.js';
import type { Readable } from 'node:stream';
import { HttpError, NotFound, ServiceUnavailable } from '../http/errors.js';
import { RESUME_MAX_BYTES } from '../shared/application-rules.js';
import { previewKind, type ResumePreview } from './lib/resume-preview.js';
import { ParsersBusy, type DocumentParsers } from '../documents/pool.js';
import type { ReadCache } from '../db/read-cache.js';
import { listJobStats, requireJob } from '../jobs/index.js';
import type { Job } from '../jobs/types.js';
import type { WorkbookSpec } from '../exports/xlsx.js';
import { openReadable, type FileStorage } from '../storage/storage.js';
import { unavailableOr, type Download } from '../http/download.js';
import { applicantTotals, applicantTotalsStamp, interviewsBetween } from './dashboard.queries.js';
import { todayInterviewsQuerySchema } from './dashboard.schema.js';
import { validate } from '../http/validate.js';
import { DateTime } from 'luxon';
import { applicantColumns, applicantRows, applicantsFilename } from './export.queries.js';
import { computeAnalytics, insightsStamp } from './insights.queries.js';
import { LIST_EXPORT_COLUMNS, listExportRows } from './list-export.queries.js';
import { findApplicant, findResume } from './detail.queries.js';
import { neighbours, pageApplicants, sourcesSeen, type ApplicantPage } from './list.queries.js';
import { APPLICANT_MESSAGES } from './review.schema.js';
import type { ApplicantDetail, ApplicantFilters, DashboardStats, JobAnalytics, TodayInterviews } from './types.js';
import type { Logger } from '../log/logger.js';

/** What HR's reads need: the database and the app's read cache. */
export interface ReadDeps {
  db: Db;
  cache: ReadCache;
}

/**
 * The dashboard's "Today's interviews" (issue 32): the scheduled interviews starting on today's
 * calendar day in the zone `?tz=` names (the viewer's; UTC when left out). Admins and recruiters
 * see every interview, other roles those they take part in.
 */
export async function todayInterviews(
  { db, now }: { db: Db; now?: () => Date },
  asker: { userId: number; role: string },
  raw: unknown,
): Promise<TodayInterviews> {
  const { tz } = validate(todayInterviewsQuerySchema, raw ?? {});
  const zone = tz || 'UTC';
  const day = DateTime.fromJSDate(now?.() ?? new Date(), { zone }).startOf('day');
  const from = day.toJSDate();
  const to = day.plus({ days: 1 }).toJSDate();
  const mineOnly = asker.role !== 'admin' && asker.role !== 'recruiter';
  const items = await interviewsBetween(db, from, to, mineOnly ? asker.userId : null);
  return { time_zone: zone, from: from.toISOString(), to: to.toISOString(), mine_only: mineOnly, items };
}

/**
 * The dashboard (spec 02 section 3 "Dashboard response"). Removed jobs are left out of
 * total_jobs and job_stats (they are no longer job posts); applicant totals count every
 * application, since applicants of a removed job are still in the Applicants list. The totals are
 * reused while their stamp (two index reads) is unchanged.
 */
export async function loadDashboard({ db, cache }: ReadDeps, scope: AccessScope = FULL_ACCESS): Promise<DashboardStats> {
  const jobIds = scope.jobIds;
  const key: `applicant-totals:${string}` =
    jobIds === null ? 'applicant-totals:all' : `applicant-totals:jobs:${[...jobIds].sort((a, b) => a - b).join(',')}`;
  const [allJobs, { byJob, newCount, stages, rejected }] = await Promise.all([
    listJobStats(db),
    applicantTotalsStamp(db).then((stamp) => cache.stamped(key, stamp, () => applicantTotals(db, jobIds))),
  ]);
  // A hiring manager's dashboard: only the jobs whose team they are on (src/teams/access.service.ts).
  const jobs = jobIds === null ? allJobs : allJobs.filter((j) => jobIds.includes(j.id));
  let total = 0;
  for (const n of byJob.values()) total += n;
  return {
    total_jobs: jobs.length,
    // Active and still taking applications: a job past its closing date is not counted.
    active_jobs: jobs.filter((j) => j.status === 'ACTIVE' && (j.closes_at === null || Date.parse(j.closes_at) > Date.now())).length,
    new_applicants: newCount,
    total_applicants: total,
    job_stats: jobs.map((j) => ({
      id: j.id,
      public_id: j.public_id,
      title: j.title,
      status: j.status,
      applicants: byJob.get(j.id) ?? 0,
      views: j.views,
      closes_at: j.closes_at,
    })),
    stage_stats: stages,
    rejected_applicants: rejected,
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
    const { stamp, applications } = await insightsStamp(trx, job);
    return { job, analytics: await cache.stamped(`insights:${job.id}`, stamp, () => computeAnalytics(trx, job, applications)) };
  });
}

/** One page of the filtered list; `page` past the end of a non-empty list is a 404. */
export async function listApplicants(
  { db }: ReadDeps,
  filters: ApplicantFilters,
  page: number,
  pageSize: number,
  detailed: boolean,
): Promise<ApplicantPage> {
  const result = await pageApplicants(db, filters, page, pageSize, detailed);
  if (page > 1 && !result.results.length) throw new NotFound('Invalid page.');
  return result;
}

/**
 * One application; for an interviewer (`withoutSalary`, issue 31) without the answers to questions
 * about salary, pay or compensation.
 */
export async function getApplicant({ db }: ReadDeps, id: number, opts: { withoutSalary?: boolean } = {}): Promise<ApplicantDetail> {
  const app = await findApplicant(db, id);
  if (!app) throw new NotFound(APPLICANT_MESSAGES.notFound);
  return opts.withoutSalary ? { ...app, answers: app.answers.filter((a) => !asksAboutSalary(a.question_text)) } : app;
}

/** A question (rich text) that asks about salary, pay or compensation. */
function asksAboutSalary(questionHtml: string): boolean {
  const text = questionHtml.replace(/<[^>]*>/g, ' ');
  return /\b(salary|salaries|pay|paid|compensation|remuneration|wages?|ctc)\b/i.test(text);
}

/** The applications before and after `app` in the list `filters` describe, in its order. */
export function applicantNeighbours(
  { db }: ReadDeps,
  filters: ApplicantFilters,
  app: ApplicantDetail,
): Promise<{ previous: number | null; next: number | null }> {
  return neighbours(db, filters, app.id);
}

/**
 * The text of a DOC or DOCX resume (GET /api/hr/applications/{id}/resume/preview/). A missing
 * resume is the download's 404; another type, a file over the upload limit, or one that cannot be
 * read within the parsers' deadline and memory cap is a 422 saying to download it; every parser
 * busy is a 503. Read from storage whole (at most RESUME_MAX_BYTES), parsed in a child process.
 */
export async function previewResume(
  deps: { db: Db; storage: FileStorage; documents: DocumentParsers; log: Logger },
  id: number,
): Promise<ResumePreview> {
  const file = await openResume(deps, id);
  const kind = previewKind(file.contentType);
  if (!kind || file.size > RESUME_MAX_BYTES) {
    file.stream.destroy();
    throw noPreview();
  }
  const bytes = await readWhole(file.stream, RESUME_MAX_BYTES);
  if (!bytes) throw noPreview();
  try {
    const preview = await deps.documents.wordText(kind, bytes);
    if (!preview) throw noPreview();
    return preview;
  } catch (err) {
    if (err instanceof ParsersBusy) throw new ServiceUnavailable(APPLICANT_MESSAGES.previewBusy, 2);
    throw err;
  }
}

const noPreview = () => new HttpError(422, APPLICANT_MESSAGES.noPreview, { detail: APPLICANT_MESSAGES.noPreview });

/** A stream's bytes, or null past `limit` (the stream is then destroyed). */
async function readWhole(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The resume's bytes, opened before anything is sent: a missing application, file row or file
 * on disk is a 404 (never a 500 with half a download).
 */
export async function openResume({ db, storage, log }: { db: Db; storage: FileStorage; log: Logger }, id: number): Promise<Download> {
  const file = await findResume(db, id);
  if (!file) throw new NotFound(APPLICANT_MESSAGES.resumeMissing);
  try {
    const stream = await openReadable(storage, file.storage_key);
    return { name: file.download_name, contentType: file.content_type, size: file.size, stream };
  } catch (err) {
    // Gone from storage (or a key storage refuses): the row outlived its file, and the page shows
    // the spec's download message; a storage that cannot be reached is a 503. Logged for the operator.
    log.error(
      { applicationId: id, key: file.storage_key, err: (err as Error).message },
      '[applicants] a resume cannot be read from storage',
    );
    throw unavailableOr(err, new NotFound(APPLICANT_MESSAGES.resumeMissing));
  }
}

/** The applicants workbook of a job (insights' Export; 404 for an unknown job): one column per question, oldest first. */
export async function applicantsExport({ db }: { db: Db }, jobId: number): Promise<WorkbookSpec> {
  const job = await requireJob(db, jobId);
  return {
    filename: applicantsFilename(job.id),
    sheetName: 'Applicants',
    columns: applicantColumns(job),
    rows: readAlone(db, (reader) => applicantRows(reader, job)),
  };
}

/** The applicants list's workbook for its filters (the list's Export), with a job column, in the list's order. */
export function applicantListExport({ db }: { db: Db }, filters: ApplicantFilters): WorkbookSpec {
  return {
    filename: 'applicants.xlsx',
    sheetName: 'Applicants',
    columns: LIST_EXPORT_COLUMNS,
    rows: readAlone(db, (reader) => listExportRows(reader, filters)),
  };
}

/** The sources applications came from, one spelling each (any case is one source), for the source filter's list. */
export function listSourcesSeen({ db }: { db: Db }): Promise<string[]> {
  return sourcesSeen(db);
}

/** Job use cases shared by page routes, API routes and the CLI. */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { isDatabaseUnavailable, isUniqueViolation, logDatabaseUnavailable } from '../db/errors.js';
import { NotFound, ValidationError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { isAllowedHost } from '../http/private-address.js';
import { randomPublicId } from '../shared/ids.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, sanitizeRichText } from '../shared/sanitize.js';
import { enumLabel, type RecordStatus } from '../shared/enums.js';
import { salaryDisplay } from '../shared/format.js';
import type { ReadCache } from '../db/read-cache.js';
import * as repo from './repo.js';
import { type ApplicantCounts, pageJobSummaries } from './queries.js';
import { JOB_ERROR_ORDER, jobInputSchema, storedRichTexts, type JobInput, type JobInputRules } from './schema.js';
import type { HrJob, Job, JobQuestion, PublicJob, PublicJobFilters, PublicJobSummary, PublicQuestion } from './types.js';
import { type Logger, processLog } from '../log/logger.js';
import { FEED_MAX_JOBS, type FeedKind, renderFeed } from './feeds.js';

/** What the job operations need: the database and the app's read cache. */
export interface JobDeps {
  db: Db;
  cache: ReadCache;
}

export interface JobInputOptions {
  /** WEBHOOK_ALLOW_PRIVATE: accept webhook URLs naming local, private or other non-public hosts. */
  allowPrivateWebhook?: boolean;
  /** The job being updated: its stored rich texts and webhook secret may come back unchanged (see storedRichTexts in schema.ts). */
  current?: Job;
}

/** The server's job rules: rich text sanitised and kept within RICH_TEXT_MAX_DEPTH, webhook hosts held to the outbound address policy unless WEBHOOK_ALLOW_PRIVATE. */
function jobRules(allowPrivateWebhook: boolean): JobInputRules {
  return {
    sanitizeRichText,
    richTextTooDeep: (html) => richTextDepth(html) > RICH_TEXT_MAX_DEPTH,
    webhookHostAllowed: allowPrivateWebhook ? undefined : isAllowedHost,
  };
}

/** The job schemas without stored texts, one per address policy: built once, since building one costs more than a parse. */
const JOB_SCHEMAS = { public: jobInputSchema(jobRules(false)), private: jobInputSchema(jobRules(true)) };

/** Validates a job payload (src/jobs/schema.ts); throws ValidationError (400) with every problem found. */
export function parseJobInput(body: unknown, opts: JobInputOptions = {}): JobInput {
  const allowPrivate = !!opts.allowPrivateWebhook;
  const { current } = opts;
  const schema = current
    ? jobInputSchema({ ...jobRules(allowPrivate), storedRichTexts: storedRichTexts(current), storedWebhookSecret: current.webhook_secret })
    : JOB_SCHEMAS[allowPrivate ? 'private' : 'public'];
  return validate(schema, body, JOB_ERROR_ORDER);
}

export type Availability = 'available' | 'inactive' | 'not_found';

function availability(job: Job | null): Availability {
  if (!job || job.status === 'REMOVED') return 'not_found';
  return job.status === 'ACTIVE' ? 'available' : 'inactive';
}

/** Public view of a job: never the webhook settings, status internals or HR counters. */
export function toPublicJob(job: Job, withBody?: true): PublicJob;
export function toPublicJob(job: Job, withBody: false): PublicJobSummary;
export function toPublicJob(job: Job, withBody = true): PublicJobSummary | PublicJob {
  const base: PublicJobSummary = {
    public_id: job.public_id,
    title: job.title,
    location: job.location,
    job_type: job.job_type,
    job_type_display: enumLabel(job.job_type),
    work_mode: job.work_mode,
    work_mode_display: enumLabel(job.work_mode),
    salary_display: salaryDisplay(job.currency, job.min_salary, job.max_salary),
    experience_required: job.experience_required || null,
    duration: job.duration,
    accepting_applications: job.status === 'ACTIVE',
    posted_at: job.created_at.toISOString(),
  };
  if (!withBody) return base;
  return {
    ...base,
    // Rich text is sanitised when saved; the stored HTML is served as it is.
    description: job.description,
    responsibilities: job.responsibilities,
    requirements: job.requirements,
    perks_benefits: job.perks_benefits,
    questions: job.questions.map(toPublicQuestion),
  };
}

export function toPublicQuestion(q: JobQuestion): PublicQuestion {
  return {
    id: q.id,
    text: q.text,
    help_text: q.help_text,
    placeholder: q.placeholder,
    required: q.required,
    answer_type: q.answer_type,
    options: q.options,
    order: q.order,
  };
}

/** A job by its public id with its availability, read fresh (the apply API decides on it). */
export async function getPublicJob(db: Db, publicId: string, withQuestions = true): Promise<{ job: Job | null; availability: Availability }> {
  const job = publicId.length <= 64 ? await repo.findJobByPublicId(db, publicId, withQuestions) : null;
  return { job, availability: availability(job) };
}

/** The same, from the public read cache: job pages, the public API, the wizard page. */
export function cachedPublicJob(deps: JobDeps, publicId: string, withQuestions: boolean): Promise<{ job: Job | null; availability: Availability }> {
  return deps.cache.fresh(`public-jobs:job:${withQuestions}:${publicId}`, () => getPublicJob(deps.db, publicId, withQuestions));
}

/** One page of the public job list, as the list page and API send it (mapped once, then cached). */
export function listPublicJobs(deps: JobDeps, f: PublicJobFilters, page: number, pageSize: number): Promise<{ count: number; jobs: PublicJobSummary[] }> {
  return deps.cache.fresh(`public-jobs:list:${JSON.stringify(f)}:${page}:${pageSize}`, async () => {
    const { count, jobs } = await repo.listPublicJobs(deps.db, f, page, pageSize);
    return { count, jobs: jobs.map((j) => toPublicJob(j, false)) };
  });
}

/** A job feed of the open jobs matching the filters (the pages keep it like a page). */
export async function jobFeed(deps: JobDeps, config: Pick<Config, 'company' | 'publicBaseUrl'>, kind: FeedKind, f: PublicJobFilters): Promise<string> {
  return renderFeed(kind, await repo.listPublicJobsWithTexts(deps.db, f, FEED_MAX_JOBS), config, new Date());
}

/** The locations of active jobs, for the list page's filter. */
export function listActiveLocations(deps: JobDeps): Promise<string[]> {
  return deps.cache.fresh('public-jobs:locations', () => repo.listActiveLocations(deps.db));
}

/** Active jobs for the sitemap. */
export function listJobsForSitemap(db: Db): Promise<{ public_id: string; updated_at: Date }[]> {
  return repo.listActiveForSitemap(db);
}

const DUPLICATE_PUBLIC_ID = 'A job with this public id already exists.';
const PUBLIC_ID_READ_ONLY = 'The public id cannot be changed.';

/** Creates a job; a blank public_id gets a generated unique one. `userId` goes to the audit log. */
export async function createJob({ db, cache }: JobDeps, input: JobInput, now = new Date(), userId: number | null = null): Promise<Job> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const publicId = input.public_id ?? randomPublicId();
    if (input.public_id && (await repo.publicIdExists(db, publicId))) {
      throw new ValidationError({ public_id: [DUPLICATE_PUBLIC_ID] });
    }
    try {
      const id = await db.transaction(async (trx) => {
        const jobId = await repo.insertJob(trx, publicId, input, now);
        await repo.insertJobAudit(trx, { userId, action: 'job.create', entityId: jobId, details: { public_id: publicId, title: input.title, status: input.status } }, now);
        return jobId;
      });
      // Again after the commit: a public read that ran during the transaction (another MySQL
      // connection, still seeing the old rows) may have cached the old state meanwhile.
      cache.clear('public-jobs');
      return (await repo.findJobById(db, id))!;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.public_id) throw new ValidationError({ public_id: [DUPLICATE_PUBLIC_ID] });
    }
  }
  throw new Error('Could not generate a unique public id');
}

/** Largest job id a path may name: 2^31-1, a signed 32-bit integer in every driver and language. */
/** The job with its current questions, or 404 (pair with pathId for an id from a path). */
/** The id of a job named by id or public id (the CLI's `--job`), or null when there is none. */
export async function jobIdOf(db: Db, ref: { id: number } | { publicId: string }): Promise<number | null> {
  if ('publicId' in ref) return (await repo.findJobByPublicId(db, ref.publicId, false))?.id ?? null;
  return (await repo.findJobById(db, ref.id))?.id ?? null;
}

export async function requireJob(db: Db, id: number): Promise<Job> {
  const job = await repo.findJobById(db, id);
  if (!job) throw new NotFound('Not found.');
  return job;
}

const AUDITED_FIELDS = [
  'title', 'location', 'job_type', 'work_mode', 'description', 'responsibilities', 'requirements', 'perks_benefits',
  'currency', 'min_salary', 'max_salary', 'experience_required', 'duration', 'status', 'webhook_enabled', 'webhook_url', 'webhook_secret', 'webhook_include_source',
] as const;

/**
 * Full update of a job (PUT). The public id is fixed once created: a payload may repeat it or
 * leave it out, a different one is a 400 field error. Questions keep the ids they are sent with.
 */
export async function updateJob({ db, cache }: JobDeps, current: Job, input: JobInput, now = new Date(), userId: number | null = null): Promise<Job> {
  if (input.public_id !== null && input.public_id !== current.public_id) {
    throw new ValidationError({ public_id: [PUBLIC_ID_READ_ONLY] });
  }
  const changed: string[] = AUDITED_FIELDS.filter((f) => current[f] !== input[f]);
  if (JSON.stringify(current.questions.map(({ id: _id, ...q }) => q)) !== JSON.stringify(input.questions.map(({ id: _id, ...q }) => q))) changed.push('questions');
  await db.transaction(async (trx) => {
    await repo.updateJob(trx, current.id, input, now);
    await repo.insertJobAudit(trx, { userId, action: 'job.update', entityId: current.id, details: { public_id: current.public_id, changed } }, now);
  });
  // After the commit too (see createJob): nothing read before it may stay cached.
  cache.clear('public-jobs');
  return (await repo.findJobById(db, current.id))!;
}

/** A job as the HR API answers it: every field of spec 02 section 3, dates as ISO strings. */
export function toHrJob(job: Job): HrJob {
  return {
    id: job.id,
    public_id: job.public_id,
    title: job.title,
    location: job.location,
    job_type: job.job_type,
    work_mode: job.work_mode,
    description: job.description,
    responsibilities: job.responsibilities,
    requirements: job.requirements,
    perks_benefits: job.perks_benefits,
    currency: job.currency,
    min_salary: job.min_salary,
    max_salary: job.max_salary,
    experience_required: job.experience_required,
    duration: job.duration,
    status: job.status,
    views: job.views,
    created_at: job.created_at.toISOString(),
    updated_at: job.updated_at.toISOString(),
    webhook_enabled: job.webhook_enabled,
    webhook_url: job.webhook_url,
    webhook_secret: job.webhook_secret,
    webhook_include_source: job.webhook_include_source,
    questions: job.questions.map(toPublicQuestion),
  };
}

/** Counts job page views in memory and writes them in batches, off the request path. */
export class ViewCounter {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly db: Db,
    private readonly log: Logger = processLog(),
    private readonly flushMs = 5000,
  ) {}

  count(jobId: number): void {
    this.pending.set(jobId, (this.pending.get(jobId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err) => this.failed(err)), this.flushMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await repo.addViews(this.db, batch);
    } catch (err) {
      // Kept for the next flush, so views counted while the database is down are not lost.
      if (isDatabaseUnavailable(err)) for (const [jobId, n] of batch) this.pending.set(jobId, (this.pending.get(jobId) ?? 0) + n);
      throw err;
    }
  }

  private failed(err: unknown): void {
    if (isDatabaseUnavailable(err)) logDatabaseUnavailable('the view counter', err);
    else this.log.error({ err }, 'view counter flush failed');
  }
}

export type { ApplicantCounts };

/** One page of jobs with their applicant counts (GET /api/hr/jobs/, Manage Jobs, All Job Posts). */
export function listJobSummaries(db: Db, counts: ApplicantCounts, status: RecordStatus | null, page: number, pageSize: number) {
  return pageJobSummaries(db, counts, status, page, pageSize);
}

/** Job use cases shared by page routes, API routes and the CLI. */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { FULL_ACCESS, type AccessScope } from '../shared/access-scope.js';
import { isUniqueViolation } from '../db/errors.js';
import { BufferedCounter } from '../db/buffered-counter.js';
import type { JobViewCounts } from '../http/process-parts.js';
import { Forbidden, NotFound, ValidationError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { isAllowedHost } from '../http/private-address.js';
import { numberedPublicId, randomPublicId, slugPublicId } from '../shared/ids.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, sanitizeRichText } from '../shared/sanitize.js';
import { enumLabel, type RecordStatus } from '../shared/enums.js';
import { salaryDisplay } from '../shared/format.js';
import type { CacheKey, ReadCache } from '../db/read-cache.js';
import { bumpPublicVersion, readPublicVersion } from '../db/public-version.js';
import type { PageVersion } from '../http/sent-page.js';
import { isCountryCode } from './lib/seo.js';
import * as repo from './repo.js';
import { type ApplicantCounts, pageJobSummaries } from './queries.js';
import { JOB_ERROR_ORDER, JOB_LIMITS, JOB_MESSAGES, jobInputSchema, storedRichTexts, type JobInput, type JobInputRules } from './schema.js';
import type { HrJob, Job, JobQuestion, PublicJob, PublicJobFilters, PublicJobSummary, PublicQuestion } from './types.js';
import type { Logger } from '../log/logger.js';
import { FEED_MAX_JOBS, type FeedKind, renderFeed } from './lib/feeds.js';

/** What the job operations need: the database, the app's read cache and, where jobs are saved for HR, the publishing rules. */
export interface JobDeps {
  db: Db;
  cache: ReadCache;
  /** The rules a save passes (the publishing feature's, issue 34); absent: none (test factories, the demo jobs at first start). */
  policy?: JobSavePolicy;
}

/** Who saves a job: a signed-in user with their role, or the CLI (an administrator). */
export interface JobSave {
  userId: number | null;
  role: 'admin' | 'recruiter' | 'hiring_manager' | 'interviewer' | 'cli';
  /** What else the request carried for the rules (`override_checks`, an approval's decision). */
  extras?: Record<string, unknown>;
}

/** What the rules decided about a save. */
export interface JobSavePlan {
  /** The status to store: the one asked for, or another while the job waits for approval. */
  status: RecordStatus;
  /** The rules' own records, written in the save's transaction after the job's row. */
  record?: (trx: Db, job: { id: number; public_id: string }, now: Date) => Promise<void>;
}

/**
 * The port (decision 0007) through which every HR save of a job passes the publishing rules
 * (issue 34): `plan` sees the job as it would be saved (`draft`; id 0 when new) and the job as
 * stored (null when new), and may refuse the save (400, 403) or hold its activation back; app.ts
 * and the CLI hand in the publishing feature's policy, which the jobs feature does not import.
 */
export interface JobSavePolicy {
  plan(draft: Job, current: Job | null, save: JobSave): Promise<JobSavePlan>;
}

/** The job as it would be after saving `input` (id 0 and created now when it is new), for the rules to judge. */
export function draftJob(input: JobInput, current: Job | null, publicId: string, now: Date): Job {
  return {
    ...input,
    id: current?.id ?? 0,
    public_id: publicId,
    views: current?.views ?? 0,
    created_at: current?.created_at ?? now,
    updated_at: now,
    questions: input.questions.map((q, i) => ({ ...q, id: q.id ?? 0, order: q.order ?? i })),
  };
}

/** The save's plan: the input's status and nothing to record when no rules are handed in. */
async function planSave(deps: JobDeps, draft: Job, current: Job | null, save: JobSave): Promise<JobSavePlan> {
  return deps.policy ? deps.policy.plan(draft, current, save) : { status: draft.status };
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
    isCountryCode,
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

/**
 * A closing date must lie ahead when it is set: on create, and on update unless it comes back as
 * the job has it stored (a job whose date has passed can still be edited, or reopened with a new
 * date or none).
 */
function assertClosingDateAhead(input: JobInput, now: Date, current?: Job): void {
  const at = input.closes_at;
  if (!at || at.getTime() > now.getTime()) return;
  if (current?.closes_at && current.closes_at.getTime() === at.getTime()) return;
  throw new ValidationError({ closes_at: [JOB_MESSAGES.closesAtPast] });
}

export type Availability = 'available' | 'inactive' | 'not_found';

/** Whether the job's closing instant has come (its status stays as HR set it). */
function closed(job: Job, now: Date): boolean {
  return job.closes_at !== null && job.closes_at.getTime() <= now.getTime();
}

function availability(job: Job | null, now: Date): Availability {
  if (!job || job.status === 'REMOVED') return 'not_found';
  return job.status === 'ACTIVE' && !closed(job, now) ? 'available' : 'inactive';
}

/** Public view of a job: never the webhook settings, status internals or HR counters. */
export function toPublicJob(job: Job, withBody?: true, now?: Date): PublicJob;
export function toPublicJob(job: Job, withBody: false, now?: Date): PublicJobSummary;
export function toPublicJob(job: Job, withBody = true, now = new Date()): PublicJobSummary | PublicJob {
  const base: PublicJobSummary = {
    public_id: job.public_id,
    title: job.title,
    department: job.department,
    location: job.location,
    job_type: job.job_type,
    job_type_display: enumLabel(job.job_type),
    work_mode: job.work_mode,
    work_mode_display: enumLabel(job.work_mode),
    salary_display: salaryDisplay(job.currency, job.min_salary, job.max_salary, job.salary_period),
    salary_period: job.salary_period,
    experience_required: job.experience_required || null,
    duration: job.duration,
    accepting_applications: availability(job, now) === 'available',
    closes_at: job.closes_at?.toISOString() ?? null,
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
export async function getPublicJob(
  db: Db,
  publicId: string,
  withQuestions = true,
): Promise<{ job: Job | null; availability: Availability }> {
  const job = publicId.length <= 64 ? await repo.findJobByPublicId(db, publicId, withQuestions) : null;
  return { job, availability: availability(job, new Date()) };
}

/**
 * A read of the public-jobs space. Jobs close at their closing instant without a write, so the
 * space must not outlive the next one: the earliest closing instant ahead among active jobs is
 * read with the space's entries (one indexed MIN, kept like them) and the space ends then
 * (`ReadCache.endSpaceAt`). A write clears the space, and the instant is read again.
 */
async function publicRead<T>(deps: JobDeps, key: CacheKey, load: () => Promise<T>): Promise<T> {
  if (deps.cache.keeps) {
    await deps.cache.fresh('public-jobs:next-closing', async () => {
      const at = await repo.nextClosingInstant(deps.db, new Date());
      if (at) deps.cache.endSpaceAt('public-jobs', at.getTime());
      return at;
    });
  }
  return deps.cache.fresh(key, load);
}

/**
 * With PUBLIC_CACHE_SECONDS=0 (null otherwise): the public pages' version, read before a page's
 * data so the page is kept with a version no newer than what it shows, and the moment the page may
 * stop being true without any write: the next closing instant of an active job (it leaves the list,
 * its page stops taking applications), or the new year (the footer's year), whichever comes first.
 */
export async function publicPageVersion(deps: JobDeps): Promise<PageVersion | null> {
  if (deps.cache.keeps) return null;
  const stamp = await readPublicVersion(deps.db);
  const now = new Date();
  const closing = await repo.nextClosingInstant(deps.db, now);
  const newYear = Date.UTC(now.getUTCFullYear() + 1, 0, 1);
  return { stamp, validUntil: closing ? Math.min(closing.getTime(), newYear) : newYear };
}

/** The same, from the public read cache: job pages, the public API, the wizard page. Availability is judged at each call. */
export async function cachedPublicJob(
  deps: JobDeps,
  publicId: string,
  withQuestions: boolean,
): Promise<{ job: Job | null; availability: Availability }> {
  const { job } = await publicRead(deps, `public-jobs:job:${withQuestions}:${publicId}`, () =>
    getPublicJob(deps.db, publicId, withQuestions),
  );
  return { job, availability: availability(job, new Date()) };
}

/** One page of the public job list, as the list page and API send it (mapped once, then cached). */
export function listPublicJobs(
  deps: JobDeps,
  f: PublicJobFilters,
  page: number,
  pageSize: number,
): Promise<{ count: number; jobs: PublicJobSummary[] }> {
  return publicRead(deps, `public-jobs:list:${JSON.stringify(f)}:${page}:${pageSize}`, async () => {
    const now = new Date();
    const { count, jobs } = await repo.listPublicJobs(deps.db, f, page, pageSize, now);
    return { count, jobs: jobs.map((j) => toPublicJob(j, false, now)) };
  });
}

/** The open jobs a feed with these filters lists, with their texts (kept like the list, until the next closing date). */
export function feedJobs(deps: JobDeps, f: PublicJobFilters): Promise<Job[]> {
  return publicRead(deps, `public-jobs:feed-jobs:${JSON.stringify(f)}`, () =>
    repo.listPublicJobsWithTexts(deps.db, f, FEED_MAX_JOBS, new Date()),
  );
}

/** A job feed of these jobs (the pages keep it like a page). */
export function jobFeed(config: Pick<Config, 'company' | 'publicBaseUrl'>, kind: FeedKind, jobs: Job[]): string {
  return renderFeed(kind, jobs, config, new Date());
}

/** The locations of jobs taking applications, for the list page's filter. */
export function listActiveLocations(deps: JobDeps): Promise<string[]> {
  return publicRead(deps, 'public-jobs:locations', () => repo.listActiveLocations(deps.db, new Date()));
}

/** The departments of jobs taking applications, for the list page's filter. */
export function listActiveDepartments(deps: JobDeps): Promise<string[]> {
  return publicRead(deps, 'public-jobs:departments', () => repo.listActiveDepartments(deps.db, new Date()));
}

/** The departments of every job post (not removed), for the editor's suggestions. */
export function listDepartmentsInUse(db: Db): Promise<string[]> {
  return repo.listDepartmentsInUse(db);
}

/** Jobs taking applications, for the sitemap. */
export function listJobsForSitemap(db: Db): Promise<{ public_id: string; updated_at: Date }[]> {
  return repo.listActiveForSitemap(db, new Date());
}

const DUPLICATE_PUBLIC_ID = 'A job with this public id already exists.';
const PUBLIC_ID_READ_ONLY = 'The public id cannot be changed.';

/** How many numbered ids (`-2`, `-3` ...) a title's id is tried with before a random one is used. */
const NUMBERED_IDS = 100;

/**
 * A public id made from the title: `senior-backend-engineer`, then `-2`, `-3` ... on a clash, at
 * most 64 characters; random when the title keeps no letter or digit (or a hundred are taken).
 * `reserved`: ids already given to jobs of the same import. Another create may take the id
 * between this read and the insert: the unique index refuses the second, which tries again.
 */
export async function newJobPublicId(db: Db, title: string, reserved: ReadonlySet<string> = new Set()): Promise<string> {
  const base = slugPublicId(title, JOB_LIMITS.publicId);
  if (!base) return randomPublicId();
  const candidates = Array.from({ length: NUMBERED_IDS }, (_, i) => numberedPublicId(base, i + 1, JOB_LIMITS.publicId));
  const taken = await repo.takenPublicIds(db, candidates);
  return candidates.find((c) => !taken.has(c) && !reserved.has(c)) ?? randomPublicId();
}

/** Tries of a create whose made id was taken meanwhile by another create (the unique index's answer). */
const CREATE_ATTEMPTS = 8;

/**
 * Creates a job; a blank public_id is made from the title (newJobPublicId). `userId` goes to the
 * audit log. `publicIdDraft` (a duplicate, titled "Copy of …"): the made id is made again from the
 * title at the job's first save (updateJob).
 */
export async function createJob(
  deps: JobDeps,
  asked: JobInput,
  now = new Date(),
  userId: number | null = null,
  publicIdDraft = false,
  save: JobSave = { userId, role: 'cli' },
): Promise<Job> {
  const { db, cache } = deps;
  assertClosingDateAhead(asked, now);
  const plan = await planSave(deps, draftJob(asked, null, asked.public_id ?? '', now), null, save);
  const input: JobInput = { ...asked, status: plan.status };
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    // The last tries use a random id, so a storm of creates with one title still ends.
    const publicId = input.public_id ?? (attempt < CREATE_ATTEMPTS - 2 ? await newJobPublicId(db, input.title) : randomPublicId());
    if (input.public_id && (await repo.publicIdExists(db, publicId))) {
      throw new ValidationError({ public_id: [DUPLICATE_PUBLIC_ID] });
    }
    try {
      const id = await db.transaction(async (trx) => {
        const jobId = await repo.insertJob(trx, publicId, input, now, publicIdDraft && !input.public_id);
        await repo.insertJobAudit(
          trx,
          { userId, action: 'job.create', entityId: jobId, details: { public_id: publicId, title: input.title, status: input.status } },
          now,
        );
        await plan.record?.(trx, { id: jobId, public_id: publicId }, now);
        await bumpPublicVersion(trx);
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
  'title',
  'department',
  'salary_period',
  'location',
  'job_type',
  'work_mode',
  'description',
  'responsibilities',
  'requirements',
  'perks_benefits',
  'currency',
  'min_salary',
  'max_salary',
  'experience_required',
  'duration',
  'status',
  'webhook_enabled',
  'webhook_url',
  'webhook_secret',
  'webhook_include_source',
] as const;

/**
 * Full update of a job (PUT). The public id is fixed once created: a payload may repeat it or
 * leave it out, a different one is a 400 field error. Questions keep the ids they are sent with.
 */
export async function updateJob(
  deps: JobDeps,
  current: Job,
  asked: JobInput,
  now = new Date(),
  userId: number | null = null,
  save: JobSave = { userId, role: 'cli' },
): Promise<Job> {
  const { db, cache } = deps;
  if (asked.public_id !== null && asked.public_id !== current.public_id) {
    throw new ValidationError({ public_id: [PUBLIC_ID_READ_ONLY] });
  }
  assertClosingDateAhead(asked, now, current);
  const plan = await planSave(deps, draftJob(asked, current, current.public_id, now), current, save);
  const input: JobInput = { ...asked, status: plan.status };
  const changed: string[] = AUDITED_FIELDS.filter((f) => current[f] !== input[f]);
  if ((current.closes_at?.getTime() ?? null) !== (input.closes_at?.getTime() ?? null)) changed.push('closes_at');
  if (current.applicant_countries.join() !== input.applicant_countries.join()) changed.push('applicant_countries');
  if (JSON.stringify(current.questions.map(({ id: _id, ...q }) => q)) !== JSON.stringify(input.questions.map(({ id: _id, ...q }) => q)))
    changed.push('questions');
  // A duplicate's first save: its public id made again from the title it has now (kept when the
  // title still makes the same one).
  let publicId: string | undefined;
  if (await repo.hasDraftPublicId(db, current.id)) {
    const base = slugPublicId(input.title, JOB_LIMITS.publicId);
    publicId = base && base !== current.public_id ? await newJobPublicId(db, input.title) : current.public_id;
    if (publicId !== current.public_id) changed.push('public_id');
  }
  try {
    await db.transaction(async (trx) => {
      await repo.updateJob(trx, current.id, input, now, publicId);
      await repo.insertJobAudit(
        trx,
        { userId, action: 'job.update', entityId: current.id, details: { public_id: publicId ?? current.public_id, changed } },
        now,
      );
      await plan.record?.(trx, { id: current.id, public_id: publicId ?? current.public_id }, now);
      await bumpPublicVersion(trx);
    });
  } catch (err) {
    // Another job took the made id meanwhile: the job keeps its public id, the rest is saved.
    if (!isUniqueViolation(err) || publicId === undefined) throw err;
    await db.transaction(async (trx) => {
      await repo.updateJob(trx, current.id, input, now, current.public_id);
      await repo.insertJobAudit(
        trx,
        {
          userId,
          action: 'job.update',
          entityId: current.id,
          details: { public_id: current.public_id, changed: changed.filter((c) => c !== 'public_id') },
        },
        now,
      );
      await plan.record?.(trx, { id: current.id, public_id: current.public_id }, now);
      await bumpPublicVersion(trx);
    });
  }
  // After the commit too (see createJob): nothing read before it may stay cached.
  cache.clear('public-jobs');
  return (await repo.findJobById(db, current.id))!;
}

/** A stored job as the input that would save it unchanged. */
function inputOf(job: Job): JobInput {
  const { id: _id, views: _views, created_at: _c, updated_at: _u, questions, ...fields } = job;
  return {
    ...fields,
    questions: questions.map((q) => ({ ...q })),
  };
}

/**
 * Saves the job as stored with another status (an approval that makes it active, issue 34),
 * through the same rules and audit as any save.
 */
export function setJobStatus(deps: JobDeps, current: Job, status: RecordStatus, now: Date, save: JobSave): Promise<Job> {
  return updateJob(deps, current, { ...inputOf(current), status }, now, save.userId, save);
}

/** The settings that decide where a job's applications are sent, and what goes with them. */
const WEBHOOK_FIELDS = ['webhook_enabled', 'webhook_url', 'webhook_secret', 'webhook_include_source'] as const;
const NO_WEBHOOK = { webhook_enabled: false, webhook_url: null, webhook_secret: null, webhook_include_source: false };

/**
 * Issue 28: where every later applicant's data goes is an admin's choice. Anyone else (`isAdmin`
 * false) may create a job only without a webhook and save one only with its webhook settings as
 * stored (the editor sends them back unchanged); otherwise 403.
 */
export function assertWebhookUnchanged(isAdmin: boolean, input: JobInput, current?: Job): void {
  if (isAdmin) return;
  const before: Pick<Job, (typeof WEBHOOK_FIELDS)[number]> = current ?? NO_WEBHOOK;
  if (WEBHOOK_FIELDS.some((f) => (before[f] || null) !== (input[f] || null))) throw new Forbidden(JOB_MESSAGES.webhookAdminOnly);
}

/** A job as the HR API answers it: every field of spec 02 section 3, dates as ISO strings. */
export function toHrJob(job: Job): HrJob {
  return {
    id: job.id,
    public_id: job.public_id,
    title: job.title,
    department: job.department,
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
    salary_period: job.salary_period,
    experience_required: job.experience_required,
    duration: job.duration,
    status: job.status,
    closes_at: job.closes_at?.toISOString() ?? null,
    applicant_countries: job.applicant_countries,
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

/** Counts job page views in memory and writes them in batches, off the request path (src/db/buffered-counter.ts). */
export class ViewCounter implements JobViewCounts {
  private readonly counter: BufferedCounter<{ jobId: number; count: number }>;
  constructor(db: Db, log: Logger, flushMs = 5000) {
    this.counter = new BufferedCounter({
      name: 'view counter',
      keyOf: (c) => c.jobId,
      write: (batch) => repo.addViews(db, new Map(batch.map((c) => [c.jobId, c.count]))),
      log,
      flushMs,
    });
  }

  count(jobId: number): void {
    this.counter.add({ jobId, count: 1 });
  }

  flush(): Promise<void> {
    return this.counter.flush();
  }
}

export type { ApplicantCounts };

/** One page of jobs with their applicant counts (GET /api/hr/jobs/, Manage Jobs, All Job Posts). */
export function listJobSummaries(
  db: Db,
  counts: ApplicantCounts,
  status: RecordStatus | null,
  page: number,
  pageSize: number,
  scope: AccessScope = FULL_ACCESS,
  withApproval = false,
) {
  return pageJobSummaries(db, counts, status, page, pageSize, scope.jobIds, withApproval);
}

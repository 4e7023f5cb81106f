/** Job use cases shared by page routes, API routes and the CLI. */
import type { Knex } from 'knex';
import { isUniqueViolation } from '../db/errors.js';
import { ValidationError } from '../http/errors.js';
import { randomPublicId } from '../shared/ids.js';
import { enumLabel } from '../shared/enums.js';
import { salaryDisplay } from '../shared/format.js';
import { sanitizeRichText } from '../shared/sanitize.js';
import * as repo from './repo.js';
import type { JobInput } from './schema.js';
import type { Job, JobQuestion } from './types.js';

export type Availability = 'available' | 'inactive' | 'not_found';

export function availability(job: Job | null): Availability {
  if (!job || job.status === 'REMOVED') return 'not_found';
  return job.status === 'ACTIVE' ? 'available' : 'inactive';
}

/** Public view of a job: never the webhook settings, status internals or HR counters. */
export function toPublicJob(job: Job, withBody = true) {
  const base = {
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
    // Sanitised again before it leaves the server, whatever is stored.
    description: sanitizeRichText(job.description),
    responsibilities: sanitizeRichText(job.responsibilities),
    requirements: sanitizeRichText(job.requirements),
    perks_benefits: sanitizeRichText(job.perks_benefits),
    questions: job.questions.map(toPublicQuestion),
  };
}

export function toPublicQuestion(q: JobQuestion) {
  return {
    id: q.id,
    text: sanitizeRichText(q.text),
    help_text: sanitizeRichText(q.help_text),
    placeholder: q.placeholder,
    required: q.required,
    answer_type: q.answer_type,
    options: q.options,
    order: q.order,
  };
}

export async function getPublicJob(db: Knex, publicId: string, withQuestions = true): Promise<{ job: Job | null; availability: Availability }> {
  const job = publicId.length <= 64 ? await repo.findJobByPublicId(db, publicId, withQuestions) : null;
  return { job, availability: availability(job) };
}

/** Creates a job; a blank public_id gets a generated unique one. */
export async function createJob(db: Knex, input: JobInput, now = new Date()): Promise<Job> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const publicId = input.public_id ?? randomPublicId();
    if (input.public_id && (await repo.publicIdExists(db, publicId))) {
      throw new ValidationError({ public_id: ['A job with this public id already exists.'] });
    }
    try {
      const id = await db.transaction((trx) => repo.insertJob(trx, publicId, input, now));
      return (await repo.findJobById(db, id))!;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.public_id) throw new ValidationError({ public_id: ['A job with this public id already exists.'] });
    }
  }
  throw new Error('Could not generate a unique public id');
}

/** Counts job page views in memory and writes them in batches, off the request path. */
export class ViewCounter {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  constructor(private readonly db: Knex, private readonly flushMs = 5000) {}

  count(jobId: number): void {
    this.pending.set(jobId, (this.pending.get(jobId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err) => console.error('view counter flush failed', err)), this.flushMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    await repo.addViews(this.db, batch);
  }
}

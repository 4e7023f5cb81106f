/** Test data builders that go through the real services. */
import type { Knex } from 'knex';
import { ReadCache } from '../../src/db/read-cache.js';
import { createJob, parseJobInput, type JobDeps } from '../../src/jobs/service.js';
import type { Job } from '../../src/jobs/types.js';

let seq = 0;

export function jobPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return {
    title: `Test Engineer ${seq}`,
    location: 'Pune, India',
    job_type: 'FULL_TIME',
    work_mode: 'ONSITE',
    status: 'ACTIVE',
    description: '<p>Build things.</p>',
    responsibilities: '',
    requirements: '',
    perks_benefits: '',
    currency: 'USD',
    min_salary: 1000,
    max_salary: 2000,
    experience_required: '2+ years',
    questions: [],
    ...overrides,
  };
}

/** The job deps of a bare database handle: a cache of its own, which nothing reads. */
function jobDeps(db: Knex): JobDeps {
  return { db, cache: new ReadCache(0) };
}

/** Creates a job; pass the app's context (not only its db) to clear that app's public cache too. */
export async function makeJob(target: Knex | JobDeps, overrides: Record<string, unknown> = {}, now?: Date): Promise<Job> {
  const deps = 'cache' in target ? target : jobDeps(target);
  return createJob(deps, parseJobInput(jobPayload(overrides)), now);
}

/** Test data builders that go through the real services. */
import type { Knex } from 'knex';
import { createJob, parseJobInput } from '../../src/jobs/service.js';
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

export async function makeJob(db: Knex, overrides: Record<string, unknown> = {}, now?: Date): Promise<Job> {
  return createJob(db, parseJobInput(jobPayload(overrides)), now);
}

/**
 * Seeding jobs from the demo set or a JSON file. Every record is validated first and every bad
 * record is reported; only when all are valid are they written, in one transaction.
 */
import type { Knex } from 'knex';
import { ValidationError } from '../http/errors.js';
import { randomPublicId } from '../shared/ids.js';
import { DEMO_JOBS } from './demo.js';
import * as repo from './repo.js';
import { parseJobInput, type JobInput } from './schema.js';

export interface SeedProblem {
  index: number;
  errors: Record<string, unknown>;
}

export class SeedError extends Error {
  constructor(public readonly problems: SeedProblem[]) {
    super(`${problems.length} invalid job record(s); nothing was imported`);
  }
}

export function validateJobRecords(records: unknown): JobInput[] {
  if (!Array.isArray(records)) throw new SeedError([{ index: -1, errors: { detail: 'The file must hold a JSON array of job objects.' } }]);
  const problems: SeedProblem[] = [];
  const inputs: JobInput[] = [];
  const seenIds = new Map<string, number>();
  records.forEach((rec, index) => {
    try {
      const input = parseJobInput(rec);
      if (input.public_id) {
        if (seenIds.has(input.public_id)) problems.push({ index, errors: { public_id: [`Duplicate of record ${seenIds.get(input.public_id)}.`] } });
        seenIds.set(input.public_id, index);
      }
      inputs.push(input);
    } catch (err) {
      if (err instanceof ValidationError) problems.push({ index, errors: err.fields });
      else throw err;
    }
  });
  if (problems.length) throw new SeedError(problems);
  return inputs;
}

/** Inserts all jobs or none. Jobs whose public_id already exists are reported, not overwritten. */
export async function importJobs(db: Knex, inputs: JobInput[], now = new Date()): Promise<number> {
  const taken: SeedProblem[] = [];
  for (const [index, input] of inputs.entries()) {
    if (input.public_id && (await repo.publicIdExists(db, input.public_id))) {
      taken.push({ index, errors: { public_id: [`A job with public id "${input.public_id}" already exists.`] } });
    }
  }
  if (taken.length) throw new SeedError(taken);
  await db.transaction(async (trx) => {
    // Spread creation times a little so the list has a stable, realistic order.
    for (const [i, input] of inputs.entries()) {
      await repo.insertJob(trx, input.public_id ?? randomPublicId(), input, new Date(now.getTime() - (inputs.length - i) * 3_600_000));
    }
  });
  return inputs.length;
}

export async function seedDemoJobs(db: Knex, now = new Date()): Promise<number> {
  const inputs = validateJobRecords(DEMO_JOBS);
  const fresh: JobInput[] = [];
  for (const input of inputs) if (!(await repo.publicIdExists(db, input.public_id!))) fresh.push(input);
  return fresh.length ? importJobs(db, fresh, now) : 0;
}

export async function countJobs(db: Knex): Promise<number> {
  const [{ n }] = await db('jobs').count({ n: '*' });
  return Number(n);
}

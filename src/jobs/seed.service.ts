/**
 * Seeding jobs from the demo set or a JSON file. Every record is validated first (fields, ids
 * repeated in the file, ids already in the database) and every bad record is reported at once;
 * only when all are valid are they written, in one transaction.
 */
import type { Db } from '../db/knex.js';
import { bumpPublicVersion } from '../db/public-version.js';
import { ValidationError } from '../http/errors.js';
import { DEMO_JOBS } from './lib/demo.js';
import * as repo from './repo.js';
import { JOB_MESSAGES, type JobInput } from './schema.js';
import { draftJob, newJobPublicId, parseJobInput, type JobInputOptions, type JobSavePlan, type JobSavePolicy } from './service.js';

export interface SeedProblem {
  index: number;
  errors: Record<string, unknown>;
  /** The record's title, when it has one: the CLI names the job with it. */
  title?: string;
}

/** The publishing rules an import passes (issue 34), as the API's saves do, run as an administrator. */
export interface SeedRules {
  policy: JobSavePolicy;
  /** `--override-checks NOTE`: an administrator's override of the blocking checks, for every record. */
  overrideNote?: string;
}

export class SeedError extends Error {
  constructor(public readonly problems: SeedProblem[]) {
    super(`${problems.length} invalid job record(s); nothing was imported`);
  }
}

interface ParsedRecords {
  inputs: { index: number; input: JobInput }[];
  problems: SeedProblem[];
}

function parseJobRecords(records: unknown, opts: JobInputOptions = {}, now = new Date()): ParsedRecords {
  if (!Array.isArray(records)) throw new SeedError([{ index: -1, errors: { detail: 'The file must hold a JSON array of job objects.' } }]);
  const parsed: ParsedRecords = { inputs: [], problems: [] };
  const seenIds = new Map<string, number>();
  records.forEach((rec, index) => {
    try {
      const input = parseJobInput(rec, opts);
      // As the API refuses it on create: a job that would be closed from the start.
      if (input.closes_at && input.closes_at.getTime() <= now.getTime()) {
        parsed.problems.push({ index, errors: { closes_at: [JOB_MESSAGES.closesAtPast] } });
        return;
      }
      if (input.public_id) {
        if (seenIds.has(input.public_id))
          parsed.problems.push({ index, errors: { public_id: [`Duplicate of record ${seenIds.get(input.public_id)}.`] } });
        else seenIds.set(input.public_id, index);
      }
      parsed.inputs.push({ index, input });
    } catch (err) {
      if (err instanceof ValidationError) parsed.problems.push({ index, errors: err.fields });
      else throw err;
    }
  });
  return parsed;
}

/** Validates records without the database (fields and ids repeated in the file). */
export function validateJobRecords(records: unknown): JobInput[] {
  const { inputs, problems } = parseJobRecords(records);
  if (problems.length) throw new SeedError(problems);
  return inputs.map((r) => r.input);
}

/** Records whose public_id is already taken in the database (one query). */
async function takenPublicIds(db: Db, inputs: ParsedRecords['inputs']): Promise<SeedProblem[]> {
  const ids = inputs.map((r) => r.input.public_id).filter((id): id is string => !!id);
  if (!ids.length) return [];
  const taken = await repo.takenPublicIds(db, ids);
  return inputs
    .filter((r) => r.input.public_id && taken.has(r.input.public_id))
    .map((r) => ({ index: r.index, errors: { public_id: [`A job with public id "${r.input.public_id}" already exists.`] } }));
}

/**
 * Validates every record, field problems and taken ids together, and imports all of them or
 * none (the CLI's `jobs seed --file`).
 */
export async function importJobRecords(
  db: Db,
  records: unknown,
  opts: JobInputOptions & { rules?: SeedRules } = {},
  now = new Date(),
): Promise<number> {
  const { inputs, problems } = parseJobRecords(records, opts, now);
  problems.push(...(await takenPublicIds(db, inputs)));
  const plans = await planRecords(inputs, opts.rules, now, problems);
  if (problems.length) throw new SeedError(problems.sort((a, b) => a.index - b.index));
  return importJobs(
    db,
    inputs.map((r) => r.input),
    now,
    plans,
  );
}

/**
 * Each record through the publishing rules (issue 34), as the CLI, an administrator: a record the
 * blocking checks refuse is a problem naming the job and why, and nothing is imported.
 */
async function planRecords(
  inputs: ParsedRecords['inputs'],
  rules: SeedRules | undefined,
  now: Date,
  problems: SeedProblem[],
): Promise<(JobSavePlan | undefined)[]> {
  if (!rules) return [];
  const extras = { override_checks: rules.overrideNote === undefined ? undefined : { note: rules.overrideNote } };
  const plans: (JobSavePlan | undefined)[] = [];
  for (const { index, input } of inputs) {
    try {
      plans.push(await rules.policy.plan(draftJob(input, null, input.public_id ?? '', now), null, { userId: null, role: 'cli', extras }));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push({ index, title: input.title, errors: err.fields });
      plans.push(undefined);
    }
  }
  return plans;
}

/**
 * Inserts all jobs or none. Jobs whose public_id already exists are reported, not overwritten.
 * `plans`: what the publishing rules decided for each (its status and records), by position.
 */
export async function importJobs(db: Db, asked: JobInput[], now = new Date(), plans: (JobSavePlan | undefined)[] = []): Promise<number> {
  const inputs = asked.map((input, i) => (plans[i] ? { ...input, status: plans[i].status } : input));
  const taken = await takenPublicIds(
    db,
    inputs.map((input, index) => ({ index, input })),
  );
  if (taken.length) throw new SeedError(taken);
  // A record without a public id gets one from its title, as a create does; ids given in the file are kept clear of.
  const reserved = new Set(inputs.map((input) => input.public_id).filter((id): id is string => !!id));
  const ids: string[] = [];
  for (const input of inputs) {
    const id = input.public_id ?? (await newJobPublicId(db, input.title, reserved));
    reserved.add(id);
    ids.push(id);
  }
  await db.transaction(async (trx) => {
    // Spread creation times a little so the list has a stable, realistic order.
    for (const [i, input] of inputs.entries()) {
      const at = new Date(now.getTime() - (inputs.length - i) * 3_600_000);
      const jobId = await repo.insertJob(trx, ids[i], input, at);
      await plans[i]?.record?.(trx, { id: jobId, public_id: ids[i] }, now);
    }
    await bumpPublicVersion(trx);
  });
  return inputs.length;
}

/** Adds the demo jobs not there yet; `rules`: through the publishing rules (the CLI), else as they are (the first start in development). */
export async function seedDemoJobs(db: Db, now = new Date(), rules?: SeedRules): Promise<number> {
  if (rules) {
    const present = new Set(
      (
        await repo.jobsByPublicIds(
          db,
          DEMO_JOBS.map((j) => String(j.public_id)),
        )
      ).map((j) => j.public_id),
    );
    const fresh = DEMO_JOBS.filter((j) => !present.has(String(j.public_id)));
    return fresh.length ? importJobRecords(db, fresh, { rules }, now) : 0;
  }
  const inputs = validateJobRecords(DEMO_JOBS);
  const taken = new Set(
    (
      await takenPublicIds(
        db,
        inputs.map((input, index) => ({ index, input })),
      )
    ).map((p) => p.index),
  );
  const fresh = inputs.filter((_, index) => !taken.has(index));
  return fresh.length ? importJobs(db, fresh, now) : 0;
}

export function countJobs(db: Db): Promise<number> {
  return repo.countJobs(db);
}

/** A demo job `removeDemoJobs` left in place, and why. */
export interface KeptDemoJob {
  id: number;
  public_id: string;
  title: string;
  reason: string;
}

/**
 * `careers-admin jobs remove-demo`: removes the jobs `jobs seed --demo` made and nothing else. A
 * demo job is one with a demo public id and its demo title that no one has saved since (no
 * job.update in the audit log: a seeded job has none) and that has no application (removing a job
 * removes its applications): the others are kept and said why. `dryRun`: only says what it would do.
 */
export async function removeDemoJobs(
  db: Db,
  dryRun = false,
): Promise<{ removed: { id: number; public_id: string; title: string }[]; kept: KeptDemoJob[] }> {
  const demo = new Map(validateJobRecords(DEMO_JOBS).map((j) => [j.public_id!, j.title]));
  const rows = await repo.jobsByPublicIds(db, [...demo.keys()]);
  const candidates = rows.filter((r) => demo.get(r.public_id) === r.title);
  const kept: KeptDemoJob[] = rows
    .filter((r) => demo.get(r.public_id) !== r.title)
    .map((r) => ({ ...r, reason: 'its title is not the demo title' }));
  let removed: typeof rows = [];
  const ids = candidates.map((c) => c.id);
  const [appCount, edited] = await Promise.all([repo.applicationCountsOf(db, ids), repo.editedJobIds(db, ids)]);
  for (const c of candidates) {
    const n = appCount.get(c.id) ?? 0;
    if (n) kept.push({ ...c, reason: `it has ${n} application${n === 1 ? '' : 's'}` });
    else if (edited.has(c.id)) kept.push({ ...c, reason: 'it was edited after seeding' });
    else removed.push(c);
  }
  if (removed.length && !dryRun) {
    // An application that came in meanwhile keeps its job.
    const gone = new Set(
      await repo.deleteJobsWithoutApplications(
        db,
        removed.map((r) => r.id),
      ),
    );
    for (const r of removed.filter((x) => !gone.has(x.id))) kept.push({ ...r, reason: 'an application came in meanwhile' });
    removed = removed.filter((x) => gone.has(x.id));
  }
  return { removed, kept: kept.sort((a, b) => a.id - b.id) };
}

/** Runs an input schema (a feature's schema.ts) and answers its problems as the 400 of DESIGN.md section 3. */
import type { Request } from 'express';
import type { core } from 'zod/mini';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { isRowId } from '../shared/input-rules.js';
import { NotFound, ValidationError } from './errors.js';
import { queryString } from './paging.js';

/** A zod schema of either flavour (zod/mini for the Node-free schemas, zod for the applicants' ones). */
interface Schema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: core.$ZodIssue[] } };
}

/**
 * The one validation step of every input: the schema's output, or a ValidationError with
 * `{field: [messages]}` (keys in `order` when given, see fieldErrorsOf); a problem with the input
 * as a whole (key `detail`) is also its `detail`.
 */
export function validate<T>(schema: Schema<T>, input: unknown, order?: readonly string[]): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error.issues, order);
  throw new ValidationError(errors, errors.detail?.[0]);
}

/** Query parameters `names` as the schema reads them: each one's first value, trimmed ('' when absent). */
export function validateQuery<T>(req: Request, schema: Schema<T>, names: readonly string[]): T {
  return validate(schema, Object.fromEntries(names.map((name) => [name, queryString(req, name)])));
}

/**
 * A row id from a path (a job, application, form, entry, file or post): the one id rule of
 * isRowId; anything else names nothing, a 404 with `message` in every feature.
 */
export function pathId(raw: unknown, message = 'Not found.'): number {
  if (!isRowId(raw) || typeof raw !== 'string') throw new NotFound(message);
  return Number(raw);
}

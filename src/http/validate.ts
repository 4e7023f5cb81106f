/** Runs an input schema (a feature's schema.ts) and answers its problems as the 400 of DESIGN.md section 3. */
import type { z } from 'zod/mini';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { ValidationError } from './errors.js';

/**
 * The schema's output, or a ValidationError with `{field: [messages]}` (keys in `order` when given,
 * see fieldErrorsOf); a problem with the input as a whole (key `detail`) is also its `detail`.
 */
export function validate<T>(schema: z.ZodMiniType<T>, input: unknown, order?: readonly string[]): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error.issues, order);
  throw new ValidationError(errors, errors.detail?.[0]);
}

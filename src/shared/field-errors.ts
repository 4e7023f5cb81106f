/**
 * zod issues as the API's 400 body (DESIGN.md section 3): `{field: [messages]}`, nested keys joined
 * with dots (`questions.0.text`), an issue about the whole input under `detail`, each message once
 * per key. Node-free: the schemas that use it are shared with islands.
 */
import * as z from 'zod/mini';
import type { core } from 'zod/mini';

export type FieldErrors = Record<string, string[]>;

/** The messages every input's rules share (DESIGN.md section 3), declared once. */
export const FIELD_MESSAGES = {
  required: 'This field is required.',
  notText: 'Must be text.',
  notList: 'Must be a list.',
  notTextList: 'Must be a list of text.',
  notObject: 'Must be an object.',
  tooLong: (n: number) => `Ensure this field has no more than ${n} characters.`,
} as const;

/**
 * `order` names the keys' segments in the order their errors are listed (numbers sort as numbers,
 * unnamed segments after named ones, a key before its own sub-keys); without it keys keep the
 * order the issues were found in.
 */
export function fieldErrorsOf(issues: readonly core.$ZodIssue[], order?: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.join('.') : 'detail';
    errors[key] ??= [];
    const list = errors[key];
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  if (!order) return errors;
  const rank = (segment: string) =>
    /^\d+$/.test(segment) ? Number(segment) : order.includes(segment) ? order.indexOf(segment) : order.length;
  const compare = (a: string, b: string) => {
    const x = a.split('.');
    const y = b.split('.');
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (rank(x[i]) !== rank(y[i])) return rank(x[i]) - rank(y[i]);
    return x.length - y.length;
  };
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => compare(a, b)));
}

/** A custom issue that lets the checks after it run, so every problem is reported at once. */
export function issue(input: unknown, message: string, path: PropertyKey[] = []): core.$ZodRawIssue {
  return { code: 'custom', message, input, path, continue: true };
}

/**
 * `schema`, except that when it fails its issues are reported and `fallback` goes on to the checks
 * that follow, which then speak too (e.g. required answers when the answers list is malformed).
 */
export function orFallback<T>(schema: z.ZodMiniType<T>, fallback: T) {
  return z.transform((value: unknown, ctx): T => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const i of result.error.issues) ctx.issues.push(issue(value, i.message, i.path));
    return fallback;
  });
}

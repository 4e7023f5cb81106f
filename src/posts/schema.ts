/** Input rules of the posts feature (API queries, the page's tab, the CLI's options); Node-free. */
import * as z from 'zod/mini';
import { rowId } from '../shared/input-rules.js';
import { POST_STATUSES, type PostStatus } from './types.js';

export const POST_MESSAGES = {
  status: `Status must be one of ${POST_STATUSES.join(', ')}.`,
  id: 'A valid post id is required.',
  since: 'A valid date is required (YYYY-MM-DD or an ISO date and time).',
  notRetryable: 'Only a failed post whose job still has its webhook on can be retried.',
  notFound: 'Post not found.',
  exportFailed: 'Export failed. Please try again.',
} as const;

/** The default tab and filter (spec 02: 'default posts filter SUCCESS'). */
export const DEFAULT_POST_STATUS: PostStatus = 'SUCCESS';

/** `?status=`: SUCCESS, FAILED or PENDING, any case; absent or empty = SUCCESS. */
export const postStatusSchema = z.pipe(
  z.transform((v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toUpperCase() : DEFAULT_POST_STATUS)),
  z.enum(POST_STATUSES, { error: POST_MESSAGES.status }),
);

/** `--id` of the CLI: the one id rule (isRowId). */
export const postIdSchema = rowId(POST_MESSAGES.id);

/** `--since`: a date (midnight UTC) or an ISO date and time. */
export const sinceSchema = z
  .pipe(
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, POST_MESSAGES.since),
      ),
    z.transform((s: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s.replace(' ', 'T'))),
  )
  .check(z.refine((d: Date) => !Number.isNaN(d.getTime()), POST_MESSAGES.since));

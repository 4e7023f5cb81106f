/**
 * HR's review of applications (issue 11, issue 20): the applicants list's query (API, page,
 * island) and its filters as links keep them, and the body of a change to one application or many
 * (`{status}`, or the pipeline's `{stage}` / `{outcome, reason}`, with their messages). zod, shared
 * with islands.
 */
import { z as zod } from 'zod';
import * as enums from '../shared/enums.js';
import { isRowId } from '../shared/input-rules.js';
import { CAMPAIGN_MAX_LENGTH } from '../shared/campaign.js';
import { APPLICANT_LIMITS, APPLICANT_ORDERINGS, REJECTED_COLUMN, type ApplicantFilters } from './types.js';

type ApplicationStatus = enums.ApplicationStatus;

export const APPLICANT_Q_MAX = APPLICANT_LIMITS.search;
const BULK_STATUS_MAX = 500;

export const APPLICANT_MESSAGES = {
  oneValue: 'Give this parameter once, with one value.',
  id: 'A valid id is required.',
  jobId: 'A valid job id is required.',
  q: `Ensure the search has no more than ${APPLICANT_Q_MAX} characters.`,
  status: 'Select a valid status: NEW, REVIEWED or ARCHIVED.',
  date: 'Enter a valid date as YYYY-MM-DD.',
  reversedDates: 'The to date must not be before the from date.',
  ordering: `Ordering must be one of ${APPLICANT_ORDERINGS.join(', ')}.`,
  source: 'Ensure the source has no more than 100 characters.',
  detailed: 'detailed must be true or false.',
  ids: `Select between 1 and ${BULK_STATUS_MAX} applications.`,
  notFound: 'Not found.',
  resumeMissing: 'Resume not found.',
  noPreview: 'No preview for this file; download it.',
  previewBusy: 'Previews are busy just now; try again in a moment, or download the file.',
  downloadFailed: 'Unable to download resume. Please check your HR login or contact support.',
  exportFailed: 'Export failed. Please try again.',
  empty: 'No applicants found.',
} as const;

export const STAGE_NAME_MAX = APPLICANT_LIMITS.stageName;
export const STAGES_MAX = 20;
export const REASON_NAME_MAX = APPLICANT_LIMITS.reasonName;
export const REASONS_MAX = 30;
/** Cards per board column and request (the newest first; "show more" asks for the next ones). */
export const BOARD_CARDS = 25;
export const BOARD_CARDS_MAX = 100;

export const PIPELINE_MESSAGES = {
  stage: "Select a stage of this application's job.",
  stageFilter: `Ensure the stage has no more than ${STAGE_NAME_MAX} characters.`,
  removedJob: 'This job was removed: its applications cannot move and its stages cannot change.',
  outcome: 'Outcome must be REJECTED.',
  reason: 'Select a rejection reason from the list.',
  reasonWithoutOutcome: 'A reason is given only with the outcome REJECTED.',
  oneChange: 'Send one of status, stage or outcome (with its reason).',
  stages: `A job has between 1 and ${STAGES_MAX} stages.`,
  stageName: `Enter a stage name of 1 to ${STAGE_NAME_MAX} characters on one line.`,
  stageDuplicate: 'Two stages cannot have the same name.',
  stageReserved: `"${REJECTED_COLUMN}" is the column of rejected applications; choose another name.`,
  stageId: "This stage is not one of this job's stages.",
  stageIdTwice: 'This stage is listed twice.',
  stageInUse: (name: string, n: number) =>
    `The stage "${name}" has ${n} ${n === 1 ? 'applicant' : 'applicants'}; move them to another stage before removing it.`,
  reasons: `Keep between 1 and ${REASONS_MAX} rejection reasons.`,
  reasonName: `Enter a reason of 1 to ${REASON_NAME_MAX} characters on one line.`,
  reasonDuplicate: 'Two reasons cannot have the same name.',
  reasonId: 'This reason is not in the list.',
  column: 'Select a column of this board.',
  offset: 'offset must be a whole number from 0 to 100000.',
  limit: `limit must be a whole number from 1 to ${BOARD_CARDS_MAX}.`,
} as const;

/** A real calendar day written YYYY-MM-DD. */
function isCalendarDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** One query parameter: a string (an array, i.e. the name given twice, is refused), trimmed. */
export const param = zod.string({ error: APPLICANT_MESSAGES.oneValue }).trim().optional();
export const optionalDay = param.refine((v) => !v || isCalendarDay(v), APPLICANT_MESSAGES.date).transform((v) => v || null);

export const applicantListQuerySchema = zod
  .object({
    job_id: param.refine((v) => !v || isRowId(v), APPLICANT_MESSAGES.jobId).transform((v) => (v ? Number(v) : null)),
    q: param.refine((v) => !v || [...v].length <= APPLICANT_Q_MAX, APPLICANT_MESSAGES.q).transform((v) => v ?? ''),
    status: param
      .refine((v) => !v || enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status)
      .transform((v) => (v || null) as ApplicationStatus | null),
    date_from: optionalDay,
    date_to: optionalDay,
    ordering: param
      .refine((v) => !v || (APPLICANT_ORDERINGS as readonly string[]).includes(v), APPLICANT_MESSAGES.ordering)
      .transform((v) => (v || '-created_at') as ApplicantFilters['ordering']),
    detailed: param.refine((v) => !v || v === 'true' || v === 'false', APPLICANT_MESSAGES.detailed).transform((v) => v === 'true'),
    // A stage name (any job's stage of that name), or 'Rejected'.
    stage: param.refine((v) => !v || [...v].length <= STAGE_NAME_MAX, PIPELINE_MESSAGES.stageFilter).transform((v) => v || null),
    // Issue 21: a source as stored, or '(direct)' for applications without one.
    source: param.refine((v) => !v || [...v].length <= CAMPAIGN_MAX_LENGTH, APPLICANT_MESSAGES.source).transform((v) => v?.trim() || null),
    // Read by the paging helper; only checked here for being given once.
    page: param,
    page_size: param,
  })
  .superRefine((v, ctx) => {
    if (v.date_from && v.date_to && v.date_to < v.date_from)
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: APPLICANT_MESSAGES.reversedDates });
  });

export type ApplicantListQuery = zod.output<typeof applicantListQuerySchema>;

const statusField = zod
  .string({ error: APPLICANT_MESSAGES.status })
  .refine((v) => enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status);

/** The CLI's `--status` (applicants purge): the API's rule, in any case. */
export const statusOptionSchema = zod
  .string()
  .trim()
  .toUpperCase()
  .pipe(statusField)
  .transform((v) => v as ApplicationStatus);

/**
 * One change of an application (PATCH, and the bulk call beside its ids): the spec's `{status}`,
 * or a stage of the application's job `{stage}`, or the outcome `{outcome: 'REJECTED', reason}`.
 * Exactly one kind per request, so a stage move's own status rule is never mixed with a status.
 */
export type ApplicationChange =
  | { kind: 'status'; status: ApplicationStatus }
  | { kind: 'stage'; stage: number }
  | { kind: 'outcome'; outcome: 'REJECTED'; reason: string };

const changeFields = {
  status: zod.optional(statusField.transform((v) => v as ApplicationStatus)),
  stage: zod.optional(zod.unknown().refine(isRowId, PIPELINE_MESSAGES.stage).transform(Number)),
  outcome: zod.optional(
    zod
      .unknown()
      .refine((v) => v === 'REJECTED', PIPELINE_MESSAGES.outcome)
      .transform(() => 'REJECTED' as const),
  ),
  reason: zod.optional(
    zod.string({ error: PIPELINE_MESSAGES.reason }).trim().min(1, PIPELINE_MESSAGES.reason).max(REASON_NAME_MAX, PIPELINE_MESSAGES.reason),
  ),
};

function toChange(
  v: { status?: ApplicationStatus; stage?: number; outcome?: 'REJECTED'; reason?: string },
  ctx: zod.RefinementCtx,
): ApplicationChange {
  const kinds = [v.status !== undefined, v.stage !== undefined, v.outcome !== undefined].filter(Boolean).length;
  if (kinds !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: kinds ? [] : ['status'],
      message: kinds ? PIPELINE_MESSAGES.oneChange : APPLICANT_MESSAGES.status,
    });
    return zod.NEVER;
  }
  if (v.reason !== undefined && v.outcome === undefined) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: PIPELINE_MESSAGES.reasonWithoutOutcome });
    return zod.NEVER;
  }
  if (v.status !== undefined) return { kind: 'status', status: v.status };
  if (v.stage !== undefined) return { kind: 'stage', stage: v.stage };
  if (v.reason === undefined) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: PIPELINE_MESSAGES.reason });
    return zod.NEVER;
  }
  return { kind: 'outcome', outcome: 'REJECTED', reason: v.reason };
}

export const statusChangeSchema = zod.object(changeFields).transform(toChange);

export const bulkStatusSchema = zod
  .object({
    ids: zod
      .array(zod.unknown(), { error: APPLICANT_MESSAGES.ids })
      .min(1, APPLICANT_MESSAGES.ids)
      .max(BULK_STATUS_MAX, APPLICANT_MESSAGES.ids)
      .refine((ids) => ids.every(isRowId), APPLICANT_MESSAGES.id)
      .transform((ids) => [...new Set(ids.map(Number))]),
    ...changeFields,
  })
  .transform((v, ctx) => ({ ids: v.ids, change: toChange(v, ctx) }));

/** The filters of a parsed list query (what the list, its links and previous/next need). */
export function applicantFilters(q: ApplicantListQuery): ApplicantFilters {
  return {
    job_id: q.job_id,
    q: q.q,
    status: q.status,
    date_from: q.date_from,
    date_to: q.date_to,
    ordering: q.ordering,
    stage: q.stage,
    source: q.source,
  };
}

/** The filters as a query string (defaults left out), for links that keep the list's filters. */
export function applicantFilterQuery(f: ApplicantFilters, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (f.job_id) p.set('job_id', String(f.job_id));
  if (f.q) p.set('q', f.q);
  if (f.status) p.set('status', f.status);
  if (f.date_from) p.set('date_from', f.date_from);
  if (f.date_to) p.set('date_to', f.date_to);
  if (f.ordering !== '-created_at') p.set('ordering', f.ordering);
  if (f.stage) p.set('stage', f.stage);
  if (f.source) p.set('source', f.source);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

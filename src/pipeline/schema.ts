/**
 * The pipeline's input (issue 20): a job's stage list, the rejection reasons, and the board's
 * query (the applicants list's filters plus a column and its page). zod, shared with islands; the
 * messages are PIPELINE_MESSAGES (applicants/review.schema.ts), which a change of an application's
 * stage or outcome uses too.
 */
import { z as zod } from 'zod';
import * as enums from '../shared/enums.js';
import { isRowId, oneLineProblem } from '../shared/input-rules.js';
import { CAMPAIGN_MAX_LENGTH } from '../shared/campaign.js';
import {
  APPLICANT_MESSAGES,
  APPLICANT_Q_MAX,
  BOARD_CARDS,
  BOARD_CARDS_MAX,
  PIPELINE_MESSAGES,
  REASONS_MAX,
  REASON_NAME_MAX,
  STAGES_MAX,
  STAGE_NAME_MAX,
  optionalDay,
  param,
} from '../applicants/review.schema.js';
import { REJECTED_COLUMN } from '../applicants/types.js';

type ApplicationStatus = enums.ApplicationStatus;

/**
 * A name on one line: trimmed, 1 to `max` characters, no control characters (`message`), nor
 * invisible, text-direction or non-characters (the one-line rule's own messages, oneLineProblem).
 */
const lineName = (max: number, message: string) =>
  zod
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => [...v].length <= max && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v), { message, abort: true })
    .superRefine((v, ctx) => {
      const problem = oneLineProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const optionalId = (message: string) =>
  zod.optional(
    zod
      .unknown()
      .refine((v) => v === null || isRowId(v), message)
      .transform((v) => (v === null ? undefined : Number(v))),
  );

/** Names compared as HR reads them: the same letters in any case are the same name. */
const nameKey = (name: string) => name.toLocaleLowerCase('en');

function uniqueNames(
  list: { name: string; id?: number }[],
  ctx: zod.RefinementCtx,
  field: string,
  duplicate: string,
  idTwice: string,
): void {
  const names = new Set<string>();
  const ids = new Set<number>();
  list.forEach((item, i) => {
    if (names.has(nameKey(item.name))) ctx.addIssue({ code: 'custom', path: [field, i, 'name'], message: duplicate });
    names.add(nameKey(item.name));
    if (item.id !== undefined) {
      if (ids.has(item.id)) ctx.addIssue({ code: 'custom', path: [field, i, 'id'], message: idTwice });
      ids.add(item.id);
    }
  });
}

/** PUT /api/hr/jobs/{id}/stages/: the whole ordered list; an item with the id of a stage keeps it (and its applicants). */
export const stagesPutSchema = zod
  .object({
    stages: zod
      .array(
        zod.object({
          id: optionalId(PIPELINE_MESSAGES.stageId),
          name: lineName(STAGE_NAME_MAX, PIPELINE_MESSAGES.stageName).refine(
            (v) => nameKey(v) !== nameKey(REJECTED_COLUMN),
            PIPELINE_MESSAGES.stageReserved,
          ),
        }),
        { error: PIPELINE_MESSAGES.stages },
      )
      .min(1, PIPELINE_MESSAGES.stages)
      .max(STAGES_MAX, PIPELINE_MESSAGES.stages),
  })
  .superRefine((v, ctx) => uniqueNames(v.stages, ctx, 'stages', PIPELINE_MESSAGES.stageDuplicate, PIPELINE_MESSAGES.stageIdTwice));

export type StagesInput = zod.output<typeof stagesPutSchema>['stages'];

/** PUT /api/hr/rejection-reasons/: the whole ordered list. */
export const reasonsPutSchema = zod
  .object({
    reasons: zod
      .array(zod.object({ id: optionalId(PIPELINE_MESSAGES.reasonId), name: lineName(REASON_NAME_MAX, PIPELINE_MESSAGES.reasonName) }), {
        error: PIPELINE_MESSAGES.reasons,
      })
      .min(1, PIPELINE_MESSAGES.reasons)
      .max(REASONS_MAX, PIPELINE_MESSAGES.reasons),
  })
  .superRefine((v, ctx) => uniqueNames(v.reasons, ctx, 'reasons', PIPELINE_MESSAGES.reasonDuplicate, PIPELINE_MESSAGES.reasonId));

export type ReasonsInput = zod.output<typeof reasonsPutSchema>['reasons'];

const wholeParam = (max: number, message: string, fallback: number) =>
  param.refine((v) => !v || (/^\d{1,6}$/.test(v) && Number(v) <= max), message).transform((v) => (v ? Number(v) : fallback));

/**
 * GET /api/hr/jobs/{id}/board/ (and the board page): the list's search and status filters;
 * `column` (a stage id or 'rejected') with `offset` asks for more cards of one column.
 */
export const boardQuerySchema = zod.object({
  q: param.refine((v) => !v || [...v].length <= APPLICANT_Q_MAX, APPLICANT_MESSAGES.q).transform((v) => v ?? ''),
  status: param
    .refine((v) => !v || enums.isOneOf(enums.APPLICATION_STATUSES, v), APPLICANT_MESSAGES.status)
    .transform((v) => (v || null) as ApplicationStatus | null),
  // The applicants list's filters too (issue 30): applied between two days, from a source.
  date_from: optionalDay,
  date_to: optionalDay,
  source: param.refine((v) => !v || [...v].length <= CAMPAIGN_MAX_LENGTH, APPLICANT_MESSAGES.source).transform((v) => v?.trim() || null),
  column: param
    .refine((v) => !v || v === 'rejected' || isRowId(v), PIPELINE_MESSAGES.column)
    .transform((v) => (!v ? null : v === 'rejected' ? ('rejected' as const) : Number(v))),
  offset: wholeParam(100_000, PIPELINE_MESSAGES.offset, 0),
  limit: wholeParam(BOARD_CARDS_MAX, PIPELINE_MESSAGES.limit, BOARD_CARDS).refine((v) => v >= 1, PIPELINE_MESSAGES.limit),
});

export type BoardQuery = zod.output<typeof boardQuerySchema>;

/**
 * The inputs of interview kits, scorecards and the debrief (issue 31) and their messages, shared by
 * the API and the islands: a kit (a template's or a job stage's), a request for feedback, a
 * scorecard's draft, an amendment and a debrief decision. Node-free (zod/mini).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { isRowId, multilineText, oneLine } from '../shared/input-rules.js';
import { DECISIONS, RECOMMENDATIONS, RECOMMENDATION_LABELS } from './scorecards.types.js';

export const KIT_LIMITS = {
  templateName: 100,
  instructions: 5_000,
  question: 500,
  questions: 30,
  attribute: 100,
  level: 300,
  attributes: 20,
  templates: 200,
  note: 5_000,
  amendment: 5_000,
  interviewerName: 100,
  reason: 100,
} as const;

/** How long after submitting its author may still edit a scorecard. */
export const EDIT_WINDOW_HOURS = 24;

export const SCORECARD_MESSAGES = {
  notObject: FIELD_MESSAGES.notObject,
  required: FIELD_MESSAGES.required,
  notList: FIELD_MESSAGES.notList,
  questions: `A kit has at most ${KIT_LIMITS.questions} questions.`,
  attributes: `A kit has at most ${KIT_LIMITS.attributes} attributes.`,
  levels: 'Give what each rating from 1 to 4 means: a list of 4 texts.',
  attributeTaken: 'Each attribute is named once.',
  templateNotFound: 'Kit template not found.',
  templateName: 'A template with this name already exists.',
  tooManyTemplates: `There can be at most ${KIT_LIMITS.templates} kit templates. Delete one first.`,
  templateId: 'Choose a kit template from the list, or null.',
  jobNotFound: 'Job not found.',
  stageNotFound: 'Stage not found for this job.',
  applicationNotFound: 'Application not found.',
  scorecardNotFound: 'Scorecard not found.',
  stage: "Choose a stage of this application's job.",
  interviewer: "Choose an HR user, or give the outside interviewer's email and name.",
  interviewerUser: 'Choose an active HR user.',
  interviewerBoth: "Give either an HR user or an outside interviewer's email, not both.",
  interviewAt: 'The interview time must be a date and time with its time zone, such as 2026-12-01T09:00:00+01:00, or null.',
  alreadyAsked: 'This interviewer has already been asked for feedback on this application at this stage.',
  rating: 'A rating is a whole number from 1 to 4, or null for "no evidence".',
  ratingAttribute: "Rate only the attributes of this stage's kit.",
  ratings: `Give at most ${KIT_LIMITS.attributes} ratings, each attribute once.`,
  recommendation: `The recommendation is one of ${RECOMMENDATIONS.join(', ')} (${RECOMMENDATIONS.map((r) => RECOMMENDATION_LABELS[r]).join(', ')}), or null.`,
  recommendationNeeded: 'Choose an overall recommendation before submitting.',
  notAuthor: 'Only the interviewer who writes this scorecard may change it.',
  alreadySubmitted: 'This scorecard has already been submitted.',
  editClosed: `This scorecard was submitted more than ${EDIT_WINDOW_HOURS} hours ago: it can no longer be edited. Add an amendment with a note instead.`,
  amendDraft: 'Only a submitted scorecard takes amendments: edit the draft instead.',
  decision: `The decision is one of ${DECISIONS.join(', ')}.`,
  reasonNeeded: 'Give a rejection reason from the list.',
  decisionBlind: 'Submit your own scorecard on this application before deciding.',
  noNextStage: 'This application is in its last stage: there is no next stage to advance to.',
  advanceRejected: 'This application is rejected: move it back to a stage on its board before advancing it.',
  hiddenUntilSubmitted: 'Hidden until you submit your own scorecard on this application.',
  hiddenDraft: 'A draft: only its interviewer sees it until it is submitted.',
} as const;

const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: SCORECARD_MESSAGES.notObject });

/** A field that must be present (then shaped by `inner`). */
const present = <T extends z.ZodMiniType>(inner: T) =>
  z.pipe(z.unknown().check(z.refine((v) => v !== undefined, SCORECARD_MESSAGES.required)), inner);

/** A list (missing or null: empty) of at most `max` items. */
function list<T extends z.ZodMiniType>(item: T, max: number, message: string) {
  return z.pipe(
    z.transform((v: unknown) => v ?? []),
    z.array(item, { error: SCORECARD_MESSAGES.notList }).check(z.maxLength(max, message)),
  );
}

const key = (s: string) => s.toLocaleLowerCase('en');

const attributeSchema = () =>
  object({
    name: oneLine(KIT_LIMITS.attribute, true),
    levels: z.pipe(
      z.unknown().check(z.refine((v) => Array.isArray(v) && v.length === 4, SCORECARD_MESSAGES.levels)),
      z.array(multilineText(KIT_LIMITS.level)),
    ),
  });

const kitShape = () => ({
  instructions: multilineText(KIT_LIMITS.instructions),
  questions: z.pipe(
    list(multilineText(KIT_LIMITS.question), KIT_LIMITS.questions, SCORECARD_MESSAGES.questions),
    z.transform((qs: string[]) => qs.filter((q) => q !== '')),
  ),
  attributes: z.pipe(
    list(attributeSchema(), KIT_LIMITS.attributes, SCORECARD_MESSAGES.attributes),
    z
      .array(z.object({ name: z.string(), levels: z.array(z.string()) }))
      .check(z.refine((as) => new Set(as.map((a) => key(a.name))).size === as.length, SCORECARD_MESSAGES.attributeTaken)),
  ),
});

type KitOut = { instructions: string; questions: string[]; attributes: { name: string; levels: [string, string, string, string] }[] };

/** PUT /api/hr/jobs/{id}/kits/{stageId}/: a stage's kit (`template_id`: the template it started from). */
export function stageKitSchema() {
  return object({
    ...kitShape(),
    template_id: z.optional(
      z.pipe(
        z.unknown().check(z.refine((v) => v === null || (typeof v === 'number' && isRowId(v)), SCORECARD_MESSAGES.templateId)),
        z.transform((v) => (v === null ? null : Number(v))),
      ),
    ),
  }) as unknown as z.ZodMiniType<KitOut & { template_id?: number | null }>;
}
export type StageKitInput = KitOut & { template_id?: number | null };

/** POST and PUT /api/hr/kit-templates/: a template. */
export function templateSchema() {
  return object({ name: present(oneLine(KIT_LIMITS.templateName, true)), ...kitShape() }) as unknown as z.ZodMiniType<
    KitOut & { name: string }
  >;
}
export type KitTemplateInput = KitOut & { name: string };

/** An ISO 8601 date and time with its zone, as a Date; null or missing is none. */
const dateTimeField = (message: string) =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (v) =>
            v === null ||
            v === undefined ||
            (typeof v === 'string' &&
              v.length <= 40 &&
              /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
              !Number.isNaN(Date.parse(v))),
          message,
        ),
      ),
    z.transform((v) => (v === null || v === undefined ? null : new Date(v as string))),
  );

const idField = (message: string) =>
  z.pipe(z.unknown().check(z.refine((v) => (typeof v === 'number' || typeof v === 'string') && isRowId(v), message)), z.transform(Number));

/** POST /api/hr/applications/{id}/scorecards/: ask an HR user or an outside person for feedback on a stage. */
export function requestSchema() {
  return z.pipe(
    object({
      stage: present(idField(SCORECARD_MESSAGES.stage)),
      interviewer_user_id: z.optional(
        z.pipe(
          z
            .unknown()
            .check(
              z.refine(
                (v) => v === null || ((typeof v === 'number' || typeof v === 'string') && isRowId(v)),
                SCORECARD_MESSAGES.interviewerUser,
              ),
            ),
          z.transform((v) => (v === null ? null : Number(v))),
        ),
      ),
      interviewer_email: z.optional(
        z.pipe(oneLine(254), z.string().check(z.refine((s) => s === '' || emailError(s) === null, 'Enter a valid email address.'))),
      ),
      interviewer_name: z.optional(oneLine(KIT_LIMITS.interviewerName)),
      interview_at: z.optional(dateTimeField(SCORECARD_MESSAGES.interviewAt)),
    }),
    z.transform((v, ctx) => {
      const userId = v.interviewer_user_id ?? null;
      const email = v.interviewer_email ? storedEmail(v.interviewer_email) : '';
      const name = v.interviewer_name ?? '';
      if (userId !== null && (email || name)) {
        ctx.issues.push({ code: 'custom', input: v, path: ['interviewer_email'], message: SCORECARD_MESSAGES.interviewerBoth });
        return z.NEVER;
      }
      if (userId === null && !(email && name)) {
        const path = email ? 'interviewer_name' : 'interviewer_email';
        ctx.issues.push({
          code: 'custom',
          input: v,
          path: [path],
          message: email || name ? FIELD_MESSAGES.required : SCORECARD_MESSAGES.interviewer,
        });
        return z.NEVER;
      }
      return {
        stage: v.stage,
        interviewer: userId !== null ? ({ kind: 'user', userId } as const) : ({ kind: 'email', email, name } as const),
        interviewAt: v.interview_at ?? null,
      };
    }),
  );
}
export type RequestInput = z.output<ReturnType<typeof requestSchema>>;

const ratingField = () =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (v) => v === null || v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 4),
          SCORECARD_MESSAGES.rating,
        ),
      ),
    z.transform((v) => (v === undefined ? null : (v as number | null))),
  );

const recommendationField = () =>
  z.pipe(
    z
      .unknown()
      .check(z.refine((v) => v === null || (RECOMMENDATIONS as readonly unknown[]).includes(v), SCORECARD_MESSAGES.recommendation)),
    z.transform((v) => v as (typeof RECOMMENDATIONS)[number] | null),
  );

/** PATCH /api/hr/applications/{id}/scorecards/{scorecardId}/: the draft's ratings, notes and recommendation (each part optional). */
export function draftSchema() {
  return object({
    ratings: z.optional(
      z.pipe(
        list(
          object({ attribute: present(oneLine(KIT_LIMITS.attribute, true)), rating: ratingField(), note: multilineText(KIT_LIMITS.note) }),
          KIT_LIMITS.attributes,
          SCORECARD_MESSAGES.ratings,
        ),
        z
          .array(z.object({ attribute: z.string(), rating: z.nullable(z.number()), note: z.string() }))
          .check(z.refine((rs) => new Set(rs.map((r) => key(r.attribute))).size === rs.length, SCORECARD_MESSAGES.ratings)),
      ),
    ),
    recommendation: z.optional(recommendationField()),
  });
}
export type DraftInput = z.output<ReturnType<typeof draftSchema>>;

/** POST .../amendments/: a note added to a submitted scorecard. */
export function amendmentSchema() {
  return object({
    note: present(z.pipe(multilineText(KIT_LIMITS.amendment), z.string().check(z.minLength(1, SCORECARD_MESSAGES.required)))),
  });
}
export type AmendmentInput = z.output<ReturnType<typeof amendmentSchema>>;

/** POST /api/hr/applications/{id}/debrief/decisions/: the decision on the application at its stage. */
export function decisionSchema() {
  return z.pipe(
    object({
      decision: present(
        z.pipe(
          z.unknown().check(z.refine((v) => (DECISIONS as readonly unknown[]).includes(v), SCORECARD_MESSAGES.decision)),
          z.transform((v) => v as (typeof DECISIONS)[number]),
        ),
      ),
      reason: z.optional(oneLine(KIT_LIMITS.reason)),
    }),
    z.transform((v, ctx) => {
      if (v.decision === 'reject' && !v.reason) {
        ctx.issues.push({ code: 'custom', input: v, path: ['reason'], message: SCORECARD_MESSAGES.reasonNeeded });
        return z.NEVER;
      }
      return { decision: v.decision, reason: v.decision === 'reject' ? (v.reason as string) : null };
    }),
  );
}
export type DecisionInput = z.output<ReturnType<typeof decisionSchema>>;

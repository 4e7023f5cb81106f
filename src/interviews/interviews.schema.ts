/**
 * The input of an interview (issue 32) and its messages, shared by the API and the islands: POST
 * (every field the interview needs) and PATCH (any of them). Node-free (zod/mini).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { isRowId, multilineText, oneLine, present } from '../shared/input-rules.js';
import { INTERVIEW_TYPES, type InterviewType } from './interviews.types.js';

const INTERVIEW_LIMITS = {
  location: 500,
  notes: 5_000,
  videoUrl: 2_000,
  interviewers: 20,
  name: 100,
  email: 191,
  timeZone: 64,
  hours: 12,
  yearsAhead: 2,
} as const;

export const INTERVIEW_MESSAGES = {
  required: FIELD_MESSAGES.required,
  notObject: FIELD_MESSAGES.notObject,
  type: `The type is one of ${INTERVIEW_TYPES.join(', ')}.`,
  dateTime: 'Give a date and time with its time zone, such as 2026-12-01T09:00:00+01:00.',
  endBeforeStart: 'The end must be after the start.',
  tooLong: `An interview lasts at most ${INTERVIEW_LIMITS.hours} hours.`,
  tooFar: `The start must be within ${INTERVIEW_LIMITS.yearsAhead} years from now.`,
  timeZone: 'Choose a time zone by its IANA name, such as Europe/Berlin.',
  interviewers: `Give 1 to ${INTERVIEW_LIMITS.interviewers} interviewers.`,
  interviewer: "Give an HR user (user_id), or an outside interviewer's email and name.",
  interviewerBoth: "Give either an HR user or an outside interviewer's email and name, not both.",
  interviewerUser: 'Choose an active HR user.',
  interviewerNoEmail: 'This HR user has no email address for the invitation: add one on the Users page first.',
  interviewerTwice: 'Each interviewer is named once.',
  email: 'Enter a valid email address.',
  videoUrl: 'Enter a web address starting with http:// or https://.',
  stage: "Choose a stage of this application's job.",
  applicationNotFound: 'Application not found.',
  interviewNotFound: 'Interview not found.',
  cancelled: 'This interview is cancelled: schedule a new one instead.',
  alreadyCancelled: 'This interview is already cancelled.',
} as const;
const M = INTERVIEW_MESSAGES;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const checked = <T>(test: (v: unknown) => boolean, message: string, out: (v: unknown) => T) =>
  z.pipe(z.unknown().check(z.refine(test, message)), z.transform(out));

const typeField = () =>
  checked(
    (v) => (INTERVIEW_TYPES as readonly unknown[]).includes(v),
    M.type,
    (v) => v as InterviewType,
  );

const dateTimeField = () =>
  checked(
    (v) => typeof v === 'string' && v.length <= 40 && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)),
    M.dateTime,
    (v) => new Date(v as string),
  );

/**
 * Whether the runtime knows the zone: the check luxon's IANAZone.isValidZone makes, written here
 * because luxon (70 KB, not tree-shaken) would put every island importing this schema over its budget.
 */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone }).format();
    return true;
  } catch {
    return false;
  }
}

/** An IANA zone name the runtime knows ("UTC" too). */
const isTimeZone = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= INTERVIEW_LIMITS.timeZone && /^[A-Za-z0-9_+\-/]+$/.test(v) && knownZone(v);

const timeZoneField = () => checked(isTimeZone, M.timeZone, (v) => v as string);

const videoUrlField = () =>
  z.pipe(
    oneLine(INTERVIEW_LIMITS.videoUrl),
    z.pipe(
      z.string().check(
        z.refine((s) => {
          if (s === '') return true;
          try {
            const u = new URL(s);
            return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
          } catch {
            return false;
          }
        }, M.videoUrl),
      ),
      z.transform((s) => s || null),
    ),
  );

const nullIfBlank = (inner: z.ZodMiniType<string, unknown>) =>
  z.pipe(
    inner,
    z.transform((s: string): string | null => s || null),
  );

/** An interviewer: `{user_id}` (an HR user) or `{email, name}` (an outside person). */
export type InterviewerInput = { kind: 'user'; userId: number } | { kind: 'email'; email: string; name: string };

const interviewerField = () =>
  z.pipe(
    z.object(
      {
        user_id: z.optional(
          checked(
            (v) => v === null || ((typeof v === 'number' || typeof v === 'string') && isRowId(v)),
            M.interviewerUser,
            (v) => (v === null ? null : Number(v)),
          ),
        ),
        email: z.optional(
          z.pipe(oneLine(INTERVIEW_LIMITS.email), z.string().check(z.refine((s) => s === '' || emailError(s) === null, M.email))),
        ),
        name: z.optional(oneLine(INTERVIEW_LIMITS.name)),
      },
      { error: M.interviewer },
    ),
    z.transform((v, ctx): InterviewerInput => {
      const userId = v.user_id ?? null;
      const email = v.email ? storedEmail(v.email) : '';
      const name = v.name ?? '';
      if (userId !== null) {
        if (email || name) ctx.issues.push({ code: 'custom', input: v, path: ['email'], message: M.interviewerBoth });
        return { kind: 'user', userId };
      }
      if (!email || !name) {
        const path = email ? 'name' : name ? 'email' : [];
        ctx.issues.push({
          code: 'custom',
          input: v,
          path: Array.isArray(path) ? path : [path],
          message: email || name ? M.required : M.interviewer,
        });
        return z.NEVER;
      }
      return { kind: 'email', email, name };
    }),
  );

const interviewersField = () =>
  z.pipe(
    z.unknown().check(z.refine((v) => Array.isArray(v) && v.length >= 1 && v.length <= INTERVIEW_LIMITS.interviewers, M.interviewers)),
    z.pipe(
      z.array(interviewerField()),
      z.array(z.custom<InterviewerInput>()).check(
        z.refine((list) => {
          const keys = list.map((i) => (i.kind === 'user' ? `u${i.userId}` : `e${i.email.toLowerCase()}`));
          return new Set(keys).size === keys.length;
        }, M.interviewerTwice),
      ),
    ),
  );

const stageField = () =>
  checked(
    (v) => (typeof v === 'number' || typeof v === 'string') && isRowId(v),
    M.stage,
    (v) => Number(v),
  );

/** What is wrong with an interview's times (field and message), checked on create and on every change. */
export function timeProblems(startsAt: Date, endsAt: Date, now: Date): { field: 'starts_at' | 'ends_at'; message: string }[] {
  const out: { field: 'starts_at' | 'ends_at'; message: string }[] = [];
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + INTERVIEW_LIMITS.yearsAhead);
  if (startsAt.getTime() > limit.getTime()) out.push({ field: 'starts_at', message: M.tooFar });
  if (endsAt.getTime() <= startsAt.getTime()) out.push({ field: 'ends_at', message: M.endBeforeStart });
  else if (endsAt.getTime() - startsAt.getTime() > INTERVIEW_LIMITS.hours * 3_600_000) out.push({ field: 'ends_at', message: M.tooLong });
  return out;
}

/** The fields of an interview's input, each with its rule (the booking link's input reuses them). */
export const interviewFields = () => ({
  type: typeField(),
  starts_at: dateTimeField(),
  ends_at: dateTimeField(),
  time_zone: timeZoneField(),
  interviewers: interviewersField(),
  location: nullIfBlank(oneLine(INTERVIEW_LIMITS.location)),
  video_url: videoUrlField(),
  candidate_notes: nullIfBlank(multilineText(INTERVIEW_LIMITS.notes)),
  stage_id: stageField(),
});

/** The fields of an interview, as the services take them. */
export interface InterviewInput {
  type: InterviewType;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  interviewers: InterviewerInput[];
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
  /** Default: the application's current stage. */
  stage_id?: number;
}
export type InterviewPatch = Partial<InterviewInput>;

/** POST /api/hr/applications/{id}/interviews/ (`now`: the server's clock, for the two-year limit). */
export function interviewSchema(now: Date) {
  const s = interviewFields();
  return z.pipe(
    z.object(
      {
        type: present(s.type),
        starts_at: present(s.starts_at),
        ends_at: present(s.ends_at),
        time_zone: present(s.time_zone),
        interviewers: present(s.interviewers),
        location: z.optional(s.location),
        video_url: z.optional(s.video_url),
        candidate_notes: z.optional(s.candidate_notes),
        stage_id: z.optional(s.stage_id),
      },
      { error: M.notObject },
    ),
    z.transform((v, ctx): InterviewInput => {
      for (const p of timeProblems(v.starts_at, v.ends_at, now))
        ctx.issues.push({ code: 'custom', input: v, path: [p.field], message: p.message });
      return {
        type: v.type,
        starts_at: v.starts_at,
        ends_at: v.ends_at,
        time_zone: v.time_zone,
        interviewers: v.interviewers,
        location: v.location ?? null,
        video_url: v.video_url ?? null,
        candidate_notes: v.candidate_notes ?? null,
        ...(v.stage_id !== undefined ? { stage_id: v.stage_id } : {}),
      };
    }),
  );
}

/** PATCH /api/hr/interviews/{id}/: any of the fields (the times are checked with the interview's others by the service). */
export function interviewPatchSchema() {
  const s = interviewFields();
  return z.pipe(
    z.object(
      {
        type: z.optional(present(s.type)),
        starts_at: z.optional(present(s.starts_at)),
        ends_at: z.optional(present(s.ends_at)),
        time_zone: z.optional(present(s.time_zone)),
        interviewers: z.optional(present(s.interviewers)),
        location: z.optional(s.location),
        video_url: z.optional(s.video_url),
        candidate_notes: z.optional(s.candidate_notes),
        stage_id: z.optional(present(s.stage_id)),
      },
      { error: M.notObject },
    ),
    z.transform((v): InterviewPatch => {
      const out: InterviewPatch = {};
      for (const [k, val] of Object.entries(v)) if (val !== undefined) (out as Record<string, unknown>)[k] = val;
      for (const k of ['location', 'video_url', 'candidate_notes'] as const) if (k in v && v[k] === undefined) out[k] = null;
      return out;
    }),
  );
}

/** The order of field errors in answers. */
export const INTERVIEW_FIELD_ORDER = [
  'type',
  'starts_at',
  'ends_at',
  'time_zone',
  'interviewers',
  'user_id',
  'email',
  'name',
  'location',
  'video_url',
  'candidate_notes',
  'stage_id',
] as const;

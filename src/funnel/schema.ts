/** Input rules of the funnel: a wizard beacon's body and the HR read's period. */
import * as z from 'zod/mini';
import { FUNNEL_EVENTS, WIZARD_STEPS } from './types.js';

const FUNNEL_DAYS = { min: 1, max: 365, default: 30 } as const;

export const FUNNEL_MESSAGES = {
  step: `Unknown step: use one of ${WIZARD_STEPS.join(', ')}.`,
  event: `Unknown event: use one of ${FUNNEL_EVENTS.join(', ')}.`,
  events: `events must be a list of 1 to ${WIZARD_STEPS.length * FUNNEL_EVENTS.length} {"step", "event"} objects.`,
  repeated: 'Send each step and event once per beacon.',
  body: 'The beacon must be a JSON object {"events": [{"step", "event"}, ...]}.',
  contentType: 'Send the beacon as text/plain or application/json.',
  tooLarge: 'Request body too large.',
  days: `days must be a whole number from ${FUNNEL_DAYS.min} to ${FUNNEL_DAYS.max}.`,
} as const;

const eventSchema = z.object(
  {
    step: z.enum(WIZARD_STEPS, FUNNEL_MESSAGES.step),
    event: z.enum(FUNNEL_EVENTS, FUNNEL_MESSAGES.event),
  },
  FUNNEL_MESSAGES.events,
);

/** Whether a step and event pair comes twice in a beacon's events. */
const repeatsAPair = (events: readonly { step: string; event: string }[]) =>
  new Set(events.map((e) => `${e.step}:${e.event}`)).size < events.length;

/**
 * What navigator.sendBeacon carries: steps and what happened to them since the last beacon of the
 * page (each step reached and completed at most once, so at most ten), nothing about the applicant.
 * A pair given twice is refused (400, nothing counted): one beacon never counts a step twice.
 */
export const beaconSchema = z.object(
  {
    events: z.array(eventSchema, FUNNEL_MESSAGES.events).check(
      z.minLength(1, FUNNEL_MESSAGES.events),
      z.maxLength(WIZARD_STEPS.length * FUNNEL_EVENTS.length, { error: FUNNEL_MESSAGES.events, abort: true }),
      z.refine((events) => !repeatsAPair(events), FUNNEL_MESSAGES.repeated),
    ),
  },
  FUNNEL_MESSAGES.body,
);
export type FunnelBeacon = z.infer<typeof beaconSchema>;

/** `?days=` of the HR read: absent or empty means the default. */
export const funnelQuerySchema = z.object({
  days: z.pipe(
    z.string().check(z.regex(/^$|^\d{1,3}$/, FUNNEL_MESSAGES.days)),
    z.pipe(
      z.transform((v: string) => (v === '' ? FUNNEL_DAYS.default : Number(v))),
      z.number().check(z.minimum(FUNNEL_DAYS.min, FUNNEL_MESSAGES.days), z.maximum(FUNNEL_DAYS.max, FUNNEL_MESSAGES.days)),
    ),
  ),
});

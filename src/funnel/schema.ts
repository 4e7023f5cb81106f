/** Input rules of the funnel: a wizard beacon's body and the HR read's period. */
import * as z from 'zod/mini';
import { FUNNEL_EVENTS, WIZARD_STEPS } from './types.js';

const FUNNEL_DAYS = { min: 1, max: 365, default: 30 } as const;

export const FUNNEL_MESSAGES = {
  step: `Unknown step: use one of ${WIZARD_STEPS.join(', ')}.`,
  event: `Unknown event: use one of ${FUNNEL_EVENTS.join(', ')}.`,
  body: 'The beacon must be a JSON object {"step", "event"}.',
  contentType: 'Send the beacon as text/plain or application/json.',
  tooLarge: 'Request body too large.',
  days: `days must be a whole number from ${FUNNEL_DAYS.min} to ${FUNNEL_DAYS.max}.`,
} as const;

/** What navigator.sendBeacon carries: the step and what happened to it, nothing about the applicant. */
export const beaconSchema = z.object(
  {
    step: z.enum(WIZARD_STEPS, FUNNEL_MESSAGES.step),
    event: z.enum(FUNNEL_EVENTS, FUNNEL_MESSAGES.event),
  },
  FUNNEL_MESSAGES.body,
);

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

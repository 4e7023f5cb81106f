/** The inputs of the candidates feature (issue 35) and their messages, shared by the pages, the API and the islands. Node-free. */
import { z as zod } from 'zod';
import { FIELD_MESSAGES } from '../shared/field-errors.js';

/** `reason`: as a rejection's (applications.outcome_reason). */
export const CANDIDATE_LIMITS = { reason: 100, statusText: 500, stages: 200 } as const;

export const CANDIDATE_MESSAGES = {
  email: 'Enter the email address you applied with.',
  linkSent:
    'If we have applications from this address, we have emailed it a link to their status. It may take a few minutes to arrive; check your spam folder too.',
  reason: `Keep the reason to ${CANDIDATE_LIMITS.reason} characters.`,
  withdrawn: 'Your application has been withdrawn. Thank you for letting us know.',
  alreadyWithdrawn: 'This application was withdrawn already.',
  notYours: 'This application is not on your status page.',
  closed: 'This application is closed already and cannot be withdrawn.',
  keepOn: 'Thank you: we will tell you about other jobs that fit you.',
  keepOff: 'Done: we will not contact you about other jobs, and you have left our talent pools.',
  erasureAsked:
    'We have your request. Our team will erase your data shortly; this link stops working then. Until then you can still download your data here.',
  invalidLink: 'This link is not valid. Ask for a new one with the email address you applied with.',
  expiredLink: 'This link has expired. Ask for a new one with the email address you applied with.',
  statusTexts: `Give a list of at most ${CANDIDATE_LIMITS.stages} {stage, text} entries.`,
  statusText: `A text is 1 to ${CANDIDATE_LIMITS.statusText} characters, or empty for the default.`,
  requestNotFound: 'Erasure request not found.',
} as const;

/** The withdraw form's reason: optional, one paragraph. */
export const withdrawSchema = zod.object({
  reason: zod
    .string({ error: CANDIDATE_MESSAGES.reason })
    .transform((v) => v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim())
    .refine((v) => [...v].length <= CANDIDATE_LIMITS.reason, CANDIDATE_MESSAGES.reason),
});

/** PUT /api/hr/settings/status-texts/: `{texts: [{stage, text}]}`; an empty text goes back to the default. */
export const statusTextsSchema = zod.object(
  {
    texts: zod
      .array(
        zod.object(
          {
            stage: zod.string({ error: FIELD_MESSAGES.required }).trim().min(1, FIELD_MESSAGES.required).max(60, FIELD_MESSAGES.required),
            text: zod
              .string({ error: CANDIDATE_MESSAGES.statusText })
              .transform((v) => v.replace(/\s+/g, ' ').trim())
              .refine((v) => [...v].length <= CANDIDATE_LIMITS.statusText, CANDIDATE_MESSAGES.statusText),
          },
          { error: FIELD_MESSAGES.notObject },
        ),
        { error: CANDIDATE_MESSAGES.statusTexts },
      )
      .max(CANDIDATE_LIMITS.stages, CANDIDATE_MESSAGES.statusTexts),
  },
  { error: FIELD_MESSAGES.notObject },
);

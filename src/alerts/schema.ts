/**
 * The job alert form's input (issue 35) and the alert pages' messages, Node-free. The filters are
 * the careers list's (department, location, work mode) plus keywords looked for in a job's title;
 * each is optional ('' = any). The form posts as a plain HTML form (urlencoded: every value a
 * string), so the same rules read it with or without script.
 */
import * as z from 'zod/mini';
import { EMAIL_MAX, emailError, storedEmail } from '../shared/application-rules.js';
import { FIELD_MESSAGES } from '../shared/field-errors.js';
import { oneLine, textInput } from '../shared/input-rules.js';
import { WORK_MODES } from '../shared/enums.js';
import { ALERT_FREQUENCIES, type AlertFrequency, type AlertFilters } from './types.js';

export const ALERT_LIMITS = {
  /** Department and location: as the careers list's filters. */
  filter: 191,
  keywords: 100,
  /** Alerts one address may hold, confirmed or waiting for confirmation. */
  perAddress: 10,
  /** Confirmation emails one address gets in a day, whatever the number of forms sent. */
  confirmationsPerDay: 3,
  /** Days a confirmation link works (an unconfirmed alert is deleted after them). */
  confirmDays: 7,
  /** Days an alert runs after confirming or renewing. */
  activeDays: 365,
  /** Days an expired alert is kept (renewable by the link of its last digest), then deleted. */
  retentionDays: 30,
  /** Jobs listed in one digest; the others follow in the next. */
  jobsPerDigest: 50,
} as const;

export const ALERT_MESSAGES = {
  emailRequired: 'Enter your email address.',
  emailInvalid: 'Enter a valid email address, such as name@example.com.',
  frequency: 'Choose daily or weekly.',
  workMode: 'Choose a work mode from the list.',
  consent: 'Tick the box to agree to receive job alert emails.',
  /** After the form: the same whether the address is known, new, or over its limits. */
  sent: 'Check your inbox: we have sent you an email with a link to confirm your job alert. Nothing is sent before you confirm.',
  confirmed: 'Your job alert is on. You will get an email when new jobs match it.',
  alreadyConfirmed: 'This job alert is already on.',
  unsubscribed: 'You are unsubscribed: this job alert sends you no more emails.',
  renewed: (until: string) => `Your job alert is renewed until ${until}.`,
  linkInvalid: 'This link is not valid. Check that it was copied whole.',
  confirmExpired: 'This confirmation link has expired. Sign up for the job alert again to get a new one.',
  alertGone: 'This job alert no longer exists. You can sign up for a new one.',
  alertsOff: 'Job alerts are not available on this site.',
} as const;

/**
 * The consent the form asks for and each alert records with the time it was given (issue 35:
 * "consent recorded with its text and time").
 */
export function alertConsentText(companyName: string): string {
  return `I agree to receive emails from ${companyName} about new jobs matching my filters, at most as often as I chose. I can unsubscribe from any email with one click. My address is kept only while the alert runs (a year unless I renew it).`;
}

export interface SubscribeInput extends AlertFilters {
  email: string;
  frequency: AlertFrequency;
}

/** The form's field order, for the errors' order. */
export const SUBSCRIBE_FIELDS = ['email', 'department', 'location', 'work_mode', 'keywords', 'frequency', 'consent'] as const;

let subscribe: z.ZodMiniType<SubscribeInput> | undefined;

/** The subscribe form (POST /careers/alerts): email required, filters optional, frequency daily or weekly, the consent ticked. */
export function subscribeSchema(): z.ZodMiniType<SubscribeInput> {
  subscribe ??= z.pipe(
    z.object({
      email: z.pipe(
        textInput(),
        z.string().check(
          z.overwrite((s) => s.trim()),
          z.superRefine((s, ctx) => {
            const problem =
              s.length > EMAIL_MAX
                ? FIELD_MESSAGES.tooLong(EMAIL_MAX)
                : !s
                  ? ALERT_MESSAGES.emailRequired
                  : emailError(s)
                    ? ALERT_MESSAGES.emailInvalid
                    : null;
            if (problem) ctx.issues.push({ code: 'custom', input: s, message: problem });
          }),
        ),
      ),
      department: oneLine(ALERT_LIMITS.filter),
      location: oneLine(ALERT_LIMITS.filter),
      work_mode: z.pipe(
        textInput(),
        z.string().check(z.refine((v) => v === '' || (WORK_MODES as readonly string[]).includes(v), ALERT_MESSAGES.workMode)),
      ),
      keywords: oneLine(ALERT_LIMITS.keywords),
      frequency: z.pipe(
        z.pipe(
          textInput(),
          z.string().check(z.refine((v) => (ALERT_FREQUENCIES as readonly string[]).includes(v), ALERT_MESSAGES.frequency)),
        ),
        z.transform((v) => v as AlertFrequency),
      ),
      consent: z.pipe(textInput(), z.string().check(z.refine((v) => v === 'yes' || v === 'on', ALERT_MESSAGES.consent))),
    }),
    z.transform(
      (v): SubscribeInput => ({
        email: storedEmail(v.email),
        department: v.department,
        location: v.location,
        work_mode: v.work_mode as AlertFilters['work_mode'],
        keywords: v.keywords.replace(/\s+/g, ' '),
        frequency: v.frequency,
      }),
    ),
  ) as unknown as z.ZodMiniType<SubscribeInput>;
  return subscribe;
}

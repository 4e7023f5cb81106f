/**
 * PHONE_RULE's values and messages, without the number metadata (src/shared/phone-rule.ts has the
 * check): the config and the wizard's main bundle import these only.
 */
export const PHONE_RULES = ['ten-digits', 'international'] as const;
export type PhoneRule = (typeof PHONE_RULES)[number];

/** Digits the wizard's phone input keeps under PHONE_RULE=international: E.164's 15, and a trunk prefix. */
export const INTERNATIONAL_PHONE_DIGITS = 17;

export const PHONE_RULE_MESSAGES = {
  invalid: 'Provided phone number is not valid for the chosen country.',
  help: 'Your number as you would dial it in that country.',
} as const;

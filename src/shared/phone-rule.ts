/**
 * PHONE_RULE (issue 30): how an applicant's phone number is judged, the same in the wizard (a
 * chunk it loads only under `international`) and on the server. `ten-digits` (the default) is the
 * spec's rule: a dial code from the list and exactly 10 digits (src/shared/application-rules.ts).
 * `international`: any number valid for its country (libphonenumber-js's metadata), stored in
 * E.164 (`+442079460958`). Node-free.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** Longer than any real number with its separators: refused before it is parsed. */
const RAW_MAX = 40;

/**
 * A number under PHONE_RULE=international, in E.164, or null when it is no valid number. `raw`
 * starts with + and its dial code (what the API receives), or is the national number of `country`
 * (an ISO 3166-1 alpha-2 code: what the wizard's applicant typed beside the chosen country).
 */
export function internationalPhone(raw: string, country?: string): string | null {
  const compact = raw.replace(/[\s().-]/g, '');
  if (!compact || compact.length > RAW_MAX || !/^\+?\d+$/.test(compact)) return null;
  const parsed = compact.startsWith('+')
    ? parsePhoneNumberFromString(compact)
    : country
      ? parsePhoneNumberFromString(compact, country.toUpperCase() as CountryCode)
      : undefined;
  return parsed?.isValid() ? parsed.number : null;
}

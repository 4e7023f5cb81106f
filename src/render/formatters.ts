/** Number and label formatters for HR pages, in the visitor's language. */
import type { Request } from 'express';
import { enumLabel } from '../shared/enums.js';

/** The visitor's first Accept-Language the runtime supports, for locale-grouped numbers. */
function requestLocale(req: Request): string {
  for (const part of (req.headers['accept-language'] ?? '').split(',').slice(0, 5)) {
    const tag = part.split(';')[0].trim();
    if (!tag || tag === '*') continue;
    try {
      if (Intl.NumberFormat.supportedLocalesOf([tag]).length) return tag;
    } catch {
      /* not a language tag */
    }
  }
  return 'en-US';
}

/** What HR page templates format with: `num` groups digits, `label` names an enum value. */
export function formatters(req: Request) {
  const numbers = new Intl.NumberFormat(requestLocale(req));
  return { num: (n: number) => numbers.format(n), label: enumLabel };
}


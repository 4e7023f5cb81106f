/** Number, time and label formatters for HR pages: numbers in the visitor's language, times in their zone. */
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { enumLabel } from '../shared/enums.js';
import { timeParts, type TimeKind } from '../shared/time-format.js';

const escapeAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A time as HTML (output with `<%-`): the server knows no viewer's zone, so it writes UTC, and
 * islands/site.ts rewrites every `time[data-local]` in the viewer's zone (no inline script: the
 * CSP allows only our files). The same format either way (src/shared/time-format.ts).
 */
export function timeTag(iso: string | Date | null | undefined, kind: TimeKind = 'time'): string {
  if (!iso) return '';
  const value = iso instanceof Date ? iso.toISOString() : iso;
  const parts = timeParts(value, kind, 'UTC');
  if (!parts.length) return '';
  const text = parts.map((p) => `<span class="time-part">${escapeAttr(p)}</span>`).join(' ');
  return `<time datetime="${escapeAttr(value)}" data-local="${kind}">${text}</time>`;
}

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

/** A number format per locale, made once (making one costs about as much as rendering a list row). */
const numberFormats = new LRUCache<string, Intl.NumberFormat>({ max: 50 });

/** What HR page templates format with: `num` groups digits, `label` names an enum value (every page has `time`: timeTag). */
export function formatters(req: Request) {
  const locale = requestLocale(req);
  let numbers = numberFormats.get(locale);
  if (!numbers) {
    numbers = new Intl.NumberFormat(locale);
    numberFormats.set(locale, numbers);
  }
  const format = numbers;
  return { num: (n: number) => format.format(n), label: enumLabel };
}

/**
 * Phones formatted lately, by their stored value: parsing one takes about 30 µs, as long as the
 * rest of its list row, and a list shows the same applicants again and again.
 */
const formattedPhones = new LRUCache<string, string>({ max: 10_000 });

/** A phone number as people read it (issue 30): stored `+919876543210`, shown `+91 98765 43210`; anything that does not parse as stored. */
export function formatPhone(stored: string | null | undefined): string {
  const raw = (stored ?? '').trim();
  if (!raw.startsWith('+')) return raw;
  let shown = formattedPhones.get(raw);
  if (shown === undefined) {
    shown = parsePhoneNumberFromString(raw)?.formatInternational() ?? raw;
    formattedPhones.set(raw, shown);
  }
  return shown;
}

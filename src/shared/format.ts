/** Formatting shared by pages, API and islands. */

/** Building an Intl.NumberFormat is slow; one per currency is kept. */
const currencyFormats = new Map<string, Intl.NumberFormat>();

/** Whole amounts, or with cents (`withCents`: an hourly $22.50). */
function currencyFormat(currency: string, withCents = false): Intl.NumberFormat {
  const key = withCents ? `${currency}.00` : currency;
  let fmt = currencyFormats.get(key);
  if (!fmt) {
    const digits = withCents ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumFractionDigits: 0 };
    try {
      fmt = new Intl.NumberFormat('en-US', { style: 'currency', currency, ...digits });
    } catch {
      fmt = new Intl.NumberFormat('en-US', digits);
    }
    currencyFormats.set(key, fmt);
  }
  return fmt;
}

/** Counts grouped the same way on every screen, public and HR: 120,000. */
const counts = new Intl.NumberFormat('en-US');
export function formatCount(n: number): string {
  return counts.format(n);
}

/**
 * A salary as an applicant typed it (free text): a plain amount ("1200000", "85,000.50") is
 * grouped, with the currency's symbol when the currency is known ("₹1,200,000"); any other text
 * ("12 LPA", "80k + bonus") is shown as typed.
 */
export function salaryText(typed: string, currency: string | null): string {
  const text = typed.trim();
  if (!/^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$/.test(text)) return typed;
  const amount = Number(text.replace(/,/g, ''));
  if (!Number.isFinite(amount) || amount > Number.MAX_SAFE_INTEGER) return typed;
  const withCents = !Number.isInteger(amount);
  return currency
    ? currencyFormat(currency, withCents).format(amount)
    : new Intl.NumberFormat('en-US', { maximumFractionDigits: withCents ? 2 : 0 }).format(amount);
}

const PER_PERIOD: Record<string, string> = { YEAR: 'per year', MONTH: 'per month', HOUR: 'per hour' };

/** "$80,000 – $120,000 per year" style range; null when no salary is set. */
export function salaryDisplay(currency: string, min: number | null, max: number | null, period = 'YEAR'): string | null {
  if (min === null && max === null) return null;
  const withCents = (min !== null && !Number.isInteger(min)) || (max !== null && !Number.isInteger(max));
  const fmt = currencyFormat(currency, withCents);
  const format = (n: number) => fmt.format(n);
  const amount =
    min !== null && max !== null
      ? min === max
        ? format(min)
        : `${format(min)} – ${format(max)}`
      : min !== null
        ? `From ${format(min)}`
        : `Up to ${format(max!)}`;
  return `${amount} ${PER_PERIOD[period] ?? PER_PERIOD.YEAR}`;
}

const utcDateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** An instant as pages write it for everyone alike: '31 Dec 2026, 17:00 UTC'. */
export function utcDateTime(instant: Date | string): string {
  return `${utcDateTimeFormat.format(new Date(instant))} UTC`;
}

/** Plain text of sanitised HTML, for meta descriptions and previews. */
export function htmlToText(html: string | null | undefined, max = 160): string {
  const text = (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * True when stored (already sanitised) rich text has visible content: sections are shown only when
 * non-empty. Tags are stripped with a linear scan, no HTML parser, since it runs on reads.
 */
export function hasRichContent(html: string | null | undefined): boolean {
  return !!html && html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|&#xa0;|[\s\u00a0\u200b]/gi, '') !== '';
}

/** Formatting shared by pages, API and islands. */

/** Building an Intl.NumberFormat is slow; one per currency is kept. */
const currencyFormats = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string): Intl.NumberFormat {
  let fmt = currencyFormats.get(currency);
  if (!fmt) {
    try {
      fmt = new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 });
    } catch {
      fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    }
    currencyFormats.set(currency, fmt);
  }
  return fmt;
}

/** Counts grouped the same way on every screen, public and HR: 120,000. */
const counts = new Intl.NumberFormat('en-US');
export function formatCount(n: number): string {
  return counts.format(n);
}

/** "$80,000 – $120,000" style range; null when no salary is set. */
export function salaryDisplay(currency: string, min: number | null, max: number | null): string | null {
  if (min === null && max === null) return null;
  const fmt = currencyFormat(currency);
  if (min !== null && max !== null) return min === max ? fmt.format(min) : `${fmt.format(min)} – ${fmt.format(max)}`;
  if (min !== null) return `From ${fmt.format(min)}`;
  return `Up to ${fmt.format(max!)}`;
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

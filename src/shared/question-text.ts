/** Plain text of a question's rich HTML for headings and spreadsheet headers. */
import { htmlToText } from './format.js';

/** Inline tags sit inside words and sentences ("Why <em>us</em>?"): removed without a space. */
const INLINE_TAGS = /<\/?(?:a|b|strong|i|em|u|s|span|code|mark|sub|sup|small)\b[^>]*>/gi;

export function questionPlainText(html: string | null | undefined, max = 300): string {
  return htmlToText((html ?? '').replace(INLINE_TAGS, ''), max);
}

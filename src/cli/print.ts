/**
 * What the CLI prints of stored or outside text (a receiver's answer, job ids, usernames, error
 * messages that quote input): control characters (C0, DEL, C1, so ESC and BEL too), bidi controls
 * and the Unicode line separators are written as escapes (`\x1b`, `\u202e`), so no such text can
 * move the cursor, recolour, retitle or reorder an admin's terminal.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

export function printable(text: unknown): string {
  return String(text ?? '').replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A message of several lines (configuration problems), each line made printable. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/** Plain text columns, widths from the content (cells already made printable). */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

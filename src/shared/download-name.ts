/**
 * Names files are saved under when HR downloads them (DESIGN.md §3 "Downloads"): a cleaned base
 * name plus the extension of the type detected from the bytes, never the sender's extension.
 * Only letters, marks and digits survive; every other run (dots, percent signs, spaces, slashes,
 * controls) becomes one '-', so no part can fake an extension or hide an escape a browser decodes.
 */
const PART_LIMIT = 60;

function cleanPart(text: string): string {
  const clean = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(clean).slice(0, PART_LIMIT).join('').replace(/-+$/, '');
}

/** `downloadName(['Jane', 'Doe', 'backend-1'], 'pdf', 'resume')` is `Jane-Doe-backend-1.pdf`. */
export function downloadName(parts: (string | null | undefined)[], extension: string, fallback: string): string {
  const base = parts
    .map((p) => cleanPart(p ?? ''))
    .filter(Boolean)
    .join('-');
  return `${base || fallback}.${extension}`;
}

/** An extension as lists compare it: trimmed, lower-cased, without a leading dot. */
export function normaliseExtension(ext: string): string {
  return ext.trim().replace(/^\.+/, '').toLowerCase();
}

/** The extension of a file name as the allowed lists compare it, or ''. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : normaliseExtension(name.slice(dot + 1));
}

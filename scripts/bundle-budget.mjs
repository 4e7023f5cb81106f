/**
 * The island bundle budget (issue 19), checked by every build (scripts/build.mjs): each island's
 * own bundle is at most ISLAND_BUDGET_BYTES minified, shared chunks aside (React and zod are
 * split into chunks every island shares and the browser caches once). The job editor is one
 * exception. The others are chunks loaded with import(), which esbuild counts as entries: TipTap's
 * (rich-text-tiptap), which the islands with a rich-text field load after their first render, and
 * the phone numbers' metadata (phone-rule, from libphonenumber-js), which the wizard loads only on
 * sites with PHONE_RULE=international.
 */
import path from 'node:path';

export const ISLAND_BUDGET_BYTES = 60 * 1024;
const EXEMPT = new Set(['job-editor', 'rich-text-tiptap', 'phone-rule']);

/** The islands over budget in esbuild's metafile outputs, as "name: N KB". */
export function overBudget(outputs) {
  const over = [];
  for (const [file, out] of Object.entries(outputs)) {
    if (!out.entryPoint || !file.endsWith('.js')) continue;
    const name = path.basename(out.entryPoint).replace(/\.(ts|tsx)$/, '');
    if (!EXEMPT.has(name) && out.bytes > ISLAND_BUDGET_BYTES) over.push(`${name}: ${(out.bytes / 1024).toFixed(1)} KB`);
  }
  return over;
}

/**
 * The island bundle budget (scripts/bundle-budget.mjs): the islands `npm test` just built are
 * within it, and the build fails, naming the island, when one is not.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs script without types
import { ISLAND_BUDGET_BYTES, overBudget } from '../../scripts/bundle-budget.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('island bundle budget', () => {
  it("every built island but the job editor (and the chunks loaded with import(): TipTap's, and the phone numbers' metadata) is within the budget, shared chunks aside", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'public/assets/manifest.json'), 'utf8')) as Record<string, { js?: string }>;
    expect(Object.keys(manifest)).to.include.members(['hr-posts', 'apply-wizard', 'public-form', 'form-builder', 'job-editor']);
    for (const [name, { js }] of Object.entries(manifest)) {
      if (!js || ['job-editor', 'rich-text-tiptap', 'phone-rule'].includes(name)) continue;
      expect(fs.statSync(path.join(ROOT, 'public', js)).size, name).to.be.at.most(ISLAND_BUDGET_BYTES);
    }
  });

  /** The island's file and every chunk it imports (import() aside), as paths under public/. */
  const loaded = (js: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(js)) return seen;
    seen.add(js);
    for (const [, next] of fs.readFileSync(path.join(ROOT, 'public', js), 'utf8').matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.js)"/g))
      loaded(path.posix.join(path.posix.dirname(js), next), seen);
    return seen;
  };

  it("loads classic zod in no island (its whole core, about 400 KB, would go into a chunk every island with a schema shares): islands' schemas are on zod/mini", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'public/assets/manifest.json'), 'utf8')) as Record<string, { js?: string }>;
    const classic = Object.entries(manifest)
      .filter(
        ([, { js }]) => js && [...loaded(js)].some((f) => fs.readFileSync(path.join(ROOT, 'public', f), 'utf8').includes('"ZodString"')),
      )
      .map(([name]) => name);
    expect(classic).to.deep.equal([]);
  });

  it('loads TipTap in no island before its first render: the islands with a rich-text field ask for its chunk with import()', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'public/assets/manifest.json'), 'utf8')) as Record<string, { js?: string }>;
    const text = (f: string) => fs.readFileSync(path.join(ROOT, 'public', f), 'utf8');
    const tiptap = manifest['rich-text-tiptap']?.js as string;
    expect(text(tiptap)).to.contain('ProseMirror');
    for (const name of ['job-editor', 'offer-settings', 'site-settings']) {
      const files = [...loaded(manifest[name]!.js as string)];
      const withTiptap = files.filter((f) => text(f).includes('ProseMirror'));
      const asking = files.filter((f) => text(f).includes(`/${path.posix.basename(tiptap)}")`));
      expect(withTiptap, name).to.deep.equal([]);
      expect(asking, name).to.have.length(1);
    }
  });

  it('names each island over the budget; chunks and the job editor are not counted', () => {
    const outputs = {
      'public/assets/hr-posts-X.js': { entryPoint: 'islands/hr-posts.tsx', bytes: ISLAND_BUDGET_BYTES + 1 },
      'public/assets/site-X.js': { entryPoint: 'islands/site.ts', bytes: ISLAND_BUDGET_BYTES },
      'public/assets/job-editor-X.js': { entryPoint: 'islands/job-editor.tsx', bytes: 10 * ISLAND_BUDGET_BYTES },
      'public/assets/chunks/chunk-X.js': { bytes: 10 * ISLAND_BUDGET_BYTES },
      'public/assets/hr-posts-X.css': { entryPoint: 'islands/hr-posts.tsx', bytes: 10 * ISLAND_BUDGET_BYTES },
    };
    expect(overBudget(outputs)).to.deep.equal(['hr-posts: 60.0 KB']);
  });

  it('fails the build when an island is over the budget', function () {
    this.timeout(120_000);
    // A copy of the project's build inputs with one island made too big.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-'));
    try {
      for (const part of ['islands', 'src', 'config', 'scripts', 'bin', 'package.json'])
        fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      fs.appendFileSync(path.join(dir, 'islands/site.ts'), `\nconsole.log(${JSON.stringify('x'.repeat(ISLAND_BUDGET_BYTES))});\n`);
      let failure = '';
      try {
        execFileSync(process.execPath, ['scripts/build.mjs', '--islands'], { cwd: dir, stdio: 'pipe' });
      } catch (err) {
        failure = String((err as { stderr: Buffer }).stderr);
      }
      expect(failure).to.match(/over the 60 KB budget[\s\S]*site: 6\d\.\d KB/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

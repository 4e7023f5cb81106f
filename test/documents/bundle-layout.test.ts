/**
 * The built server finds its document worker and its workbook thread: dist/ is split into chunks
 * (scripts/build.mjs), and the parsers' pool, wherever esbuild puts it, looks for
 * `document-worker.js` beside its own file (import.meta.url), the workbook writer `xlsx-worker.js`. Every file the server and the CLI load that starts the worker must have it
 * beside it, or resume previews fail in production while the tests (run from source) pass.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * The entry and every chunk it imports, statically or with import(), as absolute paths. esbuild
 * writes those imports with double quotes; the bundled packages' comments (`{import('./client.js')}`
 * in JSDoc) are not imports.
 */
function loadedFiles(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const [, spec] of fs.readFileSync(entry, 'utf8').matchAll(/(?:\bfrom|\bimport\()\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
    loadedFiles(path.resolve(path.dirname(entry), spec), seen);
  }
  return seen;
}

describe('the built server and CLI (dist/)', () => {
  // The threads (src/documents/thread.ts: the workbook writer's, the CSV parser's) are found the same
  // way, named by their source (`./xlsx-worker.ts`) and started from the `.js` beside the bundle.
  for (const name of ['document-worker', 'xlsx-worker', 'csv-worker']) {
    const worker = `${name}.js`;
    it(`have ${worker} beside every file that starts it`, () => {
      const loaded = new Set([...loadedFiles(path.join(DIST, 'server.js')), ...loadedFiles(path.join(DIST, 'careers-admin.js'))]);
      const starts = new RegExp(`["']\\./${name}\\.(?:js|ts)["']`);
      const starters = [...loaded].filter((f) => starts.test(fs.readFileSync(f, 'utf8')));
      expect(starters, 'some built file starts the worker').to.not.be.empty;
      for (const file of starters) expect(fs.existsSync(path.join(path.dirname(file), worker)), path.relative(DIST, file)).to.equal(true);
    });
  }
});

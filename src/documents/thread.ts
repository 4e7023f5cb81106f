/**
 * A worker thread of one of the kernel's thread files: the bundle's `dist/<name>.js` when running
 * from dist/, or `<name>.ts` beside the source under tsx (the thread registers tsx's loader before
 * it loads the file: a worker thread does not run the process's `--import tsx`).
 * `CAREERS_BUNDLE_DIR` (set by the test rig, which has just built dist/ from the source) makes a
 * process running the source start its threads and parser children from that folder's bundles:
 * tsx would compile exceljs and the rest again for every thread, several times the CPU.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The bundle `name` (e.g. 'xlsx-worker') in CAREERS_BUNDLE_DIR, when that is set. */
export function builtBundle(name: string): URL | null {
  const dir = process.env.CAREERS_BUNDLE_DIR;
  return dir ? pathToFileURL(path.join(dir, `${name}.js`)) : null;
}

/**
 * `from`: the starting module's import.meta.url; `source`: the thread's file beside it, as `./name.ts`;
 * `bundle`: its name in dist/ (scripts/build.mjs).
 */
export function startThread(from: string, source: string, bundle: string, options: WorkerOptions): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${bundle}.js`, from), options);
  const built = builtBundle(bundle);
  // Without the process's `--import tsx`, which a thread inherits: the bundle needs no loader.
  if (built) return new Worker(built, { ...options, execArgv: [] });
  const url = new URL(source, from);
  const require = createRequire(from);
  const tsxPackage = require.resolve('tsx/package.json');
  const api = new URL(require(tsxPackage).exports['./esm/api'].import.default, pathToFileURL(tsxPackage)).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

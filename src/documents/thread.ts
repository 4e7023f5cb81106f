/**
 * A worker thread of one of the kernel's thread files: the bundle's `dist/<name>.js` when running
 * from dist/, or `<name>.ts` beside the source under tsx (the thread registers tsx's loader before
 * it loads the file: a worker thread does not run the process's `--import tsx`).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `from`: the starting module's import.meta.url; `source`: the thread's file beside it, as `./name.ts`. */
export function startThread(from: string, source: string, options: WorkerOptions): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(source.replace(/\.ts$/, '.js').replace(/^.*\//, './'), from), options);
  const url = new URL(source, from);
  const require = createRequire(from);
  const tsxPackage = require.resolve('tsx/package.json');
  const api = new URL(require(tsxPackage).exports['./esm/api'].import.default, pathToFileURL(tsxPackage)).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

#!/usr/bin/env node
/**
 * Build: islands (React) -> public/assets/<name>-<hash>.js|css plus manifest.json; and, unless
 * --islands is given, the server and CLI -> dist/ (scripts/node-bundle.mjs).
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ISLAND_BUDGET_BYTES, overBudget } from './bundle-budget.mjs';
import { NODE_BUNDLE } from './node-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const islandsOnly = process.argv.includes('--islands');
const outdir = path.join(root, 'public', 'assets');

const entries = fs
  .readdirSync(path.join(root, 'islands'))
  .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => path.join(root, 'islands', f));

// Old bundles are left in place (hashed names never collide) so a server or test that loaded the
// previous manifest keeps working while another build runs; `npm run build -- --clean` empties it.
if (process.argv.includes('--clean')) fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: entries,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2020'],
  minify: true,
  sourcemap: false,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'media/[name]-[hash]',
  metafile: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  jsx: 'automatic',
  loader: { '.svg': 'file', '.woff2': 'file' },
  logLevel: 'warning',
});

// The embed script runs on other sites' pages as a classic script at a fixed URL (/embed.js).
await build({
  entryPoints: [path.join(root, 'islands', 'embed', 'host.ts')],
  outfile: path.join(root, 'public', 'embed', 'embed.js'),
  bundle: true,
  format: 'iife',
  target: ['es2018'],
  minify: true,
  logLevel: 'warning',
});

const over = overBudget(result.metafile.outputs);
if (over.length) {
  console.error(`Island bundles over the ${ISLAND_BUDGET_BYTES / 1024} KB budget (scripts/bundle-budget.mjs):\n  ${over.join('\n  ')}`);
  process.exit(1);
}

const manifest = {};
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  if (!out.entryPoint) continue;
  const name = path.basename(out.entryPoint).replace(/\.(ts|tsx)$/, '');
  const url = '/' + path.relative(path.join(root, 'public'), path.join(root, file)).split(path.sep).join('/');
  manifest[name] = { ...(manifest[name] ?? {}), js: url };
  if (out.cssBundle) {
    manifest[name].css = '/' + path.relative(path.join(root, 'public'), path.join(root, out.cssBundle)).split(path.sep).join('/');
  }
}
// Written then renamed, so a reader never sees half a manifest.
const tmp = path.join(outdir, `manifest.${process.pid}.tmp`);
fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2));
fs.renameSync(tmp, path.join(outdir, 'manifest.json'));

if (!islandsOnly) {
  await build({
    entryPoints: {
      server: path.join(root, 'src/server.ts'),
      'careers-admin': path.join(root, 'bin/careers-admin.ts'),
      // The document parsers' child process (src/documents/pool.ts forks it beside the bundle).
      'document-worker': path.join(root, 'src/documents/worker.ts'),
      // The workbook's thread of every export (src/exports/xlsx.ts starts it beside the bundle).
      'xlsx-worker': path.join(root, 'src/exports/xlsx-worker.ts'),
      // The CSV parser's thread of candidate imports (src/documents/csv.ts starts it beside the bundle).
      'csv-worker': path.join(root, 'src/documents/csv-worker.ts'),
    },
    outdir: path.join(root, 'dist'),
    ...NODE_BUNDLE,
    // Chunks, so the CLI's import() of a command's feature loads it only when that command runs
    // (src/cli/context.ts); like the islands, old chunks stay for a process started from them.
    // They sit beside the entries: code that finds a file beside the bundle by import.meta.url
    // (the document worker, package.json) finds it from a chunk too.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.chmodSync(path.join(root, 'dist', 'careers-admin.js'), 0o755);
}
console.log(`built ${Object.keys(manifest).length} island bundle(s)${islandsOnly ? '' : ' and dist/'}`);

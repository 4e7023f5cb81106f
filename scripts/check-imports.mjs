#!/usr/bin/env node
/**
 * Import arrows (DESIGN.md §2 "Arrows only point down"): reads the import graph of src/, islands/,
 * bin/, config/ and migrations/ and prints every broken arrow as `file -> imported: rule`, exiting
 * 1 when there is one. test/ and bench/ are free.
 *
 * dependency-cruiser needs the TypeScript JS API (TypeScript 7 has none) to parse .ts/.tsx, so the
 * graph comes from esbuild, which parses and resolves every import. esbuild drops `import type` /
 * `export type` statements, so those are read from the source text and added to the graph.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCANNED = ['src', 'islands', 'bin', 'config', 'migrations'];
const KERNEL = [
  'src/db/',
  'src/documents/',
  'src/http/',
  'src/log/',
  'src/render/',
  'src/storage/',
  'src/exports/',
  'src/shared/',
  'config/',
];
const FEATURES = [
  'site',
  'jobs',
  'applicants',
  'pipeline',
  'notes',
  'timeline',
  'users',
  'posts',
  'forms',
  'emails',
  'ops',
  'embeds',
  'sources',
  'funnel',
  'scorecards',
  'teams',
  'reports',
  'interviews',
  'publishing',
  'people',
  'candidates',
  'branding',
  'alerts',
  'imports',
  'pools',
  'offers',
];
/**
 * A feature file's role (docs/decisions/0001-file-roles.md): `index.ts` (the feature's face), or
 * `<role>.ts` / `<subject>.<role>.ts` with one of these roles; any other module of a feature lives
 * in its `lib/` folder and serves only that feature.
 */
const ROLES = ['api', 'pages', 'service', 'repo', 'queries', 'schema', 'types'];
const ROLE_NAME = new RegExp(`^(?:[a-z0-9-]+\\.)?(${ROLES.join('|')})\\.ts$`);
const SHELL = ['src/app.ts', 'src/server.ts', 'src/context.ts', 'src/wiring.ts'];
/** npm packages that run in a browser: the only ones src/shared/ and islands/ may import. */
const BROWSER_PACKAGES = [
  'react',
  'react-dom',
  '@tiptap/pm',
  '@tiptap/react',
  '@tiptap/starter-kit',
  'zod',
  'sanitize-html',
  '@sindresorhus/slugify',
  'libphonenumber-js',
];
/** Files other than *repo.ts / *queries.ts that may import knex: src/db/**, migrations and the two that create the db. */
const KNEX_ALLOWED = [/^src\/db\//, /^migrations\//, /^src\/context\.ts$/, /^src\/cli\/context\.ts$/];
/** A feature's (or storage's) own SQL: a file whose role is repo or queries (`repo.ts`, `list.queries.ts`). */
const isQueryFile = (file) => file.startsWith('src/') && ['repo', 'queries'].includes(roleOf(file));
/**
 * A statement built on the database handle: `db('table')`, `trx('table')`, `.raw(`, `.schema.`,
 * `.migrate.` (not a module named `<subject>.schema.js`).
 */
const QUERY_CALL = /\b(?:db|trx|knex)\s*\(\s*['"`]|\.raw\s*\(|\.(?:schema|migrate)\.(?!js['"]|ts['"])\w/;
/** `console.` in code (CLI output and the server's start may print; the rest logs through ctx.log or a logger handed in). */
const CONSOLE_CALL = /\bconsole\.\w+/;
const mayPrint = (file) => file.startsWith('src/cli/') || file === 'src/server.ts';

/** What a file is in the target layout: kernel, feature (with its name), cli, shell, islands, bin, migrations or null. */
export function layer(file) {
  if (KERNEL.some((k) => file.startsWith(k))) return { kind: 'kernel' };
  const feature = file.match(/^src\/([^/]+)\//)?.[1];
  if (feature && FEATURES.includes(feature)) return { kind: 'feature', name: feature };
  if (file.startsWith('src/cli/')) return { kind: 'cli' };
  if (SHELL.includes(file)) return { kind: 'shell' };
  for (const kind of ['islands', 'bin', 'migrations']) if (file.startsWith(`${kind}/`)) return { kind };
  return null;
}

function packageName(spec) {
  const parts = spec.replace(/^node:/, '').split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isBuiltin = (spec) => spec.startsWith('node:') || builtinModules.includes(packageName(spec));
const base = (file) => file.split('/').pop();
const featureFile = (file) => file.match(/^src\/[^/]+\/([^/]+)$/)?.[1];
/**
 * The role a file's name gives it: 'index', one of ROLES (`repo.ts`, `apply.service.ts`), 'lib' for
 * a feature's lib/ folder, or null. Outside features (storage's repo.ts) the name alone counts.
 */
export function roleOf(file) {
  if (/^src\/[^/]+\/lib\//.test(file) && layer(file)?.kind === 'feature') return 'lib';
  const name = base(file);
  if (name === 'index.ts') return 'index';
  return name.match(ROLE_NAME)?.[1] ?? null;
}
const hasRole = (file, ...roles) => roles.includes(roleOf(file));

/**
 * The rules an arrow `from -> to` breaks. `to` is a root-relative file path, or `{ pkg }` for an npm
 * package or Node built-in. Returns the explanations (empty when the arrow is allowed).
 */
export function brokenRules(from, to) {
  const broken = [];
  const src = layer(from);
  if (typeof to === 'object') {
    const pkg = packageName(to.pkg);
    if (pkg === 'knex' && !isQueryFile(from) && !KNEX_ALLOWED.some((re) => re.test(from))) {
      broken.push(
        '(a) knex only in repo and queries files (*repo.ts, *queries.ts), src/db/, migrations/ and the contexts that create the db (others take the Db handle type from src/db/knex.ts)',
      );
    }
    const browserSide = from.startsWith('src/shared/')
      ? '(b) src/shared/'
      : src?.kind === 'islands'
        ? '(c) islands/'
        : src?.kind === 'feature' && hasRole(from, 'types', 'schema')
          ? "(c) a feature's types/schema files (islands import them)"
          : null;
    if (browserSide && (isBuiltin(to.pkg) || !BROWSER_PACKAGES.includes(pkg))) {
      broken.push(`${browserSide} runs in the browser: only browser packages (${BROWSER_PACKAGES.join(', ')})`);
    }
    if (hasRole(from, 'service') && pkg === 'express') broken.push('(g) a service never sees req/res: no express in a service file');
    return broken;
  }
  const dst = layer(to);
  if (from.startsWith('src/shared/') && !to.startsWith('src/shared/'))
    broken.push('(b) src/shared/ imports only src/shared/ and browser packages');
  if (
    src?.kind === 'islands' &&
    !(dst?.kind === 'islands' || to.startsWith('src/shared/') || (dst?.kind === 'feature' && hasRole(to, 'types', 'schema')))
  ) {
    broken.push("(c) islands import only islands/, src/shared/ and a feature's types or schema files");
  }
  if (src?.kind === 'kernel' && ['feature', 'shell', 'cli'].includes(dst?.kind))
    broken.push('(d) the kernel never imports a feature, the app shell or the CLI');
  if (
    src?.kind === 'feature' &&
    dst?.kind === 'feature' &&
    src.name !== dst.name &&
    !(featureFile(to) === 'index.ts' || (hasRole(to, 'types', 'schema') && featureFile(to)))
  ) {
    broken.push(`(e) another feature only through src/${dst.name}/index.ts or its types/schema files`);
  }
  if (dst?.kind === 'feature' && roleOf(to) === 'lib' && !(src?.kind === 'feature' && src.name === dst.name)) {
    broken.push(`(k) src/${dst.name}/lib/ serves only src/${dst.name}/'s own files`);
  }
  if (from === 'src/context.ts' && dst?.kind === 'feature')
    broken.push("(m) the context imports no feature: it knows their parts by the kernel's interfaces, src/wiring.ts wires them");
  if (dst?.kind === 'cli' && !['cli', 'bin'].includes(src?.kind)) broken.push('(f) only bin/ and src/cli/ import src/cli/');
  if (src?.kind === 'feature' && hasRole(from, 'api', 'pages') && dst?.kind === 'feature' && isQueryFile(to)) {
    broken.push('(i) routes reach repos and queries only through services');
  }
  if (isQueryFile(from) && dst?.kind === 'feature' && hasRole(to, 'service', 'api', 'pages', 'index')) {
    broken.push('(g) repos and queries never import services, APIs or pages');
  }
  if (['src/app.ts', 'src/server.ts'].includes(to) && src?.kind !== 'bin' && from !== 'src/server.ts') {
    broken.push('(h) only bin/, src/server.ts and tests import src/app.ts / src/server.ts');
  }
  return broken;
}

function sourceFiles(root, dir) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(root, rel);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** `import type ... from 'x'` and `export type ... from 'x'`, which esbuild leaves out of the metafile. */
function typeOnlySpecifiers(source) {
  return [...source.matchAll(/^\s*(?:import|export)\s+type\s[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

/** The file a relative specifier names (`.js` written for `.ts`/`.tsx`, as NodeNext wants). */
function resolveRelative(root, from, spec) {
  const abs = path.resolve(root, path.dirname(from), spec);
  const found = [abs, abs.replace(/\.js$/, '.ts'), abs.replace(/\.js$/, '.tsx')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  return found && path.relative(root, found).split(path.sep).join('/');
}

/** Every arrow of the code under `root` as [from, to] (to: a root-relative path or `{ pkg }`). */
export async function importGraph(root) {
  const files = SCANNED.flatMap((dir) => sourceFiles(root, dir));
  if (files.length === 0) return [];
  const rel = (file) => path.relative(root, file).split(path.sep).join('/');
  const arrows = [];
  // Records each import as esbuild resolves it, then leaves it external: every file is an entry,
  // so nothing is linked (a missing export is the typechecker's business, not this check's).
  const record = {
    name: 'record-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.inner) return undefined;
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path)) {
          arrows.push([rel(args.importer), { pkg: args.path }]);
          return { path: args.path, external: true };
        }
        const { kind, importer, resolveDir } = args;
        const resolved = await b.resolve(args.path, { kind, importer, resolveDir, pluginData: { inner: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (!resolved.path.endsWith('.css')) arrows.push([rel(importer), rel(resolved.path)]);
        return { path: resolved.path, external: true };
      });
    },
  };
  await build({
    absWorkingDir: root,
    entryPoints: files,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    logLevel: 'silent',
    plugins: [record],
    // Keeps imports whose names are used only as types (esbuild would drop them otherwise).
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, jsx: 'react-jsx' } },
  });
  for (const from of files) {
    for (const spec of typeOnlySpecifiers(fs.readFileSync(path.join(root, from), 'utf8'))) {
      const to = spec.startsWith('.') ? resolveRelative(root, from, spec) : { pkg: spec };
      if (to) arrows.push([from, to]);
    }
  }
  return arrows;
}

/** The index of the first line of `file` matching `re` that is not a comment line; -1 when none. */
function codeLine(root, file, re) {
  return fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .findIndex((l) => re.test(l) && !/^\s*(?:\/\/|\*)/.test(l));
}

/** Every broken arrow under `root` as `file -> imported: rule`, sorted, without repeats. */
export async function checkImports(root) {
  const lines = new Set();
  for (const [from, to] of await importGraph(root)) {
    if (!SCANNED.some((dir) => from.startsWith(`${dir}/`))) continue;
    for (const rule of brokenRules(from, to)) lines.add(`${from} -> ${typeof to === 'object' ? to.pkg : to}: ${rule}`);
  }
  for (const file of SCANNED.flatMap((dir) => sourceFiles(root, dir))) {
    if (file.startsWith('src/') && !mayPrint(file)) {
      const lineNo = codeLine(root, file, CONSOLE_CALL);
      if (lineNo >= 0)
        lines.add(
          `${file}:${lineNo + 1} -> (console): (n) one way to log: ctx.log, or a logger handed in (console only in src/cli/ and src/server.ts)`,
        );
    }
    if (file.startsWith('src/') && !layer(file)) lines.add(`${file} -> (none): not in the layout (kernel, feature, src/cli/ or app shell)`);
    if (layer(file)?.kind === 'feature' && !roleOf(file)) {
      lines.add(
        `${file} -> (none): (j) a feature file is index.ts, <role>.ts or <subject>.<role>.ts (${ROLES.join(', ')}), or lives in the feature's lib/`,
      );
    }
    if (file.startsWith('src/')) {
      const barrel = fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .findIndex((l) => /^\s*export\s*\*\s*(?:as\s+\w+\s*)?from\b/.test(l));
      if (barrel >= 0)
        lines.add(`${file}:${barrel + 1} -> (barrel): (l) no \`export * from\` under src/: a face exports its names one by one`);
    }
    if (file.startsWith('src/') && !isQueryFile(file) && !KNEX_ALLOWED.some((re) => re.test(file))) {
      const lineNo = codeLine(root, file, QUERY_CALL);
      if (lineNo >= 0)
        lines.add(`${file}:${lineNo + 1} -> (sql): (a) statements on the database handle only in repo and queries files and src/db/`);
    }
  }
  return [...lines].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = await checkImports(root);
  for (const line of problems) console.log(line);
  if (problems.length > 0) {
    console.error(`check-imports: ${problems.length} broken import arrow(s) (DESIGN.md §2)`);
    process.exit(1);
  }
  console.log('check-imports: every import arrow points down');
}

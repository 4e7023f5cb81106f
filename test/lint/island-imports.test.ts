/**
 * Islands run in the browser: they import only src/shared/ and features' types and schema files (types.ts, <subject>.schema.ts),
 * never a service or repo, and nothing they reach may pull in Node-only code (node: modules, Node
 * built-ins, the database, HTTP server or upload packages). Type-only imports count too: esbuild
 * drops them, so the check reads the sources, not the bundle.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_ONLY_PACKAGES = ['knex', 'express', 'busboy', 'better-sqlite3', 'mysql2', 'ejs', 'tsx'];
/** What an island file may import from src/, relative to the root. */
const ISLAND_MAY_IMPORT = /^src\/(shared\/[^/]+|[^/]+\/([a-z0-9-]+\.)?(types|schema))\.tsx?$/;

/** Every module specifier of a source file: static imports and re-exports (type-only too), side-effect and dynamic imports. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]);
  return found;
}

/** The file a relative specifier names (`.js` written for `.ts`/`.tsx`, as NodeNext wants). */
function resolveRelative(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

function nodeOnly(spec: string): boolean {
  if (spec.startsWith('node:')) return true;
  const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return builtinModules.includes(pkg) || NODE_ONLY_PACKAGES.includes(pkg);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The rule's breaches under `root`/islands, as readable lines (none when the islands keep it). */
function islandImportProblems(root: string): string[] {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const inIslands = rel(file).startsWith('islands/');
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (spec.endsWith('.css')) continue;
      const where = [...chain, rel(file)].join(' -> ');
      if (!spec.startsWith('.')) {
        if (nodeOnly(spec)) problems.push(`${where} imports Node-only '${spec}'`);
        continue;
      }
      const target = resolveRelative(file, spec);
      if (!target) {
        problems.push(`${where} imports '${spec}', which is not a file`);
        continue;
      }
      const t = rel(target);
      if (t.startsWith('src/') && inIslands && !ISLAND_MAY_IMPORT.test(t))
        problems.push(`${where} imports ${t} (only src/shared/ and the types or schema files of a feature)`);
      else if (!t.startsWith('islands/') && !t.startsWith('src/')) problems.push(`${where} imports ${t}, outside islands/ and src/`);
      visit(target, [...chain, rel(file)]);
    }
  };
  for (const f of sourceFiles(path.join(root, 'islands'))) visit(f, []);
  return problems;
}

describe('island imports', () => {
  it('islands import only src/shared/ and Node-free types/schema files, nothing Node-only anywhere they reach', () => {
    expect(islandImportProblems(ROOT)).to.deep.equal([]);
  });

  describe('the check itself', () => {
    let dir: string;
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'island-imports-'));
      write('src/shared/ok.ts', 'export const ok = 1;\n');
      write('src/jobs/types.ts', "import type { X } from '../shared/ok.js';\nexport type Y = X;\n");
      write('src/jobs/service.ts', "import type { Knex } from 'knex';\nexport type Z = Knex;\n");
      write('src/jobs/schema.ts', "import { helper } from './helper.js';\nexport const s = helper;\n");
      write('src/jobs/helper.ts', "import fs from 'fs';\nexport const helper = fs;\n");
      write(
        'islands/good.tsx',
        "import './good.css';\nimport { ok } from '../src/shared/ok.js';\nimport type { Y } from '../src/jobs/types.js';\n",
      );
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('passes islands that keep the rule', () => {
      expect(islandImportProblems(dir)).to.deep.equal([]);
    });

    it('catches a service imported for a type, from a nested island folder', () => {
      write('islands/editor/Form.tsx', "import type {\n  Z,\n} from '../../src/jobs/service.js';\n");
      expect(islandImportProblems(dir)).to.have.members([
        'islands/editor/Form.tsx imports src/jobs/service.ts (only src/shared/ and the types or schema files of a feature)',
        "islands/editor/Form.tsx -> src/jobs/service.ts imports Node-only 'knex'",
      ]);
    });

    it('catches Node-only code an allowed file pulls in, and Node modules in islands themselves', () => {
      write('islands/a.ts', "export { s } from '../src/jobs/schema.js';\n");
      write('islands/b.ts', "const p = import('node:path');\nimport 'express';\n");
      expect(islandImportProblems(dir)).to.have.members([
        "islands/a.ts -> src/jobs/schema.ts -> src/jobs/helper.ts imports Node-only 'fs'",
        "islands/b.ts imports Node-only 'express'",
        "islands/b.ts imports Node-only 'node:path'",
      ]);
    });
  });
});

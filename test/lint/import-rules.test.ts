/**
 * scripts/check-imports.mjs (part of `npm run lint`): a tiny tree that keeps every import arrow
 * passes, and each rule of DESIGN.md §2 it breaks is reported as `file -> imported: rule`.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain .mjs script, without type declarations
import { checkImports } from '../../scripts/check-imports.mjs';

const check = checkImports as (root: string) => Promise<string[]>;

describe('import rules (scripts/check-imports.mjs)', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  /** The violations reported for `file`, by rule letter. */
  const rulesOf = async (file: string) =>
    (await check(dir)).filter((line) => line.startsWith(`${file} -> `)).map((line) => line.match(/: \((\w)\)/)?.[1]);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
    // A clean tree: every arrow points down.
    write('config/index.ts', 'export const config = { port: 1 };\n');
    write('src/db/knex.ts', "import knex from 'knex';\nexport const db = knex;\n");
    write('src/shared/format.ts', "import { z } from 'zod';\nexport const name = z.string();\n");
    write('src/jobs/types.ts', 'export type Job = { id: number };\n');
    write('src/jobs/schema.ts', "import { name } from '../shared/format.js';\nexport const jobSchema = name;\n");
    write(
      'src/jobs/repo.ts',
      "import type { Knex } from 'knex';\nimport type { Job } from './types.js';\nexport const find = (db: Knex): Job[] => [];\n",
    );
    write('src/jobs/service.ts', "import { find } from './repo.js';\nexport const list = find;\n");
    write('src/jobs/index.ts', "export { list } from './service.js';\n");
    write('src/jobs/api.ts', "import express from 'express';\nimport { list } from './service.js';\nexport const api = [express, list];\n");
    write(
      'src/applicants/service.ts',
      "import { list } from '../jobs/index.js';\nimport type { Job } from '../jobs/types.js';\nexport const jobs = (): Job[] => list(null as never);\n",
    );
    write('src/cli/context.ts', "import knex from 'knex';\nexport const db = knex;\n");
    write('src/cli/jobs.ts', "import { list } from '../jobs/index.js';\nexport const cmd = list;\n");
    write('src/context.ts', "import knex from 'knex';\nimport { config } from '../config/index.js';\nexport const ctx = [knex, config];\n");
    write('src/app.ts', "import { api } from './jobs/api.js';\nexport const app = api;\n");
    write('src/server.ts', "import { app } from './app.js';\nimport { ctx } from './context.js';\nexport const server = [app, ctx];\n");
    write(
      'bin/admin.ts',
      "import { cmd } from '../src/cli/jobs.js';\nimport { app } from '../src/app.js';\nexport const run = [cmd, app];\n",
    );
    write('migrations/001_init.ts', "import type { Knex } from 'knex';\nexport const up = (db: Knex) => db;\n");
    write(
      'islands/editor.tsx',
      "import './editor.css';\nimport { useState } from 'react';\nimport type { Job } from '../src/jobs/types.js';\nimport { jobSchema } from '../src/jobs/schema.js';\nexport const E = [useState, jobSchema] as unknown as Job;\n",
    );
    write('islands/editor.css', 'main { color: red; }\n');
    write('test/free.test.ts', "import knex from 'knex';\nimport { app } from '../src/app.js';\nexport const t = [knex, app];\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes a tree whose arrows all point down', async () => {
    expect(await check(dir)).to.deep.equal([]);
  });

  it('(a) knex only in repos, queries, src/db/, migrations and the contexts, type imports too', async () => {
    write('src/jobs/service.ts', "import type { Knex } from 'knex';\nexport type Db = Knex;\n");
    expect(await check(dir)).to.deep.equal([
      'src/jobs/service.ts -> knex: (a) knex only in repo and queries files (*repo.ts, *queries.ts), src/db/, migrations/ and the contexts that create the db (others take the Db handle type from src/db/knex.ts)',
    ]);
  });

  it('(a) statements on the database handle only in repos, queries (<subject>.queries.ts too) and src/db/', async () => {
    write('src/jobs/list.queries.ts', "import type { Knex } from 'knex';\nexport const rows = (db: Knex) => db('jobs').select('id');\n");
    write('src/jobs/service.ts', "// db('jobs') in a comment is fine\nexport const count = (db: any) => db('jobs').count();\n");
    expect(await check(dir)).to.deep.equal([
      'src/jobs/service.ts:2 -> (sql): (a) statements on the database handle only in repo and queries files and src/db/',
    ]);
  });

  it('(b) src/shared/ imports neither Node nor anything outside src/shared/', async () => {
    write('src/shared/format.ts', "import fs from 'node:fs';\nimport { db } from '../db/knex.js';\nexport const x = [fs, db];\n");
    expect(await rulesOf('src/shared/format.ts')).to.deep.equal(['b', 'b']);
  });

  it("(c) islands import no service, and a feature's types.ts/schema.ts stay Node-free", async () => {
    write('islands/editor.tsx', "import type { list } from '../src/jobs/service.js';\nexport type L = typeof list;\n");
    write('src/jobs/schema.ts', "import express from 'express';\nexport const jobSchema = express;\n");
    expect(await rulesOf('islands/editor.tsx')).to.deep.equal(['c']);
    expect(await rulesOf('src/jobs/schema.ts')).to.deep.equal(['c']);
  });

  it('(d) the kernel never imports a feature', async () => {
    write('src/db/knex.ts', "import { Job } from '../jobs/types.js';\nexport type J = Job;\n"); // used only as a type
    expect(await rulesOf('src/db/knex.ts')).to.deep.equal(['d']);
  });

  it('(e) a feature reaches another only through its index.ts, types.ts or schema.ts', async () => {
    write('src/applicants/service.ts', "import { find } from '../jobs/repo.js';\nexport const jobs = find;\n");
    expect(await rulesOf('src/applicants/service.ts')).to.deep.equal(['e']);
  });

  it('(f) only bin/ and src/cli/ import src/cli/', async () => {
    write('src/jobs/index.ts', "export { db } from '../cli/context.js';\n");
    expect(await rulesOf('src/jobs/index.ts')).to.deep.equal(['f']);
  });

  it('(g) repos never import services, and services never import express', async () => {
    write('src/jobs/repo.ts', "import { list } from './service.js';\nexport const find = list;\n");
    write('src/applicants/service.ts', "import type { Request } from 'express';\nexport type R = Request;\n");
    expect(await rulesOf('src/jobs/repo.ts')).to.deep.equal(['g']);
    expect(await rulesOf('src/applicants/service.ts')).to.deep.equal(['g']);
  });

  it('(h) only bin/, src/server.ts and tests import the app', async () => {
    write('src/cli/jobs.ts', "import { app } from '../app.js';\nexport const cmd = app;\n");
    expect(await rulesOf('src/cli/jobs.ts')).to.deep.equal(['h']);
  });

  it('(i) routes reach repos and queries only through services', async () => {
    write('src/jobs/queries.ts', 'export const pageJobs = 1;\n');
    write('src/forms/repo.ts', 'export type Row = { id: number };\n');
    write('src/jobs/api.ts', "import { pageJobs } from './queries.js';\nexport const list = pageJobs;\n");
    write('src/forms/pages.ts', "import type { Row } from './repo.js';\nexport type R = Row;\n");
    expect(await rulesOf('src/jobs/api.ts')).to.deep.equal(['i']);
    expect(await rulesOf('src/forms/pages.ts')).to.deep.equal(['i']);
  });

  it('(m) the context imports no feature, not even a type (the app shell wires them)', async () => {
    write('src/context.ts', "import type { Job } from './jobs/types.js';\nexport type J = Job;\n");
    write('src/wiring.ts', "import { list } from './jobs/index.js';\nexport const parts = list;\n");
    expect(await rulesOf('src/context.ts')).to.deep.equal(['m']);
    expect(await rulesOf('src/wiring.ts')).to.deep.equal([]);
  });

  it('(n) console only in src/cli/ and src/server.ts', async () => {
    write('src/jobs/service.ts', "// console.log in a comment is fine\nexport const list = () => console.warn('x');\n");
    write('src/cli/jobs.ts', "export const cmd = () => console.log('jobs');\n");
    write('src/server.ts', "import { app } from './app.js';\nconsole.error('starting');\nexport const server = app;\n");
    expect(await check(dir)).to.deep.equal([
      'src/jobs/service.ts:2 -> (console): (n) one way to log: ctx.log, or a logger handed in (console only in src/cli/ and src/server.ts)',
    ]);
  });

  it('(g)/(i) read the role from <subject>.<role>.ts as from <role>.ts', async () => {
    write('src/jobs/list.queries.ts', 'export const pageJobs = 1;\n');
    write(
      'src/jobs/publish.service.ts',
      "import express from 'express';\nimport { pageJobs } from './list.queries.js';\nexport const x = [express, pageJobs];\n",
    );
    write('src/jobs/feed.api.ts', "import { pageJobs } from './list.queries.js';\nexport const y = pageJobs;\n");
    write('src/jobs/feed.repo.ts', "import { x } from './publish.service.js';\nexport const z = x;\n");
    expect(await rulesOf('src/jobs/publish.service.ts')).to.deep.equal(['g']);
    expect(await rulesOf('src/jobs/feed.api.ts')).to.deep.equal(['i']);
    expect(await rulesOf('src/jobs/feed.repo.ts')).to.deep.equal(['g']);
    // A module named <subject>.schema.js is not a `.schema.` statement on the database handle.
    write('src/jobs/list.schema.ts', 'export const q = 1;\n');
    write(
      'src/jobs/service.ts',
      "import { find } from './repo.js';\nimport { q } from './list.schema.js';\nexport const list = [find, q];\n",
    );
    expect((await check(dir)).filter((line) => line.includes('(sql)'))).to.deep.equal([]);
  });

  it('(j) a feature file is index.ts, <role>.ts or <subject>.<role>.ts, or lives in lib/', async () => {
    write('src/jobs/seo.ts', 'export const seo = 1;\n');
    write('src/jobs/queries/list.ts', 'export const rows = 1;\n');
    write('src/jobs/lib/feeds.ts', 'export const feeds = 1;\n');
    write('src/jobs/apply.service.ts', "import { feeds } from './lib/feeds.js';\nexport const a = feeds;\n");
    write('src/storage/sweep.ts', 'export const sweep = 1;\n');
    const roles =
      "(j) a feature file is index.ts, <role>.ts or <subject>.<role>.ts (api, pages, service, repo, queries, schema, types), or lives in the feature's lib/";
    expect(await check(dir)).to.deep.equal([`src/jobs/queries/list.ts -> (none): ${roles}`, `src/jobs/seo.ts -> (none): ${roles}`]);
  });

  it("(k) a feature's lib/ serves only that feature", async () => {
    write('src/jobs/lib/seo.ts', 'export const seo = 1;\n');
    write('src/jobs/pages.ts', "import { seo } from './lib/seo.js';\nexport const p = seo;\n");
    write('src/applicants/service.ts', "import { seo } from '../jobs/lib/seo.js';\nexport const jobs = seo;\n");
    write('src/cli/jobs.ts', "import { seo } from '../jobs/lib/seo.js';\nexport const cmd = seo;\n");
    expect(await rulesOf('src/jobs/pages.ts')).to.deep.equal([]);
    expect(await rulesOf('src/applicants/service.ts')).to.deep.equal(['e', 'k']);
    expect(await rulesOf('src/cli/jobs.ts')).to.deep.equal(['k']);
  });

  it('(l) no export * barrel under src/ (a face names what it exports)', async () => {
    write('src/jobs/index.ts', "// export * from './service.js' in a comment is fine\nexport * from './service.js';\n");
    write('src/shared/all.ts', "export * as format from './format.js';\n");
    expect(await check(dir)).to.deep.equal([
      'src/jobs/index.ts:2 -> (barrel): (l) no `export * from` under src/: a face exports its names one by one',
      'src/shared/all.ts:1 -> (barrel): (l) no `export * from` under src/: a face exports its names one by one',
    ]);
  });

  it('reports a src/ file outside the layout', async () => {
    write('src/auth/guards.ts', 'export const guard = 1;\n');
    expect(await check(dir)).to.deep.equal(['src/auth/guards.ts -> (none): not in the layout (kernel, feature, src/cli/ or app shell)']);
  });
});

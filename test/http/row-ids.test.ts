/**
 * One id rule in every feature (issue 17): a row id in a path is a canonical positive integer
 * without leading zeros up to 2^31-1; any other spelling is a 404 (jobs, applications, forms,
 * entries, files, posts), even when it would convert to the id of an existing row. The CLI's id
 * options take the same rule.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { jobPayload, makeJob } from '../helpers/factories.js';
import { spawnSync } from 'node:child_process';
import { createJob, parseJobInput } from '../../src/jobs/service.js';
import { pathId } from '../../src/http/validate.js';
import { MAX_ROW_ID } from '../../src/shared/input-rules.js';
import { NotFound } from '../../src/http/errors.js';
import { hrSession } from '../helpers/hr.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

/** Spellings that are not the canonical form of any id (or are out of range). */
const ODD_IDS = [
  '0001',
  '01',
  '1.0',
  '1.',
  '1e3',
  '1E3',
  '-1',
  '+1',
  '0',
  '00',
  '99999999999999999999',
  '2147483648',
  'abc',
  '1abc',
  '0x1',
  '%201',
  '1%20',
  '%E2%80%8B1',
  '1000.0',
  '01000',
];

describe('pathId', () => {
  it('accepts canonical positive integers up to 2^31-1', () => {
    for (const [raw, id] of [
      ['1', 1],
      ['42', 42],
      ['1000', 1000],
      ['2147483647', 2_147_483_647],
    ] as const)
      expect(pathId(raw)).to.equal(id);
    expect(MAX_ROW_ID).to.equal(2 ** 31 - 1);
  });

  it('throws NotFound for everything else', () => {
    for (const raw of [...ODD_IDS.map(decodeURIComponent), '', ' 1', '1 ', '１', '٣', undefined, null, 1, ['1'], {}]) {
      expect(() => pathId(raw), JSON.stringify(raw)).to.throw(NotFound);
    }
  });
});

for (const kind of databaseKinds()) {
  describe(`row ids in every route [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      const first = await makeJob(s.ctx.db, { public_id: 'id-one', title: 'Job One' });
      expect(first.id).to.equal(1);
      // A job with id 1000, so '1e3' and '1000.0' would find one if they were converted. Made with
      // that id (its stages point at it), the table's next id moved there first.
      if (kind === 'mysql') await s.ctx.db.raw('ALTER TABLE jobs AUTO_INCREMENT = 1000');
      else await s.ctx.db('sqlite_sequence').where({ name: 'jobs' }).update({ seq: 999 });
      const thousand = await createJob(s.ctx, parseJobInput(jobPayload({ public_id: 'id-thousand', title: 'Job Thousand' })));
      expect(thousand.id).to.equal(1000);
    });
    after(() => s.close());

    const api = (method: string, path: string, body?: unknown) =>
      fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const page = (path: string) => fetch(s.baseUrl + path, { redirect: 'manual', headers: { Cookie: `jwt=${token}` } });

    const API_ROUTES: [string, (id: string) => string][] = [
      ['GET', (id) => `/api/hr/jobs/${id}/`],
      ['PUT', (id) => `/api/hr/jobs/${id}/`],
      ['GET', (id) => `/api/hr/jobs/${id}/analytics/`],
      ['GET', (id) => `/api/hr/jobs/${id}/export-basic/`],
    ];
    const PAGE_ROUTES: ((id: string) => string)[] = [(id) => `/hr/jobs/${id}/edit`, (id) => `/hr/jobs/${id}/insights`];

    it('answers the canonical ids (the checks below can fail)', async () => {
      for (const id of ['1', '1000']) {
        const current = await (await api('GET', `/api/hr/jobs/${id}/`)).json();
        expect(current.id, id).to.equal(Number(id));
        for (const [method, path] of API_ROUTES) {
          const res = await api(method, path(id), method === 'PUT' ? current : undefined);
          expect(res.status, `${method} ${path(id)}`).to.equal(200);
          await res.arrayBuffer();
        }
        for (const path of PAGE_ROUTES) {
          const res = await page(path(id));
          expect(res.status, path(id)).to.equal(200);
          expect(await res.text()).to.include(id === '1' ? 'Job One' : 'Job Thousand');
        }
      }
    });

    it('answers 404 {detail} on every job API route for any other spelling', async () => {
      const current = await (await api('GET', '/api/hr/jobs/1/')).json();
      for (const id of ODD_IDS) {
        for (const [method, path] of API_ROUTES) {
          const res = await api(method, path(id), method === 'PUT' ? { ...current, title: 'Overwritten' } : undefined);
          expect(res.status, `${method} ${path(id)}`).to.equal(404);
          expect(await res.json(), `${method} ${path(id)}`).to.deep.equal({ detail: 'Not found.' });
        }
      }
      expect((await s.ctx.db('jobs').where({ id: 1 }).first()).title).to.equal('Job One');
      expect((await s.ctx.db('jobs').where({ id: 1000 }).first()).title).to.equal('Job Thousand');
    });

    it('answers the 404 page on the editor and insights pages for any other spelling', async () => {
      for (const id of ODD_IDS) {
        for (const path of PAGE_ROUTES) {
          const res = await page(path(id));
          expect(res.status, path(id)).to.equal(404);
          expect(await res.text(), path(id)).to.include('404 — Page Not Found');
        }
      }
    });

    it('answers 404 for a well-formed id of no job, up to 2^31-1', async () => {
      for (const id of ['2', '999', '2147483647']) {
        for (const [method, path] of API_ROUTES) {
          const res = await api(method, path(id), method === 'PUT' ? jobPayload() : undefined);
          expect(res.status, `${method} ${path(id)}`).to.equal(404);
          await res.arrayBuffer();
        }
        for (const path of PAGE_ROUTES) expect((await page(path(id))).status, path(id)).to.equal(404);
      }
    });

    it('answers 404 on the application, form, entry, file and post routes for any other spelling', async () => {
      const form = await api('POST', '/api/hr/forms/', {
        title: 'Ids',
        status: 'ACTIVE',
        sections: [{ title: 'One', order: 0, fields: [{ name: 'a', label: 'A', field_type: 'short_text', order: 0 }] }],
      });
      expect(form.status).to.equal(201);
      const ROUTES: [string, (id: string) => string][] = [
        ['GET', (id) => `/api/hr/applications/${id}/`],
        ['PATCH', (id) => `/api/hr/applications/${id}/`],
        ['GET', (id) => `/api/hr/applications/${id}/resume/`],
        ['GET', (id) => `/api/hr/forms/${id}/`],
        ['PATCH', (id) => `/api/hr/forms/${id}/`],
        ['DELETE', (id) => `/api/hr/forms/${id}/`],
        ['GET', (id) => `/api/hr/forms/${id}/entries/`],
        ['GET', (id) => `/api/hr/forms/1/entries/${id}/`],
        ['GET', (id) => `/api/hr/forms/1/entries/${id}/files/1/download/`],
        ['GET', (id) => `/api/hr/forms/1/entries/1/files/${id}/download/`],
        ['GET', (id) => `/api/hr/application-posts/${id}/attempts/`],
        ['POST', (id) => `/api/hr/application-posts/${id}/retry/`],
      ];
      for (const id of ODD_IDS) {
        for (const [method, path] of ROUTES) {
          const res = await api(method, path(id), method === 'PATCH' ? { status: 'ARCHIVED' } : undefined);
          expect(res.status, `${method} ${path(id)}`).to.equal(404);
          expect(Object.keys(await res.json()), `${method} ${path(id)}`).to.deep.equal(['detail']);
        }
        for (const path of [
          `/hr/applicants/${id}`,
          `/hr/forms/${id}/edit`,
          `/hr/forms/${id}/entries`,
          `/hr/forms/1/entries/${id}`,
          `/hr/forms/${id}/posts`,
        ]) {
          expect((await page(path)).status, path).to.equal(404);
        }
      }
      expect((await s.ctx.db('forms').first()).status).to.equal('ACTIVE');
    });
  });
}

describe('the CLI id options take the same rule', function () {
  // Each case is a CLI process: about 20 of them.
  this.timeout(240_000);
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });

  it("refuses 007, 1.0 and 0 for --id and --form with exit 2 and the rule's message", () => {
    for (const bad of ['007', '1.0', '0', '-3', 'x']) {
      for (const [args, message] of [
        [['posts', 'retry', '--id', bad], '--id: A valid post id is required.'],
        [['forms', 'purge', '--older-than', '1d', '--form', bad], '--form: A valid form id is required.'],
      ] as const) {
        const r = cli(...args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
        expect(r.stderr).to.include(`${message} (got "${bad}")`);
      }
    }
    const status = cli('applicants', 'purge', '--older-than', '1d', '--status', 'closed');
    expect(status.status).to.equal(2);
    expect(status.stderr).to.include('--status: Select a valid status: NEW, REVIEWED or ARCHIVED. (got "closed")');
  });

  it('--job takes an id or a public id: anything else is a usage error before the database is opened', () => {
    for (const bad of ['1.0', 'a b', '../x', 'x'.repeat(65)]) {
      for (const args of [
        ['posts', 'list', '--job', bad],
        ['applicants', 'purge', '--older-than', '1d', '--job', bad],
        ['export', 'applicants', '--job', bad],
      ]) {
        const r = cli(...args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
        expect(r.stderr).to.include(`--job: Give a job id or a public id, as shown in Manage Jobs. (got "${bad}")`);
      }
    }
  });
});

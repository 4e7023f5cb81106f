/**
 * Retention of form entries on SQLite and MySQL (issue 17): `applicants erase --email` also removes
 * the entries whose email field holds the address (exactly), with their files; `forms purge
 * --older-than` removes old entries of one form or all; other entries stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr } from '../applicants/helpers.js';
import { GOOD_VALUES, cvPdf, everyFieldForm, submission } from './helpers.js';
import { cliSync } from '../helpers/child-server.js';

const cli = cliSync;

for (const kind of databaseKinds()) {
  describe(`form entries retention [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let env: Record<string, string>;
    const uploads = () =>
      fs.readdirSync(path.join(s.testDb.dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

    before(async () => {
      s = await startTestServer(kind, { FORM_RATE_LIMIT: '0' });
      env = { DATA_DIR: s.testDb.dataDir, ...(s.testDb.config.databaseUrl ? { DATABASE_URL: s.testDb.config.databaseUrl } : {}) };
      const { token } = await hrSession(s.ctx.db);
      await hr(s.baseUrl, token, '/api/hr/forms/', { method: 'POST', body: everyFieldForm({ public_id: 'keep' }) });
      for (const email of ['Erase.Me@example.com', 'erase.me.not@example.com', 'other@example.com']) {
        const res = await fetch(`${s.baseUrl}/api/forms/keep/submit/`, {
          method: 'POST',
          body: submission({ ...GOOD_VALUES, email }, { cv: cvPdf() }),
        });
        expect(res.status).to.equal(201);
      }
    });
    after(() => s.close());

    it('erases the entries whose email field holds the address, with their files, and nothing else', async () => {
      expect(uploads()).to.equal(3);
      const dry = cli(['applicants', 'erase', '--email', 'erase.me@EXAMPLE.com', '--dry-run'], env);
      expect(dry.out).to.include('Dry run: would remove 1 form entry with 1 file');
      const r = cli(['applicants', 'erase', '--email', 'erase.me@example.com', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Removed 1 form entry with 1 file');
      const left = (await s.ctx.db('form_entries').select('data')).map((e) => JSON.parse(String(e.data)).email).sort();
      expect(left).to.deep.equal(['erase.me.not@example.com', 'other@example.com']);
      expect(uploads()).to.equal(2);
      expect(await s.ctx.db('stored_files').count({ n: '*' }).first()).to.satisfy((row: { n: unknown }) => Number(row.n) === 2);
    });

    it('purges entries older than an age, with their files', async () => {
      const [old] = await s.ctx.db('form_entries').orderBy('id').select('id');
      await s.ctx
        .db('form_entries')
        .where('id', old.id)
        .update({ created_at: toDbDate(new Date(Date.now() - 40 * 86_400_000)) });
      expect(cli(['forms', 'purge', '--older-than', '50d', '--yes'], env).out).to.include('No form entries match: nothing to remove.');
      const r = cli(['forms', 'purge', '--older-than', '30d', '--yes'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Removed 1 form entry with 1 file');
      expect(await s.ctx.db('form_entries').count({ n: '*' }).first()).to.satisfy((row: { n: unknown }) => Number(row.n) === 1);
      expect(uploads()).to.equal(1);
      expect(cli(['forms', 'purge', '--older-than', '999999y'], env).code).to.equal(2);
      expect(cli(['forms', 'purge', '--older-than', '1d', '--form', 'x'], env).code).to.equal(2);
    });
  });
}

/**
 * Issue 28 (12b), over HTTP on SQLite and MySQL: where applicants' data leaves to is an admin's
 * choice. A recruiter's job create or update that sets or changes the webhook (on/off, URL, secret,
 * source in the payload), or a form create or update that sets or changes its API posts (on/off,
 * URL, secret), is a 403 naming the rule, with nothing written; a recruiter saving the whole job
 * or form back with those settings unchanged (as the editors do) still works, and admins change them.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { jobPayload } from '../helpers/factories.js';
import { hr } from '../applicants/helpers.js';
import { everyFieldForm } from '../forms/helpers.js';

const JOB_403 =
  'Only an admin may change where applications are sent: the webhook (on or off, URL, secret, source in the payload). Ask an admin of your team.';
const FORM_403 = 'Only an admin may change where entries are sent: API posts (on or off, URL, secret). Ask an admin of your team.';
const SECRET = 'a-long-enough-signing-secret-1234';

for (const kind of databaseKinds()) {
  describe(`webhook and form API settings are for admins [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let admin: string;
    let recruiter: string;

    before(async () => {
      s = await startTestServer(kind);
      admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
      recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'rita', { role: 'recruiter' }));
    });
    after(() => s.close());

    const count = async (table: string) => Number((await s.ctx.db(table).count({ n: '*' }))[0].n);

    describe('jobs', () => {
      const webhook = {
        webhook_enabled: true,
        webhook_url: 'https://hooks.example.com/careers',
        webhook_secret: SECRET,
        webhook_include_source: false,
      };

      it('a recruiter cannot create a job with any webhook setting (403, nothing written); without one, 201', async () => {
        const before = await count('jobs');
        for (const extra of [
          webhook,
          { webhook_url: 'https://evil.example.net/x' },
          { webhook_secret: SECRET },
          { webhook_enabled: true, webhook_url: 'https://evil.example.net/x' },
          { webhook_include_source: true },
        ]) {
          const res = await hr(s.baseUrl, recruiter, '/api/hr/jobs/', { method: 'POST', body: jobPayload(extra) });
          expect(res.status, JSON.stringify(extra)).to.equal(403);
          expect(res.body).to.deep.equal({ detail: JOB_403 });
        }
        expect(await count('jobs')).to.equal(before);
        // Blank values are no webhook.
        const ok = await hr(s.baseUrl, recruiter, '/api/hr/jobs/', {
          method: 'POST',
          body: jobPayload({ webhook_enabled: false, webhook_url: '', webhook_secret: '  ', webhook_include_source: false }),
        });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
        // Bad input is still a 400 first, for anyone.
        const bad = await hr(s.baseUrl, recruiter, '/api/hr/jobs/', {
          method: 'POST',
          body: jobPayload({ webhook_enabled: 'yes', webhook_url: 'javascript:alert(1)' }),
        });
        expect(bad.status).to.equal(400);
      });

      it('a recruiter saves a job with its webhook as it is, but cannot change the URL, secret, on/off or source flag; an admin can', async () => {
        const created = await hr(s.baseUrl, admin, '/api/hr/jobs/', { method: 'POST', body: jobPayload(webhook) });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const id = created.body.id;
        const path = `/api/hr/jobs/${id}/`;
        // The editor loads the whole job and sends it back: other fields change, the webhook does not.
        const loaded = (await hr(s.baseUrl, recruiter, path)).body;
        const { id: _id, created_at: _c, updated_at: _u, ...job } = loaded;
        const saved = await hr(s.baseUrl, recruiter, path, {
          method: 'PUT',
          body: { ...job, title: 'Renamed by the recruiter', status: 'INACTIVE' },
        });
        expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
        expect(saved.body).to.include({
          title: 'Renamed by the recruiter',
          webhook_url: 'https://hooks.example.com/careers',
          webhook_secret: SECRET,
          webhook_enabled: true,
        });
        const changes: Record<string, unknown>[] = [
          { webhook_url: 'https://evil.example.net/collect' },
          { webhook_url: 'https://HOOKS.example.com/careers?x=1' },
          { webhook_secret: 'another-secret-of-enough-length' },
          { webhook_secret: '' },
          { webhook_enabled: false },
          { webhook_include_source: true },
          { webhook_enabled: false, webhook_url: '', webhook_secret: '' },
        ];
        for (const change of changes) {
          const res = await hr(s.baseUrl, recruiter, path, { method: 'PUT', body: { ...job, ...change } });
          expect(res.status, JSON.stringify(change)).to.equal(403);
          expect(res.body).to.deep.equal({ detail: JOB_403 });
        }
        const row = await s.ctx.db('jobs').where({ id }).first();
        expect(row).to.include({
          title: 'Renamed by the recruiter',
          webhook_url: 'https://hooks.example.com/careers',
          webhook_secret: SECRET,
        });
        // An admin changes it.
        const byAdmin = await hr(s.baseUrl, admin, path, {
          method: 'PUT',
          body: { ...job, webhook_url: 'https://hooks2.example.com/careers', webhook_include_source: true },
        });
        expect(byAdmin.status, JSON.stringify(byAdmin.body)).to.equal(200);
        expect(byAdmin.body).to.include({ webhook_url: 'https://hooks2.example.com/careers', webhook_include_source: true });
      });
    });

    describe('forms', () => {
      const api = { api_enabled: true, api_url: 'https://api.example.com/entries', api_secret: SECRET };

      it('a recruiter cannot create a form with API posts (403, nothing written); without, 201', async () => {
        const before = await count('forms');
        for (const extra of [api, { api_url: 'https://evil.example.net/x' }, { api_secret: SECRET }]) {
          const res = await hr(s.baseUrl, recruiter, '/api/hr/forms/', {
            method: 'POST',
            body: everyFieldForm({ public_id: '', ...extra }),
          });
          expect(res.status, JSON.stringify(extra)).to.equal(403);
          expect(res.body).to.deep.equal({ detail: FORM_403 });
        }
        expect(await count('forms')).to.equal(before);
        const ok = await hr(s.baseUrl, recruiter, '/api/hr/forms/', {
          method: 'POST',
          body: everyFieldForm({ public_id: 'recruiter-form' }),
        });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      });

      it('a recruiter saves a form with its API settings as they are, but cannot change them; an admin can', async () => {
        const created = await hr(s.baseUrl, admin, '/api/hr/forms/', {
          method: 'POST',
          body: everyFieldForm({ public_id: 'with-api', ...api, api_mapping: { name: 'full_name' } }),
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const path = `/api/hr/forms/${created.body.id}/`;
        const { id: _id, created_at: _c, updated_at: _u, accepting_submissions: _a, ...form } = (await hr(s.baseUrl, recruiter, path)).body;
        const saved = await hr(s.baseUrl, recruiter, path, {
          method: 'PUT',
          body: { ...form, title: 'Renamed', api_mapping: { name: 'full_name', mail: 'email' } },
        });
        expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
        expect(saved.body).to.include({ title: 'Renamed', api_url: 'https://api.example.com/entries', api_enabled: true });
        for (const change of [
          { api_url: 'https://evil.example.net/collect' },
          { api_secret: 'another-secret-of-enough-length' },
          { api_secret: '' },
          { api_enabled: false },
        ]) {
          const res = await hr(s.baseUrl, recruiter, path, { method: 'PUT', body: { ...form, ...change } });
          expect(res.status, JSON.stringify(change)).to.equal(403);
          expect(res.body).to.deep.equal({ detail: FORM_403 });
        }
        expect(await s.ctx.db('forms').where({ id: created.body.id }).first()).to.include({
          title: 'Renamed',
          api_url: 'https://api.example.com/entries',
          api_secret: SECRET,
        });
        const byAdmin = await hr(s.baseUrl, admin, path, { method: 'PUT', body: { ...form, api_url: 'https://api2.example.com/entries' } });
        expect(byAdmin.status, JSON.stringify(byAdmin.body)).to.equal(200);
        expect(byAdmin.body.api_url).to.equal('https://api2.example.com/entries');
      });
    });
  });
}

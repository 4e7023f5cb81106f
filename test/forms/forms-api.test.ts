/**
 * The forms API over real HTTP on SQLite and MySQL: HR creates, reads, lists, updates, activates,
 * deactivates and removes forms (every change audited); the builder's rules and the spec's
 * messages (required name and label, duplicate names in a section and across sections, with
 * `duplicate_field_names`); the public form never shows the API settings.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr } from '../applicants/helpers.js';
import { everyFieldForm } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`forms API [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    const call = (path: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, path, init);

    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'false' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    it('creates a form with a public id made from its title, INACTIVE by default, and reads it back', async () => {
      const { status: _omit, ...payload } = everyFieldForm();
      const created = await call('/api/hr/forms/', { method: 'POST', body: payload });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({
        public_id: 'volunteer-sign-up',
        title: 'Volunteer Sign-up',
        status: 'INACTIVE',
        sections_count: 2,
        accepting_submissions: false,
      });
      expect(created.body.sections[1].fields[3]).to.deep.equal({
        name: 'cv',
        label: 'CV',
        field_type: 'file',
        required: true,
        placeholder: '',
        help_text: '',
        options: [],
        order: 3,
        max_file_size: 1048576,
        allowed_extensions: ['pdf', 'docx'],
      });
      // Options only for choice fields, file settings only for file fields.
      expect(created.body.sections[0].fields[0])
        .to.include({ max_file_size: null })
        .and.deep.include({ options: [], allowed_extensions: [] });
      const again = await call('/api/hr/forms/', { method: 'POST', body: payload });
      expect(again.body.public_id).to.equal('volunteer-sign-up-2');
      const read = await call(`/api/hr/forms/${created.body.id}/`);
      expect(read.body).to.deep.equal(created.body);
      expect(await s.ctx.db('audit_log').where({ entity: 'form', action: 'form.create' })).to.have.length(2);
    });

    it('lists forms newest first with their section counts, filtered by status', async () => {
      const all = await call('/api/hr/forms/');
      expect(all.status).to.equal(200);
      expect(all.body.count).to.equal(2);
      expect(all.body.results[0]).to.include({ public_id: 'volunteer-sign-up-2', sections_count: 2, status: 'INACTIVE' });
      expect(all.body.results[0]).to.not.have.any.keys('api_secret', 'api_mapping', 'sections');
      expect((await call('/api/hr/forms/?status=active')).body.count).to.equal(0);
      expect(await call('/api/hr/forms/?status=DONE')).to.deep.include({
        status: 400,
        body: { status: ['Select a valid status: ACTIVE, INACTIVE, REMOVED.'] },
      });
    });

    it('activates, deactivates and removes (status REMOVED, the form kept)', async () => {
      const id = (await call('/api/hr/forms/')).body.results[0].id;
      expect((await call(`/api/hr/forms/${id}/`, { method: 'PATCH', body: { status: 'ACTIVE' } })).body).to.include({
        status: 'ACTIVE',
        accepting_submissions: true,
      });
      expect((await call(`/api/hr/forms/${id}/`, { method: 'PATCH', body: { status: 'INACTIVE' } })).body.status).to.equal('INACTIVE');
      expect(await call(`/api/hr/forms/${id}/`, { method: 'PATCH', body: { status: 'gone' } })).to.deep.include({
        status: 400,
        body: { status: ['Select a valid status: ACTIVE, INACTIVE, REMOVED.'] },
      });
      expect((await call(`/api/hr/forms/${id}/`, { method: 'DELETE' })).status).to.equal(204);
      expect((await call(`/api/hr/forms/${id}/`)).body.status).to.equal('REMOVED');
      expect((await call('/api/hr/forms/?status=REMOVED')).body.count).to.equal(1);
      const actions = (await s.ctx.db('audit_log').where({ entity: 'form', entity_id: id }).orderBy('id')).map((r) => r.action);
      expect(actions).to.deep.equal(['form.create', 'form.status', 'form.status', 'form.remove']);
    });

    it('updates a form in full; the public id stays as made', async () => {
      const id = (await call('/api/hr/forms/')).body.results[1].id;
      const body = everyFieldForm({
        title: 'Volunteers 2027',
        public_id: 'volunteer-sign-up',
        sections: [{ title: 'Only', fields: [{ name: 'q', label: 'Q', field_type: 'short_text' }] }],
      });
      const put = await call(`/api/hr/forms/${id}/`, { method: 'PUT', body });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect(put.body).to.include({ title: 'Volunteers 2027', sections_count: 1 });
      expect(put.body.sections[0].fields.map((f: any) => f.name)).to.deep.equal(['q']);
      const moved = await call(`/api/hr/forms/${id}/`, { method: 'PUT', body: { ...body, public_id: 'other' } });
      expect(moved).to.deep.include({ status: 400, body: { public_id: ['The public id cannot be changed.'] } });
      expect((await call('/api/hr/forms/999999/', { method: 'PUT', body })).status).to.equal(404);
      for (const bad of ['abc', '0', '01', '1.5', '99999999999']) expect((await call(`/api/hr/forms/${bad}/`)).status, bad).to.equal(404);
    });

    it("answers the builder's rules with the spec's messages, and duplicate names with duplicate_field_names", async () => {
      const r = await call('/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({
          sections: [
            {
              title: 'One',
              fields: [
                { name: '', label: '', field_type: 'short_text' },
                { name: 'email', label: 'E', field_type: 'email' },
                { name: 'email', label: 'E2', field_type: 'email' },
              ],
            },
            {
              title: 'Two',
              fields: [
                { name: 'email', label: 'E3', field_type: 'email' },
                { name: 'Bad Name', label: 'X', field_type: 'short_text' },
              ],
            },
          ],
        }),
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.include({
        'sections.0.fields.0.name': ['Field Name is required.'],
        'sections.0.fields.0.label': ['Field Label is required.'],
        'sections.0.fields.2.name': ['Duplicate field name in this section.'],
        'sections.1.fields.0.name': ['Field name already used in section 1.'],
        'sections.1.fields.1.name': ['Use lowercase letters, digits and underscores.'],
      });
      expect(r.body.duplicate_field_names).to.deep.equal([
        { section_index: 0, duplicates: ['email'] },
        { section_index: 1, duplicates: ['email'] },
      ]);
      // Nothing was stored.
      expect(Number((await s.ctx.db('forms').count({ n: '*' }).first())!.n)).to.equal(2);
    });

    it('refuses bad payloads field by field: types, sizes, options, files, API settings', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ title: '' }, 'title', 'This field is required.'],
        [{ title: ['x'] }, 'title', 'Must be text.'],
        [{ title: 'x'.repeat(192) }, 'title', 'Ensure this field has no more than 191 characters.'],
        [{ status: 'OPEN' }, 'status', 'Must be one of ACTIVE, INACTIVE, REMOVED.'],
        [{ public_id: '../etc' }, 'public_id', 'Use 1 to 64 letters, digits, hyphens or underscores.'],
        [{ api_enabled: true, api_url: '' }, 'api_url', 'An API URL is required when API posts are enabled.'],
        [{ api_url: 'javascript:alert(1)' }, 'api_url', 'Enter a valid http or https URL.'],
        [{ api_url: 'http://user:pw@example.com/' }, 'api_url', 'API URL must not contain a user name or password.'],
        [{ api_url: 'http://127.0.0.1:9/hook' }, 'api_url', 'API URL must not point to a private or local address.'],
        [{ api_mapping: ['a'] }, 'api_mapping', 'Must be an object of external keys to field names.'],
        [{ api_mapping: { ext: 'nope' } }, 'api_mapping', 'No field is named nope.'],
        [{ sections: 'x' }, 'sections', 'Must be a list.'],
        [
          { sections: [{ fields: [{ name: 'c', label: 'C', field_type: 'dropdown', options: [' ', ''] }] }] },
          'sections.0.fields.0.options',
          'Add at least one option.',
        ],
        [
          { sections: [{ fields: [{ name: 'c', label: 'C', field_type: 'radio' }] }] },
          'sections.0.fields.0.field_type',
          'Must be one of short_text, long_text, number, email, single_choice, checkbox, dropdown, file.',
        ],
        [
          { sections: [{ fields: [{ name: 'f', label: 'F', field_type: 'file', max_file_size: -1 }] }] },
          'sections.0.fields.0.max_file_size',
          'Enter a size above 0 and at most 50 MB.',
        ],
        [
          { sections: [{ fields: [{ name: 'f', label: 'F', field_type: 'file', allowed_extensions: ['p d f'] }] }] },
          'sections.0.fields.0.allowed_extensions',
          'Use extensions such as pdf, docx or png (letters and digits).',
        ],
      ];
      for (const [patch, key, message] of cases) {
        const r = await call('/api/hr/forms/', { method: 'POST', body: everyFieldForm(patch) });
        expect(r.status, key).to.equal(400);
        expect(r.body[key], `${key}: ${JSON.stringify(r.body)}`).to.deep.equal([message]);
      }
      expect(await call('/api/hr/forms/', { method: 'POST', body: [] })).to.deep.include({ status: 400 });
      // A blank mapping key or field is dropped, not refused.
      const ok = await call('/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({ public_id: 'mapped', api_mapping: { '': 'email', contact: 'email', x: '' } }),
      });
      expect(ok.body.api_mapping).to.deep.equal({ contact: 'email' });
      // HTML is kept as text, never interpreted: the form stores what was typed.
      const html = await call('/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({ public_id: 'html', title: '<script>alert(1)</script>' }),
      });
      expect(html.body.title).to.equal('<script>alert(1)</script>');
    });

    it('shows the public form without its API settings; removed or unknown is the spec 404', async () => {
      const created = await call('/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({
          public_id: 'public-one',
          api_enabled: true,
          api_url: 'https://example.com/hook',
          api_secret: 'a-secret-of-sixteen+',
          api_mapping: { mail: 'email' },
        }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const pub = await fetch(`${s.baseUrl}/api/forms/public-one/`);
      const body = await pub.json();
      expect(pub.status).to.equal(200);
      expect(Object.keys(body).sort()).to.deep.equal([
        'accepting_submissions',
        'description',
        'inactive_notice',
        'public_id',
        'sections',
        'success_message',
        'title',
      ]);
      expect(JSON.stringify(body)).to.not.include('a-secret-of-sixteen');
      await call(`/api/hr/forms/${created.body.id}/`, { method: 'DELETE' });
      for (const path of ['public-one', 'nope', '..%2F..%2Fetc', 'PUBLIC-ONE']) {
        const r = await fetch(`${s.baseUrl}/api/forms/${path}/`);
        expect(r.status, path).to.equal(404);
        expect(await r.json()).to.deep.equal({ detail: 'Form not found or unavailable.' });
      }
    });

    it('refuses every HR call without a token, and writes with only the cookie', async () => {
      for (const [method, path] of [
        ['GET', '/api/hr/forms/'],
        ['POST', '/api/hr/forms/'],
        ['GET', '/api/hr/forms/1/entries/'],
        ['DELETE', '/api/hr/forms/1/'],
      ]) {
        expect((await fetch(`${s.baseUrl}${path}`, { method })).status, `${method} ${path}`).to.equal(401);
      }
      const cookieOnly = await fetch(`${s.baseUrl}/api/hr/forms/`, {
        method: 'POST',
        headers: { Cookie: `jwt=${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(everyFieldForm()),
      });
      expect(cookieOnly.status).to.be.oneOf([401, 403]);
    });
  });
}

/**
 * Submitting a public form over real HTTP on SQLite and MySQL, and reading what it received:
 * the entry with its values and files (types from the bytes, download names with the detected
 * extension, nosniff), every message of spec 02 section 5, hostile bodies answered with a 4xx
 * leaving no row and no file, inactive and removed forms, the honeypot, the entries list, detail,
 * file download and export, and the form's API post reaching a receiver, signed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { createDelivery } from '../../src/posts/index.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { exeBytes, pdfBytes } from '../fixtures/resumes.js';
import { hr } from '../applicants/helpers.js';
import { startReceiver, silent, verifyStandardWebhook, type Receiver } from '../posts/helpers.js';
import { GOOD_VALUES, cvPdf, everyFieldForm, submission } from './helpers.js';

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

for (const kind of databaseKinds()) {
  describe(`form submissions and entries [${kind}]`, function () {
    this.timeout(30_000);
    let s: TestServer;
    let token: string;
    let receiver: Receiver;
    let formId: number;
    const call = (p: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, p, init);
    const submit = async (publicId: string, body: FormData) => {
      const res = await fetch(`${s.baseUrl}/api/forms/${publicId}/submit/`, { method: 'POST', body });
      return { status: res.status, body: await res.json() };
    };
    const counts = async () => ({
      entries: Number((await s.ctx.db('form_entries').count({ n: '*' }).first())!.n),
      files: Number((await s.ctx.db('stored_files').count({ n: '*' }).first())!.n),
      onDisk: filesUnder(path.join(s.testDb.dataDir, 'uploads')).length,
    });

    before(async () => {
      receiver = await startReceiver();
      s = await startTestServer(kind, { FORM_RATE_LIMIT: '0', WEBHOOK_ALLOW_PRIVATE: 'true' });
      ({ token } = await hrSession(s.ctx.db));
      const created = await call('/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({
          public_id: 'volunteer',
          api_enabled: true,
          api_url: receiver.url,
          api_secret: 'form-secret-0123456789',
          api_mapping: { contact: 'email', who: 'full_name', resume: 'cv', shifts: 'days' },
        }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      formId = created.body.id;
    });
    after(async () => {
      await s.close();
      await receiver.close();
    });

    it('stores an entry with its values and file, and answers 201 with the success message', async () => {
      const r = await submit('volunteer', submission(GOOD_VALUES, { cv: cvPdf() }));
      expect(r).to.deep.equal({ status: 201, body: { detail: 'Thank you, we will be in touch.' } });
      const entries = await call(`/api/hr/forms/${formId}/entries/`);
      expect(entries.body.count).to.equal(1);
      const [entry] = entries.body.results;
      expect(entry.data).to.deep.equal({
        full_name: 'Asha Rao',
        email: 'asha@example.com',
        age: 31,
        bio: 'Likes trees.',
        shift: 'Morning',
        days: ['Mon', 'Wed'],
        city: 'Pune',
      });
      expect(entry.preview).to.deep.equal({ full_name: 'Asha Rao', email: 'asha@example.com', age: '31' });
      expect(entry.files).to.have.length(1);
      expect(entry.files[0]).to.include({ field_name: 'cv', name: 'my-cv.pdf' });
      const detail = await call(`/api/hr/forms/${formId}/entries/${entry.id}/`);
      expect(detail.body).to.deep.equal(entry);

      const file = await fetch(`${s.baseUrl}/api/hr/forms/${formId}/entries/${entry.id}/files/${entry.files[0].id}/download/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(file.status).to.equal(200);
      expect(file.headers.get('content-type')).to.equal('application/pdf');
      expect(file.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(file.headers.get('content-disposition')).to.equal('attachment; filename=my-cv.pdf');
      expect(
        Buffer.from(await file.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      // Only HR, and only the file of that entry of that form.
      expect((await fetch(`${s.baseUrl}/api/hr/forms/${formId}/entries/${entry.id}/files/${entry.files[0].id}/download/`)).status).to.equal(
        401,
      );
      for (const p of [
        `${formId + 1}/entries/${entry.id}/files/${entry.files[0].id}`,
        `${formId}/entries/${entry.id + 1}/files/${entry.files[0].id}`,
        `${formId}/entries/${entry.id}/files/999`,
        `${formId}/entries/abc/files/1`,
      ]) {
        expect((await call(`/api/hr/forms/${p}/download/`)).status, p).to.equal(404);
      }
    });

    it('delivers the API post with the mapped values, a file as {name, size, content_type}, signed', async () => {
      const delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: silent });
      try {
        await delivery.worker.runDue();
      } finally {
        await delivery.close();
      }
      expect(receiver.received).to.have.length(1);
      const got = receiver.received[0];
      expect(JSON.parse(got.body)).to.deep.equal({
        contact: 'asha@example.com',
        who: 'Asha Rao',
        resume: { name: 'my-cv.pdf', size: 4000, content_type: 'application/pdf' },
        shifts: ['Mon', 'Wed'],
      });
      expect(verifyStandardWebhook('form-secret-0123456789', got.headers, got.body)).to.equal(true);
      const posts = await call(`/api/hr/forms/${formId}/posts/`);
      expect(posts.body.count).to.equal(1);
      expect(posts.body.results[0]).to.include({ status: 'SUCCESS', status_code: 200, error_message: null });
      expect(Object.keys(posts.body.results[0])).to.include.members([
        'id',
        'entry_id',
        'status',
        'status_code',
        'error_message',
        'created_at',
      ]);
      expect((await call(`/api/hr/forms/${formId}/posts/?status=failed`)).body.count).to.equal(0);
      expect((await call(`/api/hr/forms/${formId}/posts/?status=nope`)).status).to.equal(400);
    });

    it("answers each field's problem with the spec's message, and keeps nothing", async () => {
      const before = await counts();
      const cases: [Record<string, unknown>, Record<string, { data: Buffer; name: string }>, Record<string, string[]>][] = [
        [{ ...GOOD_VALUES, full_name: '' }, { cv: cvPdf() }, { full_name: ['This field is required.'] }],
        [{ ...GOOD_VALUES, shift: undefined }, { cv: cvPdf() }, { shift: ['This field is required.'] }],
        [GOOD_VALUES, {}, { cv: ['File is required.'] }],
        [{ ...GOOD_VALUES, email: 'not-an-email' }, { cv: cvPdf() }, { email: ['Enter a valid email.'] }],
        [{ ...GOOD_VALUES, age: 'thirty' }, { cv: cvPdf() }, { age: ['Enter a number.'] }],
        [{ ...GOOD_VALUES, shift: 'Night' }, { cv: cvPdf() }, { shift: ['Select a valid option.'] }],
        [{ ...GOOD_VALUES, city: ['Pune'] }, { cv: cvPdf() }, { city: ['Select a valid option.'] }],
        [{ ...GOOD_VALUES, days: ['Sun'] }, { cv: cvPdf() }, { days: ['Select valid options.'] }],
        [{ ...GOOD_VALUES, days: 'Mon' }, { cv: cvPdf() }, { days: ['Select valid options.'] }],
        [GOOD_VALUES, { cv: { data: pdfBytes(2000), name: 'cv.txt' } }, { cv: ['File type not allowed.'] }],
        [GOOD_VALUES, { cv: { data: exeBytes(), name: 'cv.pdf' } }, { cv: ['File type not allowed.'] }],
        [{ ...GOOD_VALUES, full_name: { $gt: '' } }, { cv: cvPdf() }, { full_name: ['Must be text.'] }],
        [{ ...GOOD_VALUES, bio: 'x'.repeat(10_001) }, { cv: cvPdf() }, { bio: ['Ensure this field has no more than 10000 characters.'] }],
      ];
      for (const [values, files, errors] of cases) {
        const r = await submit('volunteer', submission(values, files));
        expect(r.status, JSON.stringify(errors)).to.equal(400);
        expect(r.body, JSON.stringify(errors)).to.deep.equal(errors);
      }
      expect(await counts()).to.deep.equal(before);
    });

    it('answers a file over its limit before reading the rest, and hostile bodies with a 4xx, keeping nothing', async () => {
      const before = await counts();
      const big = await submit('volunteer', submission(GOOD_VALUES, { cv: { data: pdfBytes(1024 * 1024 + 10), name: 'big.pdf' } }));
      expect(big).to.deep.equal({ status: 400, body: { cv: ['File too large.'] } });
      const hostile: [FormData, number, unknown][] = [
        [submission({ ...GOOD_VALUES, admin: true }, { cv: cvPdf() }), 400, { detail: 'This form has no field named admin.' }],
        [submission('{not json', { cv: cvPdf() }), 400, { values: ['Send the values as a JSON object.'] }],
        [submission('[1,2]', { cv: cvPdf() }), 400, { values: ['Send the values as a JSON object.'] }],
        [submission(GOOD_VALUES, { cv: cvPdf(), email: cvPdf() }), 400, { detail: 'Only one file can be uploaded, in the field "cv".' }],
      ];
      for (const [body, status, answer] of hostile) {
        const r = await submit('volunteer', body);
        expect(r.status).to.equal(status);
        expect(r.body).to.deep.equal(answer);
      }
      const twice = submission(GOOD_VALUES, { cv: cvPdf() });
      twice.append('cv', new Blob([new Uint8Array(pdfBytes(100))]), 'again.pdf');
      expect(await submit('volunteer', twice)).to.deep.equal({ status: 400, body: { cv: ['Only one cv file can be uploaded.'] } });
      const json = await fetch(`${s.baseUrl}/api/forms/volunteer/submit/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ values: GOOD_VALUES }),
      });
      expect(json.status).to.equal(415);
      expect(await json.json()).to.deep.equal({ detail: 'Send the form as multipart/form-data.' });
      expect(await counts()).to.deep.equal(before);
    });

    it('answers a filled honeypot like a success and keeps nothing', async () => {
      const before = await counts();
      expect((await submit('volunteer', submission(GOOD_VALUES, { cv: cvPdf() }, { website: 'http://spam.example' }))).status).to.equal(
        201,
      );
      expect(await counts()).to.deep.equal(before);
    });

    it("refuses an inactive form with its notice (or the spec's), and a removed one with the 404", async () => {
      await call(`/api/hr/forms/${formId}/`, { method: 'PATCH', body: { status: 'INACTIVE' } });
      expect(await submit('volunteer', submission(GOOD_VALUES, { cv: cvPdf() }))).to.deep.equal({
        status: 400,
        body: { detail: 'This form is not accepting submissions.' },
      });
      const form = (await call(`/api/hr/forms/${formId}/`)).body;
      await call(`/api/hr/forms/${formId}/`, { method: 'PUT', body: { ...form, inactive_notice: 'Back in spring.' } });
      expect(await submit('volunteer', submission(GOOD_VALUES, { cv: cvPdf() }))).to.deep.equal({
        status: 400,
        body: { detail: 'Back in spring.' },
      });
      await call(`/api/hr/forms/${formId}/`, { method: 'DELETE' });
      expect(await submit('volunteer', submission(GOOD_VALUES, { cv: cvPdf() }))).to.deep.equal({
        status: 404,
        body: { detail: 'Form not found or unavailable.' },
      });
      // Entries and files stay with a removed form.
      expect((await call(`/api/hr/forms/${formId}/entries/`)).body.count).to.equal(1);
    });

    it('exports the entries as a workbook, a column per current field in section order', async () => {
      const res = await fetch(`${s.baseUrl}/api/hr/forms/${formId}/entries/export/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="form_${formId}_entries.xlsx"`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
      const sheet = book.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).slice(1)).to.deep.equal([
        'Entry ID',
        'Submitted At (UTC)',
        'Full name',
        'Email',
        'Age',
        'About you',
        'Shift',
        'Days',
        'City',
        'CV',
      ]);
      expect((sheet.getRow(2).values as unknown[]).slice(3)).to.deep.equal([
        'Asha Rao',
        'asha@example.com',
        31,
        'Likes trees.',
        'Morning',
        'Mon, Wed',
        'Pune',
        'my-cv.pdf',
      ]);
      const posts = await fetch(`${s.baseUrl}/api/hr/forms/${formId}/posts/export/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(posts.headers.get('content-disposition')).to.equal(`attachment; filename="form_${formId}_posts_ALL.xlsx"`);
      await posts.arrayBuffer();
    });
  });
}

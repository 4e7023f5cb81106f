/**
 * One application over HTTP on SQLite and MySQL: GET /api/hr/applications/{id}/ (everything the
 * detail page shows), the resume download (bytes, RFC 6266 name, stored type, nosniff, inline
 * only for a PDF, 404 for a file gone missing), PATCH and the bulk status call with their audit
 * entries, and dashboard totals that stay exact in every process after each change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { createAppContext } from '../../src/wiring.js';
import { loadDashboard } from '../../src/applicants/reads.service.js';
import { ReadCache } from '../../src/db/read-cache.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, uploadsRoot, validFields } from '../fixtures/apply.js';
import { docBytes, pdfBytes } from '../fixtures/resumes.js';
import { hr } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`applicant detail, resume and status API [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let userId: number;
    let jobId: number;
    const pdf = pdfBytes(5000);
    const ids: Record<string, number> = {};

    const apply = async (publicId: string, overrides: Record<string, any>) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${publicId}/apply/`, { method: 'POST', body: toFormData(validFields(overrides)) });
      expect(res.status, await res.clone().text()).to.equal(201);
    };

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token, userId } = await hrSession(s.ctx.db));
      const job = await makeJob(s.ctx.db, {
        title: 'Platform Engineer',
        public_id: 'platform-1',
        questions: [
          {
            text: '<p>Why <strong>us</strong>?</p>',
            answer_type: 'short_text',
            required: true,
            order: 0,
            options: [],
            placeholder: '',
            help_text: '',
          },
          { text: 'Tools', answer_type: 'checkbox', required: false, order: 1, options: ['Git', 'Vim'], placeholder: '', help_text: '' },
        ],
      });
      jobId = job.id;
      const answers = (extra = {}) =>
        JSON.stringify([
          { question_id: job.questions[0].id, answer: 'Great team' },
          { question_id: job.questions[1].id, answer: ['Git', 'Vim'] },
          ...[extra].filter((e) => Object.keys(e).length),
        ]);
      await apply('platform-1', { answers: answers(), resume: { data: pdf, filename: 'resume.pdf', type: 'application/pdf' } });
      await apply('platform-1', {
        email: 'second@example.com',
        first_name: 'Ben',
        last_name: 'Okafor',
        answers: answers(),
        resume: { data: docBytes(3000), filename: 'ben.doc', type: 'application/msword' },
      });
      await apply('platform-1', { email: 'third@example.com', first_name: 'Cy', last_name: 'Nguyen', answers: answers() });
      for (const r of await s.ctx.db('applications').select('id', 'email')) ids[r.email] = Number(r.id);
      // A name with quotes, as a hand-written multipart body can send it (FormData escapes them).
      const first = await s.ctx.db('applications').where({ id: ids['asha.rao@example.com'] }).first('resume_file_id');
      await s.ctx.db('stored_files').where({ id: first.resume_file_id }).update({ original_name: 'Résumé "final".pdf' });
    });
    after(() => s.close());

    const get = (p: string) => hr(s.baseUrl, token, p);

    it('answers one application with its job, resume, skills, experience, education and answers', async () => {
      const id = ids['asha.rao@example.com'];
      const { status, body } = await get(`/api/hr/applications/${id}/`);
      expect(status).to.equal(200);
      expect(body).to.deep.include({
        id,
        job_id: jobId,
        job_title: 'Platform Engineer',
        job_public_id: 'platform-1',
        name: "Asha D'Souza-Rao",
        first_name: 'Asha',
        last_name: "D'Souza-Rao",
        email: 'asha.rao@example.com',
        phone: '+919876543210',
        status: 'NEW',
        resume_download_url: `/api/hr/applications/${id}/resume/`,
        resume_view_url: `/api/hr/applications/${id}/resume/?disposition=inline`,
        resume_content_type: 'application/pdf',
        skills: ['TypeScript', 'Node.js'],
      });
      expect(body.resume_filename).to.equal('Asha-D-Souza-Rao-Platform-Engineer.pdf');
      expect(body.professional_experiences).to.deep.equal([
        {
          company: 'Initech',
          role: 'Engineer',
          start: '2019-04',
          end: '2022-08',
          notice_period: '30 days',
          salary: '20 LPA',
          description: 'Built the TPS report service.',
        },
      ]);
      expect(body.education).to.deep.equal([
        { school: 'IIT Bombay', degree: 'B.Tech', field: 'Computer Science', start: '2015-07', end: '2019-05' },
      ]);
      expect(body.answers.map((a: any) => [a.question_text, a.answer])).to.deep.equal([
        ['<p>Why <strong>us</strong>?</p>', 'Great team'],
        ['Tools', ['Git', 'Vim']],
      ]);
      // A DOC is never offered inline.
      const doc = await get(`/api/hr/applications/${ids['second@example.com']}/`);
      expect(doc.body.resume_view_url).to.equal(null);
    });

    it('answers 404 for an unknown application and for an id that is not one (the one id rule)', async () => {
      expect(await get('/api/hr/applications/999999/')).to.deep.include({ status: 404, body: { detail: 'Not found.' } });
      for (const bad of ['abc', '0', '1.5', '-1', '99999999999']) {
        const r = await get(`/api/hr/applications/${bad}/`);
        expect(r.status, bad).to.equal(404);
        expect(r.body).to.deep.equal({ detail: 'Not found.' });
      }
      expect((await get('/api/hr/applications/abc/resume/')).status).to.equal(404);
    });

    it('streams the resume as an attachment with its stored type, nosniff and an RFC 6266 name', async () => {
      const id = ids['asha.rao@example.com'];
      const { res } = await get(`/api/hr/applications/${id}/resume/`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/pdf');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const cd = res.headers.get('content-disposition')!;
      expect(cd).to.equal('attachment; filename=Asha-D-Souza-Rao-Platform-Engineer.pdf');
      expect(cd).to.not.match(/[\r\n]/);
      const again = await fetch(`${s.baseUrl}/api/hr/applications/${id}/resume/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(Buffer.from(await again.arrayBuffer()).equals(pdf)).to.equal(true);
      const inline = await fetch(`${s.baseUrl}/api/hr/applications/${id}/resume/?disposition=inline`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(inline.headers.get('content-disposition')).to.match(/^inline; /);
      const docInline = await fetch(`${s.baseUrl}/api/hr/applications/${ids['second@example.com']}/resume/?disposition=inline`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(docInline.headers.get('content-type')).to.equal('application/msword');
      expect(docInline.headers.get('content-disposition')).to.equal('attachment; filename=Ben-Okafor-Platform-Engineer.doc');
      await docInline.arrayBuffer();
      // The jwt cookie is enough for a GET, so the page's plain link works without JavaScript.
      const byCookie = await fetch(`${s.baseUrl}/api/hr/applications/${id}/resume/`, { headers: { Cookie: `jwt=${token}` } });
      expect(byCookie.status).to.equal(200);
      await byCookie.arrayBuffer();
      expect((await fetch(`${s.baseUrl}/api/hr/applications/${id}/resume/`)).status).to.equal(401);
    });

    it('answers 404 (never a 500) for a resume whose file went missing, or an application without one', async () => {
      const id = ids['second@example.com'];
      const row = await s.ctx
        .db('applications as a')
        .join('stored_files as f', 'f.id', 'a.resume_file_id')
        .where('a.id', id)
        .first('f.storage_key');
      const file = path.join(uploadsRoot(s.ctx), row.storage_key);
      const saved = fs.readFileSync(file);
      fs.rmSync(file);
      try {
        expect(await get(`/api/hr/applications/${id}/resume/`)).to.deep.include({ status: 404, body: { detail: 'Resume not found.' } });
      } finally {
        fs.writeFileSync(file, saved);
      }
      await s.ctx.db('applications').where({ id: ids['third@example.com'] }).update({ resume_file_id: null });
      expect((await get(`/api/hr/applications/${ids['third@example.com']}/resume/`)).status).to.equal(404);
      expect((await get(`/api/hr/applications/${ids['third@example.com']}/`)).body.resume_download_url).to.equal(null);
      expect((await get('/api/hr/applications/999999/resume/')).status).to.equal(404);
    });

    it('changes a status with PATCH, audited, and the dashboard of another process sees it at once', async () => {
      // A second app on the same database, as another process behind a load balancer would be.
      const other = createAppContext(s.testDb.config, { db: s.ctx.db, cache: new ReadCache(0) });
      createApp(other);
      const before = await loadDashboard(other);
      expect(before.new_applicants).to.equal(3);
      const id = ids['asha.rao@example.com'];
      const r = await hr(s.baseUrl, token, `/api/hr/applications/${id}/`, { method: 'PATCH', body: { status: 'REVIEWED' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id, status: 'REVIEWED' });
      expect((await loadDashboard(other)).new_applicants).to.equal(2);
      expect((await get('/api/hr/dashboard/')).body.new_applicants).to.equal(2);
      const audit = await s.ctx.db('audit_log').where({ entity: 'application', entity_id: id });
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ action: 'status', user_id: userId });
      expect(JSON.parse(audit[0].details)).to.deep.equal({ from: 'NEW', to: 'REVIEWED' });
      // The same status again changes nothing and writes no entry.
      await hr(s.baseUrl, token, `/api/hr/applications/${id}/`, { method: 'PATCH', body: { status: 'REVIEWED' } });
      expect(await s.ctx.db('audit_log').where({ entity: 'application', entity_id: id })).to.have.length(1);
    });

    it('refuses an unknown status, a missing body and a cookie without the Bearer header', async () => {
      const id = ids['asha.rao@example.com'];
      for (const body of [{ status: 'HIRED' }, { status: 'reviewed' }, {}, { status: ['NEW'] }]) {
        const r = await hr(s.baseUrl, token, `/api/hr/applications/${id}/`, { method: 'PATCH', body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body).to.deep.equal({ status: ['Select a valid status: NEW, REVIEWED or ARCHIVED.'] });
      }
      expect((await hr(s.baseUrl, token, '/api/hr/applications/999999/', { method: 'PATCH', body: { status: 'NEW' } })).status).to.equal(
        404,
      );
      const cookieOnly = await fetch(`${s.baseUrl}/api/hr/applications/${id}/`, {
        method: 'PATCH',
        headers: { Cookie: `jwt=${token}`, 'Content-Type': 'application/json' },
        body: '{"status":"ARCHIVED"}',
      });
      expect(cookieOnly.status).to.equal(401);
      expect((await get(`/api/hr/applications/${id}/`)).body.status).to.equal('REVIEWED');
    });

    it('changes several statuses at once with the bulk call, one audit entry each', async () => {
      const all = Object.values(ids);
      const r = await hr(s.baseUrl, token, '/api/hr/applications/bulk-status/', {
        method: 'POST',
        body: { ids: [...all, 999999], status: 'ARCHIVED' },
      });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.include({ status: 'ARCHIVED', updated: 3, not_found: [999999] });
      expect(r.body.updated_ids).to.have.members(all);
      expect((await get('/api/hr/applications/?status=ARCHIVED')).body.count).to.equal(3);
      expect((await get('/api/hr/dashboard/')).body.new_applicants).to.equal(0);
      expect(await s.ctx.db('audit_log').where({ entity: 'application', action: 'status' })).to.have.length(4);
      const bad: [unknown, string, string][] = [
        [{ ids: [], status: 'NEW' }, 'ids', 'Select between 1 and 500 applications.'],
        [{ ids: 'all', status: 'NEW' }, 'ids', 'Select between 1 and 500 applications.'],
        [{ ids: ['x'], status: 'NEW' }, 'ids', 'A valid id is required.'],
        [{ ids: Array.from({ length: 501 }, (_, i) => i + 1), status: 'NEW' }, 'ids', 'Select between 1 and 500 applications.'],
        [{ ids: [1], status: 'DONE' }, 'status', 'Select a valid status: NEW, REVIEWED or ARCHIVED.'],
      ];
      for (const [body, field, message] of bad) {
        const res = await hr(s.baseUrl, token, '/api/hr/applications/bulk-status/', { method: 'POST', body });
        expect(res.status, JSON.stringify(body).slice(0, 60)).to.equal(400);
        expect(res.body[field]).to.deep.equal([message]);
      }
    });
  });
}

/**
 * Fast review (issue 20) over HTTP on SQLite and MySQL: the applicants list's orders (each column
 * both ways, ties broken by id, pages that neither repeat nor skip, previous/next and the Export
 * in the same order, an unknown order refused) and the resume's text preview
 * (GET /api/hr/applications/{id}/resume/preview/) for a real DOCX and DOC, refused with a clear 422
 * for a PDF, a corrupt DOCX and zip bombs, 404 without a resume, 401 without HR.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { DOC_SAMPLE_PATH, DOC_SAMPLE_TEXT, bombDocxBytes, textDocxBytes, textPdfBytes, zipBytes } from '../fixtures/resumes.js';
import { day, hr } from './helpers.js';
import type { Job } from '../../src/jobs/types.js';

const NO_PREVIEW = 'No preview for this file; download it.';

/** People of one job; two share a surname and two a moment, so ties show the id order. */
const PEOPLE = [
  { first_name: 'Carla', last_name: 'Evans', email: 'carla@sort.example', status: 'NEW' as const, created_at: day('2026-03-01') },
  { first_name: 'Adam', last_name: 'Evans', email: 'adam@sort.example', status: 'ARCHIVED' as const, created_at: day('2026-03-02') },
  { first_name: 'Bea', last_name: 'Young', email: 'bea@sort.example', status: 'REVIEWED' as const, created_at: day('2026-03-02') },
  { first_name: 'Dan', last_name: 'Archer', email: 'dan@sort.example', status: 'NEW' as const, created_at: day('2026-03-04') },
  { first_name: 'Eve', last_name: 'Moss', email: 'eve@sort.example', status: 'REVIEWED' as const, created_at: day('2026-03-05') },
];

for (const kind of databaseKinds()) {
  describe(`fast review: list orders and resume preview [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let job: Job;
    const ids: Record<string, number> = {};

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      job = await makeJob(s.ctx.db, { title: 'Sort Tester', public_id: 'sort-1' });
      await insertApplications(
        s.ctx.db,
        job.id,
        PEOPLE.map((p) => ({ ...p, phone: '+14155550100', resume_name: null })),
        [],
      );
      for (const r of await s.ctx.db('applications').select('id', 'email')) ids[r.email] = Number(r.id);
    });
    after(() => s.close());

    const get = (p: string) => hr(s.baseUrl, token, p);
    /** An HR page, signed in with the cookie the login page leaves. */
    const page = (p: string) => fetch(`${s.baseUrl}${p}`, { headers: { Cookie: `jwt=${token}` } });
    const names = async (query: string) => {
      const { status, body } = await get(`/api/hr/applications/?job_id=${job.id}&${query}`);
      expect(status, JSON.stringify(body)).to.equal(200);
      return body.results.map((r: { name: string }) => r.name.split(' ')[0]);
    };

    it('sorts by each column both ways, ties in id order, the default unchanged', async () => {
      // Adam and Bea applied at the same moment: by id (Adam first) ascending, reversed descending.
      expect(await names('')).to.deep.equal(['Eve', 'Dan', 'Bea', 'Adam', 'Carla']);
      expect(await names('ordering=-created_at')).to.deep.equal(['Eve', 'Dan', 'Bea', 'Adam', 'Carla']);
      expect(await names('ordering=created_at')).to.deep.equal(['Carla', 'Adam', 'Bea', 'Dan', 'Eve']);
      expect(await names('ordering=name')).to.deep.equal(['Dan', 'Adam', 'Carla', 'Eve', 'Bea']);
      expect(await names('ordering=-name')).to.deep.equal(['Bea', 'Eve', 'Carla', 'Adam', 'Dan']);
      expect(await names('ordering=email')).to.deep.equal(['Adam', 'Bea', 'Carla', 'Dan', 'Eve']);
      expect(await names('ordering=-email')).to.deep.equal(['Eve', 'Dan', 'Carla', 'Bea', 'Adam']);
      // By status (A to Z), then oldest first within one.
      expect(await names('ordering=status')).to.deep.equal(['Adam', 'Carla', 'Dan', 'Bea', 'Eve']);
      expect(await names('ordering=-status')).to.deep.equal(['Eve', 'Bea', 'Dan', 'Carla', 'Adam']);
    });

    it('pages through a sorted list without repeating or skipping anyone', async () => {
      for (const ordering of ['name', '-status', 'created_at', '-email']) {
        const all = await names(`ordering=${ordering}`);
        const paged: string[] = [];
        for (let page = 1; page <= 3; page++) paged.push(...(await names(`ordering=${ordering}&page_size=2&page=${page}`)));
        expect(paged, ordering).to.deep.equal(all);
      }
      const { body } = await get(`/api/hr/applications/?job_id=${job.id}&ordering=name&page_size=2`);
      expect(body.next).to.contain('ordering=name').and.contain('page=2');
    });

    it('keeps the order in the detail page previous/next and in the Export', async () => {
      const html = await (await page(`/hr/applicants/${ids['carla@sort.example']}?job_id=${job.id}&ordering=name`)).text();
      // Name order: Dan Archer, Adam Evans, Carla Evans, Eve Moss, Bea Young.
      expect(html).to.contain(`href="/hr/applicants/${ids['adam@sort.example']}?job_id=${job.id}&amp;ordering=name" rel="prev"`);
      expect(html).to.contain(`href="/hr/applicants/${ids['eve@sort.example']}?job_id=${job.id}&amp;ordering=name" rel="next"`);
      const res = await fetch(`${s.baseUrl}/api/hr/applications/export/?job_id=${job.id}&ordering=-name`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
      const firstNames: string[] = [];
      book.worksheets[0].eachRow((row, n) => n > 1 && firstNames.push(String(row.getCell(2).value)));
      expect(firstNames).to.deep.equal(['Bea', 'Eve', 'Carla', 'Adam', 'Dan']);
    });

    it('refuses an unknown order with a clear 400, on the API and the page', async () => {
      for (const bad of ['salary', 'name,-email', '--name', 'NAME', "name'; DROP TABLE applications;--"]) {
        const { status, body } = await get(`/api/hr/applications/?ordering=${encodeURIComponent(bad)}`);
        expect(status, bad).to.equal(400);
        expect(body.ordering, bad).to.deep.equal([
          'Ordering must be one of created_at, -created_at, name, -name, email, -email, status, -status.',
        ]);
      }
      const { status } = await get('/api/hr/applications/?ordering=name&ordering=email');
      expect(status).to.equal(400);
      const refused = await page('/hr/applicants?ordering=salary');
      expect(refused.status).to.equal(400);
      expect(await refused.text()).to.contain('Ordering must be one of');
    });

    describe('resume preview', () => {
      const applied: Record<string, number> = {};
      const apply = async (email: string, resume: { data: Buffer; filename: string; type: string } | undefined) => {
        const res = await fetch(`${s.baseUrl}/api/jobs/sort-1/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, resume })),
        });
        expect(res.status, await res.clone().text()).to.equal(201);
        const row = await s.ctx.db('applications').where({ email }).first('id');
        applied[email] = Number(row.id);
      };
      const docx = (data: Buffer) => ({
        data,
        filename: 'cv.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      });

      before(async () => {
        await apply('docx@review.example', docx(textDocxBytes(['Priya Sharma', 'Payroll compliance <b>lead</b> & mentor'])));
        await apply('doc@review.example', { data: fs.readFileSync(DOC_SAMPLE_PATH), filename: 'cv.doc', type: 'application/msword' });
        await apply('pdf@review.example', { data: textPdfBytes(['Priya Sharma']), filename: 'cv.pdf', type: 'application/pdf' });
        // Passes the upload's check (a ZIP listing word/document.xml) but is no Word document.
        await apply(
          'corrupt@review.example',
          docx(zipBytes({ '[Content_Types].xml': 'not xml', 'word/document.xml': '<<<not a document' })),
        );
        await apply('bomb@review.example', docx(bombDocxBytes(40 * 1024 * 1024)));
        await apply('liar@review.example', docx(bombDocxBytes(40 * 1024 * 1024, 1024)));
        await apply('long@review.example', docx(textDocxBytes(Array.from({ length: 110 }, (_, i) => `Line ${i} `.padEnd(1000, 'x')))));
      });

      const preview = (email: string) => get(`/api/hr/applications/${applied[email]}/resume/preview/`);

      it('answers the text of a DOCX and of a DOC', async () => {
        const a = await preview('docx@review.example');
        expect(a.status).to.equal(200);
        expect(a.body).to.deep.equal({ text: 'Priya Sharma\n\nPayroll compliance <b>lead</b> & mentor', truncated: false });
        const b = await preview('doc@review.example');
        expect(b.status).to.equal(200);
        expect(b.body.text).to.contain(DOC_SAMPLE_TEXT);
        expect(b.body.truncated).to.equal(false);
      });

      it('cuts a long text at 100,000 characters and says so', async () => {
        const { status, body } = await preview('long@review.example');
        expect(status).to.equal(200);
        expect(body.truncated).to.equal(true);
        expect([...body.text].length).to.equal(100_000);
      });

      it('says to download a PDF, a corrupt DOCX and zip bombs (never a 500)', async () => {
        for (const email of ['pdf@review.example', 'corrupt@review.example', 'bomb@review.example', 'liar@review.example']) {
          const { status, body } = await preview(email);
          expect(status, email).to.equal(422);
          expect(body, email).to.deep.equal({ detail: NO_PREVIEW });
        }
      });

      it('is 404 without a resume or an application, 401 without HR', async () => {
        const noResume = await get(`/api/hr/applications/${ids['carla@sort.example']}/resume/preview/`);
        expect(noResume.status).to.equal(404);
        expect(noResume.body).to.deep.equal({ detail: 'Resume not found.' });
        expect((await get('/api/hr/applications/99999999/resume/preview/')).status).to.equal(404);
        expect((await get('/api/hr/applications/abc/resume/preview/')).status).to.equal(404);
        const anonymous = await fetch(`${s.baseUrl}/api/hr/applications/${applied['docx@review.example']}/resume/preview/`);
        expect(anonymous.status).to.equal(401);
        const expired = await hr(s.baseUrl, 'not-a-token', `/api/hr/applications/${applied['docx@review.example']}/resume/preview/`);
        expect(expired.status).to.equal(401);
      });

      it('keeps the resume itself a download, and lets only the PDF detail page frame blob: URLs', async () => {
        const res = await fetch(`${s.baseUrl}/api/hr/applications/${applied['pdf@review.example']}/resume/`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.headers.get('content-disposition')).to.match(/^attachment;/);
        const pdfPage = await page(`/hr/applicants/${applied['pdf@review.example']}`);
        expect(pdfPage.headers.get('content-security-policy')).to.contain('frame-src blob:').and.contain("object-src 'none'");
        const docPage = await page(`/hr/applicants/${applied['docx@review.example']}`);
        expect(docPage.headers.get('content-security-policy')).not.to.contain('blob:');
        const list = await page('/hr/applicants');
        expect(list.headers.get('content-security-policy')).not.to.contain('blob:');
      });
    });
  });
}
